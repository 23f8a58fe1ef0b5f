"""The retrievers, one per search mode, and the one registry that maps a mode to its retriever.

A search's mode comes from the run's options (``RetrievalOptions.search_mode``) and is looked up
here, once: the retriever embeds what its query needs and builds that query with the index's query
builder (``corpus.index.schema``). Nothing infers the mode from which vectors happen to be there.

A retriever is anything with ``retrieve(library, query) -> list[Hit]``, so a later stage can wrap
another: an LLM re-ranker would ask the hybrid retriever for a deeper list (``limit`` several times
the asked one), re-order it and cut it to the limit, taking what it needs at run time (a model
configured in the library's settings) from the library it is given. It registers as a new
``SearchMode`` member mapped to it here; the CLI, the chat and Studio offer every member.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Protocol

from qdrant_client import models

from corpus.index import schema
from corpus.index.store import Hit
from corpus.library import Library
from corpus.retrieval import SearchMode

# Each side of the fusion looks this many times deeper than the final k, so a chunk ranked
# moderately by both retrievers can still surface after fusion.
PREFETCH_FACTOR = 4
MIN_PREFETCH = 20


@dataclass(frozen=True)
class RetrievalQuery:
    text: str
    limit: int
    query_filter: models.Filter | None


class Retriever(Protocol):
    def retrieve(self, library: Library, query: RetrievalQuery) -> list[Hit]: ...


class DenseRetriever:
    """The chunks nearest the query in the dense model's space."""

    def retrieve(self, library: Library, query: RetrievalQuery) -> list[Hit]:
        dense = library.embedder.embed_query(query.text)
        return library.store.query(schema.dense_query(dense, query.limit, query.query_filter))


class SparseRetriever:
    """BM25 alone."""

    def retrieve(self, library: Library, query: RetrievalQuery) -> list[Hit]:
        sparse = library.embedder.embed_sparse_query(query.text)
        if len(sparse.indices) == 0:  # only stopwords: BM25 has nothing to say
            return []
        return library.store.query(schema.sparse_query(schema.sparse_vector(sparse), query.limit, query.query_filter))


class HybridRetriever:
    """Dense and BM25 rankings fused by RRF; the dense ranking alone when BM25 has nothing to say."""

    def retrieve(self, library: Library, query: RetrievalQuery) -> list[Hit]:
        sparse = library.embedder.embed_sparse_query(query.text)
        if len(sparse.indices) == 0:
            return DenseRetriever().retrieve(library, query)
        dense = library.embedder.embed_query(query.text)
        request = schema.hybrid_query(
            dense,
            schema.sparse_vector(sparse),
            query.limit,
            max(MIN_PREFETCH, PREFETCH_FACTOR * query.limit),
            query.query_filter,
        )
        return library.store.query(request)


RETRIEVERS: Mapping[SearchMode, Retriever] = MappingProxyType(
    {
        SearchMode.HYBRID: HybridRetriever(),
        SearchMode.DENSE: DenseRetriever(),
        SearchMode.SPARSE: SparseRetriever(),
    }
)
