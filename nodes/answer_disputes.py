"""answer_disputes: do the documents answer a sub-question differently? The check every report gets.

Each finding's documents are read for their own answers (``strategies.reading.document_answers``),
without the model in either mode: a model may miss that two sources answer a question differently,
or state one side as fact. ``detect_contradictions`` then hands these disputes to the strategy,
which adds the disagreements it finds itself.
"""

from __future__ import annotations

from langgraph.runtime import Runtime

from research.context import ResearchContext
from research.state import ResearchState
from strategies.reading.document_answers import answer_disputes as disputes_of
from strategies.reading.vectors import Vectors


def answer_disputes(state: ResearchState, runtime: Runtime[ResearchContext]) -> dict:
    vectors = Vectors(runtime.context.library.embedder)
    return {"disputes": disputes_of(state.get("findings", []), vectors)}
