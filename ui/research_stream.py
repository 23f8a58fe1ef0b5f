"""One research run for the chat: the graph's progress lines as they come, then the result.

The run goes through the same ``run_research`` as ``prp ask``/``prp report``, with the SQLite
checkpointer, on a thread of its own (see ``ui.background``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass

from corpus.errors import PrpError
from corpus.library import Library
from graph.checkpoints import open_checkpointer
from graph.run import ResearchResult, run_research
from research.options import ResearchOptions
from research.strategy import ResearchStrategy
from ui.background import Crashed, Done, stream_work


@dataclass(frozen=True)
class Progress:
    node: str
    line: str


@dataclass(frozen=True)
class Finished:
    result: ResearchResult
    seconds: float


@dataclass(frozen=True)
class Failed:
    message: str
    seconds: float


def stream_research(
    library: Library,
    strategy: ResearchStrategy,
    topic: str,
    *,
    single_question: bool,
    options: ResearchOptions,
    thread_id: str,
    lock: AbstractContextManager | None = None,
) -> Iterator[Progress | Finished | Failed]:
    """Progress lines as the graph produces them, then one ``Finished`` or ``Failed``.

    Given the id of an interrupted run, the run resumes from its last checkpoint. ``lock`` is held
    for the whole run, on the run's own thread."""

    def work(report) -> ResearchResult:
        with lock or nullcontext(), open_checkpointer(library.settings) as checkpointer:
            return run_research(
                library,
                strategy,
                topic,
                single_question=single_question,
                options=options,
                checkpointer=checkpointer,
                thread_id=thread_id,
                on_progress=lambda node, line: report(Progress(node, line)),
            )

    for event in stream_work(work, f"research-{thread_id}"):
        if isinstance(event, Done):
            yield Finished(event.value, event.seconds)
        elif isinstance(event, Crashed):
            error = event.error
            message = str(error) if isinstance(error, PrpError) else f"{type(error).__name__}: {error}"
            yield Failed(message, event.seconds)
        else:
            yield event
