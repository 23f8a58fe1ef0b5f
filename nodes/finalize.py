"""finalize: the final answer node — renders the resolved draft into the report."""

from __future__ import annotations

from langgraph.runtime import Runtime

from graph.context import ResearchContext, research_context
from graph.state import ResearchState
from nodes.render import render_report


def finalize(state: ResearchState, runtime: Runtime[ResearchContext]) -> dict:
    context = research_context(runtime)
    report = render_report(state["draft"], state["citations"], context.strategy.mode, context.options.unresolved)
    note = f"finalize: {len(report.citations)} citation(s), {report.unverified_claims} unverified, {report.dropped_claims} dropped"
    return {"report": report, "progress": [note]}
