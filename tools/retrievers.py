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
from dataclasses import dataclass, replace
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
# Chunks with one score (the same paragraph in two documents; BM25 often gives two chunks one score)
# come back from the engine in an order that changes from process to process, and so do RRF's ties
# (a chunk first in the dense ranking only and one first in BM25's only both score 1/2). Every ranking
# is therefore re-ordered here by score, then chunk id, from a few more hits than it keeps, and fused
# here rather than in the engine, so the same library and query give the same chunks in the same order
# in every process.
TIE_MARGIN = 8


@dataclass(frozen=True)
class RetrievalQuery:
    text: str
    limit: int
    query_filter: models.Filter | None


class Retriever(Protocol):
    def retrieve(self, library: Library, query: RetrievalQuery) -> list[Hit]: ...


def rank_hits(hits: list[Hit], limit: int) -> list[Hit]:
    """The best ``limit`` hits by score, ties in chunk-id order (see ``TIE_MARGIN``)."""
    return sorted(hits, key=lambda h: (-h.score, h.chunk_id))[:limit]


def _dense(library: Library, query: RetrievalQuery, limit: int) -> list[Hit]:
    dense = library.embedder.embed_query(query.text)
    return rank_hits(library.store.query(schema.dense_query(dense, limit + TIE_MARGIN, query.query_filter)), limit)


def _sparse(library: Library, sparse: models.SparseVector, query: RetrievalQuery, limit: int) -> list[Hit]:
    hits = library.store.query(schema.sparse_query(sparse, limit + TIE_MARGIN, query.query_filter))
    return rank_hits(hits, limit)


def fuse_rrf(rankings: list[list[Hit]], limit: int) -> list[Hit]:
    """Reciprocal rank fusion as Qdrant computes it (a hit's score: the sum of 1 / (k + rank), ranks
    from 0), the best ``limit``, ties in chunk-id order."""
    fused: dict[str, Hit] = {}
    for ranking in rankings:
        for rank, hit in enumerate(ranking):
            term = 1.0 / (schema.RRF_K + rank)
            seen = fused.get(hit.chunk_id)
            fused[hit.chunk_id] = replace(hit, score=term + (seen.score if seen else 0.0))
    return rank_hits(list(fused.values()), limit)


class DenseRetriever:
    """The chunks nearest the query in the dense model's space."""

    def retrieve(self, library: Library, query: RetrievalQuery) -> list[Hit]:
        return _dense(library, query, query.limit)


class SparseRetriever:
    """BM25 alone."""

    def retrieve(self, library: Library, query: RetrievalQuery) -> list[Hit]:
        sparse = library.embedder.embed_sparse_query(query.text)
        if len(sparse.indices) == 0:  # only stopwords: BM25 has nothing to say
            return []
        return _sparse(library, schema.sparse_vector(sparse), query, query.limit)


class HybridRetriever:
    """Dense and BM25 rankings fused by RRF; the dense ranking alone when BM25 has nothing to say."""

    def retrieve(self, library: Library, query: RetrievalQuery) -> list[Hit]:
        sparse = library.embedder.embed_sparse_query(query.text)
        if len(sparse.indices) == 0:
            return DenseRetriever().retrieve(library, query)
        depth = max(MIN_PREFETCH, PREFETCH_FACTOR * query.limit)
        rankings = [_dense(library, query, depth), _sparse(library, schema.sparse_vector(sparse), query, depth)]
        return fuse_rrf(rankings, query.limit)


RETRIEVERS: Mapping[SearchMode, Retriever] = MappingProxyType(
    {
        SearchMode.HYBRID: HybridRetriever(),
        SearchMode.DENSE: DenseRetriever(),
        SearchMode.SPARSE: SparseRetriever(),
    }
)
