"""The document's title (from the PDF's metadata, or the largest type on page 1) and year.

Neither source is trusted blindly. Word processors and company templates fill the metadata title
with a file name, a placeholder or the company's name, and a handbook's page 1 often shows the
company's name or logo text larger than its title. So the metadata title counts unless it is junk
(a file name, "Microsoft Word - x.docx"), the author's name, or the text of a running header or
footer (which names a publisher or company) that page 1 does not also show as its title; and the
visual title is page 1's largest text that is not repeated on most pages.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from datetime import date
from difflib import SequenceMatcher

from corpus.loaders.authors import is_organisation_name, is_person_name
from corpus.loaders.pdf.doc_stats import DocStats
from corpus.loaders.pdf.elements import WORD_GAP_RATIO, Line, PageData
from corpus.loaders.pdf.headers_footers import text_key
from corpus.loaders.pdf.headings import KNOWN_HEADINGS, NUMBERED_HEADING
from corpus.loaders.titles import is_capitals
from corpus.models import TitleSource

ARXIV_STAMP = re.compile(r"arXiv:\S+\s*\[[^\]]*\]\s*(\d{1,2})\s*([A-Za-z]{3})\w*\s*((?:19|20)\d\d)")
YEAR = re.compile(r"(?<!\d)(19[5-9]\d|20[0-9]\d)(?!\d)")
JUNK_TITLE = re.compile(
    r"^(?:untitled|title|document|paper|main|manuscript|article|draft|slides|template|microsoft word\b.*|"
    r"arxiv:.*|doi:.*|https?:.*|.*\.(?:pdf|docx?|tex|dvi|ps|indd|rtf|odt|pptx?))$",
    re.IGNORECASE,
)


# ---------------------------------------------------------------------------------------------
# Title and year


@dataclass(frozen=True)
class VisualTitle:
    """The title block of page 1: the lines that name the document (``main``), and above them, when
    the largest type on the page is an organisation's or a series' name and the next largest names
    the document, that name (``lead``): "<Employer>" over "<Plan name> Plan"."""

    line_ids: frozenset[int]
    main: str
    lead: str | None = None

    @property
    def text(self) -> str:
        return f"{self.lead} — {self.main}" if self.lead else self.main


def document_title(meta: dict, visual: VisualTitle | None, running: set[str]) -> tuple[str | None, TitleSource]:
    """The title and where it came from (the PDF's metadata or its title page).

    The metadata's /Title counts when page 1 does not contradict it: it is dropped when it is a
    running header's text (a company's name) that page 1 does not set as its title; where page 1
    shows a title that says something else, page 1 wins (templates leave another document's /Title
    behind), and where one holds the other (a /Title with the journal's name or a report number
    added, or without the printed lead-in) the printed one wins. The metadata is kept where page 1's
    largest type is only an organisation's or a journal's name."""
    title = metadata_title(meta)
    if visual is None:
        return _unprinted_title(title, running)
    if not title:
        return visual.text, TitleSource.TITLE_PAGE
    return _weighed_title(title, visual, running)


def _unprinted_title(title: str | None, running: set[str]) -> tuple[str | None, TitleSource]:
    """With no title printed on page 1: the metadata's, unless it is a running header's text."""
    if title and text_key(title) in running:
        return None, TitleSource.TITLE_PAGE
    return (title, TitleSource.PDF_METADATA) if title else (None, TitleSource.TITLE_PAGE)


def _weighed_title(title: str, visual: VisualTitle, running: set[str]) -> tuple[str, TitleSource]:
    """The metadata's /Title against the title printed on page 1 (see ``document_title``)."""
    if _loose(title) in {_loose(visual.text), _loose(visual.main)}:
        # The same words: as printed, unless printed in capitals.
        return (title, TitleSource.PDF_METADATA) if is_capitals(visual.text) else (visual.text, TitleSource.TITLE_PAGE)
    held = _loose(visual.main) in _loose(title) or _loose(title) in _loose(visual.main)
    if not held and SequenceMatcher(None, _loose(title), _loose(visual.main)).ratio() >= SAME_TITLE_RATIO:
        return title, TitleSource.PDF_METADATA  # a symbol the page's fonts lost ("f( )" for "f(R)")
    if visual.lead is None and _only_an_organisation(visual.main) and text_key(title) not in running:
        return title, TitleSource.PDF_METADATA
    return visual.text, TitleSource.TITLE_PAGE


# Titles this alike (by their letters and digits) are one title, one of them missing a symbol.
SAME_TITLE_RATIO = 0.9


def _loose(text: str) -> str:
    """Text compared by its letters and digits only ("F²-NeRF" = "F2 NeRF")."""
    return "".join(ch for ch in unicodedata.normalize("NFKC", text).casefold() if ch.isalnum())


def find_title(pages: list[PageData], doc: DocStats, running: set[str]) -> VisualTitle | None:
    """The title on page 1: the first run of lines in its largest font (in the top half, clearly
    larger than body text, or in capitals a little larger, not repeated on most pages). When that
    run is an organisation's or a series' name (its words say so, or a running header holds it)
    and the next run below it is set larger than the body text (however much smaller than the
    organisation's name: a logo's type says nothing of it), that run names the document and the first
    leads it: documents of one publisher are never all titled by its name."""
    if not pages:
        return None
    p = pages[0]
    repeated = _repeated_texts(pages)
    candidates = [ln for ln in _title_candidates(p) if text_key(ln.text) not in repeated]
    if not candidates:
        return None
    biggest = max(ln.size for ln in candidates)
    run = _first_run(p.lines, {id(ln) for ln in candidates}, biggest)
    text = _run_text(run)
    if not _large_enough(biggest, text, doc.body_size) or not _reads_as_title(text):
        return None
    ids = frozenset(id(ln) for ln in run)
    if _names_an_organisation(text, running):
        named = _named_under_organisation(p, candidates, run, text, doc.body_size)
        if named is not None:
            return named
    return VisualTitle(ids, text)


def _large_enough(size: float, text: str, body_size: float) -> bool:
    """Clearly larger than body text, or in capitals a little larger."""
    return size >= body_size + 1.5 or (size >= body_size + 0.5 and is_capitals(text))


def _named_under_organisation(
    p: PageData, candidates: list[Line], run: list[Line], text: str, body_size: float
) -> VisualTitle | None:
    """The document's name in the next run below an organisation's or a series' name (``run``), set
    larger than the body text and read as a title, not as people's names; the name leads it."""
    ids = frozenset(id(ln) for ln in run)
    below = [ln for ln in candidates if ln.top > run[-1].bottom and id(ln) not in ids]
    second = max((ln.size for ln in below), default=0.0)
    if second < body_size + 1.5:
        return None
    follow = _first_run(p.lines, {id(ln) for ln in below}, second)
    main = _run_text(follow)
    if not _reads_as_title(main) or _names_an_organisation(main, set()) or _names_people(main):
        return None
    # A journal's masthead leads nothing: the paper under it is named alone.
    lead = None if _PERIODICAL.search(text) else text
    return VisualTitle(ids | {id(ln) for ln in follow}, main, lead=lead)


_PERIODICAL = re.compile(r"\b(?:journal|magazine|transactions|proceedings|bulletin|letters|review)\b", re.IGNORECASE)


def _names_people(text: str) -> bool:
    """An author line: names joined by commas or "and", or one short name ("Jane Q. Doe")."""
    parts = [p for p in re.split(r",|\band\b|&", text) if p.strip()]
    if len(parts) == 1:
        return len(text.split()) <= 3 and is_person_name(text.strip())
    return all(is_person_name(p.strip()) for p in parts)


def _reads_as_title(text: str) -> bool:
    return bool(text) and not (
        NUMBERED_HEADING.match(text) or text.lower().rstrip(":.") in KNOWN_HEADINGS or len(text) > 300
    )


def _names_an_organisation(text: str, running: set[str]) -> bool:
    key = text_key(text)
    return _only_an_organisation(text) or any(key in r and key != r for r in running)


def _only_an_organisation(text: str) -> bool:
    """A short name of an organisation or a periodical, not a title that mentions one."""
    return len(text.split()) <= MAX_ORGANISATION_WORDS and is_organisation_name(text)


MAX_ORGANISATION_WORDS = 6


def _run_text(run: list[Line]) -> str:
    """The run's text on one line, a raised figure glued to its word ("F 2 -NeRF" -> "F2-NeRF")."""
    texts = []
    for ln in run:
        words = sorted(ln.words, key=lambda w: w.x0)
        parts = [words[0].text]
        for prev, w in zip(words, words[1:], strict=False):
            gap = w.x0 - prev.x1
            glued = gap < WORD_GAP_RATIO * max(prev.size, w.size) and abs(w.baseline - prev.baseline) < 0.1 * ln.size
            raised = min(prev.size, w.size) < SUPERSCRIPT_RATIO * ln.size and gap < 0.3 * ln.size
            parts.append(w.text if glued or raised else " " + w.text)
        texts.append("".join(parts))
    return " ".join(" ".join(texts).split())


# A word this much smaller than its line is a superscript or subscript.
SUPERSCRIPT_RATIO = 0.8


def title_acronyms(texts: list[str]) -> frozenset[str]:
    """Words the document writes in capitals more often than not ("CLEF", "GPTQ"): a title printed
    in capitals keeps them when it is set in title case."""
    forms: dict[str, list[int]] = {}
    for text in texts:
        for word in re.findall(r"[^\W\d_]{2,}", text):
            counts = forms.setdefault(word.upper(), [0, 0])
            counts[0 if word.isupper() else 1] += 1
    return frozenset(word for word, (upper, other) in forms.items() if upper > other)


def _title_candidates(p: PageData) -> list[Line]:
    """Lines of text (three letters at least) in the top half of the page, outside tables."""
    return [ln for ln in p.lines if ln.table is None and p.rel(ln.top) < 0.5 and sum(c.isalpha() for c in ln.text) >= 3]


def _repeated_texts(pages: list[PageData]) -> set[str]:
    """Line texts that recur on at least half of the pages after the first (and on one at least): a
    company's name or logo text wherever it sits, which the margin-only header test may miss."""
    later = pages[1:]
    counts: dict[str, int] = {}
    for p in later:
        for key in {text_key(ln.text) for ln in p.lines}:
            counts[key] = counts.get(key, 0) + 1
    needed = max(1, math.ceil(len(later) / 2))
    return {key for key, n in counts.items() if n >= needed}


def _first_run(lines: list[Line], candidate_ids: set[int], biggest: float) -> list[Line]:
    """The first consecutive candidate lines in the biggest size, without a wide gap between them."""
    run: list[Line] = []
    for ln in lines:
        if id(ln) in candidate_ids and ln.size >= biggest - 0.5:
            if run and ln.ctop - run[-1].ctop > 2.2 * ln.size:
                break
            run.append(ln)
        elif run:
            break
    return run


def metadata_title(meta: dict) -> str | None:
    title = meta_text(meta, "Title")
    if len(title) < 4 or sum(c.isalpha() for c in title) < 3 or JUNK_TITLE.match(title):
        return None
    if " " not in title and (re.search(r"[\d_.]", title) or title.islower() or len(title) > 25):
        return None  # a file name or identifier, not a title
    if text_key(title) == text_key(meta_text(meta, "Author")):
        return None  # a template's or a company's name filled into both fields
    return title


def meta_text(meta: dict, field: str) -> str:
    """A metadata field as one line of text ("" when absent or not text)."""
    raw = meta.get(field)
    if isinstance(raw, bytes):
        raw = raw.decode("utf-8", "ignore")
    return " ".join(raw.replace("\x00", "").split()) if isinstance(raw, str) else ""


def publication_year(meta: dict, stamp: str, first_page_text: str) -> int | None:
    this_year = date.today().year
    for text in (stamp, stamp[::-1]):
        m = ARXIV_STAMP.search(text)
        if m:
            return int(m.group(3))
    raw = meta.get("CreationDate")
    if isinstance(raw, bytes):
        raw = raw.decode("latin-1", "ignore")
    if isinstance(raw, str):
        m = re.match(r"^(?:D:)?((?:19|20)\d\d)", raw.strip())
        if m and 1990 <= int(m.group(1)) <= this_year + 1:
            return int(m.group(1))
    years = [int(y) for y in YEAR.findall(first_page_text) if int(y) <= this_year + 1]
    return max(years) if years else None
