"""finalize: the final answer node — renders the resolved draft into the report."""

from __future__ import annotations

from langgraph.runtime import Runtime

from nodes.render import render_report
from research.context import ResearchContext
from research.state import ResearchState


def finalize(state: ResearchState, runtime: Runtime[ResearchContext]) -> dict:
    context = runtime.context
    evidence = [c for f in state.get("findings", []) for c in f.evidence]
    # The judge reads a writer's paraphrase by meaning with the embeddings (a quoted claim needs none).
    reading = context.strategy.reading(context.library.embedder)
    report = render_report(
        state["draft"],
        state["citations"],
        context.strategy.mode,
        context.options.unresolved,
        state["topic"],
        evidence,
        reading,
        single_question=bool(state.get("single_question")),
    )
    note = f"finalize: {len(report.citations)} citation(s), {report.unverified_claims} unverified, {report.dropped_claims} dropped"
    return {"report": report, "progress": [note]}
