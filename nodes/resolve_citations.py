"""resolve_citations: the citation tool node. Every marker's quote is matched to a stored block.

The cited text is the source of truth: the block id a writer gave is passed only as a hint. This is
the one place citations are resolved; later steps may number them but never change them. Each quote
is resolved by a call of the ``resolve_citation`` tool (``tools.citations.tool``; ``nodes.tool_calls``
says why).
"""

from __future__ import annotations

from langgraph.runtime import Runtime

from nodes.tool_calls import call_tool
from research.context import ResearchContext
from research.evidence import marker_key
from research.state import ResearchState
from tools.citations.index import BlockIndex
from tools.citations.resolve import Resolution
from tools.citations.tool import make_resolve_citation_tool


def resolve_citations(state: ResearchState, runtime: Runtime[ResearchContext]) -> dict:
    # The index of the library's ready documents, built once and rebuilt when they change.
    tool = make_resolve_citation_tool(runtime.context.library.derived("citation_index", BlockIndex.from_registry))
    retrieved = sorted({b.block_id for f in state.get("findings", []) for c in f.evidence for b in c.blocks})
    resolved: dict[str, Resolution | None] = {}
    markers = list(state["draft"].markers())
    for marker in markers:
        key = marker_key(marker)
        if key not in resolved:
            resolved[key] = call_tool(
                tool, cited_text=marker.quote, block_id=marker.block_id, retrieved_block_ids=retrieved
            )
    unresolved = sum(1 for r in resolved.values() if r is None)
    corrected = sum(1 for m in markers if (r := resolved[marker_key(m)]) is not None and m.block_id not in r.block_ids)
    note = (
        f"resolve_citations: {len(resolved) - unresolved}/{len(resolved)} resolved, "
        f"{corrected} hint(s) corrected, {unresolved} unresolved"
    )
    return {"citations": resolved, "progress": [note]}
