"""One research run for the chat: a job of the serving process's core (``LocalPortal.start_research``),
read as the graph's progress lines as they come, then the result.

The run belongs to the service, not to the browser tab: closing the tab stops the reading, the run
goes on and lands in the Threads tab; the chat's Stop button cancels the job itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from research.options import ResearchOptions
from ui.core.exports.record import ReportRecord
from ui.core.jobs import Job, JobState
from ui.core.local import LocalPortal

#: Seconds between checks on a quiet run (a reader also wakes at once on every event).
POLL = 5.0


@dataclass(frozen=True)
class Progress:
    node: str
    line: str


@dataclass(frozen=True)
class Finished:
    record: ReportRecord
    seconds: float


@dataclass(frozen=True)
class Failed:
    message: str
    seconds: float


def stream_research(
    portal: LocalPortal,
    topic: str,
    *,
    single_question: bool,
    options: ResearchOptions,
    thread_id: str,
) -> Iterator[Progress | Finished | Failed]:
    """Progress lines as the graph produces them, then one ``Finished`` or ``Failed``.

    The run starts at the call, so what the core refuses (``QueryTooLongError``) is raised there,
    before anything is read. Given the id of an interrupted run, the run resumes from its last
    checkpoint."""
    job = portal.start_research(topic, single_question=single_question, options=options, thread_id=thread_id)
    return _read(job)


def _read(job: Job) -> Iterator[Progress | Finished | Failed]:
    for event in job.follow(POLL):
        if event.event == "progress":
            yield Progress(event.data["node"], event.data["line"])
    seconds = job.view().seconds or 0.0
    if job.state is JobState.DONE:
        yield Finished(job.result, seconds)
    elif job.state is JobState.CANCELLED:
        yield Failed("stopped on request", seconds)
    else:
        yield Failed(job.error or "the run failed", seconds)
