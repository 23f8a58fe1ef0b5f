"""The research graph: plan -> research (fan-out) -> assess <-> retry_gaps -> answer_disputes
-> detect_contradictions -> synthesize -> resolve_citations -> finalize."""

from __future__ import annotations

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from nodes.answer_disputes import answer_disputes
from nodes.assess import assess, route_after_assess
from nodes.detect_contradictions import detect_contradictions
from nodes.finalize import finalize
from nodes.plan import plan
from nodes.research import fan_out, research
from nodes.resolve_citations import resolve_citations
from nodes.retry_gaps import retry_gaps
from nodes.synthesize import synthesize
from research.context import ResearchContext
from research.state import ResearchState


def build_graph(
    checkpointer: BaseCheckpointSaver | None = None, context_schema: type = ResearchContext
) -> CompiledStateGraph:
    """``context_schema`` is ``graph.studio.StudioContext`` for the LangGraph server, which passes JSON only."""
    builder = StateGraph(ResearchState, context_schema=context_schema)
    builder.add_node("plan", plan)
    builder.add_node("research", research)
    builder.add_node("assess", assess)
    builder.add_node("retry_gaps", retry_gaps)
    builder.add_node("answer_disputes", answer_disputes)
    builder.add_node("detect_contradictions", detect_contradictions)
    builder.add_node("synthesize", synthesize)
    builder.add_node("resolve_citations", resolve_citations)
    builder.add_node("finalize", finalize)

    builder.add_edge(START, "plan")
    builder.add_conditional_edges("plan", fan_out, ["research"])
    builder.add_edge("research", "assess")
    builder.add_conditional_edges("assess", route_after_assess, ["retry_gaps", "answer_disputes"])
    builder.add_edge("retry_gaps", "assess")
    builder.add_edge("answer_disputes", "detect_contradictions")
    builder.add_edge("detect_contradictions", "synthesize")
    builder.add_edge("synthesize", "resolve_citations")
    builder.add_edge("resolve_citations", "finalize")
    builder.add_edge("finalize", END)
    return builder.compile(checkpointer=checkpointer, name="prp-research")
