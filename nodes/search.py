"""Searching on behalf of a node: one query or several, merged by chunk and ranked."""

from __future__ import annotations

from collections.abc import Iterable

from corpus.retrieval import RetrievedChunk
from research.context import ResearchContext
from tools.hybrid_search import hybrid_search


def search(context: ResearchContext, query: str) -> list[RetrievedChunk]:
    options = context.options
    return hybrid_search(context.library, query, options.k, options.filters, options.search_mode)


def merge_evidence(*result_lists: Iterable[RetrievedChunk]) -> list[RetrievedChunk]:
    """Union of several searches: each chunk once, at its best score, best first."""
    best: dict[str, RetrievedChunk] = {}
    for results in result_lists:
        for chunk in results:
            kept = best.get(chunk.chunk_id)
            if kept is None or chunk.score > kept.score:
                best[chunk.chunk_id] = chunk
    ranked = sorted(best.values(), key=lambda c: (-c.score, c.chunk_id))
    return [c.model_copy(update={"rank": i}) for i, c in enumerate(ranked, start=1)]
