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

On a tmpfs (memory, with no holes in a file: a mapped page is a page taken) the engine's files take
their whole mapped size as soon as it opens them, ~55 MB for a small index however little it holds;
there, opening an existing index wants that room too (``opening_room_mb``), so a library on a small
tmpfs is refused in words rather than killed as it opens.
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

    def check(self, opening_mb: float = 0.0, keep: bool = True) -> None:
        """Raise DiskFullError when the data directory's disk has less free than ``min_free_mb``
        (``keep``) plus ``opening_mb`` (what opening the index takes: ``opening_room_mb``)."""
        if self.min_free_mb <= 0:
            return
        try:
            free = self.free_mb()
        except OSError:  # a filesystem that cannot say: the write itself will tell
            return
        wanted = [f"the {self.min_free_mb:g} MB prp keeps free before writing (PRP_MIN_FREE_MB)"] if keep else []
        if opening_mb:
            wanted.append(f"the {opening_mb:.0f} MB its index's files take when opened on a tmpfs")
        if free < (self.min_free_mb if keep else 0) + opening_mb:
            raise DiskFullError(
                f"could not {'write to' if keep else 'open the index of'} the library at {self.data_dir.resolve()}: "
                f"its disk has {free:.1f} MB free, "
                f"under {' and '.join(wanted)}. Nothing was left half-written. Free space and run the command "
                "again: an ingest carries on where it stopped."
            )

    def opening_room_mb(self, index: Path) -> float:
        """What opening the embedded index at ``index`` takes on this disk: on a tmpfs, the holes of
        its files (mapped size less the pages they hold); elsewhere nothing (a hole read is no page)."""
        if _filesystem_type(self.data_dir) != "tmpfs":
            return 0.0
        holes = 0
        for folder, _, names in os.walk(index):
            for name in names:
                try:
                    status = os.stat(os.path.join(folder, name))
                except OSError:
                    continue
                holes += max(0, status.st_size - status.st_blocks * 512)
        return holes / MB


def _filesystem_type(path: Path) -> str | None:
    """The type of the filesystem ``path`` is on (``/proc/self/mountinfo``: the deepest mount point
    holding it), or None where that cannot be read (not Linux)."""
    target = str(path.resolve())
    best, kind = "", None
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as mounts:
            for line in mounts:
                fields, _, rest = line.partition(" - ")
                point = fields.split()[4].replace("\\040", " ")
                inside = target == point or target.startswith(point.rstrip("/") + "/")
                if inside and len(point) >= len(best):
                    best, kind = point, rest.split()[0]
    except (OSError, IndexError):
        return None
    return kind
