"""The kind of work a document is, for the bibliography's entry types: the type an import or an edit
gave (``Bibliography.entry_type``), else told from the venue's name by general rules.

The rules, in order: "Published as a conference paper at X" (or "Accepted at X") is a paper at X;
proceedings, conferences, symposia and workshops hold papers; a thesis and a report name themselves;
journals are named by "Journal", "Transactions", "Letters", ... or by a name that is none of the
others ("Physics of the Dark Universe"); a preprint server, a publisher or an organisation ("Riverton
Council") is where something appeared, not a journal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from corpus.models import Bibliography, WorkType

_PUBLISHED_AT = re.compile(
    r"^(?:published|accepted|presented|to appear)\s+(?:as\s+an?\s+(?P<as>conference|workshop|journal)\s+"
    r"(?:paper|article)\s+)?(?:at|in|to|for)\s+(?:the\s+)?",
    re.IGNORECASE,
)
_PROCEEDINGS = re.compile(r"\b(proceedings|proc\.|conference|symposium|workshop|congress|colloquium)\b", re.IGNORECASE)
_THESIS = re.compile(r"\b(thesis|dissertation)\b", re.IGNORECASE)
_MASTERS = re.compile(r"\b(master'?s?|m\.?\s?(?:sc|a|s|phil)\.?)\b", re.IGNORECASE)
_REPORT = re.compile(r"\b(report|tech\.\s*rep\.?|white\s*paper|working\s*paper|memorandum)\b", re.IGNORECASE)
_JOURNAL = re.compile(r"\b(journal|transactions|annals|bulletin|letters|review|quarterly|magazine)\b", re.IGNORECASE)
_PREPRINT = re.compile(
    r"\b(arxiv|biorxiv|medrxiv|chemrxiv|psyarxiv|socarxiv|engrxiv|eartharxiv|techrxiv|ssrn|research\s+square|"
    r"preprints?|osf)\b",
    re.IGNORECASE,
)
# Names of publishers and organisations, and of places on the web: where something appeared, not a journal.
_PUBLISHER = re.compile(
    r"\b(press|publishers?|publishing|publications|council|city|county|municipality|university|institute|"
    r"agency|ministry|department|government|office|authority|commission|ltd|inc|llc|gmbh|company|corporation|"
    r"foundation|association|organi[sz]ation|committee|bank|group|cent(?:re|er)|society|blog|news|newsletter|"
    r"website|github|zenodo|documentation|team|lab|laborator(?:y|ies))\b",
    re.IGNORECASE,
)
_ORDINAL = re.compile(r"\b(\d+)\s+(st|nd|rd|th)\b")


@dataclass(frozen=True)
class Venue:
    kind: WorkType
    name: str | None  # the venue as the entry names it (a thesis's school, a report's institution)


def tidy(text: str) -> str:
    """Spacing a PDF's superscripts leave: "41 st" -> "41st"."""
    return _ORDINAL.sub(r"\1\2", " ".join(text.split()))


def venue_of(bib: Bibliography) -> Venue:
    """The kind of work ``bib`` describes and the venue's name as its entry gives it."""
    name = tidy(bib.venue) if bib.venue else None
    if bib.entry_type:
        return Venue(WorkType(bib.entry_type), name and (_PUBLISHED_AT.sub("", name) or name))
    if not name:
        return Venue(WorkType.MISC, None)
    kind = _kind(name)
    if kind in (WorkType.PHDTHESIS, WorkType.MASTERSTHESIS, WorkType.TECHREPORT):
        # "PhD thesis, University of Oslo": the school (the institution) is the part that is not the kind.
        said = _THESIS if kind is not WorkType.TECHREPORT else _REPORT
        rest = [p.strip() for p in name.split(",") if p.strip() and not said.search(p)]
        return Venue(kind, ", ".join(rest) or name)
    return Venue(kind, _PUBLISHED_AT.sub("", name) or name)


def _kind(name: str) -> WorkType:
    if found := _PUBLISHED_AT.match(name):
        rest = name[found.end() :]
        return WorkType.ARTICLE if found.group("as") == "journal" or _JOURNAL.search(rest) else WorkType.INPROCEEDINGS
    if _PROCEEDINGS.search(name):
        return WorkType.INPROCEEDINGS
    if _THESIS.search(name):
        return WorkType.MASTERSTHESIS if _MASTERS.search(name) else WorkType.PHDTHESIS
    if _REPORT.search(name):
        return WorkType.TECHREPORT
    if _JOURNAL.search(name):
        return WorkType.ARTICLE
    if _PREPRINT.search(name) or _PUBLISHER.search(name) or not any(ch.isupper() for ch in name):
        return WorkType.MISC
    return WorkType.ARTICLE
