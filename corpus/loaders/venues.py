"""Where a document was published, as its first page states it.

Papers name their venue in a few stock forms: a proceedings line ("Proceedings of the 58th Annual
Meeting of the ACL, pages 4969–4983"; "In Proceedings of the 2023 CHI Conference on ... (CHI '23)"),
a journal's running header that names the publication and then its volume, pages or year ("Urban
Hydrology - Vol. 11, No. 3 (2019), pp. 214-229"), or a "Journal of ..." / "Transactions on ..."
name ("Review of" is not taken: "A Review of ..." is how many titles begin). The venue is the name
alone: page ranges, volumes and dates are cut off.
"""

from __future__ import annotations

import re

_END = r"(?=\s*(?:[,;(]|\.(?:\s|$)|\s[-–—|]\s|$))"
_PROCEEDINGS = re.compile(rf"\b(Proceedings of (?:the )?[A-Z0-9][^,;()|]*?){_END}")
_NAMED = re.compile(
    # At most six words before "Journal": an unbounded run would make the search quadratic in the text.
    rf"\b((?:[A-Z][\w&’'-]*\s+){{0,6}}(?:Journal|Transactions|Annals|Bulletin) (?:of|on) [A-Z][^,;()|\d]*?){_END}"
)
# "<Name> - Vol. 8 (2022), pp. 45-58", "<Name>, Volume 3", "<Name> - TN-14 (2024)": a header line.
_HEADER = re.compile(
    r"^(?P<name>[A-Z][^\d,;:()|]{3,90}?)\s*(?:[-–—|,]\s*)"
    r"(?:Vol(?:ume)?\.?\s*\d|No\.\s*\d|pp\.\s*\d|[^()]{0,30}\((?:19|20)\d\d\))"
)
MAX_HEADER_CHARS = 140


def _clean(name: str) -> str:
    return " ".join(name.split()).strip(" -–—.")


def find_venue(texts: list[str]) -> str | None:
    """The venue named in ``texts`` (tried in order), or None."""
    for text in texts:
        text = " ".join(text.split())
        for pattern in (_PROCEEDINGS, _NAMED):
            match = pattern.search(text)
            if match:
                return _clean(match.group(1))
        match = _HEADER.match(text) if len(text) <= MAX_HEADER_CHARS else None
        if match and len(match.group("name").split()) >= 2:
            return _clean(match.group("name"))
    return None
