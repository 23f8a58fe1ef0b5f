"""detect_contradictions: where do the sources disagree? Each side must come from another document."""

from __future__ import annotations

from langgraph.runtime import Runtime

from graph.context import ResearchContext, research_context
from graph.state import ResearchState


def detect_contradictions(state: ResearchState, runtime: Runtime[ResearchContext]) -> dict:
    found = research_context(runtime).strategy.contradictions(state.get("findings", []))
    notes = [f"contradictions: {len(found)}"] + [f"  {c.subject}: {c.explanation}" for c in found]
    return {"contradictions": found, "progress": notes}
