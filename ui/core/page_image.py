"""A PDF page rendered as an image with a citation drawn on it (pdfplumber, which renders with
pypdfium2): each cited block framed, and inside the frame the quoted lines filled.

Bboxes are in PDF points from the page's top-left, pdfplumber's own convention, so they are drawn
with ``PageImage.draw_rect`` unchanged. The quoted lines are found among the block's characters by
comparing text with whitespace and hyphens removed (so line breaks and hyphenation do not matter);
if the quote cannot be placed, only the frame is drawn. A citation over two blocks on two pages
gives both pages, stacked.

Each citation gets two pictures from one rendering: the **zoom**, the cited blocks with a margin
of the text around them at ``ZOOM_RESOLUTION`` (a 9 pt line reads at its natural size in the evidence
panel, without fullscreen), and the **whole page** at ``RESOLUTION``, to see where on the page it is.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pdfplumber
from PIL import Image

from corpus.models import BBox

#: The whole page's resolution: the layout at a glance; body text reads in fullscreen.
RESOLUTION = 120
#: The zoom's resolution: about 2.8 pixels a point, so 9 pt body text is 25 pixels high.
ZOOM_RESOLUTION = 200
#: Points of page shown around the cited blocks in the zoom: a line or two of context above and below.
ZOOM_MARGIN = 24.0
#: Points of padding around a block's box, so the frame does not touch the glyphs.
PAD = 3.0
STROKE = (220, 60, 0)
STROKE_WIDTH = 4
BLOCK_FILL = (255, 200, 0, 30)
QUOTE_FILL = (255, 210, 0, 110)
_SKIP = frozenset("-\u00ad\u2010\u2011\u2012\u2013\u2212")
#: Characters whose tops differ by less than this many points are on one line.
LINE_TOLERANCE = 2.0


@dataclass(frozen=True)
class CitedArea:
    page: int  # 1-based
    bbox: BBox
    quote: str  # the stored text the citation matched in this block


@dataclass(frozen=True)
class RenderedCitation:
    zoom: Image.Image  # the cited blocks and a margin around them, large enough to read
    pages: Image.Image  # the whole page(s), top to bottom


def render_pages(pdf_path: Path, areas: Sequence[CitedArea]) -> RenderedCitation:
    """The pages the areas are on, each block framed and its quoted lines filled: zoomed on the
    blocks, and whole."""
    by_page: dict[int, list[CitedArea]] = {}
    for area in areas:
        by_page.setdefault(area.page, []).append(area)
    zooms, pages = [], []
    scale = ZOOM_RESOLUTION / 72
    with pdfplumber.open(pdf_path) as pdf:
        for page_no in sorted(by_page):
            page = pdf.pages[page_no - 1]
            image = page.to_image(resolution=ZOOM_RESOLUTION)
            frames = []
            for area in by_page[page_no]:
                frame = (
                    max(0.0, area.bbox.x0 - PAD),
                    max(0.0, area.bbox.top - PAD),
                    min(float(page.width), area.bbox.x1 + PAD),
                    min(float(page.height), area.bbox.bottom + PAD),
                )
                frames.append(frame)
                for line in quoted_lines(page.crop(frame).chars, area.quote):
                    image.draw_rect(line, fill=QUOTE_FILL, stroke=QUOTE_FILL, stroke_width=0)
                image.draw_rect(frame, fill=BLOCK_FILL, stroke=STROKE, stroke_width=STROKE_WIDTH)
            drawn = image.annotated.convert("RGB")
            around = (
                max(0.0, min(f[0] for f in frames) - ZOOM_MARGIN),
                max(0.0, min(f[1] for f in frames) - ZOOM_MARGIN),
                min(float(page.width), max(f[2] for f in frames) + ZOOM_MARGIN),
                min(float(page.height), max(f[3] for f in frames) + ZOOM_MARGIN),
            )
            zooms.append(drawn.crop(tuple(round(v * scale) for v in around)))
            shrink = RESOLUTION / ZOOM_RESOLUTION
            pages.append(drawn.resize((round(drawn.width * shrink), round(drawn.height * shrink)), Image.LANCZOS))
    return RenderedCitation(zoom=_stack(zooms), pages=_stack(pages))


def _folded(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKC", text).casefold() if not c.isspace() and c not in _SKIP)


def quoted_lines(chars: list[dict], quote: str) -> list[tuple[float, float, float, float]]:
    """Boxes (x0, top, x1, bottom) of the lines holding ``quote`` among ``chars``; [] if not found."""
    keys: list[str] = []
    owners: list[int] = []
    for i, char in enumerate(chars):
        for folded in _folded(char["text"]):
            keys.append(folded)
            owners.append(i)
    needle = _folded(quote)
    start = "".join(keys).find(needle) if needle else -1
    if start < 0:
        return []
    hit = [chars[i] for i in sorted(set(owners[start : start + len(needle)]))]
    lines: list[list[dict]] = []
    for char in sorted(hit, key=lambda c: (c["top"], c["x0"])):
        if lines and abs(lines[-1][0]["top"] - char["top"]) < LINE_TOLERANCE:
            lines[-1].append(char)
        else:
            lines.append([char])
    return [
        (
            min(c["x0"] for c in line) - 1,
            min(c["top"] for c in line) - 1,
            max(c["x1"] for c in line) + 1,
            max(c["bottom"] for c in line) + 1,
        )
        for line in lines
    ]


def _stack(images: list[Image.Image]) -> Image.Image:
    if len(images) == 1:
        return images[0]
    gap = 12
    width = max(i.width for i in images)
    canvas = Image.new("RGB", (width, sum(i.height for i in images) + gap * (len(images) - 1)), "#9aa0a6")
    y = 0
    for image in images:
        canvas.paste(image, (0, y))
        y += image.height + gap
    return canvas
