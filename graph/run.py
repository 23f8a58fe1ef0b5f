"""Running the research graph: checkpointing and streaming progress.

Every entry point (``prp report``/``prp ask``, the Gradio chat, evals) goes through ``run_research``.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver

from corpus.library import Library
from graph.build import build_graph
from graph.checkpoints import checkpoint_serde, finished_report
from research.context import RunContext
from research.options import ResearchOptions
from research.report import FinalReport
from research.strategy import ResearchStrategy

ProgressCallback = Callable[[str, str], None]
"""Called with (node name, progress line) as the graph works."""


@dataclass
class ResearchResult:
    thread_id: str
    report: FinalReport
    state: dict


def run_research(
    library: Library,
    strategy: ResearchStrategy,
    topic: str,
    *,
    single_question: bool = False,
    asked: str | None = None,
    options: ResearchOptions | None = None,
    checkpointer: BaseCheckpointSaver | None = None,
    thread_id: str | None = None,
    on_progress: ProgressCallback | None = None,
) -> ResearchResult:
    """Run (or resume, given a checkpointer and a known ``thread_id``) one research job. ``asked``: the
    follow-up as typed, when ``topic`` is the standalone question it was read as."""
    # Without a persistent checkpointer, an in-memory one still gives the merged final state.
    persistent = checkpointer is not None
    graph = build_graph(checkpointer if persistent else InMemorySaver(serde=checkpoint_serde()))
    thread_id = thread_id or uuid.uuid4().hex[:12]
    config = {"configurable": {"thread_id": thread_id}, "recursion_limit": 100}
    context = RunContext(library=library, strategy=strategy, options=options or ResearchOptions())
    graph_input: dict | None = {"topic": topic, "single_question": single_question}
    if asked:
        graph_input["asked"] = asked
    if persistent:
        snapshot = graph.get_state(config)
        done = finished_report(thread_id, snapshot.values or {})
        if done is not None:
            return ResearchResult(thread_id, done, dict(snapshot.values))
        if snapshot.next:
            graph_input = None  # resume the interrupted run where its last checkpoint left it
    for update in graph.stream(graph_input, config, context=context, stream_mode="updates"):
        for node, values in update.items():
            for line in (values or {}).get("progress", []):
                if on_progress:
                    on_progress(node, line)
    state = dict(graph.get_state(config).values)
    return ResearchResult(thread_id, state["report"], state)
