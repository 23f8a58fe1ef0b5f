"""Running the research graph: choosing the strategy, checkpointing, streaming progress.

Every entry point (``prp report``/``prp ask``, the Gradio chat, evals) goes through ``run_research``.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver

from corpus.config import Settings
from corpus.errors import ConfigError
from corpus.library import Library
from graph.build import build_graph
from graph.checkpoints import checkpoint_serde
from graph.context import ResearchContext, ResearchOptions
from graph.state import FinalReport
from nodes.strategy import ResearchStrategy

ProgressCallback = Callable[[str, str], None]
"""Called with (node name, progress line) as the graph works."""


def llm_configured(settings: Settings) -> bool:
    return bool(settings.openai_api_key or settings.openai_base_url)


def select_strategy(settings: Settings, library: Library) -> ResearchStrategy:
    """LLM mode when an OpenAI-compatible endpoint is configured, offline mode otherwise.

    Local LLM mode (``PRP_LLM=local``) needs its server running: ``open_strategy`` starts it.
    """
    if settings.llm == "local" and not settings.openai_base_url:
        raise ConfigError("PRP_LLM=local: the local model server is started by open_strategy(), not select_strategy()")
    if llm_configured(settings):
        from nodes.llm.client import make_chat_model
        from nodes.llm.strategy import LLMStrategy

        return LLMStrategy(make_chat_model(settings), settings.llm_model, settings.llm_schema_format)
    from nodes.offline.strategy import OfflineStrategy

    return OfflineStrategy(library.embedder)


@contextmanager
def open_strategy(
    settings: Settings, library: Library, on_progress: ProgressCallback | None = None
) -> Iterator[ResearchStrategy]:
    """The strategy for one or more runs; in local LLM mode, llama.cpp's server runs while it is open."""
    if settings.llm != "local":
        yield select_strategy(settings, library)
        return
    from nodes.llm.local_server import LocalLLMServer

    status = (lambda line: on_progress("llm", line)) if on_progress else None
    # The server's own log goes beside the data, where a failed start can point to it.
    log_path = settings.data_dir / "llm-server.log"
    with LocalLLMServer.from_settings(settings, log_path=log_path, on_status=status) as server:
        yield select_strategy(server.client_settings(settings), library)


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
    options: ResearchOptions | None = None,
    checkpointer: BaseCheckpointSaver | None = None,
    thread_id: str | None = None,
    on_progress: ProgressCallback | None = None,
) -> ResearchResult:
    """Run (or resume, given a checkpointer and a known ``thread_id``) one research job."""
    # Without a persistent checkpointer, an in-memory one still gives the merged final state.
    persistent = checkpointer is not None
    graph = build_graph(checkpointer if persistent else InMemorySaver(serde=checkpoint_serde()))
    thread_id = thread_id or uuid.uuid4().hex[:12]
    config = {"configurable": {"thread_id": thread_id}, "recursion_limit": 100}
    context = ResearchContext(library=library, strategy=strategy, options=options or ResearchOptions())
    graph_input: dict | None = {"topic": topic, "single_question": single_question}
    if persistent:
        snapshot = graph.get_state(config)
        if snapshot.values and "report" in snapshot.values:
            return ResearchResult(thread_id, snapshot.values["report"], dict(snapshot.values))
        if snapshot.next:
            graph_input = None  # resume the interrupted run where its last checkpoint left it
    for update in graph.stream(graph_input, config, context=context, stream_mode="updates"):
        for node, values in update.items():
            for line in (values or {}).get("progress", []):
                if on_progress:
                    on_progress(node, line)
    state = dict(graph.get_state(config).values)
    return ResearchResult(thread_id, state["report"], state)
