"""The loader's small data holders (words, segments, tables, lines, pages) and the font helpers
they need."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

# A new word starts where the gap between two glyphs exceeds this fraction of the font size. TeX
# puts no space characters into PDFs; its inter-word gaps are >= ~0.17 em while kerning inside a
# word stays below ~0.07 em. pdfplumber's default (3 pt absolute) glues tight words together.
WORD_GAP_RATIO = 0.12
#: The font name of the words OCR read (``ocr_page``): no font is known, only the line's height.
OCR_FONT = "OCR"
BOLD_FONT = re.compile(
    r"bold|black|heavy|semibold|demibold|-medi|\bmedi|cmbx|cmb\d|sfbx|(?:libertine|biolinum)(?:t|o)?b|[-,]b$|[-,]bd",
    re.IGNORECASE,
)


# ---------------------------------------------------------------------------------------------
# Small data holders (plain classes with __slots__: fast, and nothing here needs validation)


class Word:
    __slots__ = ("text", "x0", "x1", "top", "bottom", "baseline", "size", "font", "bold")

    def __init__(
        self, text: str, x0: float, x1: float, top: float, bottom: float, baseline: float, size: float, font: str
    ):
        self.text = text
        self.x0 = x0
        self.x1 = x1
        self.top = top
        self.bottom = bottom
        self.baseline = baseline
        self.size = size
        self.font = font
        self.bold = _is_bold(font)


class Segment:
    """Words on one baseline without a gap wider than ~1 em, in left-to-right order."""

    __slots__ = ("words", "x0", "x1", "top", "bottom", "ref_top", "ref_bottom", "ref_size", "nchars", "_text")

    def __init__(self, word: Word):
        self.words = [word]
        self.x0, self.x1, self.top, self.bottom = word.x0, word.x1, word.top, word.bottom
        # The band of the segment's largest text: its line, as opposed to raised or lowered marks.
        self.ref_top, self.ref_bottom, self.ref_size = word.top, word.bottom, word.size
        self.nchars = len(word.text)
        self._text: str | None = None

    def add(self, word: Word) -> None:
        self._text = None
        self.words.append(word)
        self.x1 = max(self.x1, word.x1)
        self.x0 = min(self.x0, word.x0)
        self.top = min(self.top, word.top)
        self.bottom = max(self.bottom, word.bottom)
        self.nchars += len(word.text)
        if word.size > self.ref_size + 0.1:
            self.ref_top, self.ref_bottom, self.ref_size = word.top, word.bottom, word.size

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = join_words(self.words)
        return self._text


class Table:
    """A table, or a figure's text (``figure``: see ``figures``), placed in the reading order as one item."""

    __slots__ = ("x0", "top", "x1", "bottom", "rows", "figure")

    def __init__(self, x0: float, top: float, x1: float, bottom: float):
        self.x0, self.top, self.x1, self.bottom = x0, top, x1, bottom
        self.rows: list[tuple[float, str, list[Word]]] = []  # (top, text, words)
        self.figure = False


class Line:
    __slots__ = (
        "words",
        "text",
        "x0",
        "x1",
        "top",
        "bottom",
        "ctop",
        "cbottom",
        "size",
        "bold",
        "font",
        "col",
        "page",
        "table",
    )

    def __init__(self, words: list[Word], text: str, col: str, page: int, table: Table | None = None):
        self.words = words
        self.text = text
        self.col = col
        self.page = page
        self.table = table
        self.x0 = min(w.x0 for w in words)
        self.x1 = max(w.x1 for w in words)
        self.top = min(w.top for w in words)
        self.bottom = max(w.bottom for w in words)
        sizes: Counter[float] = Counter()
        fonts: Counter[str] = Counter()
        bold = 0
        total = 0
        for w in words:
            n = len(w.text)
            sizes[round(w.size, 1)] += n
            fonts[w.font] += n
            bold += n if w.bold else 0
            total += n
        self.size = most_common(sizes)
        self.font = most_common(fonts)
        self.bold = bold / total if total else 0.0
        core = [w for w in words if abs(w.size - self.size) < 0.25] or words
        self.ctop = min(w.top for w in core)
        self.cbottom = max(w.bottom for w in core)


class PageData:
    __slots__ = (
        "number",
        "left",
        "top",
        "width",
        "height",
        "segments",
        "tables",
        "lines",
        "edges",
        "drawings",
        "has_images",
        "image_share",
    )

    def __init__(self, number: int, bbox: tuple[float, float, float, float]):
        # Coordinates are pdfplumber's: usually (0, 0) at the top-left, offset by the MediaBox origin.
        self.number = number
        self.left, self.top = bbox[0], bbox[1]
        self.width = bbox[2] - bbox[0]
        self.height = bbox[3] - bbox[1]
        self.segments: list[Segment] = []
        self.tables: list[Table] = []
        self.lines: list[Line] = []
        self.edges: dict[str, tuple[float, float, float]] = {}  # col -> (left, right, min_left)
        # Where the page draws figures: (x0, x1, top, bottom), holds an image (``figures.drawing_regions``).
        self.drawings: list[tuple[tuple[float, float, float, float], bool]] = []
        # Whether the page places any image: a page of images and no text is a scan (no text layer).
        self.has_images = False
        # The share of the page its images cover (overlaps counted twice, at most 1): a scan's is ~1.
        self.image_share = 0.0

    def rel(self, y: float) -> float:
        """Vertical position as a fraction of the page height (0 at the top)."""
        return (y - self.top) / self.height if self.height else 0.0


def most_common(counter: Counter) -> Any:
    # Ties are broken by the key so the result never depends on insertion order.
    return max(counter.items(), key=lambda kv: (kv[1], kv[0]))[0]


_bold_cache: dict[str, bool] = {}


def _is_bold(font: str) -> bool:
    cached = _bold_cache.get(font)
    if cached is None:
        cached = bool(BOLD_FONT.search(base_font(font)))
        _bold_cache[font] = cached
    return cached


def base_font(font: str) -> str:
    # Drop the subset prefix ("ABCDEF+Times-Bold" -> "Times-Bold").
    return font.split("+", 1)[1] if len(font) > 7 and font[6] == "+" else font


def join_words(words: list[Word]) -> str:
    """Words are split at font changes too; re-glue pieces that sit on one baseline without a gap
    (small capitals, a bold letter). Raised or lowered pieces (footnote marks, subscripts) stay apart."""
    parts = [words[0].text]
    prev = words[0]
    for w in words[1:]:
        gap = w.x0 - prev.x1
        size = max(prev.size, w.size)
        glued = gap < WORD_GAP_RATIO * size and abs(w.baseline - prev.baseline) < 0.1 * size
        if glued and w.font != OCR_FONT:  # OCR's words are words as the engine read them
            parts.append(w.text)
        else:
            parts.append(" " + w.text)
        prev = w
    return "".join(parts)
