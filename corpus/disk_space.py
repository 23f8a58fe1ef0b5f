"""Room on the library's disk: an ingest stops in words before a write would fill it.

The embedded index writes through memory-mapped files, and a write to a mapped page the disk has no
room for is not an error the engine can return: the kernel kills the process with SIGBUS (exit 135,
no message), in the middle of whatever it was writing; creating the index alone writes some 10 MB.
So before each write of an ingest or a sync (the index's creation, a document's registry rows,
each batch of vectors, the index's optimization at the end) the free space of the data directory's
filesystem is looked at (``statvfs``: no I/O), and under ``PRP_MIN_FREE_MB`` the work stops with
``DiskFullError``, which names the directory. The
document being written is retired whole, as for any stop (``corpus.ingest``), so the registry and
index stay consistent and the next ingest, with room, takes it up again. A write that fails anyway
(another process filling the disk faster) ends with the operating system's ENOSPC, told the same
way by every surface.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from corpus.errors import DiskFullError

MB = 1 << 20


@dataclass(frozen=True)
class DiskSpace:
    data_dir: Path
    min_free_mb: float

    def free_mb(self) -> float:
        status = os.statvfs(self.data_dir)
        return status.f_bavail * status.f_frsize / MB

    def check(self) -> None:
        """Raise DiskFullError when the data directory's disk has less than ``min_free_mb`` free."""
        if self.min_free_mb <= 0:
            return
        try:
            free = self.free_mb()
        except OSError:  # a filesystem that cannot say: the write itself will tell
            return
        if free < self.min_free_mb:
            raise DiskFullError(
                f"could not write to the library at {self.data_dir.resolve()}: its disk has {free:.1f} MB free, "
                f"under the {self.min_free_mb:g} MB prp keeps free before writing (PRP_MIN_FREE_MB). Nothing was "
                "left half-written. Free space and run the command again: an ingest carries on where it stopped."
            )
