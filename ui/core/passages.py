"""A library's stored text, read back: one block as a citation gives it (``cite``), and a document's
text page by page. What an assistant (``prp mcp``) or a script reads to check a quote against the
source, through the core like every other surface."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from corpus.models import BBox, BlockKind, CharSpan
from corpus.registry import DocumentRecord
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
