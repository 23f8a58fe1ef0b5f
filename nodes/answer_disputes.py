"""answer_disputes: do the documents answer a sub-question differently? The check every report gets.

Each finding's documents are read for their own answers (the strategy's ``ReportReading.disputes``),
without the model in either mode: a model may miss that two sources answer a question differently,
or state one side as fact. ``detect_contradictions`` then hands these disputes to the strategy,
which adds the disagreements it finds itself.
"""

from __future__ import annotations

from langgraph.runtime import Runtime

from research.context import ResearchContext
from research.state import ResearchState


def answer_disputes(state: ResearchState, runtime: Runtime[ResearchContext]) -> dict:
    reading = runtime.context.strategy.reading(runtime.context.library.embedder)
    return {"disputes": reading.disputes(state.get("findings", []))}
