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
from datetime import date

from corpus.loaders.pdf.doc_stats import DocStats
from corpus.loaders.pdf.elements import Line, PageData
from corpus.loaders.pdf.headers_footers import text_key
from corpus.loaders.pdf.headings import KNOWN_HEADINGS, NUMBERED_HEADING

ARXIV_STAMP = re.compile(r"arXiv:\S+\s*\[[^\]]*\]\s*(\d{1,2})\s*([A-Za-z]{3})\w*\s*((?:19|20)\d\d)")
YEAR = re.compile(r"(?<!\d)(19[5-9]\d|20[0-9]\d)(?!\d)")
JUNK_TITLE = re.compile(
    r"^(?:untitled|title|document|paper|main|manuscript|article|draft|slides|template|microsoft word\b.*|"
    r"arxiv:.*|doi:.*|https?:.*|.*\.(?:pdf|docx?|tex|dvi|ps|indd|rtf|odt|pptx?))$",
    re.IGNORECASE,
)


# ---------------------------------------------------------------------------------------------
# Title and year


def document_title(meta: dict, visual_title: str | None, running: set[str]) -> str | None:
    """The metadata's title unless it is a running header's or footer's text (``running``) that is
    not also the visual title; else the visual title."""
    title = metadata_title(meta)
    if title and text_key(title) in running and text_key(title) != text_key(visual_title or ""):
        title = None
    return title or visual_title


def find_title_lines(pages: list[PageData], doc: DocStats) -> tuple[set[int], str | None]:
    """The title on page 1: the first run of lines in its largest font (in the top half, clearly
    larger than body text, not repeated on most pages). Returns the lines' ids and the text."""
    if not pages:
        return set(), None
    p = pages[0]
    repeated = _repeated_texts(pages)
    candidates = [ln for ln in _title_candidates(p) if text_key(ln.text) not in repeated]
    if not candidates:
        return set(), None
    biggest = max(ln.size for ln in candidates)
    if biggest < doc.body_size + 1.5:
        return set(), None
    run = _first_run(p.lines, {id(ln) for ln in candidates}, biggest)
    text = " ".join(" ".join(ln.text for ln in run).split())
    if not text or NUMBERED_HEADING.match(text) or text.lower().rstrip(":.") in KNOWN_HEADINGS or len(text) > 300:
        return set(), None
    return {id(ln) for ln in run}, text


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
