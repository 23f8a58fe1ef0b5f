"""resolve_citations: the citation tool node. Every marker's quote is matched to a stored block.

The cited text is the source of truth: the block id a writer gave is passed only as a hint. This is
the one place citations are resolved; later steps may renumber them but never change them.
"""

from __future__ import annotations

from langgraph.runtime import Runtime

from graph.context import ResearchContext, research_context
from graph.state import ResearchState, marker_key
from tools.resolve_citation import Resolution, make_resolve_citation_tool


def resolve_citations(state: ResearchState, runtime: Runtime[ResearchContext]) -> dict:
    context = research_context(runtime)
    tool = make_resolve_citation_tool(context.block_index)
    retrieved = sorted(
        {b.block_id for f in state.get("findings", []) for c in f.evidence for b in c.blocks}
    )
    resolved: dict[str, Resolution | None] = {}
    for claim in state["draft"].claims():
        for marker in claim.citations:
            key = marker_key(marker)
            if key in resolved:
                continue
            result = tool.invoke(
                {"cited_text": marker.quote, "block_id": marker.block_id, "retrieved_block_ids": retrieved}
            )
            resolved[key] = Resolution.model_validate(result) if result else None
    unresolved = sum(1 for r in resolved.values() if r is None)
    corrected = sum(
        1 for claim in state["draft"].claims() for m in claim.citations
        if (r := resolved[marker_key(m)]) is not None and m.block_id not in r.block_ids
    )
    note = (
        f"resolve_citations: {len(resolved) - unresolved}/{len(resolved)} resolved, "
        f"{corrected} hint(s) corrected, {unresolved} unresolved"
    )
    return {"citations": resolved, "progress": [note]}
