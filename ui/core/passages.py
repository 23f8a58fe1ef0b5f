"""A library's stored text, read back: one block as a citation gives it (``cite``), a document's
text page by page, and the typed view of a citation (``CitationView``, made by
``ui.core.citation_view``). What an assistant (``prp mcp``), the chat or a script reads to check a
quote against the source, through the core like every other surface."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from corpus.locations import location
from corpus.models import BBox, BlockKind, CharSpan
from corpus.registry import DocumentRecord
from tools.citations.resolve import CitedBlock
from tools.citations.word_boxes import WordBox
from ui.core.errors import BlockNotFoundError, DocumentNotFoundError

if TYPE_CHECKING:  # the models are read where the library is not opened (an MCP server's schemas)
    from corpus.library import Library


class CitedPassage(BaseModel):
    """One block as stored: the exact text a citation resolves to, where it is, and whose it is."""

    block_id: str
    doc_id: str
    title: str
    authors: list[str]
    year: int | None
    page: int
    bbox: BBox | None = Field(description="Where the block is on the page, in PDF points (PDFs only).")
    span: CharSpan | None = Field(description="Character offsets in the document's extracted text.")
    section: str
    parents: list[str] = Field(default_factory=list, description="The headings above the section, outermost first.")
    where: str = Field(
        default="",
        description='Where the block is in its document\'s units: "p. 3", "slide 4 § Results", "§ Methods".',
    )
    kind: BlockKind
    text: str = Field(description="The stored text of the block: what a quote citing it must match.")
    document: DocumentRecord
    bibtex: str = Field(description="The document's BibTeX entry, from its bibliographic fields.")


class PageText(BaseModel):
    page: int
    text: str = Field(description="The page's blocks in reading order, separated by blank lines.")


class DocumentPages(BaseModel):
    document: DocumentRecord
    pages: list[PageText]


class ShownBlock(BaseModel):
    block_id: str
    page: int
    kind: BlockKind
    section: str
    text: str = Field(description="The block's stored text.")
    match: CharSpan | None = Field(
        default=None,
        description="A cited block: where the quote's match is in its text. None: a block shown for context.",
    )


class CitationView(BaseModel):
    """One citation of a report, or one block asked for by id, as a reader checks it: the quote, the
    passage it sits in, the document with its BibTeX entry, and for a PDF the page with the cited
    block framed and the quote's own words boxed. What the chat's evidence panel, the REST API and the
    MCP ``cite`` tool show alike (``Portal.citation_view``, ``Portal.block_view``)."""

    number: int | None = Field(description="The citation's number in its report; None for a block asked for by id.")
    doc_id: str
    title: str
    pages: list[int]
    where: str = Field(
        default="",
        description='Where the citation is in its document\'s units: "p. 3" (PDF), "slide 4 § Results", '
        '"ch. 2 § Rivers", "§ Methods > Sampling" (a text without pages); "" where a text has no section.',
    )
    block_ids: list[str] = Field(description="One block, or two adjacent blocks of one document.")
    blocks: list[CitedBlock] = Field(
        description="Each cited block's page, bounding box (PDFs) and character offsets, and where the match is in it."
    )
    words: list[WordBox] = Field(
        default_factory=list,
        description="The quote's own words on the PDF page, one box per line run of them; empty for a text "
        "document, a page read by OCR, a file changed since ingest, or words that could not be placed.",
    )
    quote: str = Field(description="The cited text as given (a block asked for by id: its stored text).")
    matched_text: str = Field(description="The exact stored text the quote matched.")
    score: float = Field(description="Similarity of quote and matched text, 0-100 (100: exact after normalisation).")
    found: str = Field(
        description="Where the quote was found: hint (the block the writer named), document, retrieved, "
        "corpus; `block` for a block asked for by id."
    )
    document: DocumentRecord | None = Field(
        description="The document with its bibliographic fields; None if it was removed from the library."
    )
    bibtex: str | None = Field(description="The document's BibTeX entry; None if it was removed.")
    passage: list[ShownBlock] = Field(
        description="The cited block(s) with a block of context either side, as stored; empty when the "
        "document or its cited blocks are no longer stored (``matched_text`` is what the citation kept)."
    )
    zoom_png: str | None = Field(
        default=None,
        description="Base64 PNG: the cited blocks on their page, framed, the quoted words boxed, large "
        "enough to read (PDFs, when images were asked for).",
    )
    page_png: str | None = Field(default=None, description="Base64 PNG: the whole page(s) the citation is on.")
    image_note: str = Field(description="What the images show, or why there are none.")


def _ready(library: Library, doc_id: str) -> DocumentRecord | None:
    record = library.registry.document(doc_id)
    return record if record is not None and record.status == "ready" else None


def cite(library: Library, block_id: str) -> CitedPassage:
    """``BlockNotFoundError`` for a block id no ready document has."""
    from ui.core.exports.bibtex import document_bibtex  # the export writers load for a citation only

    block = library.registry.blocks([block_id]).get(block_id)
    document = _ready(library, block.doc_id) if block is not None else None
    if block is None or document is None:
        raise BlockNotFoundError(
            f"no block {block_id!r} in the library: use a block id as search or a report's citations give it "
            "(like '3f2a9c01de-0012')"
        )
    return CitedPassage(
        block_id=block.block_id,
        doc_id=document.doc_id,
        title=document.title,
        authors=document.bibliography.authors,
        year=document.year,
        page=block.page,
        bbox=block.bbox,
        span=block.span,
        section=block.section,
        parents=block.parents,
        where=location(document.type, [block.page], block.section, block.parents, document.title),
        kind=block.kind,
        text=block.text,
        document=document,
        bibtex=document_bibtex(document),
    )


def document_pages(library: Library, doc_id: str) -> DocumentPages:
    """``DocumentNotFoundError`` for no document ready with this id."""
    document = _ready(library, doc_id)
    if document is None:
        raise DocumentNotFoundError(f"no document {doc_id!r} in the library: list the documents for their ids")
    pages: dict[int, list[str]] = {}
    for block in library.registry.blocks_of(doc_id):
        pages.setdefault(block.page, []).append(block.text)
    return DocumentPages(
        document=document, pages=[PageText(page=page, text="\n\n".join(texts)) for page, texts in sorted(pages.items())]
    )
