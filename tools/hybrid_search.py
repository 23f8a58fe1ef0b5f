"""The retrieval tool: hybrid (dense + BM25) search over the library, fused with RRF.

A query that names documents by title ("<title>: <question>") searches those documents for the rest
of the query (``tools.title_scope`` says why), in every mode, unless the filters turn that off.

``hybrid_search`` is the one function; ``make_hybrid_search_tool`` exposes it as a LangChain tool
bound to a library. Results come back as chunks with their blocks (ids, pages, bboxes), document
titles and scores, hydrated from the registry — so only documents the registry says are ready are
ever returned.

The options models here are what every command line, the chat and the API are generated from, so
this module imports Qdrant's client and LangChain only where a search or the tool needs them.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field, model_validator

from corpus.models import Block, DocType
from tools.title_scope import TitleIndex, TitleScope

if TYPE_CHECKING:
    from langchain_core.tools import BaseTool
    from qdrant_client import models

    from corpus.library import Library


class SearchMode(StrEnum):
    HYBRID = "hybrid"
    DENSE = "dense"
    SPARSE = "sparse"


class SearchFilters(BaseModel):
    doc_ids: list[str] | None = Field(
        default=None, title="Only these documents", description="Only these documents (ids)."
    )
    year_min: int | None = Field(default=None, title="Year from", description="Published in or after this year.")
    year_max: int | None = Field(default=None, title="Year to", description="Published in or before this year.")
    types: list[DocType] | None = Field(default=None, title="Document types", description="Only these document types.")
    include_references: bool = Field(
        default=False,
        title="Also search reference lists / bibliographies",
        description="Also search reference/bibliography sections.",
    )
    scope_to_named_documents: bool = Field(
        default=True,
        title="Search only the documents a query names by title",
        description=(
            "When the query names documents by their titles and no doc_ids are given, search only "
            "those documents, for the rest of the query."
        ),
    )

    @model_validator(mode="after")
    def _year_range_not_empty(self) -> SearchFilters:
        if self.year_min is not None and self.year_max is not None and self.year_min > self.year_max:
            raise ValueError(f"Year range is empty: from {self.year_min} to {self.year_max}.")
        return self

    def to_qdrant(self) -> models.Filter | None:
        from qdrant_client import models

        must: list[models.Condition] = []
        must_not: list[models.Condition] = []
        if self.doc_ids:
            must.append(models.FieldCondition(key="doc_id", match=models.MatchAny(any=self.doc_ids)))
        if self.year_min is not None or self.year_max is not None:
            must.append(models.FieldCondition(key="year", range=models.Range(gte=self.year_min, lte=self.year_max)))
        if self.types:
            must.append(models.FieldCondition(key="type", match=models.MatchAny(any=[t.value for t in self.types])))
        if not self.include_references:
            must_not.append(models.FieldCondition(key="is_reference", match=models.MatchValue(value=1)))
        if not must and not must_not:
            return None
        return models.Filter(must=must or None, must_not=must_not or None)


DEFAULT_K = 8
MAX_K = 50


class RetrievalOptions(BaseModel):
    """How to search: the retrieval part of every run's options (``prp search`` takes only these)."""

    k: int = Field(
        default=DEFAULT_K,
        ge=1,
        le=MAX_K,
        title="Top-k chunks per search",
        description="How many chunks each search returns: more evidence per sub-question, slower answers.",
    )
    search_mode: SearchMode = Field(
        default=SearchMode.HYBRID,
        title="Retrieval mode",
        description="hybrid = dense MiniLM + BM25, fused with RRF; dense; or sparse (BM25 alone).",
    )
    filters: SearchFilters = Field(default_factory=SearchFilters)


class RetrievedChunk(BaseModel):
    chunk_id: str
    doc_id: str
    title: str
    year: int | None
    doc_type: DocType
    section: str
    pages: list[int]
    text: str
    score: float
    rank: int
    blocks: list[Block]


# Each side of the fusion looks this many times deeper than the final k, so a chunk ranked
# moderately by both retrievers can still surface after fusion.
PREFETCH_FACTOR = 4
MIN_PREFETCH = 20


def hybrid_search(
    library: Library,
    query: str,
    k: int = DEFAULT_K,
    filters: SearchFilters | None = None,
    mode: SearchMode = SearchMode.HYBRID,
) -> list[RetrievedChunk]:
    """Top-``k`` chunks for ``query``; ``mode`` picks dense, sparse (BM25) or both fused with RRF."""
    if not query.strip() or k <= 0:
        return []
    filters = filters or SearchFilters()
    scope = named_documents(library, query, filters)
    if scope is not None:
        query, filters = scope.query, filters.model_copy(update={"doc_ids": scope.doc_ids})
    embedder = library.embedder
    dense = embedder.embed_query(query) if mode is not SearchMode.SPARSE else None
    sparse = embedder.embed_sparse_query(query) if mode is not SearchMode.DENSE else None
    if sparse is not None and len(sparse.indices) == 0:
        sparse = None  # only stopwords: BM25 has nothing to say
        if dense is None:
            return []
    hits = library.store.query(
        dense,
        sparse,
        limit=k,
        prefetch_limit=max(MIN_PREFETCH, PREFETCH_FACTOR * k),
        query_filter=filters.to_qdrant(),
    )
    documents = library.registry.documents_by_id(h.doc_id for h in hits)
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


def named_documents(library: Library, query: str, filters: SearchFilters) -> TitleScope | None:
    """The documents ``query`` names by title, if ``filters`` let the search be scoped to them."""
    if not filters.scope_to_named_documents or filters.doc_ids:
        return None
    return library.derived("title_index", TitleIndex.from_registry).scope(query)


class HybridSearchInput(RetrievalOptions):
    query: str = Field(description="What to look for, in natural language or keywords.")


def make_hybrid_search_tool(library: Library) -> BaseTool:
    """``hybrid_search`` as a LangChain tool bound to ``library``."""
    from langchain_core.tools import StructuredTool

    def run(
        query: str,
        k: int = DEFAULT_K,
        search_mode: SearchMode = SearchMode.HYBRID,
        filters: SearchFilters | None = None,
    ) -> list[dict]:
        return [c.model_dump(mode="json") for c in hybrid_search(library, query, k, filters, search_mode)]

    return StructuredTool.from_function(
        run,
        name="hybrid_search",
        description=(
            "Search the researcher's documents (dense + BM25, fused). Returns chunks with their "
            "block ids, pages, bounding boxes, document titles and scores."
        ),
        args_schema=HybridSearchInput,
    )
