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
from tools.identifiers import holds, query_identifiers

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


def _sparse(
    library: Library, sparse: models.SparseVector, query: RetrievalQuery, limit: int, using: str = schema.SPARSE
) -> list[Hit]:
    hits = library.store.query(schema.sparse_query(sparse, limit + TIE_MARGIN, query.query_filter, using))
    return rank_hits(hits, limit)


def fuse_rrf(
    rankings: list[list[Hit]], limit: int, titles: list[Hit] | None = None, identifiers: list[str] | None = None
) -> list[Hit]:
    """Reciprocal rank fusion as Qdrant computes it (a hit's score: the sum of 1 / (k + rank), ranks
    from 0), the best ``limit``, ties in chunk-id order. A hit holding the query's ``identifiers``
    exactly gains ``IDENTIFIER_WEIGHT`` / k for all of them, before the cut (``exact_identifiers``).
    ``titles``, the title field's ranking, then adds ``TITLE_WEIGHT`` / (k + rank) to those ``limit``
    hits it matched, hits of one score sharing a rank (``title_ranks``): it re-orders the chunks the
    body rankings found and brings in none."""
    fused: dict[str, Hit] = {}
    for ranking in rankings:
        for rank, hit in enumerate(ranking):
            seen = fused.get(hit.chunk_id)
            fused[hit.chunk_id] = replace(
                seen or hit, score=1.0 / (schema.RRF_K + rank) + (seen.score if seen else 0.0)
            )
    if identifiers:
        fused = {chunk_id: exact_identifiers(hit, identifiers) for chunk_id, hit in fused.items()}
    found = {hit.chunk_id: hit for hit in rank_hits(list(fused.values()), limit)}
    for rank, hit in title_ranks(titles or []):
        seen = found.get(hit.chunk_id)
        if seen is not None:
            found[hit.chunk_id] = replace(seen, score=seen.score + TITLE_WEIGHT / (schema.RRF_K + rank))
    return rank_hits(list(found.values()), limit)


# A query holding an identifier (a DOI, an ISBN, a product code, a phone number, a date, an invoice
# number: ``tools.identifiers``) asks for the chunk holding that identifier. BM25 ranks it first, but
# to the dense model every look-alike a digit away is as near, so one first in the dense ranking tied
# with it (both 1/k) or beat it (first in one ranking, second in the other); hybrid found an asked DOI
# 10 times in 12, a phone number 9 (issue 48). A chunk holding the exact identifier gains as much as
# a first place in one more ranking (a share of it for a share of the query's identifiers), so it
# comes before every look-alike either ranking found, and the rankings still order the chunks that
# hold it (or none).
IDENTIFIER_WEIGHT = 1.0


def exact_identifiers(hit: Hit, identifiers: list[str]) -> Hit:
    """``hit`` with ``IDENTIFIER_WEIGHT`` / k added for the share of ``identifiers`` its text holds."""
    text = hit.payload.get("text", "")
    held = sum(holds(text, identifier) for identifier in identifiers)
    if not held:
        return hit
    return replace(hit, score=hit.score + IDENTIFIER_WEIGHT * held / len(identifiers) / schema.RRF_K)


# The title field only re-orders the body rankings' chunks: let it bring in chunks of its own and the
# chunks of other pages named like the question change what the offline reader judges (a word that
# was the evidence's general subject becomes a specific term no sentence holds; docs-dev answered
# 0.76 -> 0.74); re-ordering alone keeps answered at 0.76 with the same evidence hit@1 (0.80 -> 0.83).
# The title field's ranking weighs this much against one body ranking in the fusion. On docs-dev,
# where few questions name a page, an equal weight let pages whose titles share a word with the
# question ("Models" for "which Claude model …") crowd out the passage (evidence hit@1 0.75 -> 0.69);
# at a quarter a section heading sharing the question's words lifted a footnote under it above the
# summary that answers (the sample set's hit@1 0.852 -> 0.815); 0.15 lifts a chunk the body rankings
# hold near the top when its page or section is named, and reorders little else.
TITLE_WEIGHT = 0.15
# A title match counts from this score: a term in the title field of most points has an IDF near 0,
# so a match on such terms alone (a site's name every page's title ends with) stays below it.
MIN_TITLE_SCORE = 0.5


def title_ranks(hits: list[Hit]) -> list[tuple[int, Hit]]:
    """Each title match from ``MIN_TITLE_SCORE`` with its rank; hits of one score (every chunk of a
    page, every section of a document that one title word matched) share the rank of the first, so
    which of them the engine returned first gives none of them an edge."""
    ranked: list[tuple[int, Hit]] = []
    for position, hit in enumerate(h for h in hits if h.score >= MIN_TITLE_SCORE):
        tied = ranked and round(ranked[-1][1].score, 6) == round(hit.score, 6)
        ranked.append((ranked[-1][0] if tied else position, hit))
    return ranked


# A question that names a section ("How can you create multiple test cases …" under "Creating Test
# Cases", "… specify a system prompt …" under "System prompt") asks for what that section says. Among
# the chunks the body rankings found, those whose heading's terms (BM25's: stemmed, stopwords out) are
# all in the question move up by this much over the rank of their heading, the heading of most terms
# first: as much as a first place in one body ranking, so a named section's chunk near the top takes
# the first place, and one the body rankings hold low stays below the passages they agree on. A
# heading of one term ("Examples", "Python", "Pricing") names a kind of section many pages have, not
# one; it takes two.
HEADING_WEIGHT = 0.5
MIN_HEADING_TERMS = 2


def named_sections(
    hits: list[Hit], query_terms: frozenset[int], heading_terms: Mapping[str, frozenset[int]]
) -> list[Hit]:
    """``hits`` re-ranked with ``HEADING_WEIGHT`` for each whose section heading the query names:
    every one of at least ``MIN_HEADING_TERMS`` terms of the heading (``heading_terms``) is among
    ``query_terms``."""
    named: dict[str, int] = {}
    for hit in hits:
        terms = heading_terms.get(hit.payload.get("section", ""), frozenset())
        if len(terms) >= MIN_HEADING_TERMS and terms <= query_terms:
            named[hit.chunk_id] = len(terms)
    if not named:
        return hits
    sizes = sorted(set(named.values()), reverse=True)
    bonus = {chunk_id: HEADING_WEIGHT / (schema.RRF_K + sizes.index(n)) for chunk_id, n in named.items()}
    return rank_hits([replace(h, score=h.score + bonus.get(h.chunk_id, 0.0)) for h in hits], len(hits))


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
    """Dense and BM25 rankings fused by RRF, with the title field's BM25 ranking where the collection
    has one (``corpus.title_field``); the dense ranking alone when BM25 has nothing to say."""

    def retrieve(self, library: Library, query: RetrievalQuery) -> list[Hit]:
        sparse = library.embedder.embed_sparse_query(query.text)
        if len(sparse.indices) == 0:
            return DenseRetriever().retrieve(library, query)
        depth = max(MIN_PREFETCH, PREFETCH_FACTOR * query.limit)
        vector = schema.sparse_vector(sparse)
        rankings = [_dense(library, query, depth), _sparse(library, vector, query, depth)]
        titles = _sparse(library, vector, query, depth, schema.TITLE) if library.store.has_titles else None
        fused = fuse_rrf(rankings, query.limit, titles, query_identifiers(query.text))
        headings = {h.payload.get("section", "") for h in fused}
        terms = {heading: _terms(library, heading) for heading in headings}
        return named_sections(fused, frozenset(sparse.indices.tolist()), terms)


def _terms(library: Library, text: str) -> frozenset[int]:
    """The BM25 terms of ``text`` as the query side counts them (stemmed, stopwords out)."""
    return frozenset(library.embedder.embed_sparse_query(text).indices.tolist()) if text.strip() else frozenset()


RETRIEVERS: Mapping[SearchMode, Retriever] = MappingProxyType(
    {
        SearchMode.HYBRID: HybridRetriever(),
        SearchMode.DENSE: DenseRetriever(),
        SearchMode.SPARSE: SparseRetriever(),
    }
)
