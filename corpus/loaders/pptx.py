"""PowerPoint (.pptx) loader, on python-pptx: one section per slide, the slide's number its page.

A slide's title heads its section ("Slide 4" names an untitled one, as no block); its other shapes
follow top to bottom, left to right (groups opened), each text frame's paragraphs a paragraph, or
list items when the frame holds several; a table is a table block as Markdown and HTML tables are
(``corpus.table_text``), a merged cell written once. The speaker notes are a block of their own,
of kind ``notes``. Title, authors and year come from the core properties when set; else the title
is the first slide's.

A presentation over ``MAX_SLIDES`` is refused by name, counted from the package's parts before
python-pptx reads any of it: every slide costs a parse, and such a deck is generated, not written.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pptx
from lxml import etree
from pptx.enum.shapes import MSO_SHAPE_TYPE
from pptx.exc import PackageNotFoundError
from pptx.shapes.base import BaseShape
from pptx.slide import Slide

from corpus.errors import LoadError
from corpus.loaders.archive import members
from corpus.loaders.authors import metadata_authors
from corpus.loaders.outline import Outline, table_text
from corpus.loaders.titles import clean_title
from corpus.models import Bibliography, BlockKind, LoadedDocument, TitleSource

MAX_SLIDES = 1000
MAX_GROUP_DEPTH = 5  # groups nested deeper are not opened: their text is a drawing's, not the slide's
_SLIDE_PART = re.compile(r"^ppt/slides/slide\d+\.xml$")


def load_pptx(path: Path) -> LoadedDocument:
    deck = _open_deck(path)
    outline = Outline()
    first_title = None
    for number, slide in enumerate(deck.slides, start=1):
        title = _add_slide(outline, number, slide)
        first_title = first_title or (title if number == 1 else None)
    properties = deck.core_properties
    title = clean_title(properties.title)
    return LoadedDocument(
        title=title or first_title,
        title_source=TitleSource.PROPERTIES if title else None,
        page_count=max(1, len(deck.slides)),
        year=properties.created.year if properties.created else None,
        bibliography=Bibliography(authors=metadata_authors(properties.author or "")),
        blocks=outline.blocks,
    )


def _open_deck(path: Path) -> pptx.presentation.Presentation:
    """The presentation, refused by name when it has more than ``MAX_SLIDES`` slides (counted in the
    package, before python-pptx reads them all) or cannot be read."""
    slides = sum(1 for name in members(path, "PowerPoint") if _SLIDE_PART.match(name))
    if slides > MAX_SLIDES:
        raise LoadError(f"a presentation of {slides:,} slides, over the limit of {MAX_SLIDES:,}")
    try:
        return pptx.Presentation(str(path))
    except (KeyError, ValueError, etree.XMLSyntaxError, PackageNotFoundError, zipfile.BadZipFile) as exc:
        raise LoadError(f"not a readable PowerPoint file ({type(exc).__name__}: {exc})") from None


def _add_slide(outline: Outline, number: int, slide: Slide) -> str:
    """A slide as a page and a section of its own: its title (or "Slide N"), its shapes in reading
    order, its speaker notes. Returns the slide's title as written."""
    outline.new_page(number)
    title_shape = slide.shapes.title
    title = title_shape.text_frame.text if title_shape is not None and title_shape.has_text_frame else ""
    outline.heading(1, title or f"Slide {number}", shown=bool(title.strip()))
    others = [s for s in slide.shapes if title_shape is None or s.shape_id != title_shape.shape_id]
    for shape in _reading_order(others, 0):
        _add_shape(outline, shape)
    if slide.has_notes_slide:
        outline.add(BlockKind.NOTES, _notes(slide))
    return title


def _reading_order(shapes: list[BaseShape], depth: int) -> Iterator[BaseShape]:
    # A placeholder's position is inherited from its layout, a costly look-up: a lone shape is not sorted.
    ordered = sorted(shapes, key=lambda s: (s.top or 0, s.left or 0)) if len(shapes) > 1 else shapes
    for shape in ordered:
        if shape.shape_type == MSO_SHAPE_TYPE.GROUP:
            if depth < MAX_GROUP_DEPTH:
                yield from _reading_order(list(shape.shapes), depth + 1)
        else:
            yield shape


def _add_shape(outline: Outline, shape: BaseShape) -> None:
    if getattr(shape, "has_table", False):
        rows = [["" if cell.is_spanned else cell.text for cell in row.cells] for row in shape.table.rows]
        outline.add(BlockKind.TABLE, table_text(rows))
    elif shape.has_text_frame:
        paragraphs = [p.text.replace("\v", "\n") for p in shape.text_frame.paragraphs]
        paragraphs = [p for p in paragraphs if p.strip()]
        kind = BlockKind.LIST if len(paragraphs) > 1 else BlockKind.PARAGRAPH
        for text in paragraphs:
            outline.add(kind, text)


def _notes(slide: Slide) -> str:
    frame = slide.notes_slide.notes_text_frame
    return frame.text if frame is not None else ""
