"""Pass 1 for a scanned page: render it, read it by OCR (``corpus.ocr``), and give its words to the
layout as a text layer would, in PDF points.

A block of such a page keeps the words OCR read, with their boxes (``Block.words``): the page has no
text layer in which a citation's quoted words could be found again (``tools.citations.word_boxes``).

A page is scanned when it has images and no text, or when images cover most of it and its text layer
holds only a few words (a scanner's stamp, a page number): its text is then the OCR's alone.
"""

from __future__ import annotations

import logging
import math
import statistics
import time
from typing import Any

import numpy as np

from corpus.loaders.pdf.elements import OCR_FONT, PageData, Word
from corpus.loaders.pdf.words import build_segments
from corpus.models import OcrOptions, PageWord
from corpus.ocr import OcrWord, read_image

logger = logging.getLogger(__name__)

#: Images covering this share of a page make it a scan, when its text layer has fewer words than
#: ``STAMP_WORDS``.
SCAN_IMAGE_SHARE = 0.6
STAMP_WORDS = 8
#: An OCR line box is about this many times the font size (ascenders to descenders, and the
#: detector's padding: 1.3-1.45 measured on 10-16 pt Helvetica).
LINE_HEIGHT_EM = 1.4
#: Lines whose heights differ by less than this share are set in one size.
SAME_SIZE = 0.2
#: A line of text higher than this many of the page's lines, and than wide, runs sideways.
VERTICAL_LINES = 3


def is_scanned(data: PageData) -> bool:
    if not data.has_images:
        return False
    if not data.segments and not data.tables:
        return True
    words = sum(len(s.words) for s in data.segments)
    return data.image_share >= SCAN_IMAGE_SHARE and words < STAMP_WORDS and not data.tables


def render_scale(width_pt: float, height_pt: float, options: OcrOptions) -> float:
    """Pixels per point to render a page at: ``options.dpi``, lower for a page whose render would be
    over ``options.max_megapixels``."""
    scale = options.dpi / 72
    pixels = width_pt * height_pt * scale * scale
    limit = options.max_megapixels * 1e6
    return scale * math.sqrt(limit / pixels) if pixels > limit else scale


def read_scanned_page(page: Any, data: PageData, options: OcrOptions) -> str | None:
    """Replace ``data``'s text by what OCR reads on the rendered page; the reason when it reads
    nothing (the page is then left without text)."""
    scale = render_scale(data.width, data.height, options)
    started = time.monotonic()
    image = page.to_image(resolution=72 * scale, antialias=True).original.convert("RGB")
    pixels = np.asarray(image)
    reading = read_image(pixels, options.page_seconds, options.models_dir)
    data.segments, data.tables, data.drawings = [], [], []
    if reading.problem:
        logger.info("page %d: %s", data.number, reading.problem)
        return reading.problem
    # The render spans the page's box; its pixels map back to points by the page's size.
    sx, sy = data.width / image.width, data.height / image.height
    body = statistics.median(w.bottom - w.top for line in reading.lines for w in line) * sy
    segments = []
    for line in reading.lines:
        if _is_vertical(line, body / sy):
            continue  # text set sideways (an arXiv stamp in the margin) reads as no line of the page
        # The engine's lines are kept apart: the words of two columns never chain into one line.
        segments.extend(build_segments([_word(w, data, sx, sy, body) for w in line]))
    data.segments = sorted(segments, key=lambda s: (s.top, s.x0, s.x1))
    logger.info("page %d: %d lines by OCR in %.1f s", data.number, len(segments), time.monotonic() - started)
    return None


def _is_vertical(line: list[OcrWord], body: float) -> bool:
    """A line taller than wide and than several of the page's lines: text running up or down."""
    top, bottom = min(w.top for w in line), max(w.bottom for w in line)
    width = max(w.x1 for w in line) - min(w.x0 for w in line)
    return bottom - top > max(width, VERTICAL_LINES * body)


def _word(w: OcrWord, data: PageData, sx: float, sy: float, body: float) -> Word:
    """The word in points. No font size is known: its line's height says it, and a line about as
    high as the page's typical line (``body``) has the body's size, whether or not it has descenders,
    so a paragraph's lines read as one size."""
    top, bottom = data.top + w.top * sy, data.top + w.bottom * sy
    height = body if abs(bottom - top - body) <= SAME_SIZE * body else bottom - top
    size = max(1.0, round(height / LINE_HEIGHT_EM * 2) / 2)
    return Word(w.text, data.left + w.x0 * sx, data.left + w.x1 * sx, top, bottom, bottom, size, OCR_FONT)


def ocr_words(words: list[Word]) -> list[PageWord]:
    """The words of a block that OCR read, as the block keeps them. Boxes are rounded to 0.1 pt: finer
    than a pixel of the render (0.36 pt at 200 dpi), and each word costs the registry ~35 bytes."""
    return [
        PageWord(text=w.text, x0=round(w.x0, 1), top=round(w.top, 1), x1=round(w.x1, 1), bottom=round(w.bottom, 1))
        for w in words
        if w.font == OCR_FONT
    ]
