"""detect_contradictions: where do the sources disagree? The documents' answer disputes (found by
``answer_disputes``) and what the strategy finds; each side must come from another document."""

from __future__ import annotations

from langgraph.runtime import Runtime

from research.context import ResearchContext
from research.state import ResearchState


def detect_contradictions(state: ResearchState, runtime: Runtime[ResearchContext]) -> dict:
    found = runtime.context.strategy.contradictions(state.get("findings", []), state.get("disputes", []))
    notes = [f"contradictions: {len(found)}"] + [f"  {c.subject}: {c.explanation}" for c in found]
    return {"contradictions": found, "progress": notes}
