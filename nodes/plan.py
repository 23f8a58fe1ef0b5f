"""plan: decompose the topic into sub-questions, each with why it matters."""

from __future__ import annotations

from langgraph.runtime import Runtime

from nodes.search import search
from research.context import ResearchContext
from research.state import ResearchState


def plan(state: ResearchState, runtime: Runtime[ResearchContext]) -> dict:
    context = runtime.context
    single = state.get("single_question", False)
    # The scout search feeds topic decomposition; a single question is researched as asked.
    scout = [] if single else search(context, state["topic"])
    sub_questions = context.strategy.plan(state["topic"], single, scout)
    # Shown first, so every surface's progress says how a follow-up was read before what was done.
    read_as = [f"follow-up read as: {state['topic']}{_scope(context)}"] if state.get("asked") else []
    lines = [*read_as, f"plan: {len(sub_questions)} sub-question(s)"] + [
        f"  {q.id}: {q.question}" for q in sub_questions
    ]
    return {"plan": sub_questions, "retry_round": 0, "progress": lines}


def _scope(context: ResearchContext) -> str:
    doc_ids = context.options.filters.doc_ids
    return f" (searching {len(doc_ids)} document(s))" if doc_ids else ""
