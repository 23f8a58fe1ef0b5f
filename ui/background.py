"""Run a callback-reporting job on a thread of its own and read its reports as a generator.

Gradio streams a generator by calling ``next`` from its worker threads, one call per update and
not always from the same thread; jobs that report through callbacks (ingest, the research graph,
whose synchronous stream keeps context variables that must stay on one thread) run start to finish
on their own thread instead, and the generator only reads a queue. If the reader goes away (the tab
closes), the job still finishes: an ingest is never left half done, a research run is checkpointed.
"""

from __future__ import annotations

import queue
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

R = TypeVar("R")


@dataclass(frozen=True)
class Done(Generic[R]):
    value: R
    seconds: float


@dataclass(frozen=True)
class Crashed:
    error: BaseException
    seconds: float


def stream_work(work: Callable[[Callable[[Any], None]], R], name: str) -> Iterator[Any]:
    """Yield what ``work`` reports through its callback, then one ``Done`` or ``Crashed``."""
    reports: queue.Queue = queue.Queue()
    started = time.perf_counter()

    def run() -> None:
        try:
            reports.put(Done(work(reports.put), time.perf_counter() - started))
        except Exception as exc:
            traceback.print_exc(file=sys.stderr)  # the UI shows the message; the log keeps the trace
            reports.put(Crashed(exc, time.perf_counter() - started))

    threading.Thread(target=run, name=name, daemon=True).start()
    while True:
        item = reports.get()
        yield item
        if isinstance(item, (Done, Crashed)):
            return
