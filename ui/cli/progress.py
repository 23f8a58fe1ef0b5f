"""An ingest's or a sync's progress on stderr, from the job's events: a bar on a terminal, otherwise
(a log file, a pipe, a CI job) a line every few seconds (``PRP_PROGRESS_SECONDS``) with the
documents done of the total, pages, chunks, rates and the time left, so a long ingest is never
silent. An ingest shorter than one interval prints no line; a longer one ends with a line of its
final counters."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import TextIO

from corpus.ingest_progress import IngestProgress, clock
from ui.core.jobs import JobEvent

OnEvent = Callable[[JobEvent], None]


def _counters(event: JobEvent) -> IngestProgress | None:
    data = event.data.get("progress") if event.event in ("started", "file", "chunks") else None
    return IngestProgress.model_validate(data) if data else None


@contextmanager
def progress_lines(interval: float, stream: TextIO) -> Iterator[OnEvent]:
    """Every ``interval`` seconds, the latest counters heard, aged by the time since (a long PDF
    being parsed sends nothing for a while: its line still shows the time go on)."""
    latest: list[tuple[IngestProgress, float]] = []  # one item at most, replaced whole
    stop = threading.Event()

    def on_event(event: JobEvent) -> None:
        counters = _counters(event)
        if counters is not None:
            latest[:] = [(counters, time.monotonic())]

    printed = threading.Event()

    def line() -> None:
        if latest:
            counters, heard = latest[0]
            print(counters.aged(time.monotonic() - heard).line(), file=stream, flush=True)
            printed.set()

    def write() -> None:
        while not stop.wait(interval):
            line()

    printer = threading.Thread(target=write, name="prp-progress", daemon=True)
    printer.start()
    try:
        yield on_event
    finally:
        stop.set()
        printer.join()
        if printed.is_set():  # a log that told the way tells where it ended
            line()


@contextmanager
def progress_bar(stream: TextIO) -> Iterator[OnEvent]:
    from tqdm import tqdm

    with tqdm(total=0, unit="file", desc="ingest", file=stream) as bar:

        def on_event(event: JobEvent) -> None:
            counters = _counters(event)
            if counters is None:
                return
            bar.total = counters.files
            bar.update(counters.done - bar.n)
            left = "" if counters.eta_seconds is None else f", ~{clock(counters.eta_seconds)} left"
            name = f" {Path(event.data['path']).name}" if event.event == "file" else ""
            bar.set_postfix_str(f"{counters.pages} pages, {counters.chunks} chunks{left}{name}", refresh=True)

        yield on_event


def ingest_progress(interval: float, stream: TextIO | None = None) -> AbstractContextManager[OnEvent]:
    """The bar on a terminal, the lines elsewhere."""
    stream = stream or sys.stderr
    return progress_bar(stream) if stream.isatty() else progress_lines(interval, stream)
