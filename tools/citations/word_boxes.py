"""The quote's own words on a PDF page: one box per line run of the printed words a citation matched.

A resolution names the block(s) and the stored text the quote matched in each (``CitedBlock``); the
page's words are read again here, at display time, from the PDF's text layer (pdfplumber, inside the
block's box). A page read by OCR has no text layer that is the page's: its blocks keep the words OCR
read, with their boxes (``Block.words``), and those are matched instead (``quoted_ocr_words``). Page
words and quote are compared as letters and digits only (NFKD, case-folded: ligatures, accents,
hyphenation at line ends, punctuation and spacing all drop out). The quote's letters are usually found
as they stand; when the stored text differs from the page (a superscript moved, a duplicated glyph)
they are aligned with rapidfuzz and a word counts when most of its letters aligned. Whatever cannot be
placed gives no boxes: the block's own box stays the citation's place.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from pydantic import BaseModel, Field
from rapidfuzz import fuzz
from rapidfuzz.distance import Indel

from corpus.loaders.pdf.elements import WORD_GAP_RATIO
from corpus.models import BBox, PageWord

#: Points of page read around a block's box, so a word its box clips at the edge is kept whole.
PAD = 3.0
#: Aligned stretches shorter than this many letters are chance agreement, not the quote.
MIN_ANCHOR_CHARS = 4
#: Room either side of the located quote when aligning it, as a share of its length: a stored text
#: that dropped or moved a few words is that much longer or shorter on the page.
WINDOW_SLACK = 0.2
#: A fuzzy placement needs this share of the quote's letters aligned; less, and no words are boxed.
MIN_ALIGNED = 0.8
#: A word counts as quoted when this share of its letters aligned.
WORD_SHARE = 0.5


class WordBox(BaseModel):
    """A run of the quote's words on one line of a PDF page."""

    block_id: str
    page: int
    bbox: BBox = Field(description="Around the run's words, in PDF points from the page's top-left (as blocks).")
    text: str = Field(description="The run's words as printed on the page.")


def _fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text).casefold() if c.isalnum())


def quoted_words(page: Any, block_id: str, bbox: BBox, quote: str, before: str = "") -> list[WordBox]:
    """The line runs of ``quote``'s words inside ``bbox`` on ``page`` (a pdfplumber page); ``before``,
    the block's text before the match, picks the occurrence when the block repeats the quote."""
    if not _fold(quote):
        return []
    x0, top, x1, bottom = (float(v) for v in page.bbox)
    frame = (max(x0, bbox.x0 - PAD), max(top, bbox.top - PAD), min(x1, bbox.x1 + PAD), min(bottom, bbox.bottom + PAD))
    if frame[0] >= frame[2] or frame[1] >= frame[3]:
        return []
    # Split as the loader splits words (a gap relative to the font size), so TeX's tight spacing
    # still separates them and a run can start at the quote's first word.
    words = page.crop(frame).extract_words(x_tolerance_ratio=WORD_GAP_RATIO, y_tolerance=3)
    return _boxed(words, block_id, page.page_number, quote, before)


def quoted_ocr_words(words: list[PageWord], block_id: str, page: int, quote: str, before: str = "") -> list[WordBox]:
    """The line runs of ``quote``'s words among ``words``, those OCR read in the block (as the block
    keeps them); ``before`` as for ``quoted_words``."""
    return _boxed([w.model_dump() for w in words], block_id, page, quote, before)


def _boxed(words: list[dict], block_id: str, page: int, quote: str, before: str) -> list[WordBox]:
    """The runs of ``words`` (dicts with ``text`` and a box) that hold ``quote``, boxed."""
    needle = _fold(quote)
    if not needle:
        return []
    keys = [_fold(w["text"]) for w in words]
    owners = [i for i, key in enumerate(keys) for _ in key]
    quoted = _quoted(needle, "".join(keys), owners, len(_fold(before)))
    if quoted is None:
        return []
    # A word with no letters (a dash, "(%)") between two quoted words is part of the run.
    for i, key in enumerate(keys):
        if not key and {i - 1, i + 1} <= quoted:
            quoted.add(i)
    return [_box(block_id, page, run) for run in _runs(words, quoted)]


def _quoted(needle: str, hay: str, owners: list[int], expected: int) -> set[int] | None:
    """Indices of the words holding ``needle`` in ``hay`` (their letters run together), or None."""
    starts = []
    at = hay.find(needle)
    while at >= 0:
        starts.append(at)
        at = hay.find(needle, at + 1)
    if starts:
        start = min(starts, key=lambda s: abs(s - expected))
        return set(owners[start : start + len(needle)])
    if not hay:
        return None
    # Located first, then aligned letter by letter: aligned against the whole block, the quote's
    # first letters could be spent on a word before it that happens to spell them.
    located = fuzz.partial_ratio_alignment(needle, hay)
    slack = int(len(needle) * WINDOW_SLACK)
    lo, hi = max(0, located.dest_start - slack), min(len(hay), located.dest_end + slack)
    aligned = [0] * (max(owners) + 1)
    total = 0
    for op in Indel.opcodes(needle, hay[lo:hi]):
        if op.tag == "equal" and op.src_end - op.src_start >= MIN_ANCHOR_CHARS:
            total += op.src_end - op.src_start
            for i in owners[lo + op.dest_start : lo + op.dest_end]:
                aligned[i] += 1
    if total < MIN_ALIGNED * len(needle):
        return None
    lengths = [0] * len(aligned)
    for i in owners:
        lengths[i] += 1
    return {i for i, n in enumerate(aligned) if n and n >= WORD_SHARE * lengths[i]}


def _same_line(a: dict, b: dict) -> bool:
    overlap = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
    return overlap > 0.5 * min(a["bottom"] - a["top"], b["bottom"] - b["top"])


def _runs(words: list[dict], quoted: set[int]) -> list[list[dict]]:
    """Quoted words next to each other on one line, in the page's order."""
    runs: list[list[dict]] = []
    previous = None
    for i, word in enumerate(words):
        if i not in quoted:
            continue
        if previous == i - 1 and _same_line(runs[-1][-1], word):
            runs[-1].append(word)
        else:
            runs.append([word])
        previous = i
    return runs


def _box(block_id: str, page: int, run: list[dict]) -> WordBox:
    return WordBox(
        block_id=block_id,
        page=page,
        bbox=BBox(
            x0=min(w["x0"] for w in run),
            top=min(w["top"] for w in run),
            x1=max(w["x1"] for w in run),
            bottom=max(w["bottom"] for w in run),
        ),
        text=" ".join(w["text"] for w in run),
    )
