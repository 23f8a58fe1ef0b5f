"""PDF loader: characters -> words -> lines -> blocks with page and bounding box, in reading order.

Written for research papers (one- and two-column, LaTeX or word processor) and read in two passes:

1. Per page, the only part that touches pdfminer: the page's characters and rules are read straight
   from pdfminer's layout objects with pdfplumber's coordinates (skipping ``page.chars``, which
   converts every glyph, path and image into a 25-key dict and costs more than the parsing itself).
   Rotated characters (the arXiv side stamp) are dropped after the year is read from them. Words are
   grouped with a gap tolerance relative to the font size, so TeX's tight spacing ("Kyle Lo") does not
   collapse into "KyleLo". Words are chained into *segments*: runs on one baseline with no gap wider
   than about one em, so a column gutter always separates segments. Tables are looked for only where
   black or grey horizontal rules are drawn: a table is a stack of rules of the same width (booktabs
   rules, or the borders of cell boxes joined up), unless its rows hold one cell of prose each.
2. For the whole document, in pure Python: running headers and footers (the same text at the same
   height on many pages) and bare page numbers are dropped; each page's column gutter is found (the
   widest strip near the middle that body-size text does not cross) and its segments are ordered:
   full-width strips top to bottom, and between two strips the left column before the right one.
   Segments become lines, lines become blocks at changes of font size, larger vertical gaps,
   first-line indents, and at the starts of captions, list items, footnotes and reference entries.
   Headings are recognised by style (bold, larger, another typeface) together with numbering
   ("3.2 Method") or a well-known section name, and set the section of the blocks that follow; the
   blocks after a "References" heading are references, up to an appendix heading.

A block's bounding box is the union of its words' boxes and its text is exactly those words, lines
joined with a space, or without the hyphen where a word was hyphenated at a line end. All orderings
are explicit, so the same file always gives the same blocks.
"""

from __future__ import annotations

import logging
import math
import re
import unicodedata
from collections import Counter
from datetime import date
from pathlib import Path
from typing import Any

import pdfplumber
from pdfminer.layout import LTChar, LTContainer, LTImage, LTLine, LTRect
from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect
from pdfminer.psparser import PSEOF
from pdfplumber.utils.exceptions import PdfminerException
from pdfplumber.utils.text import LIGATURES, WordExtractor

from corpus.errors import LoadError
from corpus.models import BBox, BlockKind, LoadedDocument, RawBlock

logger = logging.getLogger(__name__)

# A new word starts where the gap between two glyphs exceeds this fraction of the font size. TeX
# puts no space characters into PDFs; its inter-word gaps are >= ~0.17 em while kerning inside a
# word stays below ~0.07 em. pdfplumber's default (3 pt absolute) glues tight words together.
WORD_GAP_RATIO = 0.12
# Words on one baseline further apart than this (in em) belong to different segments. Column
# gutters are 1.2 em (IEEE) or wider; justified inter-word spaces stay well below one em.
SEGMENT_GAP_EM = 1.0
# Fraction of page height at the top and bottom where running headers, footers and page numbers live.
MARGIN_ZONE = 0.12
# Vertical bucket size (pt) for matching words to open segments.
SEGMENT_BUCKET = 4.0
# Long tables are cut at inner rules into blocks of about this many words.
TABLE_SPLIT_WORDS = 150
# Pages drawing more horizontal rules than this hold a drawing, not tables.
MAX_RULES = 300

BULLETS = frozenset("•◦▪▫‣∙·●○■□►▶➢➤✓✔-–—*")
HYPHENS = ("-", "\u2010", "\u00ad")
TOKEN_PUNCT = ".,;:()[]{}\"'“”‘’!?"
KNOWN_HEADINGS = frozenset(
    " ".join(phrase.split())
    for line in """abstract|introduction|background|related work|related works|method|methods|
    methodology|approach|model|experiments|experiment|experimental setup|setup|evaluation|results|
    discussion|analysis|conclusion|conclusions|conclusion and future work|future work|limitations|
    ethics statement|ethical considerations|broader impact|acknowledgments|acknowledgements|
    acknowledgment|acknowledgement|references|bibliography|appendix|appendices|keywords|
    ccs concepts|index terms|supplementary material|works cited|literature cited""".split("\n")
    for phrase in line.split("|")
    if phrase.strip()
)
REFERENCE_HEADINGS = frozenset({"references", "bibliography", "works cited", "literature cited", "reference"})

NUMBERED_HEADING = re.compile(
    r"^(?:(?:[1-9]\d?(?:\.\d{1,2}){0,3}\.?)|(?:[A-Z](?:\.\d{1,2}){0,3}\.?)|(?:[IVX]{1,5}\.))\s+(\S.*)$"
)
CAPTION = re.compile(
    r"^(?:figure|fig\.|table|tab\.|algorithm|listing|exhibit|chart)\s*[A-Z]?\d+(?:\.\d+)?[a-z]?\s*([:.|\u2014\u2013-])(?=\s|$)",
    re.IGNORECASE,
)
# Spacing accents that TeX places over a letter as a separate glyph ("Fa¨rber" -> "Färber").
ACCENTS = {
    "\u00a8": "\u0308", "\u00b4": "\u0301", "`": "\u0300", "\u02c6": "\u0302", "\u02dc": "\u0303",
    "\u00b8": "\u0327", "\u02c7": "\u030c", "\u02d8": "\u0306", "\u02d9": "\u0307", "\u02da": "\u030a",
    "\u02dd": "\u030b", "\u00af": "\u0304",
}
ACCENT_CHARS = re.compile("[" + "".join(ACCENTS) + "]")
SUFFIXES = frozenset(
    "s es ed ing ings ion ions tion tions sion sions ment ments ness ity ities ally ly er ers or ors able ible "
    "al als ance ances ence ences ous ive ives ize izes ized ization izations ise ised ist ists ism isms ful less "
    "ship ships ward wards ative atives ure ures ant ants ent ents ary ic ical ics".split()
)
ENUM_ITEM = re.compile(r"^(?:\(?\d{1,2}[.)]|\(?[a-z][.)]|\([ivx]{1,4}\))$")
REF_LABEL = re.compile(r"^\[\d{1,4}\]")
PAGE_NUMBER = re.compile(
    r"^(?:page\s+)?(?:\d{1,4}|[ivxlcdm]{1,7})(?:\s*(?:/|of)\s*\d{1,4})?$|^[-\u2013\u2014]\s*\d{1,4}\s*[-\u2013\u2014]$",
    re.IGNORECASE,
)
ARXIV_STAMP = re.compile(r"arXiv:\S+\s*\[[^\]]*\]\s*(\d{1,2})\s*([A-Za-z]{3})\w*\s*((?:19|20)\d\d)")
YEAR = re.compile(r"(?<!\d)(19[5-9]\d|20[0-9]\d)(?!\d)")
BOLD_FONT = re.compile(
    r"bold|black|heavy|semibold|demibold|-medi|\bmedi|cmbx|cmb\d|sfbx|(?:libertine|biolinum)(?:t|o)?b|[-,]b$|[-,]bd",
    re.IGNORECASE,
)
MONO_FONT = re.compile(r"mono|courier|inconsolata|cmtt|sftt|typewriter|consol|menlo", re.IGNORECASE)
JUNK_TITLE = re.compile(
    r"^(?:untitled|title|document|paper|main|manuscript|article|draft|slides|template|microsoft word\b.*|"
    r"arxiv:.*|doi:.*|https?:.*|.*\.(?:pdf|docx?|tex|dvi|ps|indd|rtf|odt|pptx?))$",
    re.IGNORECASE,
)

_quiet = False


def _quiet_pdfminer() -> None:
    """pdfminer logs a warning for every font quirk; they mean nothing to the person ingesting."""
    global _quiet
    if not _quiet:
        for name in ("pdfminer", "pdfplumber"):
            logging.getLogger(name).setLevel(logging.ERROR)
        _quiet = True


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
            self._text = _join_words(self.words)
        return self._text


class Table:
    __slots__ = ("x0", "top", "x1", "bottom", "rows")

    def __init__(self, x0: float, top: float, x1: float, bottom: float):
        self.x0, self.top, self.x1, self.bottom = x0, top, x1, bottom
        self.rows: list[tuple[float, str, list[Word]]] = []  # (top, text, words)


class Line:
    __slots__ = (
        "words", "text", "x0", "x1", "top", "bottom", "ctop", "cbottom", "size", "bold", "font",
        "col", "page", "table",
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
        self.size = _most_common(sizes)
        self.font = _most_common(fonts)
        self.bold = bold / total if total else 0.0
        core = [w for w in words if abs(w.size - self.size) < 0.25] or words
        self.ctop = min(w.top for w in core)
        self.cbottom = max(w.bottom for w in core)


class PageData:
    __slots__ = ("number", "left", "top", "width", "height", "segments", "tables", "lines", "edges")

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

    def rel(self, y: float) -> float:
        """Vertical position as a fraction of the page height (0 at the top)."""
        return (y - self.top) / self.height if self.height else 0.0


def _most_common(counter: Counter) -> Any:
    # Ties are broken by the key so the result never depends on insertion order.
    return max(counter.items(), key=lambda kv: (kv[1], kv[0]))[0]


_bold_cache: dict[str, bool] = {}


def _is_bold(font: str) -> bool:
    cached = _bold_cache.get(font)
    if cached is None:
        cached = bool(BOLD_FONT.search(_base_font(font)))
        _bold_cache[font] = cached
    return cached


def _base_font(font: str) -> str:
    # Drop the subset prefix ("ABCDEF+Times-Bold" -> "Times-Bold").
    return font.split("+", 1)[1] if len(font) > 7 and font[6] == "+" else font


def _join_words(words: list[Word]) -> str:
    """Words are split at font changes too; re-glue pieces that sit on one baseline without a gap
    (small capitals, a bold letter). Raised or lowered pieces (footnote marks, subscripts) stay apart."""
    parts = [words[0].text]
    prev = words[0]
    for w in words[1:]:
        gap = w.x0 - prev.x1
        size = max(prev.size, w.size)
        if gap < WORD_GAP_RATIO * size and abs(w.baseline - prev.baseline) < 0.1 * size:
            parts.append(w.text)
        else:
            parts.append(" " + w.text)
        prev = w
    return "".join(parts)


# ---------------------------------------------------------------------------------------------
# Pass 1: one page of pdfminer output -> words, segments, tables


def _is_rule_color(color: Any) -> bool:
    """Black or neutral grey, as table rules are; not the saturated colours of highlights."""
    if color is None:
        return True
    if isinstance(color, (int, float)):
        return color <= 0.75
    if isinstance(color, (tuple, list)):
        values = [c for c in color if isinstance(c, (int, float))]
        if not values:
            return True
        if len(values) == 1:
            return values[0] <= 0.75
        if len(values) == 4:  # CMYK: grey is K with little colour
            return max(values[:3]) - min(values[:3]) <= 0.15 and (values[3] >= 0.25 or min(values[:3]) >= 0.25)
        return max(values) <= 0.35 or (max(values) - min(values) <= 0.15 and max(values) <= 0.75)
    return False  # patterns and other exotic colour spaces: not a table rule


Rule = tuple[float, float, float]  # (start, end, position): x0, x1, y of a horizontal rule
Box = tuple[float, float, float, float]  # x0, x1, top, bottom


def _page_objects(page: Any) -> tuple[list[dict], list[Rule], list[Rule], list[Box]]:
    """Characters and table rules of a page, straight from pdfminer's layout objects.

    pdfplumber's ``page.chars`` turns every object on the page (each glyph, path and image) into a
    dictionary of ~25 resolved attributes, which costs more than pdfminer's own parsing. Here only
    the few attributes the loader uses are read, with pdfplumber's coordinate conventions (top-left
    origin, MediaBox offsets), so bounding boxes are exactly pdfplumber's.
    Returns (chars, horizontal rules (x0, x1, y), vertical rules (top, bottom, x), bands of light
    grey cell shading (x0, x1, top, bottom)).
    """
    height = float(page.height)
    mb_x0, mb_top = float(page.mediabox[0]), float(page.mediabox[1])
    chars: list[dict] = []
    horizontal: list[tuple[float, float, float]] = []
    vertical: list[tuple[float, float, float]] = []
    shades: list[Box] = []

    def walk(objs: Any) -> None:
        for obj in objs:
            if isinstance(obj, LTChar):
                font = obj.fontname
                if isinstance(font, bytes):
                    font = font.decode("latin-1", "replace")
                top = height - obj.y1 + mb_top
                chars.append(
                    {
                        "text": obj.get_text(),
                        "x0": obj.x0 + mb_x0,
                        "x1": obj.x1 + mb_x0,
                        "top": top,
                        "doctop": top,
                        "bottom": height - obj.y0 + mb_top,
                        "baseline": height - obj.matrix[5] + mb_top,
                        "upright": obj.upright,
                        "size": obj.size,
                        "fontname": font,
                    }
                )
            elif isinstance(obj, LTContainer):
                walk(obj)
            elif isinstance(obj, (LTLine, LTRect, LTImage)):
                width = obj.x1 - obj.x0
                thick = obj.y1 - obj.y0
                if isinstance(obj, LTImage):  # thin image masks: macOS Quartz draws rules this way
                    if width >= 30 and thick <= 2.0:
                        horizontal.append((obj.x0 + mb_x0, obj.x1 + mb_x0, height - (obj.y0 + obj.y1) / 2 + mb_top))
                    continue
                x0, x1 = obj.x0 + mb_x0, obj.x1 + mb_x0
                top, bottom = height - obj.y1 + mb_top, height - obj.y0 + mb_top
                if thick <= 2.0 or width <= 2.0:  # a rule: a line or a thin filled rectangle
                    color = obj.non_stroking_color if (isinstance(obj, LTRect) and obj.fill) else obj.stroking_color
                    if not _is_rule_color(color):
                        continue
                    if thick <= 2.0 and width >= 10:
                        horizontal.append((x0, x1, (top + bottom) / 2))
                    elif width <= 2.0 and thick >= 10:
                        vertical.append((top, bottom, (x0 + x1) / 2))
                elif isinstance(obj, LTRect) and obj.stroke and _is_rule_color(obj.stroking_color):
                    # A stroked box, such as a table cell's border: its four edges are rules.
                    horizontal.extend(((x0, x1, top), (x0, x1, bottom)))
                    vertical.extend(((top, bottom, x0), (top, bottom, x1)))
                elif isinstance(obj, LTRect) and obj.fill and thick <= 40 and _is_shade_color(obj.non_stroking_color):
                    shades.append((x0, x1, top, bottom))  # a shaded cell or row of a table

    walk(page.layout)
    return chars, _merge_rules(horizontal, 30.0), _merge_rules(vertical, 10.0), _merge_shades(shades)


def _is_shade_color(color: Any) -> bool:
    """A light neutral grey, as table cells are shaded with."""
    if isinstance(color, (int, float)):
        values = [float(color)]
    elif isinstance(color, (tuple, list)) and color and all(isinstance(c, (int, float)) for c in color):
        values = [float(c) for c in color]
        if len(values) == 4:  # CMYK: little colour, a little black
            return max(values[:3]) - min(values[:3]) <= 0.1 and 0.03 <= values[3] <= 0.4
    else:
        return False
    return max(values) - min(values) <= 0.1 and 0.6 <= min(values) and max(values) <= 0.97


def _merge_shades(shades: list[Box]) -> list[Box]:
    """Join shaded cells of one row into a band."""
    shades.sort(key=lambda b: (round(b[2]), round(b[3]), b[0]))
    bands: list[list[float]] = []
    for x0, x1, top, bottom in shades:
        last = bands[-1] if bands else None
        if last and abs(last[2] - top) <= 1 and abs(last[3] - bottom) <= 1 and x0 <= last[1] + 2:
            last[1] = max(last[1], x1)
        else:
            bands.append([x0, x1, top, bottom])
    return [(b[0], b[1], b[2], b[3]) for b in bands if b[1] - b[0] >= 30]


def _merge_rules(rules: list[tuple[float, float, float]], min_length: float) -> list[tuple[float, float, float]]:
    """Join collinear rules (start, end, position) that touch, such as the borders of adjacent
    cells, into one; drop those shorter than ``min_length``."""
    rules.sort(key=lambda r: (r[2], r[0], r[1]))
    lines: list[list[tuple[float, float, float]]] = []  # rules at (nearly) the same position
    for rule in rules:
        if lines and rule[2] - lines[-1][0][2] <= 1.0:
            lines[-1].append(rule)
        else:
            lines.append([rule])
    out: list[tuple[float, float, float]] = []
    for line in lines:
        pos = line[0][2]
        line.sort()
        start, end = line[0][0], line[0][1]
        for a, b, _ in line[1:]:
            if a <= end + 2:
                end = max(end, b)
            else:
                if end - start >= min_length:
                    out.append((start, end, pos))
                start, end = a, b
        if end - start >= min_length:
            out.append((start, end, pos))
    out.sort(key=lambda r: (r[2], r[0], r[1]))
    return out


def _find_tables(horizontal: list[Rule], vertical: list[Rule], shades: list[Box], words: list[Word]) -> list[Table]:
    """Tables as stacks of same-width rules (booktabs, or the borders of ruled cells) with text
    between them; a shaded header row and rows set below the last rule in the table's columns
    belong to the table too.

    A stack is cut where a caption line sits between two rules (two tables of equal width above
    each other) and dropped when it is a closed box with no inner rule (a plot frame or a framed
    paragraph, not a table).
    """
    if not horizontal or len(horizontal) > MAX_RULES:
        return []  # no rules, or a drawing (a chart's grid, a map), not tables
    groups: list[list[Rule]] = []
    for rule in horizontal:
        for group in groups:
            if abs(group[0][0] - rule[0]) <= 3 and abs(group[0][1] - rule[1]) <= 3:
                if abs(group[-1][2] - rule[2]) > 0.8:  # skip doubled strokes of one rule
                    group.append(rule)
                break
        else:
            groups.append([rule])
    tables: list[Table] = []
    for group in groups:
        x0 = min(r[0] for r in group)
        x1 = max(r[1] for r in group)
        # Split the stack where a caption starts between two consecutive rules.
        pieces: list[list[Rule]] = [[group[0]]]
        for prev, rule in zip(group, group[1:]):
            between = [
                w for w in words if prev[2] < (w.top + w.bottom) / 2 < rule[2] and x0 - 20 <= (w.x0 + w.x1) / 2 <= x1 + 20
            ]
            if _has_caption_start(between):
                pieces.append([rule])
            else:
                pieces[-1].append(rule)
        for piece in pieces:
            shaded = False
            for band in shades:  # a shaded header (or footer) row against the first (last) rule
                if abs(band[0] - x0) <= 3 and abs(band[1] - x1) <= 3:
                    if abs(band[3] - piece[0][2]) <= 3 and band[2] < piece[0][2]:
                        piece.insert(0, (x0, x1, band[2]))
                        shaded = True
                    elif abs(band[2] - piece[-1][2]) <= 3 and band[3] > piece[-1][2]:
                        piece.append((x0, x1, band[3]))
                        shaded = True
            if len(piece) < 2:
                continue
            top, bottom = piece[0][2], piece[-1][2]
            if len(piece) == 2 and not shaded and _boxed(vertical, x0, x1, top, bottom):
                continue
            inside = [w for w in words if _inside(w, x0, top, x1, bottom)]
            if len(inside) < 2:
                continue
            rows = len({round((w.top + w.bottom) / 2 / 3) for w in inside})
            if rows < 2 and len(piece) < 3:
                continue
            below = _rows_below(inside, words, x0, x1, bottom)
            if below > bottom:
                piece.append((x0, x1, below))
                inside = [w for w in words if _inside(w, x0, top, x1, below)]
            tables.extend(_split_table(piece, inside, x0, x1))
    return tables


def _rows_below(inside: list[Word], words: list[Word], x0: float, x1: float, bottom: float) -> float:
    """Where the table really ends when its last rows have no rule below them: rows that follow at
    the table's row pitch with every cell aligned on a column of the rows above (left edge, right
    edge or centre). Returns the new bottom (``bottom`` when there are none)."""
    rows = _group_rows(_build_segments(inside))
    if len(rows) < 2:
        return bottom
    cells = [s for row in rows for s in row]
    lefts = [s.x0 for s in cells]
    rights = [s.x1 for s in cells]
    centres = [(s.x0 + s.x1) / 2 for s in cells]
    tops = [min(s.top for s in row) for row in rows]
    pitch = sorted(b - a for a, b in zip(tops, tops[1:]))[(len(tops) - 2) // 2]

    def aligned(s: Segment) -> bool:
        c = (s.x0 + s.x1) / 2
        return (
            any(abs(s.x0 - v) <= 3 for v in lefts)
            or any(abs(s.x1 - v) <= 3 for v in rights)
            or any(abs(c - v) <= 3 for v in centres)
        )

    candidates = [w for w in words if w.top > bottom - 1 and x0 - 2 <= w.x0 and w.x1 <= x1 + 2 and w.top < bottom + 5 * pitch]
    last_top = tops[-1]
    for row in _group_rows(_build_segments(candidates)):
        row_top = min(s.top for s in row)
        if row_top - last_top > 1.3 * pitch + 1 or len(row) < 2 or not all(aligned(s) for s in row):
            break
        bottom = max(bottom, max(s.bottom for s in row) + 0.5)
        last_top = row_top
    return bottom


def _split_table(rules: list[tuple[float, float, float]], words: list[Word], x0: float, x1: float) -> list[Table]:
    """One table, or several cut at inner rules when it is long (a form or datasheet laid out as a
    table holds paragraphs of prose; one block per ~150 words keeps them citable)."""
    if len(words) <= TABLE_SPLIT_WORDS * 2:
        return [Table(x0, rules[0][2], x1, rules[-1][2])]
    centers = sorted((w.top + w.bottom) / 2 for w in words)
    tables: list[Table] = []
    start = rules[0][2]
    for rule in rules[1:]:
        count = sum(1 for c in centers if start < c <= rule[2])
        if count >= TABLE_SPLIT_WORDS or rule is rules[-1]:
            if count or not tables:
                tables.append(Table(x0, start, x1, rule[2]))
            else:
                tables[-1].bottom = rule[2]
            start = rule[2]
    return tables


def _has_caption_start(words: list[Word]) -> bool:
    """Does a line among these words start with "Table 3:" / "Figure 2." ?"""
    if not words:
        return False
    words = sorted(words, key=lambda w: (round(w.top), w.x0))
    for i, w in enumerate(words):
        if i and round(words[i - 1].top) == round(w.top):
            continue  # not the first word of its line
        if w.text.lower().rstrip(".") in ("figure", "fig", "table", "tab") or CAPTION.match(w.text):
            following = " ".join(x.text for x in words[i : i + 3])
            if CAPTION.match(following):
                return True
    return False


def _boxed(vertical: list[tuple[float, float, float]], x0: float, x1: float, top: float, bottom: float) -> bool:
    def has(x: float) -> bool:
        return any(abs(v[2] - x) <= 3 and v[0] <= top + 3 and v[1] >= bottom - 3 for v in vertical)

    return has(x0) and has(x1)


def _inside(w: Word, x0: float, top: float, x1: float, bottom: float) -> bool:
    cx = (w.x0 + w.x1) / 2
    cy = (w.top + w.bottom) / 2
    return x0 - 2 <= cx <= x1 + 2 and top - 1 <= cy <= bottom + 1


def _page_words(chars: list[dict], extractor: WordExtractor, bbox: tuple[float, ...]) -> tuple[list[Word], str]:
    """Upright words of the page, and the text of rotated characters (the arXiv stamp)."""
    upright: list[dict] = []
    rotated: list[dict] = []
    seen: set[tuple[str, int, int]] = set()
    left, top, right, bottom = bbox
    for c in chars:
        text = c["text"]
        if text.startswith("(cid:"):
            continue
        if c["x1"] < left or c["x0"] > right or c["bottom"] < top or c["top"] > bottom:
            continue  # outside the visible page
        # Fake bold draws each glyph twice, a fraction of a point apart: keep one.
        key = (text, round(c["x0"]), round(c["top"]))
        if key in seen:
            continue
        seen.add(key)
        if c["upright"]:
            upright.append(c)
        else:
            rotated.append(c)
    words: list[Word] = []
    for w, chars in extractor.iter_extract_tuples(upright):
        text = w["text"]
        if not text.strip():
            continue
        if len(chars) > 1 and ACCENT_CHARS.search(text):
            text = _compose_accents(chars)
        first = chars[0]
        words.append(Word(text, w["x0"], w["x1"], w["top"], w["bottom"], first["baseline"], first["size"], first["fontname"]))
    stamp = "".join(c["text"] for c in rotated)
    return words, stamp


def _compose_accents(chars: list[dict]) -> str:
    """Put each spacing accent onto the letter it sits over, as one precomposed character."""
    texts = [LIGATURES.get(c["text"], c["text"]) for c in chars]
    combining = [""] * len(chars)
    for i, c in enumerate(chars):
        mark = ACCENTS.get(c["text"])
        if mark is None:
            continue
        width = max(c["x1"] - c["x0"], 0.1)
        best, best_overlap = None, 0.5 * width
        for j in (i - 1, i + 1):
            if 0 <= j < len(chars) and texts[j].isalpha() and not combining[j]:
                overlap = min(c["x1"], chars[j]["x1"]) - max(c["x0"], chars[j]["x0"])
                if overlap > best_overlap:
                    best, best_overlap = j, overlap
        if best is not None:
            combining[best] = mark
            texts[i] = ""
    return unicodedata.normalize("NFC", "".join(t + m for t, m in zip(texts, combining)))


def _build_segments(words: list[Word]) -> list[Segment]:
    """Chain words left to right into segments: same baseline band, gap below ~1 em.

    Open segments are bucketed by the vertical centre of their main text, so each word is only
    compared with the segments at its height.
    """
    order = sorted(range(len(words)), key=lambda i: (words[i].x0, words[i].top, i))
    buckets: dict[int, list[Segment]] = {}
    done: list[Segment] = []

    def key(seg: Segment) -> int:
        return int((seg.ref_top + seg.ref_bottom) / 2 // SEGMENT_BUCKET)

    for i in order:
        w = words[i]
        h = max(w.bottom - w.top, 0.1)
        best: Segment | None = None
        best_score = 0.0
        lo = int((w.top - w.size) // SEGMENT_BUCKET)
        hi = int((w.bottom + w.size) // SEGMENT_BUCKET)
        for k in range(lo, hi + 1):
            bucket = buckets.get(k)
            if not bucket:
                continue
            keep: list[Segment] = []
            for seg in bucket:
                last = seg.words[-1]
                gap = w.x0 - last.x1
                if gap > SEGMENT_GAP_EM * max(last.size, w.size, seg.ref_size):
                    done.append(seg)  # every later word starts further right: this segment is finished
                    continue
                keep.append(seg)
                if gap < -0.3 * w.size:
                    continue
                overlap = min(w.bottom, seg.ref_bottom) - max(w.top, seg.ref_top)
                ref_h = max(seg.ref_bottom - seg.ref_top, 0.1)
                if overlap < 0.5 * min(h, ref_h):
                    continue
                score = overlap / min(h, ref_h) - max(gap, 0) / (10 * w.size)
                if score > best_score:
                    best, best_score = seg, score
            bucket[:] = keep
        if best is None:
            seg = Segment(w)
            buckets.setdefault(key(seg), []).append(seg)
        else:
            old = key(best)
            best.add(w)
            new = key(best)
            if new != old:  # its main text changed (a larger word joined): move it
                buckets[old].remove(best)
                buckets.setdefault(new, []).append(best)
    for k in sorted(buckets):
        done.extend(buckets[k])
    done.sort(key=lambda s: (s.top, s.x0, s.x1))
    return done


def _extract_page(page: Any, number: int, extractor: WordExtractor) -> tuple[PageData, list[Word], str]:
    bbox = (float(page.bbox[0]), float(page.bbox[1]), float(page.bbox[2]), float(page.bbox[3]))
    data = PageData(number, bbox)
    chars, horizontal, vertical, shades = _page_objects(page)
    words, stamp = _page_words(chars, extractor, bbox)
    if words and (len(horizontal) >= 2 or (horizontal and shades)):
        data.tables = _find_tables(horizontal, vertical, shades, words)
    table_words: dict[int, list[Word]] = {}
    body: list[Word] = []
    for w in words:
        for ti, t in enumerate(data.tables):
            if _inside(w, t.x0, t.top, t.x1, t.bottom):
                table_words.setdefault(ti, []).append(w)
                break
        else:
            body.append(w)
    segments = _build_segments(body)
    kept_tables = []
    for ti, t in enumerate(data.tables):
        tw = table_words.get(ti)
        if not tw:
            continue
        segs = _build_segments(tw)
        rows = _group_rows(segs)
        if sum(1 for row in rows if len(row) > 1) < 0.3 * len(rows) and (len(rows) >= 4 or len(tw) >= 10):
            # Mostly one cell per row: prose in a ruled box (a form, a datasheet, instructions),
            # better read as paragraphs than as a table.
            segments.extend(segs)
            continue
        for row in rows:
            row_words = [w for s in row for w in s.words]
            text = " | ".join(s.text for s in row)
            t.rows.append((min(s.top for s in row), text, row_words))
        kept_tables.append(t)
    segments.sort(key=lambda s: (s.top, s.x0, s.x1))
    data.segments = segments
    data.tables = kept_tables
    return data, words, stamp


def _group_rows(segs: list[Segment]) -> list[list[Segment]]:
    """Segments -> rows of vertically overlapping segments (top to bottom, each left to right)."""
    rows: list[list[Segment]] = []
    bands: list[tuple[float, float, float]] = []  # (top, bottom, size) of each row's largest text
    for s in sorted(segs, key=lambda s: (s.top, s.x0)):
        placed = False
        for k in range(len(rows) - 1, max(len(rows) - 4, -1), -1):
            top, bottom, size = bands[k]
            overlap = min(bottom, s.ref_bottom) - max(top, s.ref_top)
            if overlap >= 0.5 * max(min(bottom - top, s.ref_bottom - s.ref_top), 0.1):
                rows[k].append(s)
                if s.ref_size > size + 0.1:
                    bands[k] = (s.ref_top, s.ref_bottom, s.ref_size)
                placed = True
                break
        if not placed:
            rows.append([s])
            bands.append((s.ref_top, s.ref_bottom, s.ref_size))
    for row in rows:
        row.sort(key=lambda s: (s.x0, s.top))
    return rows


# ---------------------------------------------------------------------------------------------
# Document level: running headers and footers, page numbers


def _strip_headers_footers(pages: list[PageData], title: str | None, body_size: float) -> None:
    """Drop running headers and footers (the same text, digits aside, at the same height in the top
    or bottom margin of at least 20% of the pages, and of two at least; or the document's title in
    the margin of a later page) and bare page numbers. Headings are not headers: text larger than
    the body's never counts, and bold text only when it repeats exactly (not "1. Results" and
    "2. Methods" that happen to open two pages)."""
    title_key = " ".join(title.split()).lower() if title else None
    zones: dict[tuple[str, str], list[tuple[int, Segment]]] = {}
    for pi, p in enumerate(pages):
        for s in p.segments:
            zone = "top" if p.rel(s.bottom) < MARGIN_ZONE else "bottom" if p.rel(s.top) > 1 - MARGIN_ZONE else ""
            if not zone or s.ref_size > body_size + 0.5:
                continue
            text = " ".join(s.text.split()).lower()
            key = re.sub(r"\d+", "#", text)
            zones.setdefault((zone, key), []).append((pi, s))
            if pi and text == title_key:
                zones.setdefault(("title", ""), []).append((pi, s))
    drop: set[int] = set()
    threshold = max(2, math.ceil(0.2 * len(pages))) if len(pages) >= 2 else 10**9
    for (zone, _), hits in zones.items():
        if zone == "title":
            drop.update(id(s) for _, s in hits)
            continue
        tops = sorted(s.top for _, s in hits)
        median = tops[len(tops) // 2]
        near = [(pi, s) for pi, s in hits if abs(s.top - median) <= 4]
        if len({pi for pi, _ in near}) < threshold:
            continue
        exact = len({" ".join(s.text.split()) for _, s in near}) == 1
        if not exact and any(2 * sum(len(w.text) for w in s.words if w.bold) > s.nchars for _, s in near):
            continue
        drop.update(id(s) for _, s in near)
    for p in pages:
        p.segments = [s for s in p.segments if id(s) not in drop and not _is_page_number(s, p)]


def _is_page_number(s: Segment, p: PageData) -> bool:
    """A bare number alone on its row, in the margin zone or as the page's outermost line."""
    if s.nchars > 12 or not PAGE_NUMBER.match(s.text.strip()):
        return False
    in_zone = p.rel(s.bottom) < MARGIN_ZONE or p.rel(s.top) > 1 - MARGIN_ZONE
    if not in_zone and 0.25 < p.rel(s.top) < 0.75:
        return False
    below = above = False
    for other in p.segments:
        if other is s:
            continue
        if min(other.bottom, s.bottom) - max(other.top, s.top) > 0:
            return False  # a number beside other text is a table cell or a label, not a page number
        below = below or other.top >= s.bottom
        above = above or other.bottom <= s.top
    return in_zone or not below or not above


# ---------------------------------------------------------------------------------------------
# Columns and reading order


def _find_gutter(segs: list[Segment], left: float, width: float, body_size: float) -> tuple[float, float] | None:
    """The vertical strip between two columns, or None for a single-column page.

    Segments wider than 60% of the text block (titles, full-width captions, single-column lines)
    are set aside, and so is text in other sizes than the body's (labels inside figures, which may
    straddle the gutter). The gutter is the widest strip near the middle that the fewest of the
    remaining segments cross; it counts when substantial text lies on both sides, side by side.
    """
    if len(segs) < 6:
        return None
    text_left = min(s.x0 for s in segs)
    text_width = max(s.x1 for s in segs) - text_left
    narrow = [s for s in segs if s.x1 - s.x0 < 0.6 * text_width]
    wide_chars = sum(s.nchars for s in segs) - sum(s.nchars for s in narrow)
    body = [s for s in narrow if abs(s.ref_size - body_size) <= 1.0 and s.nchars >= 8]
    if len(body) >= 6:
        narrow = body
    n = int(width) + 2
    diff = [0] * (n + 1)
    for s in narrow:
        a = min(max(int(s.x0 - left), 0), n - 1)
        b = min(max(int(math.ceil(s.x1 - left)), 0), n - 1)
        diff[a] += 1
        diff[b] -= 1
    cov = []
    run = 0
    for d in diff[:n]:
        run += d
        cov.append(run)
    lo = max(int(text_left - left + 0.3 * text_width), 0)
    hi = min(int(text_left - left + 0.7 * text_width), n)
    window = cov[lo:hi]
    if not window:
        return None
    best = min(window)
    # Longest run of minimum coverage inside the window.
    best_run = (0, -1)
    start = None
    for x in range(lo, hi + 1):
        inside = x < hi and cov[x] == best
        if inside and start is None:
            start = x
        elif not inside and start is not None:
            if x - start > best_run[1] - best_run[0] + 1:
                best_run = (start, x - 1)
            start = None
    gl, gr = left + best_run[0], left + best_run[1] + 1
    if gr - gl < 3:
        return None
    lefts = [s for s in narrow if s.x1 <= gl + 1]
    rights = [s for s in narrow if s.x0 >= gr - 1]
    lc = sum(s.nchars for s in lefts)
    rc = sum(s.nchars for s in rights)
    cc = sum(s.nchars for s in narrow) - lc - rc
    total = lc + rc + cc
    if len(lefts) < 3 or len(rights) < 3 or lc < 0.1 * total or rc < 0.1 * total:
        return None
    if cc > 0.5 * (lc + rc) or wide_chars > 2 * (lc + rc):
        return None
    paired = 0
    for s in lefts:
        if any(min(s.bottom, r.bottom) - max(s.top, r.top) > 0 for r in rights):
            paired += 1
            if paired >= 3:
                return gl, gr
    return None


def _order_page(p: PageData, body_size: float) -> list[tuple[str, list[Segment | Table]]]:
    """Group the page's segments (and tables) into column groups in reading order."""
    items: list[Segment | Table] = [*p.segments, *p.tables]
    gutter = _find_gutter(p.segments, p.left, p.width, body_size)
    if gutter is None:
        return [("S", sorted(items, key=lambda s: (s.top, s.x0)))]
    gl, gr = gutter
    side: dict[int, str] = {}
    spanning: list[Segment | Table] = []
    for it in items:
        if it.x1 <= gl + 1:
            side[id(it)] = "L"
        elif it.x0 >= gr - 1:
            side[id(it)] = "R"
        elif it.x0 < gl - 5 and it.x1 > gr + 5:
            side[id(it)] = "S"
            spanning.append(it)
        else:  # pokes into the gutter only: belongs to the side holding most of it
            side[id(it)] = "L" if (gl - it.x0) >= (it.x1 - gr) else "R"
    # Full-width strips: merged vertical extents of spanning items.
    strips: list[list[float]] = []
    for it in sorted(spanning, key=lambda s: (s.top, s.x0)):
        if strips and it.top <= strips[-1][1] - 1:
            strips[-1][1] = max(strips[-1][1], it.bottom)
        else:
            strips.append([it.top, it.bottom])
    # Column items that sit beside a spanning item belong to its strip (e.g. a row of author names).
    for it in items:
        if side[id(it)] != "S":
            cy = (it.top + it.bottom) / 2
            for st in strips:
                if st[0] - 1 <= cy <= st[1] + 1:
                    side[id(it)] = "S"
                    break
    # ...and so does the short last line of a full-width paragraph or caption right below it.
    if strips:
        lefts_of = [min(it.x0 for it in spanning if st[0] - 1 <= it.top <= st[1]) for st in strips]
        for it in sorted(items, key=lambda s: (s.top, s.x0)):
            if side[id(it)] == "S" or isinstance(it, Table):
                continue
            height = it.bottom - it.top
            for k, st in enumerate(strips):
                if st[1] - 1 <= it.top <= st[1] + 0.6 * height and abs(it.x0 - lefts_of[k]) < 2 * height:
                    side[id(it)] = "S"
                    st[1] = max(st[1], it.bottom)
                    break
    n = len(strips)
    lefts: list[list[Segment | Table]] = [[] for _ in range(n + 1)]
    rights: list[list[Segment | Table]] = [[] for _ in range(n + 1)]
    spans: list[list[Segment | Table]] = [[] for _ in range(n)]
    for it in items:
        cy = (it.top + it.bottom) / 2
        where = side[id(it)]
        if where == "S":
            k = next((i for i, st in enumerate(strips) if st[0] - 1 <= cy <= st[1] + 1), None)
            if k is None:  # cannot happen: every spanning item lies in its strip
                k = min(range(n), key=lambda i: abs((strips[i][0] + strips[i][1]) / 2 - cy))
            spans[k].append(it)
            continue
        k = sum(1 for st in strips if st[1] + 1 < cy)  # column band k lies between strips k-1 and k
        (lefts if where == "L" else rights)[k].append(it)
    key = lambda s: (s.top, s.x0)  # noqa: E731
    groups: list[tuple[str, list[Segment | Table]]] = []
    for k in range(n + 1):
        if lefts[k]:
            groups.append(("L", sorted(lefts[k], key=key)))
        if rights[k]:
            groups.append(("R", sorted(rights[k], key=key)))
        if k < n and spans[k]:
            groups.append(("S", sorted(spans[k], key=key)))
    return groups


def _build_lines(p: PageData, body_size: float) -> None:
    lines: list[Line] = []
    for col, items in _order_page(p, body_size):
        segs = [it for it in items if isinstance(it, Segment)]
        tables = [it for it in items if isinstance(it, Table)]
        col_lines: list[Line] = []
        for row in _group_rows(segs):
            words = [w for s in row for w in s.words]
            text = " ".join(s.text for s in row)
            col_lines.append(Line(words, text, col, p.number))
        for t in tables:
            words = [w for _, _, ws in t.rows for w in ws]
            text = "\n".join(text for _, text, _ in t.rows)
            col_lines.append(Line(words, text, col, p.number, table=t))
        col_lines.sort(key=lambda ln: (ln.top, ln.x0))
        lines.extend(col_lines)
    p.lines = lines
    # Column edges for indentation tests: the usual left edge, the right edge, the leftmost edge.
    by_col: dict[str, list[Line]] = {}
    for ln in lines:
        if ln.table is None:
            by_col.setdefault(ln.col, []).append(ln)
    for col, col_lines in by_col.items():
        long_lines = [ln for ln in col_lines if len(ln.text) >= 20] or col_lines
        left = _most_common(Counter(round(ln.x0) for ln in long_lines))
        rights = sorted(ln.x1 for ln in long_lines)
        right = rights[int(0.9 * (len(rights) - 1))]
        p.edges[col] = (float(left), right, min(ln.x0 for ln in col_lines))


# ---------------------------------------------------------------------------------------------
# Blocks


class _Doc:
    """Document-wide statistics the block builder needs."""

    def __init__(self, pages: list[PageData], vocab: Counter[str]):
        sizes: Counter[float] = Counter()
        fonts: Counter[str] = Counter()
        for p in pages:
            for ln in p.lines:
                if ln.table is None:
                    sizes[ln.size] += len(ln.text)
        self.body_size = _most_common(sizes) if sizes else 10.0
        for p in pages:
            for ln in p.lines:
                if ln.table is None and abs(ln.size - self.body_size) < 0.25:
                    fonts[_base_font(ln.font)] += len(ln.text)
        self.body_font = _most_common(fonts) if fonts else ""
        # Usual baseline-to-baseline pitch per font size, to tell line spacing from paragraph gaps.
        pitches: dict[float, Counter[float]] = {}
        for p in pages:
            prev: Line | None = None
            for ln in p.lines:
                if prev is not None and prev.col == ln.col and prev.table is None and ln.table is None:
                    if abs(prev.size - ln.size) < 0.25:
                        pitch = ln.ctop - prev.ctop
                        if 0 < pitch < 3 * ln.size:
                            pitches.setdefault(ln.size, Counter())[round(pitch * 2) / 2] += 1
                prev = ln
        self.pitch = {size: _most_common(c) for size, c in pitches.items() if sum(c.values()) >= 3}
        self.vocab = vocab

        # Pitch last seen inside a block, per (column, size), on the current page: line spacing
        # differs between parts of one document (a loosely set abstract, tight footnotes).
        self.local_pitch: dict[tuple[str, float], float] = {}

    def usual_pitch(self, ln: Line) -> float:
        usual = self.pitch.get(ln.size, 1.25 * ln.size)
        return max(usual, self.local_pitch.get((ln.col, ln.size), 0.0))

    def saw_pitch(self, prev: Line, ln: Line) -> None:
        pitch = ln.ctop - prev.ctop
        if prev.col == ln.col and abs(prev.size - ln.size) < 0.25 and 0.9 * ln.size < pitch < 2 * ln.size:
            self.local_pitch[(ln.col, ln.size)] = pitch

    def styled(self, ln: Line) -> bool:
        """Set apart from body text: bold, larger, or in another (non-mono) typeface of similar size."""
        if ln.bold >= 0.8 or ln.size >= self.body_size + 0.8:
            return True
        return ln.size >= self.body_size - 0.5 and self.other_typeface(ln.font)

    def other_typeface(self, font: str) -> bool:
        base = _base_font(font)
        if MONO_FONT.search(base) or not self.body_font:
            return False
        family = re.sub(r"[-,]?(?:regu\w*|roman|italic|ital|it|oblique|light)$", "", self.body_font, flags=re.I)
        return not base.startswith(family[: max(4, len(family) - 2)])

    def is_caption(self, ln: Line) -> bool:
        """"Figure 3:" always; "Table 2." only when set apart (bold label, other size or typeface),
        since a body line can start with "Table 2. shows" where a sentence wraps."""
        m = CAPTION.match(ln.text.lstrip())
        if m is None:
            return False
        if m.group(1) == ":":
            return True
        first = ln.words[0]
        return first.bold or abs(ln.size - self.body_size) >= 0.3 or self.other_typeface(first.font)


def _heading_kind(ln: Line, doc: _Doc, in_refs: bool, right: float, continues: bool) -> str | None:
    """'numbered' / 'known' / 'styled' when the line is a section heading, else None.

    ``right`` is the column's right edge; ``continues`` says the layout alone would continue the
    current paragraph (normal line pitch, no indent), which rules out headings known only by style.
    """
    text = " ".join(ln.text.split())
    if ln.table is not None or len(text) > 120 or len(text) < 3:
        return None
    words = text.split()
    if len(words) > 14 or sum(ch.isalpha() for ch in text) < 3:
        return None
    if text[-1] in ",;" or doc.is_caption(ln):
        return None
    m = NUMBERED_HEADING.match(text)
    styled = doc.styled(ln) or (text.isupper() and len(words) <= 8)
    if m and styled:
        rest = m.group(1)
        if (
            (rest[0].isupper() or rest[0].isdigit())
            and rest[-1] not in ".:-"
            and not re.search(r"[a-z]\.\s+\S", rest)  # a run-in heading followed by its paragraph
            and len(words) <= (12 if ln.bold >= 0.8 or ln.size >= doc.body_size + 0.8 else 10)
        ):
            return "numbered"
    bare = re.sub(r"^(?:\d+(?:\.\d+)*\.?|[A-Z]\.|[IVX]+\.)\s+", "", text).rstrip(":.").strip().lower()
    if bare in KNOWN_HEADINGS and styled:
        return "known"
    if in_refs or continues:
        return None
    if (
        ln.bold >= 0.9
        and len(words) <= 10
        and (text[0].isupper() or text[0].isdigit())
        and text[-1] not in ".:-?"
        and ln.size >= doc.body_size - 0.3
        and ln.x1 < right - 1.5 * ln.size  # a full line of bold is a run-in heading's paragraph
    ):
        return "styled"
    return None


def _is_list_start(ln: Line, prev: Line | None, cur: _Block | None) -> bool:
    first = ln.words[0].text
    if first[0] in BULLETS:
        if first[0] in "-–—*":  # dashes and asterisks only as a lone marker: "- item", not "-0.5"
            return len(first) == 1 and len(ln.words) > 1
        return len(ln.words) > 1 or len(first) > 1
    if ENUM_ITEM.match(first) and len(ln.words) > 1:
        if prev is None or prev.col != ln.col or prev.page != ln.page:
            return True
        if cur is not None and cur.kind is BlockKind.LIST and abs(ln.x0 - cur.lines[0].x0) < 0.5 * ln.size:
            return True  # the next item of a running list
        return prev.text.rstrip().endswith((".", ":", ";", ","))
    return False


def _starts_footnote(ln: Line) -> bool:
    first = ln.words[0]
    if len(ln.words) < 2:
        return False
    marker = first.text
    return (
        first.size < 0.85 * ln.size
        and len(marker) <= 3
        and all(not ch.isalpha() or ch in "abcdefg" for ch in marker)
        and first.bottom < ln.cbottom - 0.1 * ln.size
    )


def _dehyphenate(prev: str, nxt: str, vocab: Counter[str]) -> str | None:
    """Join two lines that meet at a hyphen: drop it where it only broke a word ("retriev-" + "al"),
    keep it (without a space) in real compounds ("state-of-the-" + "art"). None: not such a case."""
    if len(prev) < 3 or prev[-1] not in HYPHENS or not prev[-2].isalpha() or not nxt or not nxt[0].isalpha():
        return None
    head = prev[:-1].rsplit(None, 1)[-1]
    head_core = re.sub(r"^\W+", "", head)
    tail_core = re.sub(r"\W+$", "", nxt.split(None, 1)[0])
    if not head_core or not tail_core:
        return None
    keep = prev[:-1] + "-" + nxt
    drop = prev[:-1] + nxt
    if tail_core.lower() in ("and", "or", "to", "vs", "versus"):
        return None  # "pre- and post-processing"
    if "-" in head_core or "\u2010" in head_core:
        return keep  # "state-of-the-" + "art": the hyphens are real
    joined = (head_core + tail_core).lower()
    hyphenated = (head_core + "-" + tail_core).lower()
    if vocab.get(joined, 0) and vocab.get(joined, 0) >= vocab.get(hyphenated, 0):
        return drop
    if vocab.get(hyphenated, 0):
        return keep
    tail_l = tail_core.lower()
    if (
        len(head_core) >= 4
        and len(tail_core) >= 4
        and tail_l not in SUFFIXES
        and vocab.get(head_core.lower(), 0) >= 1
        and vocab.get(tail_l, 0) >= 2
    ):
        return keep  # two words in their own right: "bibliography-" + "paper"
    if tail_core[0].isupper() and not head_core.isupper():
        return keep  # "Non-" + "English"
    return drop


def _block_text(lines: list[Line], vocab: Counter[str]) -> str:
    text = " ".join(lines[0].text.split())
    for ln in lines[1:]:
        nxt = " ".join(ln.text.split())
        joined = _dehyphenate(text, nxt, vocab)
        text = joined if joined is not None else f"{text} {nxt}"
    return text


class _Block:
    __slots__ = ("lines", "kind", "section", "page", "col", "heading")

    def __init__(self, first: Line, kind: BlockKind, section: str):
        self.lines = [first]
        self.kind = kind
        self.section = section
        self.page = first.page
        self.col = first.col
        self.heading = False

    @property
    def size(self) -> float:
        sizes: Counter[float] = Counter()
        for ln in self.lines:
            sizes[ln.size] += len(ln.text)
        return _most_common(sizes)


def _build_blocks(pages: list[PageData], doc: _Doc, title_lines: set[int]) -> list[_Block]:
    blocks: list[_Block] = []
    section = ""
    in_refs = False
    structured = False  # seen a numbered or well-known heading (the front matter is over)
    cur: _Block | None = None
    for p in pages:
        page_blocks: list[_Block] = []
        prev: Line | None = None
        doc.local_pitch.clear()
        for ln in p.lines:
            kind: BlockKind | None = None  # kind of a new block starting at this line
            new = False
            if ln.table is not None:
                cur = _Block(ln, BlockKind.REFERENCE if in_refs else BlockKind.TABLE, section)
                page_blocks.append(cur)
                cur = None
                prev = None
                continue
            if id(ln) in title_lines:
                if cur is not None and cur.heading and cur.kind is BlockKind.HEADING and id(cur.lines[-1]) in title_lines:
                    cur.lines.append(ln)
                else:
                    cur = _Block(ln, BlockKind.HEADING, section)
                    cur.heading = True
                    page_blocks.append(cur)
                prev = ln
                continue
            if (
                cur is not None
                and cur.heading
                and prev is not None
                and prev is cur.lines[-1]
                and _continues_heading(prev, ln)
            ):
                cur.lines.append(ln)  # a heading wrapped onto a second line
                if cur.kind is BlockKind.HEADING and cur.section and not in_refs:
                    section = _block_text(cur.lines, doc.vocab)
                    cur.section = section
                prev = ln
                continue
            continues = (
                cur is not None
                and not cur.heading
                and prev is not None
                and not (_new_reference if in_refs else _new_paragraph)(prev, ln, p, doc, cur)
            )
            right = p.edges.get(ln.col, (ln.x0, ln.x1, ln.x0))[1]
            hk = _heading_kind(ln, doc, in_refs, right, continues)
            if hk == "styled" and not structured and p.number == 1:
                hk = None  # bold author names and affiliations on the title page
            if hk is not None:
                structured = structured or hk != "styled"
                text = " ".join(ln.text.split())
                bare = re.sub(r"^(?:\d+(?:\.\d+)*\.?)\s+", "", text).rstrip(":.").strip().lower()
                if bare in REFERENCE_HEADINGS:
                    in_refs = True
                    section = "References"
                elif in_refs:
                    if hk in ("numbered", "known"):  # an appendix ("A Proofs", "Appendix") ends them
                        in_refs = False
                        section = text
                    else:
                        hk = None
                else:
                    section = text
                if hk is not None:
                    cur = _Block(ln, BlockKind.HEADING, section)
                    cur.heading = True
                    page_blocks.append(cur)
                    prev = ln
                    continue
            # Body line: continue the current block or start a new one?
            if in_refs:
                kind = BlockKind.REFERENCE
                new = cur is None or cur.heading or _new_reference(prev, ln, p, doc)
            else:
                if doc.is_caption(ln):
                    kind, new = BlockKind.CAPTION, True
                elif _is_list_start(ln, prev, cur):
                    kind, new = BlockKind.LIST, True
                elif _starts_footnote(ln):
                    kind, new = BlockKind.PARAGRAPH, True
                else:
                    kind = BlockKind.PARAGRAPH
                    new = cur is None or cur.heading or _new_paragraph(prev, ln, p, doc, cur)
            if new or cur is None or prev is None:
                cur = _Block(ln, kind, section)
                page_blocks.append(cur)
            else:
                doc.saw_pitch(prev, ln)
                cur.lines.append(ln)
            prev = ln
        _mark_footnotes(page_blocks, p, doc)
        blocks.extend(page_blocks)
        cur = None
    return blocks


def _continues_heading(prev: Line, ln: Line) -> bool:
    text = ln.text.strip()
    return (
        abs(prev.size - ln.size) < 0.3
        and abs(prev.bold - ln.bold) < 0.2
        and prev.font == ln.font
        and 0 < ln.ctop - prev.ctop < 1.6 * ln.size
        and len(text.split()) <= 10
        and not NUMBERED_HEADING.match(text)
        and not prev.text.rstrip().endswith((".", ":"))
    )


def _new_paragraph(prev: Line | None, ln: Line, p: PageData, doc: _Doc, cur: _Block) -> bool:
    if prev is None or prev.col != ln.col or prev.table is not None:
        return True
    pitch = ln.ctop - prev.ctop
    em = ln.size
    dx = ln.x0 - prev.x0
    local_right = max(max(x.x1 for x in cur.lines), ln.x1)
    prev_short = prev.x1 < local_right - 1.5 * em
    if abs(prev.size - ln.size) > 0.6:
        # A different size starts a new block, unless a short line just carries on the previous
        # one at the usual pitch (a line of small capitals or math: "SCIB-" / "ERT-SCIVOCAB.").
        carries_on = (
            len(ln.words) <= 3
            and abs(dx) < 0.4 * prev.size
            and not prev_short
            and 0 < pitch <= 1.35 * doc.usual_pitch(prev) + 0.5
        )
        if not carries_on:
            return True
    if cur.kind is BlockKind.CAPTION and ln.size < prev.size - 0.3:
        return True
    usual = doc.usual_pitch(ln)
    if pitch < -0.5 * ln.size:
        return True  # moved back up: a new item in the reading order
    if pitch > 1.35 * usual + 0.5:
        return True
    if cur.kind is BlockKind.LIST:
        # Continuation lines of an item hang under its text; back at the marker's margin after a
        # short line is a new paragraph.
        return ln.x0 < cur.lines[0].x0 + 0.4 * em and prev_short
    if 0.6 * em <= dx <= 4 * em:
        return True  # first-line indent
    left = p.edges.get(ln.col, (ln.x0, ln.x1, ln.x0))[0]
    if abs(dx) < 0.4 * em and prev_short and 0.6 * em <= ln.x0 - left <= 4 * em:
        return True  # an indented one-line paragraph followed by another paragraph
    return False


def _new_reference(prev: Line | None, ln: Line, p: PageData, doc: _Doc, cur: _Block | None = None) -> bool:
    if prev is None or prev.col != ln.col or prev.table is not None:
        return True
    text = ln.text.lstrip()
    if REF_LABEL.match(text):
        return True
    pitch = ln.ctop - prev.ctop
    if pitch < -0.5 * ln.size or pitch > 1.35 * doc.usual_pitch(ln) + 0.5 or abs(prev.size - ln.size) > 0.6:
        return True
    _, _, min_left = p.edges.get(ln.col, (ln.x0, ln.x1, ln.x0))
    em = ln.size
    # Hanging indents: an entry's first line sits at the margin, its continuation lines are indented.
    if ln.x0 - min_left < 0.4 * em and prev.x0 - min_left > 0.6 * em:
        return True
    if ln.x0 - min_left < 0.4 * em and prev.x0 - min_left < 0.4 * em and _column_hangs(p, ln.col, min_left, em):
        return True
    return False


def _column_hangs(p: PageData, col: str, min_left: float, em: float) -> bool:
    return any(0.6 * em <= ln.x0 - min_left <= 4 * em for ln in p.lines if ln.col == col and ln.table is None)


def _mark_footnotes(blocks: list[_Block], p: PageData, doc: _Doc) -> None:
    """Small-print blocks at the foot of a column, below all body text of that column."""
    by_col: dict[str, list[_Block]] = {}
    for b in blocks:
        by_col.setdefault(b.col, []).append(b)
    for col_blocks in by_col.values():
        for b in sorted(col_blocks, key=lambda b: -max(ln.bottom for ln in b.lines)):
            top = min(ln.top for ln in b.lines)
            if b.kind in (BlockKind.PARAGRAPH, BlockKind.LIST) and b.size <= doc.body_size - 0.5 and p.rel(top) > 0.5:
                b.kind = BlockKind.FOOTNOTE
                continue
            break


# ---------------------------------------------------------------------------------------------
# Title and year


def _title_lines(pages: list[PageData], doc: _Doc) -> tuple[set[int], str | None]:
    """The title on page 1: the first run of lines in its largest font (in the top half, clearly
    larger than body text). Returns the lines' ids and the text."""
    if not pages:
        return set(), None
    p = pages[0]
    candidates = [ln for ln in p.lines if ln.table is None and p.rel(ln.top) < 0.5 and sum(c.isalpha() for c in ln.text) >= 3]
    if not candidates:
        return set(), None
    biggest = max(ln.size for ln in candidates)
    if biggest < doc.body_size + 1.5:
        return set(), None
    candidate_ids = {id(ln) for ln in candidates}
    run: list[Line] = []
    for ln in p.lines:
        if id(ln) in candidate_ids and ln.size >= biggest - 0.5:
            if run and ln.ctop - run[-1].ctop > 2.2 * ln.size:
                break
            run.append(ln)
        elif run:
            break
    text = " ".join(" ".join(ln.text for ln in run).split())
    if not text or NUMBERED_HEADING.match(text) or text.lower().rstrip(":.") in KNOWN_HEADINGS or len(text) > 300:
        return set(), None
    return {id(ln) for ln in run}, text


def _metadata_title(meta: dict) -> str | None:
    raw = meta.get("Title")
    if isinstance(raw, bytes):
        raw = raw.decode("utf-8", "ignore")
    if not isinstance(raw, str):
        return None
    title = " ".join(raw.replace("\x00", "").split())
    if len(title) < 4 or sum(c.isalpha() for c in title) < 3 or JUNK_TITLE.match(title):
        return None
    if " " not in title and (re.search(r"[\d_.]", title) or title.islower() or len(title) > 25):
        return None  # a file name or identifier, not a title
    return title


def _year(meta: dict, stamp: str, first_page_text: str) -> int | None:
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


# ---------------------------------------------------------------------------------------------
# Entry point


def _open(path: Path) -> Any:
    try:
        with open(path, "rb") as fh:
            head = fh.read(1024)
    except OSError as exc:
        raise LoadError(f"cannot read file: {exc.strerror or exc}") from None
    if not head.strip():
        raise LoadError("the file is empty")
    if b"%PDF-" not in head:
        raise LoadError("the file is corrupt or not a PDF (no %PDF header)")
    try:
        return pdfplumber.open(path)
    except Exception as exc:  # noqa: BLE001 - pdfminer raises many types; none may escape
        raise _load_error(exc) from None


def _load_error(exc: BaseException) -> LoadError:
    """A readable LoadError for whatever pdfminer/pdfplumber raised while opening the file."""
    inner = exc
    if isinstance(exc, PdfminerException) and exc.args and isinstance(exc.args[0], BaseException):
        inner = exc.args[0]
    if isinstance(inner, PDFPasswordIncorrect):
        return LoadError("the PDF is encrypted (password protected)")
    if isinstance(inner, PDFEncryptionError):
        return LoadError(f"the PDF is encrypted with an unsupported method ({_reason(inner)})")
    # PDFSyntaxError, PSEOF (truncated files), broken xref tables and object streams, ...
    return LoadError(f"the PDF is corrupt or unreadable ({_reason(inner)})")


def _reason(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    if isinstance(exc, PSEOF) or text == "Unexpected EOF":
        text = "unexpected end of file: truncated?"
    return text[:160]


def load_pdf(path: Path) -> LoadedDocument:
    """Read a PDF into blocks (page, bounding box, section, kind, text) in reading order."""
    _quiet_pdfminer()
    path = Path(path)
    pdf = _open(path)
    extractor = WordExtractor(
        x_tolerance_ratio=WORD_GAP_RATIO,
        y_tolerance=3,
        extra_attrs=["fontname", "size"],
        keep_blank_chars=False,
        use_text_flow=False,
    )
    pages: list[PageData] = []
    vocab: Counter[str] = Counter()
    stamp = ""
    errors: list[str] = []
    try:
        try:
            page_list = pdf.pages
            meta = dict(pdf.metadata or {})
        except Exception as exc:  # noqa: BLE001
            raise _load_error(exc) from None
        if not page_list:
            raise LoadError("the PDF has no pages")
        for number, page in enumerate(page_list, start=1):
            try:
                data, words, page_stamp = _extract_page(page, number, extractor)
            except LoadError:
                raise
            except Exception as exc:  # noqa: BLE001 - a broken page must not sink the document
                errors.append(f"page {number}: {_reason(exc)}")
                data, words, page_stamp = PageData(number, (0.0, 0.0, 612.0, 792.0)), [], ""
            finally:
                page.close()
            if page_stamp and not stamp and number <= 2:
                stamp = page_stamp
            texts = [seg.text for seg in data.segments] + [row for t in data.tables for _, row, _ in t.rows]
            for text in texts:
                for token in text.split():
                    token = token.strip(TOKEN_PUNCT).lower()
                    if token:
                        vocab[token] += 1
            pages.append(data)
        page_count = len(page_list)
    finally:
        pdf.close()
    if errors and len(errors) == page_count:
        raise LoadError(f"the PDF is corrupt or unreadable ({errors[0]})")
    if errors:
        logger.warning("%s: skipped unreadable content on %s", path.name, "; ".join(errors))
    if not any(p.segments or p.tables for p in pages):
        raise LoadError("no text could be extracted (a scanned PDF without a text layer?)")

    try:
        return _layout(pages, vocab, meta, stamp, page_count)
    except Exception as exc:  # noqa: BLE001 - a layout bug on an odd PDF: report it, don't crash the batch
        logger.exception("%s: laying out the extracted text failed", path.name)
        raise LoadError(f"the PDF's layout could not be analysed ({type(exc).__name__}: {_reason(exc)})") from None


def _layout(pages: list[PageData], vocab: Counter[str], meta: dict, stamp: str, page_count: int) -> LoadedDocument:
    """Pass 2: headers and footers, reading order, lines, blocks, title and year."""
    sizes: Counter[float] = Counter()
    for p in pages:
        for seg in p.segments:
            for w in seg.words:
                sizes[round(w.size, 1)] += len(w.text)
    body_size = _most_common(sizes) if sizes else 10.0
    _strip_headers_footers(pages, _metadata_title(meta), body_size)
    for p in pages:
        _build_lines(p, body_size)
    doc = _Doc(pages, vocab)
    title_ids, visual_title = _title_lines(pages, doc)
    blocks = _build_blocks(pages, doc, title_ids)

    raw_blocks: list[RawBlock] = []
    for b in blocks:
        words = [w for ln in b.lines for w in ln.words]
        text = b.lines[0].text if b.lines[0].table is not None else _block_text(b.lines, vocab)
        if not text.strip():
            continue
        if b.kind is not BlockKind.TABLE and len(text) <= 12 and not any(ch.isalpha() for ch in text):
            continue  # stray figure labels and callout numbers: nothing to read or cite
        # The union of the words' boxes, rounded outwards to 0.01 pt.
        bbox = BBox(
            x0=math.floor(min(w.x0 for w in words) * 100) / 100,
            top=math.floor(min(w.top for w in words) * 100) / 100,
            x1=math.ceil(max(w.x1 for w in words) * 100) / 100,
            bottom=math.ceil(max(w.bottom for w in words) * 100) / 100,
        )
        raw_blocks.append(RawBlock(page=b.page, bbox=bbox, section=b.section, kind=b.kind, text=text))

    first_page_text = " ".join(ln.text for ln in pages[0].lines) if pages else ""
    return LoadedDocument(
        title=_metadata_title(meta) or visual_title,
        page_count=page_count,
        year=_year(meta, stamp, first_page_text),
        blocks=raw_blocks,
    )
