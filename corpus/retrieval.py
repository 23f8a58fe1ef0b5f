"""The retrieval vocabulary: how to search (mode, filters, options) and what a search returns.

Every layer that searches speaks it: the retrievers and the search tool (``tools``), the research
run's options and evidence (``research``), the strategies, nodes, evals and the UI. It lives in the
corpus, the layer under all of them, because the tools need it and sit below the research vocabulary.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field, model_validator

from corpus.models import Block, DocType

if TYPE_CHECKING:
    # Every command line, the chat and the API build their options from these models: Qdrant's
    # client is imported only where a filter is built, so ``prp --help`` starts at once.
    from qdrant_client import models


class SearchMode(StrEnum):
    """Which retriever runs a search (``tools.retrievers.RETRIEVERS`` has one for each)."""

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
