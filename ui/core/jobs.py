"""Long work (ingests, syncs, deletions, research runs) as jobs: run on threads the service owns, their
progress kept as numbered events any number of readers can follow, cancellable.

A job belongs to the service, not to whoever started it: a reader that goes away (a closed browser
tab, a CLI killed with Ctrl-C, a dropped SSE connection) stops reading, the job goes on, and a new
reader can pick the events up from any number (SSE's ``Last-Event-ID``). Writes to the library
(ingest, sync, delete) run one at a time on one thread, in the order they were asked for; research runs and
searches only read the library, so they run beside a write, on a small pool of their own.

Cancelling is cooperative: the job's work calls ``Job.emit`` at each step and that raises
``JobCancelled`` once a cancel was asked for. A research run stopped this way keeps its checkpoints
(it can be resumed with its thread id); an ingest stops between files and inside a long one between
embedding batches (``Job.check``), each file whole or absent.

A command that opens the library itself (no service running) runs the same jobs in the foreground:
each one in the thread that follows it, so Ctrl-C and the failures of the process's own making (a
full disk, a bug) reach the command exactly as they would without jobs.
"""

from __future__ import annotations

import sys
import threading
import time
import traceback
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from enum import StrEnum
from functools import partial
from typing import Any, Literal

from pydantic import BaseModel, Field

from corpus.errors import PrpError
from corpus.ingest_progress import IngestCounter, IngestProgress

#: Finished jobs kept for late readers; the oldest finished ones are forgotten beyond this.
KEPT_JOBS = 200

JobKind = Literal["ingest", "sync", "delete", "research"]


class JobState(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"

    @property
    def finished(self) -> bool:
        return self in (JobState.DONE, JobState.FAILED, JobState.CANCELLED)


class JobCancelled(Exception):
    """Raised inside a job's work at its next step once a cancel was asked for."""


class JobEvent(BaseModel):
    seq: int = Field(description="1, 2, ... in the order the job emitted them.")
    event: str = Field(description="What happened: state, progress, file, result, error...")
    data: dict[str, Any]


class JobView(BaseModel):
    """A job as the API shows it."""

    job_id: str
    kind: JobKind
    state: JobState
    title: str
    created_at: str
    seconds: float | None = Field(None, description="Running time so far, or in all once finished.")
    events: int = Field(description="How many events the job has emitted (the last one's seq).")
    error: str | None = None
    cancel_requested: bool = False
    info: dict[str, Any] = Field(default_factory=dict, description="What the job works on (thread id, files...).")
    progress: IngestProgress | None = Field(None, description="An ingest's or sync's counters, as they stand now.")


class Job:
    def __init__(self, kind: JobKind, title: str, info: dict[str, Any]):
        self.id = uuid.uuid4().hex[:12]
        self.kind = kind
        self.title = title
        self.info = info
        self.state = JobState.QUEUED
        self.created_at = datetime.now(UTC).isoformat(timespec="seconds")
        self.error: str | None = None
        self.result: Any = None
        self._events: list[JobEvent] = []
        self._changed = threading.Condition()
        self._cancel = threading.Event()
        self._started: float | None = None
        self._seconds: float | None = None
        self._listener: Callable[[JobEvent], None] | None = None  # the reader of a foreground job
        self.progress: IngestCounter | None = None  # set by an ingest's or a sync's work when it starts

    # --- written by the job's thread ------------------------------------------------------------

    def emit(self, event: str, data: dict[str, Any] | None = None) -> None:
        """Record one step; raises ``JobCancelled`` if a cancel was asked for meanwhile."""
        self._record(event, data or {})
        self.check()

    def check(self) -> None:
        """Raise ``JobCancelled`` if a cancel was asked for: for steps too small to report."""
        if self._cancel.is_set():
            raise JobCancelled

    def _set_state(self, state: JobState, **data: Any) -> None:
        with self._changed:
            self.state = state
            if state is JobState.RUNNING:
                self._started = time.perf_counter()
            elif state.finished and self._started is not None:
                self._seconds = time.perf_counter() - self._started
        self._record("state", {"state": state.value, **data})

    def _record(self, event: str, data: dict[str, Any]) -> None:
        with self._changed:
            recorded = JobEvent(seq=len(self._events) + 1, event=event, data=data)
            self._events.append(recorded)
            self._changed.notify_all()
        if self._listener is not None:
            self._listener(recorded)

    # --- read by anyone -------------------------------------------------------------------------

    def events_after(self, seq: int, timeout: float | None = None) -> list[JobEvent]:
        """Events numbered above ``seq``; waits up to ``timeout`` for one if there are none yet
        and the job has not finished."""
        with self._changed:
            if len(self._events) <= seq and not self.state.finished and timeout:
                self._changed.wait(timeout)
            return self._events[seq:]

    def follow(self, poll: float = 5.0) -> Iterator[JobEvent]:
        """Every event from the first until the job has finished (blocking; for a thread of the
        reader's own: the chat's handlers). ``poll`` bounds each wait on a quiet job."""
        seq = 0
        while True:
            batch = self.events_after(seq, poll)
            yield from batch
            seq = batch[-1].seq if batch else seq
            if self.state.finished and not self.events_after(seq):
                return

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the job has finished; False if ``timeout`` ran out first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._changed:
            while not self.state.finished:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._changed.wait(left)
        return True

    def cancel(self) -> None:
        self._cancel.set()

    @property
    def cancel_requested(self) -> bool:
        return self._cancel.is_set()

    def view(self) -> JobView:
        with self._changed:
            if self._seconds is not None:
                seconds = self._seconds
            elif self._started is not None:
                seconds = time.perf_counter() - self._started
            else:
                seconds = None
            return JobView(
                job_id=self.id,
                kind=self.kind,
                state=self.state,
                title=self.title,
                created_at=self.created_at,
                seconds=None if seconds is None else round(seconds, 2),
                events=len(self._events),
                error=self.error,
                cancel_requested=self._cancel.is_set(),
                info=self.info,
                progress=self.progress.snapshot() if self.progress else None,
            )


class Jobs:
    """The job runner: one thread for writes to the library, a few for research; or, in
    ``foreground``, none (each job runs when it is followed, in its reader's thread)."""

    def __init__(self, research_workers: int = 2, *, foreground: bool = False):
        self._foreground = foreground
        self._writes = ThreadPoolExecutor(1, thread_name_prefix="prp-write")
        self._reads = ThreadPoolExecutor(research_workers, thread_name_prefix="prp-research")
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._unstarted: dict[str, Callable[[], None]] = {}  # foreground jobs nobody followed yet
        self._lock = threading.Lock()

    def submit(
        self,
        kind: JobKind,
        title: str,
        work: Callable[[Job], Any],
        *,
        info: dict[str, Any] | None = None,
        finish: Callable[[Job], dict[str, Any]] | None = None,
    ) -> Job:
        """Queue ``work(job)``; its return value becomes ``job.result``. ``finish(job)`` gives the
        data of the job's final state event (it runs however the work ended)."""
        job = Job(kind, title, info or {})
        run = partial(self._run, job, work, finish)
        with self._lock:
            self._jobs[job.id] = job
            self._forget_old()
            if self._foreground:
                self._unstarted[job.id] = run
                return job
        pool = self._reads if kind == "research" else self._writes
        pool.submit(run)
        return job

    def follow(self, job: Job, on_event: Callable[[JobEvent], None]) -> None:
        """Hand every event of ``job`` to ``on_event`` as it comes, until the job has finished; a
        foreground job runs now, in this thread."""
        with self._lock:
            run = self._unstarted.pop(job.id, None)
        if run is None:
            for event in job.follow():
                on_event(event)
            return
        job._listener = on_event
        run()

    def _run(self, job: Job, work: Callable[[Job], Any], finish: Callable[[Job], dict[str, Any]] | None) -> None:
        if job.cancel_requested:  # cancelled while it waited its turn
            job._set_state(JobState.CANCELLED)
            return
        job._set_state(JobState.RUNNING)
        own: BaseException | None = None  # the process's own failure, for a foreground job's reader
        try:
            job.result = work(job)
            state = JobState.DONE
        except JobCancelled:
            state = JobState.CANCELLED
        except PrpError as exc:  # a failure prp states in words: the job's error
            job.error, state = str(exc), JobState.FAILED
        except Exception as exc:
            job.error, state = f"{type(exc).__name__}: {exc}", JobState.FAILED
            if self._foreground:
                own = exc
            else:  # the job reports it; the service goes on serving
                traceback.print_exc(file=sys.stderr)
        except KeyboardInterrupt as exc:  # Ctrl-C reaches a foreground job's thread only
            state, own = JobState.CANCELLED, exc
        extra = finish(job) if finish else {}
        job._set_state(state, **({"error": job.error} if job.error else {}), **extra)
        if own is not None:
            raise own

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return self._jobs.get(job_id)

    def list(self, kind: JobKind | None = None, active: bool = False) -> list[Job]:
        """Newest first."""
        with self._lock:
            jobs = list(reversed(self._jobs.values()))
        return [j for j in jobs if (kind is None or j.kind == kind) and not (active and j.state.finished)]

    def _forget_old(self) -> None:
        finished = [j.id for j in self._jobs.values() if j.state.finished]
        for job_id in finished[: max(0, len(self._jobs) - KEPT_JOBS)]:
            del self._jobs[job_id]

    def shutdown(self, cancel: bool = True) -> None:
        """Stop taking work; with ``cancel`` ask running jobs to stop at their next step."""
        if cancel:
            for job in self.list(active=True):
                job.cancel()
        self._writes.shutdown(wait=True, cancel_futures=False)
        self._reads.shutdown(wait=True, cancel_futures=False)
