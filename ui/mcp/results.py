"""What the MCP tools return: each result as structured content (typed, so every tool has an output
schema) and as text an assistant reads as it is. A research run returns the REST API's own report
(``JsonReport``); a search and the document list are shaped for an assistant here, from the core's
objects, with the bibliographic fields a citation needs."""

from __future__ import annotations

from pydantic import BaseModel, Field

from corpus.author_names import short_authors
from corpus.locations import extent, unit
from corpus.models import BBox, DocType
from corpus.registry import DocumentRecord
from corpus.retrieval import RetrievedChunk
from corpus.text import counted
from research.ai_address import shown_title
from tools.title_scope import TitleScope
from ui.core.passages import CitationView

#: How much of a passage the text shows; the structured content has it whole.
SNIPPET_CHARS = 600


class PassageBlock(BaseModel):
    block_id: str = Field(description="Give it to `cite` for the stored text, the bounding box and the BibTeX.")
    page: int
    bbox: BBox | None = Field(description="Where the block is on the page, in PDF points (PDFs only).")


class Passage(BaseModel):
    rank: int
    score: float
    doc_id: str
    title: str
    authors: list[str]
    year: int | None
    doc_type: DocType
    section: str
    pages: list[int]
    text: str
    blocks: list[PassageBlock] = Field(description="The stored blocks the passage is made of, in reading order.")


class SearchResults(BaseModel):
    query: str
    scoped_to: list[str] = Field(description="The titles of the documents the query named, when it was scoped to them.")
    passages: list[Passage]


class DocumentList(BaseModel):
    total: int = Field(description="Documents in the library.")
    documents: list[DocumentRecord] = Field(description="Those matching the filters, by title.")


def search_results(
    query: str, scope: TitleScope | None, chunks: list[RetrievedChunk], documents: dict[str, DocumentRecord]
) -> SearchResults:
    def authors(doc_id: str) -> list[str]:
        document = documents.get(doc_id)
        return document.bibliography.authors if document is not None else []

    return SearchResults(
        query=query,
        scoped_to=scope.titles if scope is not None else [],
        passages=[
            Passage(
                rank=c.rank,
                score=c.score,
                doc_id=c.doc_id,
                title=shown_title(c.title),  # marked when it addresses an AI
                authors=authors(c.doc_id),
                year=c.year,
                doc_type=c.doc_type,
                section=c.section,
                pages=c.pages,
                text=c.text,
                blocks=[PassageBlock(block_id=b.block_id, page=b.page, bbox=b.bbox) for b in c.blocks],
            )
            for c in chunks
        ],
    )


def _unit(kind: DocType, pages: list[int]) -> str:
    """ "p. 3, ", "slide 4, ": a text without pages has no unit to name."""
    where = unit(kind, pages)
    return f"{where}, " if where else ""


def _by(authors: list[str], year: int | None) -> str:
    names = short_authors(authors)
    return f"{names + ', ' if names else ''}{year or 'n.d.'}"


def search_text(results: SearchResults) -> str:
    lines = [f"searched {'; '.join(results.scoped_to)} for: {results.query}"] if results.scoped_to else []
    if not results.passages:
        lines.append("no passages found: try other words, or fewer filters")
    for p in results.passages:
        snippet = " ".join(p.text.split())
        lines += [
            f"{p.rank}. {p.title} ({_by(p.authors, p.year)}), {_unit(p.doc_type, p.pages)}{p.section or 'no section'}"
            f" · score {p.score:.4f} · document {p.doc_id}",
            f"   blocks: {', '.join(b.block_id for b in p.blocks)}",
            f"   {snippet[:SNIPPET_CHARS]}{'…' if len(snippet) > SNIPPET_CHARS else ''}",
        ]
    return "\n".join(lines)


def documents_text(listed: DocumentList) -> str:
    lines = [
        f"{d.doc_id} · {d.title} ({_by(d.bibliography.authors, d.year)}) · "
        + ", ".join(part for part in (d.type.value, extent(d.type, d.page_count)) if part)
        + (f" · {d.bibliography.venue}" if d.bibliography.venue else "")
        for d in listed.documents
    ]
    lines.append(f"{counted(len(listed.documents), 'document')} of {listed.total}")
    return "\n".join(lines)


def cite_text(view: CitationView) -> str:
    """A block asked for by id (``Portal.block_view``): its stored text (or the part a quote matched,
    with the boxes of its words), where it is, whose it is."""
    cited = view.blocks[0]
    document = view.document
    # A PDF's block by its page and box, as ever; any other by its slide, chapter or section (``view.where``).
    paged = document is None or document.type is DocType.PDF
    where = [f"page {cited.page}"] if paged else [view.where or "no section"]
    if cited.bbox is not None:
        b = cited.bbox
        where.append(f"bbox ({b.x0:.1f}, {b.top:.1f}, {b.x1:.1f}, {b.bottom:.1f}) pt")
    elif cited.span is not None:
        where.append(f"characters {cited.span.start}-{cited.span.end}")
    if paged:
        where.append(next((b.section for b in view.passage if b.block_id == cited.block_id), "") or "no section")
    by = _by(document.bibliography.authors, document.year) if document is not None else "removed from the library"
    # A quote's words, line by line; a whole block's would only repeat its box.
    boxed = "".join(
        f"\n  page {w.page} ({w.bbox.x0:.1f}, {w.bbox.top:.1f}, {w.bbox.x1:.1f}, {w.bbox.bottom:.1f}) pt: {w.text}"
        for w in view.words
        if view.found != "block"
    )
    return (
        f"\u201c{view.matched_text}\u201d\n"
        f"\u2014 {view.title} ({by}), {', '.join(where)}, block {cited.block_id}"
        + (f"\nthe quoted words:{boxed}" if boxed else "")
        + f"\n\n{view.bibtex or ''}"
    )
