"""plan: decompose the topic into sub-questions, each with why it matters."""

from __future__ import annotations

from langgraph.runtime import Runtime

from graph.context import ResearchContext, research_context
from graph.state import ResearchState
from nodes.search import search


def plan(state: ResearchState, runtime: Runtime[ResearchContext]) -> dict:
    context = research_context(runtime)
    scout = search(context, state["topic"])
    sub_questions = context.strategy.plan(state["topic"], state.get("single_question", False), scout)
    lines = [f"plan: {len(sub_questions)} sub-question(s)"] + [f"  {q.id}: {q.question}" for q in sub_questions]
    return {"plan": sub_questions, "retry_round": 0, "progress": lines}
