"""How far an ingest got: documents done of the total, pages, chunks written, rates and the time left.

One ``IngestCounter`` follows an ingest (each file as it is done, each embedding batch as it is
written) and gives ``IngestProgress`` snapshots: what a progress line, a progress bar, a job's status
(REST, MCP) and the chat's banner all show, so they agree.

The time left is estimated by bytes, not by files: a 40-page PDF is not a 1-page note. Files skipped
unchanged took no work, so they count on neither side; the file being embedded counts for the share
of its chunks written.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from pathlib import Path

from pydantic import BaseModel, Field

from corpus.text import counted

#: What an ingest tells as it writes a document's chunks: (its path, chunks written, chunks it makes).
ChunksCallback = Callable[[str, int, int], None]


class IngestProgress(BaseModel):
    """A snapshot of an ingest's counters."""

    files: int = Field(description="Files the ingest goes through (refused ones included).")
    done: int = Field(0, description="Files done: indexed, skipped or failed.")
    pages: int = Field(0, description="Pages of the documents indexed so far.")
    chunks: int = Field(0, description="Chunks written so far, the document being embedded included.")
    current: str | None = Field(None, description="The file being embedded, if any.")
    seconds: float = Field(0.0, description="Time since the ingest started.")
    eta_seconds: float | None = Field(None, description="Estimated time left; none before any file was worked on.")

    @property
    def chunks_per_second(self) -> float:
        return self.chunks / self.seconds if self.seconds > 0 else 0.0

    @property
    def documents_per_minute(self) -> float:
        return 60 * self.done / self.seconds if self.seconds > 0 else 0.0

    def aged(self, seconds: float) -> IngestProgress:
        """This snapshot ``seconds`` later with nothing new heard: more time spent, less left."""
        eta = None if self.eta_seconds is None else max(0.0, self.eta_seconds - seconds)
        return self.model_copy(update={"seconds": self.seconds + seconds, "eta_seconds": eta})

    def line(self) -> str:
        left = "time left unknown yet" if self.eta_seconds is None else f"~{clock(self.eta_seconds)} left"
        now = f" · indexing {Path(self.current).name}" if self.current else ""
        return (
            f"ingest: {self.done}/{counted(self.files, 'document')}, {counted(self.pages, 'page')}, "
            f"{counted(self.chunks, 'chunk')} · {self.documents_per_minute:.1f} documents/min, "
            f"{self.chunks_per_second:.1f} chunks/s · {clock(self.seconds)} elapsed, {left}{now}"
        )


def clock(seconds: float) -> str:
    """``42s``, ``3m05s``, ``1h02m``."""
    s = round(seconds)
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{s % 3600 // 60:02d}m"


class IngestCounter:
    """The counters of one ingest, fed as it goes; ``snapshot`` reads them at any time."""

    def __init__(self, files: int, sizes: dict[str, int], now: Callable[[], float] = time.monotonic):
        self.files, self.sizes, self._now = files, sizes, now
        self._started = now()
        self.done = self.pages = self._chunks_done = 0
        self._finished_bytes = self._skipped_bytes = 0
        self._current: tuple[str, int, int] | None = None  # path, chunks written, chunks it makes

    @classmethod
    def of_files(cls, files: int, paths: Iterable[Path]) -> IngestCounter:
        sizes = {}
        for path in paths:
            try:
                sizes[str(path)] = path.stat().st_size
            except OSError:  # gone or unreadable: the ingest says so, the estimate does without it
                continue
        return cls(files, sizes)

    def file_done(self, path: str, pages: int, chunks: int, skipped: bool) -> None:
        self.done += 1
        self.pages += pages
        self._chunks_done += chunks
        size = self.sizes.get(path, 0)
        self._finished_bytes += size
        self._skipped_bytes += size if skipped else 0
        self._current = None

    def chunks_written(self, path: str, written: int, total: int) -> None:
        self._current = (path, written, total)

    def snapshot(self) -> IngestProgress:
        seconds = self._now() - self._started
        path, written, total = self._current or (None, 0, 0)
        partial = self.sizes.get(path, 0) * written / total if path and total else 0.0
        worked = self._finished_bytes - self._skipped_bytes + partial
        left = sum(self.sizes.values()) - self._finished_bytes - partial
        return IngestProgress(
            files=self.files,
            done=self.done,
            pages=self.pages,
            chunks=self._chunks_done + written,
            current=path,
            seconds=round(seconds, 2),
            eta_seconds=round(seconds * left / worked, 1) if worked > 0 else None,
        )
