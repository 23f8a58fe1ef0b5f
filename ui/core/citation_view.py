"""One citation as a reader checks it (``ui.core.models.CitationView``): where it points, the
passage around it as stored, the document and its BibTeX entry, and for a PDF the quote's own words
boxed on the page (``tools.citations.word_boxes``) inside the cited block's frame: found in the page's
text layer, or on a page read by OCR among the words the block kept.

Everything comes from the stored resolution and the registry. The words are read and the page is
rendered from the document's file after checking that the file is still the one that was ingested
(same sha256), so a box is never drawn on a different version of the page.
"""

from __future__ import annotations

import base64
import io
from pathlib import Path
from typing import TYPE_CHECKING

from corpus.ingest import sha256_of
from corpus.models import Block, CharSpan, DocType, PageWord
from corpus.registry import DocumentRecord, Registry
from tools.citations.index import BlockIndex
from tools.citations.resolve import CitedBlock, Resolution, resolve_citation
from tools.citations.word_boxes import WordBox, quoted_ocr_words, quoted_words
from ui.core.errors import InvalidValueError
from ui.core.passages import CitationView, CitedPassage, ShownBlock
from ui.core.query_limit import check_query

if TYPE_CHECKING:
    import pdfplumber
    from PIL import Image

#: Blocks of context shown before and after the cited block(s).
CONTEXT_BLOCKS = 1
#: ``Resolution.scope`` of a block asked for by its id: it is its own citation.
BY_ID = "block"


def citation_view(registry: Registry, number: int | None, resolution: Resolution, images: bool = True) -> CitationView:
    """The view of citation ``number`` (None: a block asked for by id); ``images``: render the page."""
    from ui.core.exports.bibtex import document_bibtex  # the export writers load for a citation only

    document = registry.document(resolution.doc_id)
    passage = _passage(registry.blocks_of(resolution.doc_id), resolution.bboxes) if document else []
    words: list[WordBox] = []
    zoom = page = None
    if document is None:
        note = "The document was removed from the library."
    else:
        read = _ocr_words(registry, document, resolution)
        words, zoom, page, note = _on_the_page(document, resolution, images, read)
        note = note if images else "No page image was asked for."
    return CitationView(
        number=number,
        doc_id=resolution.doc_id,
        title=resolution.title,
        pages=resolution.pages,
        where=resolution.where,
        block_ids=resolution.block_ids,
        blocks=resolution.bboxes,
        words=words,
        quote=resolution.quote,
        matched_text=resolution.matched_text,
        score=round(resolution.score, 1),
        found=resolution.scope,
        document=document,
        bibtex=document_bibtex(document) if document else None,
        passage=passage,
        zoom_png=zoom,
        page_png=page,
        image_note=note,
    )


def block_resolution(cited: CitedPassage) -> Resolution:
    """A block asked for by id, as a citation resolved to the whole of it."""
    whole = CitedBlock(
        block_id=cited.block_id,
        page=cited.page,
        bbox=cited.bbox,
        span=cited.span,
        match=CharSpan(start=0, end=len(cited.text)),
        matched_text=cited.text,
    )
    return Resolution(
        doc_id=cited.doc_id,
        title=cited.title,
        block_ids=[cited.block_id],
        page=cited.page,
        pages=[cited.page],
        bboxes=[whole],
        quote=cited.text,
        matched_text=cited.text,
        score=100.0,
        coverage=1.0,
        hint_used=True,
        scope=BY_ID,
        block_text=cited.text,
        doc_type=cited.document.type,
        section=cited.section,
        parents=cited.parents,
    )


def quote_resolution(cited: CitedPassage, quote: str) -> Resolution:
    """A quote of a block asked for by id, resolved in that block alone (as a citation naming it
    would be), so its own words are boxed; ``InvalidValueError`` when the block does not hold it."""
    check_query(quote, "quote")
    block = Block(
        block_id=cited.block_id,
        doc_id=cited.doc_id,
        seq=0,
        page=cited.page,
        bbox=cited.bbox,
        span=cited.span,
        section=cited.section,
        parents=cited.parents,
        kind=cited.kind,
        text=cited.text,
    )
    document = cited.document
    ocr_pages = {cited.doc_id: frozenset(document.ocr.pages)} if document.ocr else {}
    index = BlockIndex([block], {cited.doc_id: cited.title}, ocr_pages=ocr_pages, types={cited.doc_id: document.type})
    resolution = resolve_citation(quote, cited.block_id, index)
    if resolution is None:
        raise InvalidValueError(
            f"block {cited.block_id} does not hold this quote: ask for the block without one to read its stored text"
        )
    return resolution


def _passage(blocks: list[Block], cited: list[CitedBlock]) -> list[ShownBlock]:
    positions = {b.block_id: i for i, b in enumerate(blocks)}
    found = [positions[c.block_id] for c in cited if c.block_id in positions]
    if not found:  # the document was ingested again since: its blocks are others
        return []
    matches = {c.block_id: c.match for c in cited}
    start = max(0, min(found) - CONTEXT_BLOCKS)
    end = min(len(blocks), max(found) + CONTEXT_BLOCKS + 1)
    return [
        ShownBlock(
            block_id=b.block_id, page=b.page, kind=b.kind, section=b.section, text=b.text, match=matches.get(b.block_id)
        )
        for b in blocks[start:end]
    ]


def _ocr_words(registry: Registry, document: DocumentRecord, r: Resolution) -> dict[str, list[PageWord]]:
    """The words OCR read in each cited block on a page read by OCR (none kept: ingested before
    blocks kept them)."""
    pages = set(document.ocr.pages) if document.ocr else set()
    ids = [c.block_id for c in r.bboxes if c.page in pages]
    return {i: b.words for i, b in registry.blocks(ids).items()} if ids else {}


def _on_the_page(
    document: DocumentRecord, r: Resolution, images: bool, ocr_words: dict[str, list[PageWord]]
) -> tuple[list[WordBox], str | None, str | None, str]:
    """The quote's words on the page (``ocr_words``: those OCR read in the blocks of pages it read),
    (zoom, whole page) as base64 PNGs when ``images``, and what the images show or why there are none."""
    import pdfplumber  # the PDF is opened for a citation's page only

    from ui.core.page_image import CitedArea, render_pages

    if document.type is not DocType.PDF:
        return [], None, None, "Text document: the passage is shown with the quoted span highlighted."
    path = Path(document.path)
    if not path.is_file():
        return [], None, None, f"The PDF is no longer at {path}; the stored text is shown instead."
    if sha256_of(path) != document.sha256:
        return [], None, None, f"{path.name} changed since it was ingested; re-ingest it to see the page."
    areas = [CitedArea(c.page, c.bbox) for c in r.bboxes if c.bbox is not None]
    if not areas:
        return [], None, None, "This block has no position on the page."
    with pdfplumber.open(path) as pdf:
        words = _words(pdf, document, r, ocr_words)
        if not images:
            return words, None, None, ""
        rendered = render_pages(pdf, areas, words)
    pages = sorted({a.page for a in areas})
    shown = f"page {pages[0]}" if len(pages) == 1 else f"pages {', '.join(map(str, pages))}"
    note = (
        f"{path.name}, {shown}: the quoted words are boxed in red, the cited block is framed in orange; "
        "open \u201cThe whole page\u201d to see where it is."
    )
    if not words:
        read = document.ocr is not None and set(pages) & set(document.ocr.pages)
        why = "its text was read by OCR" if read else "its words could not be placed on the page"
        note = f"{path.name}, {shown}: the cited block is framed in orange ({why})."
    return words, _png(rendered.zoom), _png(rendered.pages), note


def _words(
    pdf: pdfplumber.PDF, document: DocumentRecord, r: Resolution, ocr_words: dict[str, list[PageWord]]
) -> list[WordBox]:
    """The quote's words in each cited block: on a page read by OCR, whose text layer (if any) is not
    what was read, among the words OCR read there."""
    ocr_pages = set(document.ocr.pages) if document.ocr else set()
    words: list[WordBox] = []
    for i, c in enumerate(r.bboxes):
        if c.bbox is None or not 1 <= c.page <= len(pdf.pages):
            continue
        # Only the first block's text precedes the match in ``block_text``: a second one's starts it.
        before = r.block_text[: c.match.start] if i == 0 else ""
        if c.page in ocr_pages:
            words += quoted_ocr_words(ocr_words.get(c.block_id, []), c.block_id, c.page, c.matched_text, before)
        else:
            words += quoted_words(pdf.pages[c.page - 1], c.block_id, c.bbox, c.matched_text, before)
    return words


def _png(image: Image.Image) -> str:
    out = io.BytesIO()
    image.save(out, format="PNG")
    return base64.b64encode(out.getvalue()).decode("ascii")
