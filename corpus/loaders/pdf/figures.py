"""Figures: the text a figure draws (tick values, axis labels, legends, a diagram's labels) is
the figure's, not the page's prose, so it becomes a block of its own, kind ``figure``, kept with
the document (a citation of it resolves) but in no chunk: it is neither embedded, searched nor
quoted. The caption ("Figure 3: ...") is prose and stays.

Found in the two passes of the loader:

1. Per page (``drawing_regions``): where the page draws, as connected clusters of its paths and
   images (a plot's axes, bars and curves touch or nearly touch). A cluster is a drawing when it
   holds an image of some size or ``MIN_PATHS`` paths, and is not most of the page (a page frame, a
   background, a scanned page under its own text layer).
2. Per document, once the body size is known (``separate_figures``): a drawing's text is the text
   inside it, and the pieces of text right beside it or beside those, up to a few ems away (tick
   values under the axis, the axis label under them, a legend beside the plot). Never a line of
   prose (most of its words lower-case words, or a run of Chinese or Korean letters), nor a piece
   right above, below or beside one (a paragraph's short last line, a table's row label), a
   caption start, a sub-figure label, text larger than the body's (a title over a cover
   picture) or a bold line in the body's size (a section heading on a decorated banner). A drawing whose own text is mostly prose (a framed text box, a sidebar on a tinted
   background, a photograph beside a biography) is no figure, nor is one a "Table N" caption
   stands against (a table drawn with shaded rows that table detection did not take): their text
   stays where it is. On page 1 a drawing holding an image is left alone: a cover picture or the
   logos beside a byline stand against the title and the authors, which are read from the page's
   lines.

A document whose text is mostly in figures (a chart, a diagram or a poster saved as a PDF) keeps
it all as prose (``document``): nothing is lost to search where it is the main content.
"""

from __future__ import annotations

import re
from collections import deque

from corpus.loaders.pdf.captions import CAPTION
from corpus.loaders.pdf.elements import PageData, Segment, Table
from corpus.loaders.pdf.page_objects import Box, Drawn
from corpus.loaders.pdf.words import group_rows

# Cell size (pt) of the grid paths are clustered on: paths this close belong to one drawing.
GRID = 5.0
# A cluster of at least this many paths (lines, rectangles, curves) is a drawing...
MIN_PATHS = 8
# ...or one holding an image of at least this area (pt², about 4 x 3 cm).
MIN_IMAGE_AREA = 3000.0
# A cluster covering more of the page than this is a frame, a background or a scanned page.
MAX_PAGE_SHARE = 0.6
# Pages drawing more paths than this are clustered on their largest ones only (a scatter plot of
# 100,000 points is one drawing whatever its points).
MAX_BOXES = 20000
# Beside a drawing: text within this many ems of it, or of text already found beside it.
BESIDE_EM = 0.9
# Text this many ems from a drawing or further is never its text.
MAX_REACH_EM = 4.0
# A piece of a sentence: this many words or more, at least this share of them lower-case words...
PROSE_MIN_WORDS = 5
PROSE_LOWER_SHARE = 0.5
# A shorter piece is prose with two lower-case words at least, and this share of its words.
SHORT_PROSE_LOWER_SHARE = 0.6
# ...or this many letters of a script without case.
PROSE_CASELESS_LETTERS = 8
# A drawing whose text inside it is at least this share prose (in characters) is a text box.
PROSE_SHARE = 0.5
# Text larger than the body by this factor is a title or a heading, never a figure's label.
MAX_LABEL_SCALE = 1.25

# A table's caption starting this many ems from a drawing or closer is the drawing's (a caption of
# four lines above its table starts that far from it).
CAPTION_EM = 6.0

_SUBFIGURE = re.compile(r"^\(?[a-z]\)\s", re.IGNORECASE)
Drawing = tuple[Box, bool]  # (x0, x1, top, bottom), whether it holds an image

_PUNCTUATION = ".,;:!?()[]\"'“”‘’"
# A numbered caption's start, with or without punctuation after the number ("Figure 3-10 Column
# masks", "Abbildung 3.10:", "Table 2 Results", "TABLE IV").
_CAPTION_START = re.compile(
    r"^(?:figure|fig\.?|table|tab\.|chart|exhibit|graph|scheme|abbildung|abb\.|tabelle)\s*"
    r"(?:[A-Z]?\d+(?:[.\-–]\d+)*[a-z]?|[IVXLC]+)\b",
    re.IGNORECASE,
)
_TABLE_CAPTION = re.compile(r"^(?:table|tab\.|tabelle)", re.IGNORECASE)
# Code in a listing: an assignment, a call, a prompt or braces; read as prose, never as a figure's labels.
_CODE = re.compile(r"\s=\s|>>>|\w\(.*\)|[{};]\s*$")


def drawing_regions(drawn: Drawn, page_box: tuple[float, float, float, float]) -> list[Drawing]:
    """The page's drawings: clusters of paths and images drawn densely enough to be figures, each
    as its box (x0, x1, top, bottom) and whether it holds an image."""
    boxes = drawn.boxes
    if len(boxes) < MIN_PATHS and not any(_area(b) >= MIN_IMAGE_AREA for b in drawn.images):
        return []
    if len(boxes) > MAX_BOXES:
        boxes = sorted(boxes, key=_area, reverse=True)[:MAX_BOXES]
    items = [*boxes, *drawn.images, *drawn.edges]
    labels = _cluster(items)
    left, top, right, bottom = page_box
    page_area = max((right - left) * (bottom - top), 1.0)
    regions: dict[int, list[float]] = {}  # label -> [x0, x1, top, bottom, paths, image area]
    for i, (box, label) in enumerate(zip(items, labels, strict=True)):
        r = regions.setdefault(label, [box[0], box[1], box[2], box[3], 0.0, 0.0])
        r[0], r[1], r[2], r[3] = min(r[0], box[0]), max(r[1], box[1]), min(r[2], box[2]), max(r[3], box[3])
        if i < len(boxes):
            r[4] += 1
        elif i < len(boxes) + len(drawn.images):
            r[5] += _area(box)
    out: list[Drawing] = []
    for x0, x1, rtop, rbottom, paths, image_area in regions.values():
        dense = paths >= MIN_PATHS or image_area >= MIN_IMAGE_AREA
        if (
            dense
            and x1 - x0 >= 20
            and rbottom - rtop >= 15
            and (x1 - x0) * (rbottom - rtop) <= MAX_PAGE_SHARE * page_area
        ):
            out.append(((x0, x1, rtop, rbottom), image_area > 0))
    out.sort(key=lambda d: (d[0][2], d[0][0]))
    return out


def _area(box: Box) -> float:
    return max(box[1] - box[0], 0.0) * max(box[3] - box[2], 0.0)


def _cluster(items: list[Box]) -> list[int]:
    """A cluster label per box: boxes whose grid cells touch (8-connected) share one."""
    cells: dict[tuple[int, int], int] = {}  # cell -> index of the first box covering it
    parent = list(range(len(items)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, (x0, x1, top, bottom) in enumerate(items):
        for cx in range(int(x0 // GRID), int(x1 // GRID) + 1):
            for cy in range(int(top // GRID), int(bottom // GRID) + 1):
                j = cells.setdefault((cx, cy), i)
                if j != i:
                    parent[find(j)] = find(i)
    # Neighbouring cells join their boxes too: paths a few points apart (a bar beside the next).
    for (cx, cy), i in cells.items():
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            j = cells.get((cx + dx, cy + dy))
            if j is not None:
                a, b = find(i), find(j)
                if a != b:
                    parent[a] = b
    return [find(i) for i in range(len(items))]


def separate_figures(p: PageData, body_size: float) -> None:
    """Move the text of the page's figures out of its segments into figure items (``Table`` with
    ``figure`` set), which become blocks of kind ``figure``."""
    if not p.drawings or not p.segments:
        return
    taken: set[int] = set()
    figures: list[Table] = []
    for region, image in p.drawings:
        if p.number == 1 and image:
            continue  # a cover picture, a logo beside the byline: page 1's title and authors are read from its lines
        segs = _figure_text(region, [s for s in p.segments if id(s) not in taken], body_size)
        if not segs:
            continue
        taken.update(id(s) for s in segs)
        figures.append(_figure(segs))
    if figures:
        p.segments = [s for s in p.segments if id(s) not in taken]
        p.tables = sorted([*p.tables, *figures], key=lambda t: (t.top, t.x0))


def _figure_text(region: Box, segs: list[Segment], body_size: float) -> list[Segment]:
    """The segments that are the drawing's text, or none when the drawing is no figure."""
    if _is_table_picture(region, segs):
        return []  # a table drawn as a picture is a table, whose cells are searched
    near = [s for s in segs if _gap(region, s) <= MAX_REACH_EM * s.ref_size]
    enclosed = [s for s in near if _encloses(region, s)]
    if _mostly_prose(enclosed, body_size):
        return []  # a text box, a sidebar, a photograph beside a biography
    return _labels_reached(region, _labels(near, body_size), enclosed)


def _mostly_prose(enclosed: list[Segment], body_size: float) -> bool:
    """Whether the text the drawing encloses is mostly prose (there is any)."""
    enclosed_prose = sum(s.nchars for s in enclosed if _is_prose(s, body_size))
    return enclosed_prose >= PROSE_SHARE * sum(s.nchars for s in enclosed) and bool(enclosed)


def _labels(near: list[Segment], body_size: float) -> list[Segment]:
    """The segments near the drawing that may label it: no prose, and not touching prose."""
    prose = [s for s in near if _is_prose(s, body_size)]
    return [s for s in near if _may_be_label(s, body_size) and not _is_prose(s, body_size) and not _touches(s, prose)]


def _is_table_picture(region: Box, segs: list[Segment]) -> bool:
    """A table's caption ("Table 2: ...") right at the drawing: a table drawn as a picture."""
    return any(
        _TABLE_CAPTION.match(s.text) and _CAPTION_START.match(s.text) and _gap(region, s) <= CAPTION_EM * s.ref_size
        for s in segs
    )


def _encloses(region: Box, s: Segment) -> bool:
    """Whether the segment's middle lies within the drawing (a point of slack each way)."""
    x0, x1, top, bottom = region
    return x0 - 1 <= (s.x0 + s.x1) / 2 <= x1 + 1 and top - 1 <= (s.top + s.bottom) / 2 <= bottom + 1


def _labels_reached(region: Box, labels: list[Segment], enclosed: list[Segment]) -> list[Segment]:
    """The labels inside the drawing, then those beside it or beside a label found beside it."""
    inside = [s for s in labels if any(x is s for x in enclosed)]
    found = {id(s) for s in inside}
    queue: deque[Box] = deque([region])
    while queue:
        box = queue.popleft()
        for s in labels:
            if id(s) not in found and _gap(box, s) <= BESIDE_EM * s.ref_size:
                found.add(id(s))
                inside.append(s)
                queue.append((s.x0, s.x1, s.top, s.bottom))
    return inside


def _is_prose(s: Segment, body_size: float) -> bool:
    """A piece of a sentence: several words, most of them lower-case words ("of the plants that"),
    a run of letters of a script without case (Chinese, Korean), or a line of code; not tick values,
    names, labels in capitals or a legend's entries."""
    words = s.text.split()
    if len(words) >= 3 and _CODE.search(s.text):
        return True
    caseless = sum(1 for ch in s.text if ch.isalpha() and ch.lower() == ch.upper())
    if caseless >= PROSE_CASELESS_LETTERS:
        return True
    lower = sum(1 for w in words if w.strip(_PUNCTUATION).isalpha() and w.strip(_PUNCTUATION).islower())
    if len(words) < PROSE_MIN_WORDS:  # a short piece of a narrow column ("For information and"),
        # not an axis label in smaller type ("Training steps (thousands)")
        return s.ref_size >= body_size - 0.5 and lower >= 2 and lower >= SHORT_PROSE_LOWER_SHARE * len(words)
    return lower >= PROSE_LOWER_SHARE * len(words)


def _touches(s: Segment, prose: list[Segment]) -> bool:
    """Right above, below or beside a line of prose: a paragraph's short last line, a table's label
    cell beside its sentence."""
    em = s.ref_size
    for p in prose:
        overlap_x = min(s.x1, p.x1) - max(s.x0, p.x0) > 0
        overlap_y = min(s.bottom, p.bottom) - max(s.top, p.top) > 0
        dy = max(p.top - s.bottom, s.top - p.bottom, 0.0)
        dx = max(p.x0 - s.x1, s.x0 - p.x1, 0.0)
        if (overlap_x and dy <= 0.8 * em) or (overlap_y and dx <= 2.0 * em):
            return True
    return False


def _may_be_label(s: Segment, body_size: float) -> bool:
    text = s.text
    heading = s.ref_size >= body_size - 0.5 and all(w.bold for w in s.words)  # "3 Results" in a banner
    return (
        s.ref_size <= MAX_LABEL_SCALE * body_size
        and not heading
        and not CAPTION.match(text)
        and not _CAPTION_START.match(text)
        and not _SUBFIGURE.match(text)
    )


def _gap(box: Box, s: Segment) -> float:
    """The distance between a box and a segment (0 when they overlap): the larger of the two axes'."""
    dx = max(box[0] - s.x1, s.x0 - box[1], 0.0)
    dy = max(box[2] - s.bottom, s.top - box[3], 0.0)
    return max(dx, dy)


def _figure(segs: list[Segment]) -> Table:
    """A figure item: its rows of text, top to bottom, pieces of a row left to right."""
    t = Table(min(s.x0 for s in segs), min(s.top for s in segs), max(s.x1 for s in segs), max(s.bottom for s in segs))
    t.figure = True
    for row in group_rows(sorted(segs, key=lambda s: (s.top, s.x0))):
        t.rows.append((min(s.top for s in row), " ".join(s.text for s in row), [w for s in row for w in s.words]))
    return t
