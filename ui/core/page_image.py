"""A PDF page rendered as an image with a citation drawn on it (pdfplumber, which renders with
pypdfium2): the quote's own words boxed (``tools.citations.word_boxes``), each cited block's frame
kept lighter around them. A quote whose words could not be placed shows only the frames. A citation
over two blocks on two pages gives both pages, stacked.

Boxes are in PDF points from the page's top-left, pdfplumber's own convention, so they are drawn
with ``PageImage.draw_rect`` unchanged.

Each citation gets two pictures from one rendering: the **zoom**, the cited blocks with a margin
of the text around them at ``ZOOM_RESOLUTION`` (a 9 pt line reads at its natural size in the evidence
panel, without fullscreen), and the **whole page** at ``RESOLUTION``, to see where on the page it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from corpus.models import BBox
from tools.citations.word_boxes import WordBox

#: The whole page's resolution: the layout at a glance; body text reads in fullscreen.
RESOLUTION = 120
#: The zoom's resolution: about 2.8 pixels a point, so 9 pt body text is 25 pixels high.
ZOOM_RESOLUTION = 200
#: Points of page shown around the cited blocks in the zoom: a line or two of context above and below.
ZOOM_MARGIN = 24.0
#: Points of padding around a block's box, so the frame does not touch the glyphs.
PAD = 3.0
#: Padding around a run of quoted words, so the box does not cut through the glyphs.
WORD_PAD = 1.0
#: The block's frame: where the quote is, drawn lighter than the quote's own words.
FRAME_STROKE = (240, 150, 80)
FRAME_WIDTH = 3
BLOCK_FILL = (255, 200, 0, 20)
#: The quoted words: filled, and boxed in a darker colour than the frame.
QUOTE_FILL = (255, 210, 0, 110)
WORD_STROKE = (200, 30, 30)
WORD_WIDTH = 2


@dataclass(frozen=True)
class CitedArea:
    page: int  # 1-based
    bbox: BBox


@dataclass(frozen=True)
class RenderedCitation:
    zoom: Image.Image  # the cited blocks and a margin around them, large enough to read
    pages: Image.Image  # the whole page(s), top to bottom


def render_pages(pdf: Any, areas: Sequence[CitedArea], words: Sequence[WordBox]) -> RenderedCitation:
    """The pages of ``pdf`` (an open pdfplumber PDF) the areas are on, each block framed and the
    quoted ``words`` boxed: zoomed on the blocks, and whole."""
    by_page: dict[int, list[CitedArea]] = {}
    for area in areas:
        by_page.setdefault(area.page, []).append(area)
    zooms, pages = [], []
    scale = ZOOM_RESOLUTION / 72
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
            image.draw_rect(frame, fill=BLOCK_FILL, stroke=FRAME_STROKE, stroke_width=FRAME_WIDTH)
        for word in words:
            if word.page == page_no:
                b = word.bbox
                box = (b.x0 - WORD_PAD, b.top - WORD_PAD, b.x1 + WORD_PAD, b.bottom + WORD_PAD)
                image.draw_rect(box, fill=QUOTE_FILL, stroke=WORD_STROKE, stroke_width=WORD_WIDTH)
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
