"""The retrieval tool: hybrid (dense + BM25) search over the library, fused with RRF.

A query that names documents by title ("<title>: <question>") searches those documents for the rest
of the query (``tools.title_scope`` says why), in every mode, unless the filters turn that off.

``hybrid_search`` is the one function (its modes are ``tools.retrievers``'s registry, its types
``corpus.retrieval``'s); ``make_hybrid_search_tool`` exposes it as a LangChain tool bound to a
library. Results come back as chunks with their blocks (ids, pages, bboxes), document titles and
scores, hydrated from the registry — so only documents the registry says are ready are ever returned.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import Field

from corpus.index.store import Hit
from corpus.library import Library
from corpus.loaders.page_furniture import url_title
from corpus.loaders.titles import title_parts
from corpus.registry import DocumentRecord
from corpus.retrieval import DEFAULT_K, MAX_K, RetrievalOptions, RetrievedChunk, SearchFilters, SearchMode
from tools.definitions import defines, definition_subject, introduces
from tools.retrievers import RETRIEVERS, RetrievalQuery
from tools.title_scope import TitleIndex, TitleScope

if TYPE_CHECKING:
    from langchain_core.tools import BaseTool


def hybrid_search(
    library: Library,
    query: str,
    k: int = DEFAULT_K,
    filters: SearchFilters | None = None,
    mode: SearchMode = SearchMode.HYBRID,
) -> list[RetrievedChunk]:
    """Top-``k`` chunks for ``query``, found by the retriever registered for ``mode`` (dense, sparse
    (BM25) or both fused with RRF, ``tools.retrievers``)."""
    if not query.strip() or k <= 0:
        return []
    filters = filters or SearchFilters()
    scope = named_documents(library, query, filters)
    if scope is not None:
        query, filters = scope.query, filters.model_copy(update={"doc_ids": scope.doc_ids})
    subject = definition_subject(query)
    # A definition question looks a little deeper: the page that defines its term may rank below
    # pages that only mention it (``tools.definitions``).
    depth = k * DEFINITION_DEPTH if subject else k
    hits = RETRIEVERS[mode].retrieve(library, RetrievalQuery(query, depth, filters.to_qdrant()))
    documents = library.registry.documents_by_id(h.doc_id for h in hits)
    if subject:
        hits = sorted(hits, key=lambda h: -_definition_tier(h, documents.get(h.doc_id), subject))[:k]
    blocks = library.registry.blocks(b for h in hits for b in h.payload["block_ids"])
    results: list[RetrievedChunk] = []
    for hit in hits:
        doc = documents.get(hit.doc_id)
        if doc is None or doc.status != "ready":
            continue
        results.append(
            RetrievedChunk(
                chunk_id=hit.chunk_id,
                doc_id=hit.doc_id,
                title=doc.title,
                year=doc.year,
                doc_type=doc.type,
                section=hit.payload.get("section", ""),
                pages=hit.payload.get("pages", []),
                text=hit.payload["text"],
                score=hit.score,
                rank=len(results) + 1,
                blocks=[blocks[b] for b in hit.payload["block_ids"] if b in blocks],
            )
        )
    return results


# How much deeper than k a definition question looks.
DEFINITION_DEPTH = 4


def _definition_tier(hit: Hit, doc: DocumentRecord | None, subject: str) -> int:
    """2 for a chunk that defines ``subject``, 1 more when its page or section introduces it."""
    if doc is None:
        return 0
    names = [*title_parts(doc.title), doc.title, hit.payload.get("section", "")]
    if doc.bibliography.url and (from_url := url_title(doc.bibliography.url)):
        names.append(from_url)
    return 2 * defines(hit.payload["text"], subject) + introduces(names, subject)


def named_documents(library: Library, query: str, filters: SearchFilters) -> TitleScope | None:
    """The documents ``query`` names by title, if ``filters`` let the search be scoped to them."""
    if not filters.scope_to_named_documents or filters.doc_ids:
        return None
    return library.derived("title_index", TitleIndex.from_registry).scope(query)


class HybridSearchInput(RetrievalOptions):
    query: str = Field(description="What to look for, in natural language or keywords.")
    # Twice the options' ceiling: the graph's search step looks twice as deep as a run's k and keeps
    # the k most diverse (``nodes.search``).
    k: int = Field(default=DEFAULT_K, ge=1, le=2 * MAX_K, description="How many chunks to return.")


def make_hybrid_search_tool(library: Library) -> BaseTool:
    """``hybrid_search`` as a LangChain tool bound to ``library``.

    Called with arguments it returns the chunks as JSON-ready dicts; called with a tool call (as a
    model calls it, and as the graph's search step does) it returns a ``ToolMessage`` holding those
    as its content and the ``RetrievedChunk`` objects themselves as its artifact.
    """
    from langchain_core.tools import StructuredTool  # LangChain loads only when an agent asks for the tool

    def run(
        query: str,
        k: int = DEFAULT_K,
        search_mode: SearchMode = SearchMode.HYBRID,
        filters: SearchFilters | None = None,
    ) -> tuple[list[dict], list[RetrievedChunk]]:
        chunks = hybrid_search(library, query, k, filters, search_mode)
        return [c.model_dump(mode="json") for c in chunks], chunks

    return StructuredTool.from_function(
        run,
        name="hybrid_search",
        description=(
            "Search the researcher's documents (dense + BM25, fused). Returns chunks with their "
            "block ids, pages, bounding boxes, document titles and scores."
        ),
        args_schema=HybridSearchInput,
        response_format="content_and_artifact",
    )
