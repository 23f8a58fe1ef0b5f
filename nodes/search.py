"""Searching on behalf of a node: one query or several, merged by chunk and ranked.

Each search is a call of the ``hybrid_search`` tool (``nodes.tool_calls`` says why).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from corpus.retrieval import RetrievedChunk
from nodes.tool_calls import call_tool
from research.context import ResearchContext
from tools.hybrid_search import make_hybrid_search_tool

# Evidence is for judging what the documents say, and whether they say it differently: at most this
# share of it comes from one document while others match the query too (the search looks twice as
# deep for them). A page that repeats its topic in every chunk would otherwise fill the evidence, and a
# second document stating another figure would never be read.
MAX_DOCUMENT_SHARE = 0.75


def search(context: ResearchContext, query: str) -> list[RetrievedChunk]:
    options = context.options
    tool = make_hybrid_search_tool(context.library)
    found = call_tool(tool, query=query, k=2 * options.k, filters=options.filters, search_mode=options.search_mode)
    return diverse(found, options.k)


def diverse(ranked: list[RetrievedChunk], k: int) -> list[RetrievedChunk]:
    """The best ``k`` chunks with no document holding more than MAX_DOCUMENT_SHARE of them, unless
    no other document is left to fill the rest; in rank order."""
    cap = max(1, math.ceil(MAX_DOCUMENT_SHARE * k))
    taken: list[RetrievedChunk] = []
    per_document: dict[str, int] = {}
    for chunk in ranked:
        if len(taken) < k and per_document.get(chunk.doc_id, 0) < cap:
            taken.append(chunk)
            per_document[chunk.doc_id] = per_document.get(chunk.doc_id, 0) + 1
    chosen = {c.chunk_id for c in taken}
    taken += [c for c in ranked if c.chunk_id not in chosen][: k - len(taken)]
    return sorted(taken, key=lambda c: c.rank)


def merge_evidence(*result_lists: Iterable[RetrievedChunk]) -> list[RetrievedChunk]:
    """Union of several searches, each chunk once: the first list's chunks in its order, then each
    chunk only a later search found, best rank first (a reformulation adds what the question's own
    search missed; it does not re-rank what that search found)."""
    lists = [list(results) for results in result_lists]
    taken: dict[str, RetrievedChunk] = {c.chunk_id: c for c in lists[0]} if lists else {}
    later = sorted(
        (c for results in lists[1:] for c in results),
        key=lambda c: (c.rank, -c.score, c.chunk_id),
    )
    for chunk in later:
        taken.setdefault(chunk.chunk_id, chunk)
    return [c.model_copy(update={"rank": i}) for i, c in enumerate(taken.values(), start=1)]
