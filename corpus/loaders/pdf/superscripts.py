"""Footnote and affiliation marks a page sets as superscripts, located in a block's text.

A mark is printed, so the block's text keeps it (a citation's quote is what the page shows), but it
is no part of the sentence: "163.13" followed by a raised "1" reads "163.131" once the lines are
joined, and a footnote's raised number leads its first sentence ("3 Besides granularity, …"). The
loader records where each mark stands in the text (``RawBlock.marks``) and readers leave it out.

A mark is told from its geometry, not its text: a word smaller than its line's text and raised
above the line's baseline, shaped like a mark (digits, commas, footnote symbols, or one lower-case
letter). An exponent is raised too: a raised figure right after "10" or after a single letter
("10^5", "x^2"), or a raised letter right after a number or a single letter ("2^k"), is read.
"""

from __future__ import annotations

import re

from corpus.loaders.pdf.elements import Line, Word
from corpus.models import CharSpan

# A mark is set at most this large relative to its line's text (LaTeX's footnote marks are 0.7).
MARK_SIZE_RATIO = 0.85
# ...and its baseline at least this far (in em of the line's text) above the line's.
MARK_RAISE_EM = 0.15
_MARK_TEXT = re.compile(r"^(?:[\d,*∗†‡§¶‖⋆#♠♣♥♦♢♡□⋄◇]{1,6}|[a-z])$")
# A base a raised figure is an exponent of: a power of ten, or a variable; a raised letter, a number too.
_FIGURE_BASE = re.compile(r"(?:^|\D)10$|(?:^|[^\w])[A-Za-z]$")
_LETTER_BASE = re.compile(r"\d$|(?:^|[^\w])[A-Za-z]$")


def _baseline(ln: Line) -> float:
    """The baseline of the line's own text (its most common size), the lowest one when they differ."""
    core = [w.baseline for w in ln.words if abs(w.size - ln.size) < 0.25]
    return max(core) if core else max(w.baseline for w in ln.words)


def _is_mark(w: Word, ln: Line, baseline: float, before: Word | None) -> bool:
    if w.size > MARK_SIZE_RATIO * ln.size or baseline - w.baseline < MARK_RAISE_EM * ln.size:
        return False
    if not _MARK_TEXT.match(w.text):
        return False
    if before is None or w.x0 - before.x1 >= 0.15 * ln.size:
        return True
    base = _FIGURE_BASE if w.text[0].isdigit() else _LETTER_BASE if w.text.isalpha() else None
    return base is None or not base.search(before.text)


def mark_spans(text: str, lines: list[Line]) -> list[CharSpan]:
    """Where the lines' marks stand in ``text``, the block's text built from ``lines``: each word is
    found in turn after the one before (a word hyphenated at a line end without its hyphen)."""
    spans: list[CharSpan] = []
    cursor = 0
    for ln in lines:
        baseline = _baseline(ln)
        before: Word | None = None
        for w in ln.words:
            mark = _is_mark(w, ln, baseline, before)
            shown = w.text
            found = text.find(shown, cursor)
            if found < 0 and not mark:
                shown = shown.rstrip("-\u2010\u00ad")
                found = text.find(shown, cursor) if shown else -1
            if found >= 0:
                cursor = found + len(shown)
                if mark:
                    spans.append(CharSpan(start=found, end=cursor))
            before = w
    return spans
