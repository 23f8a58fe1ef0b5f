"""A document's DOI and arXiv identifier, as its text or metadata writes them.

A DOI is "10.<registrant>/<suffix>", where the suffix may hold almost any character, so a match runs
to the next space and loses the sentence punctuation and unmatched closing brackets that prose puts
after it ("(doi:10.1145/3544548.3580847)."). DOIs are case-insensitive: they are kept lower-cased so
that two spellings compare equal.

An arXiv identifier is only taken where the text says it is one ("arXiv:2101.01234v2",
"arxiv.org/abs/hep-th/9901001"): a bare "2101.01234" could be any number. The side stamp arXiv
prints in the margin of page 1 is extracted reversed by some PDF readers ("4202 tcO 22 ]LC.sc[
1v43210.1012:viXra"), so it is read both ways.
"""

from __future__ import annotations

import re

DOI = re.compile(r"\b(10\.\d{4,9}/\S+)", re.IGNORECASE)
# Characters prose puts right after a DOI; a DOI may end in a bracket only when it opened one.
_TRAILING = ".,;:!?'\"”’>"
_PAIRS = {")": "(", "]": "[", "}": "{"}

_NEW_ARXIV = r"\d{4}\.\d{4,5}(?:v\d+)?"
_OLD_ARXIV = r"[a-z]+(?:-[a-z]+)*(?:\.[A-Z]{2})?/\d{7}(?:v\d+)?"
_BARE_ARXIV = re.compile(rf"^(?:arXiv\s*:\s*)?({_NEW_ARXIV}|{_OLD_ARXIV})$", re.IGNORECASE)
ARXIV = re.compile(rf"(?:\barXiv\s*:\s*|arxiv\.org/(?:abs|pdf)/)({_NEW_ARXIV}|{_OLD_ARXIV})(?![\d/])", re.IGNORECASE)


def normalise_doi(raw: str) -> str | None:
    """The DOI in ``raw`` ("doi:", "https://doi.org/" prefixes and trailing punctuation dropped),
    lower-cased; None when there is none."""
    match = DOI.search(raw)
    if match is None:
        return None
    doi = match.group(1)
    while doi:
        last = doi[-1]
        if last in _TRAILING:
            doi = doi[:-1]
        elif last in _PAIRS and doi.count(last) > doi.count(_PAIRS[last]):
            doi = doi[:-1]
        else:
            break
    # "10.1234/" alone is a prefix, not a DOI.
    return doi.lower() if "/" in doi and not doi.endswith("/") else None


def find_doi(texts: list[str]) -> str | None:
    """The first DOI in ``texts``, in order."""
    for text in texts:
        if doi := normalise_doi(text):
            return doi
    return None


def normalise_arxiv_id(raw: str) -> str | None:
    """The arXiv id a field declares, bare ("2101.01234") or marked ("arXiv:2101.01234", a URL)."""
    raw = raw.strip()
    match = _BARE_ARXIV.match(raw)
    return match.group(1) if match else find_arxiv_id([raw])


def find_arxiv_id(texts: list[str]) -> str | None:
    """The first arXiv identifier that ``texts`` mark as one (text read forwards, then reversed)."""
    for text in texts:
        for candidate in (text, text[::-1]):
            match = ARXIV.search(candidate)
            if match:
                return match.group(1)
    return None
