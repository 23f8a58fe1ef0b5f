"""The folders and single files the library was ingested from (its *ingest roots*), and when each was
last synced: what ``corpus.sync`` keeps the library in step with.

They live in the registry's database, in a table of their own that this module alone reads and
writes. Creating it is this module's own migration step: a registry written before roots were kept
gains the table, empty, the first time it is opened (the folders it was built from become known when
they are next ingested). Paths are stored resolved, as the registry stores documents' paths.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path

from pydantic import BaseModel, Field

from corpus.file_names import is_utf8
from corpus.ingest import hidden

MIGRATION = """
CREATE TABLE IF NOT EXISTS ingest_roots (
    path TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('folder', 'file')),
    added_at TEXT NOT NULL,
    synced_at TEXT
) WITHOUT ROWID;
"""


class RootKind(StrEnum):
    FOLDER = "folder"
    FILE = "file"


class IngestRoot(BaseModel):
    path: str = Field(description="A folder or a single file, resolved.")
    kind: RootKind
    added_at: str
    synced_at: str | None = Field(default=None, description="When a sync (or an ingest) last covered it, UTC.")

    def holds(self, path: Path) -> bool:
        """Whether ``path`` is this root or lies inside it (a walk of the folder would reach it)."""
        root = Path(self.path)
        if self.kind is RootKind.FILE or path == root:
            return path == root
        return path.is_relative_to(root) and not hidden(path.relative_to(root))


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class IngestRoots:
    """Typed access to the ``ingest_roots`` table of the registry database at ``path``."""

    def __init__(self, path: Path):
        self.path = Path(path)
        with self._connect() as db:
            db.executescript(MIGRATION)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        # A connection per transaction, as the registry does, so any thread or process may use it.
        db = sqlite3.connect(self.path, timeout=30)
        db.row_factory = sqlite3.Row
        try:
            with db:
                yield db
        finally:
            db.close()

    def all(self) -> list[IngestRoot]:
        with self._connect() as db:
            rows = db.execute("SELECT * FROM ingest_roots ORDER BY path").fetchall()
        return [IngestRoot(**dict(r)) for r in rows]

    def remember(self, paths: Iterable[Path]) -> list[IngestRoot]:
        """Remember the folders and files named in an ingest (paths that do not exist are not
        roots: the ingest reports them). A path a remembered root already is or reaches adds
        nothing (ingesting the same file twice is one root); a folder added over remembered roots,
        or a path that was a file and is now a folder (or the reverse), takes their place. Returns
        the roots added."""
        added: list[IngestRoot] = []
        roots = self.all()
        for path in paths:
            resolved = Path(path).expanduser().resolve()
            if not resolved.exists() or not is_utf8(resolved):  # the ingest names it (``corpus.file_names``)
                continue
            kind = RootKind.FOLDER if resolved.is_dir() else RootKind.FILE
            if any((r.kind is RootKind.FOLDER or r.kind is kind) and r.holds(resolved) for r in roots):
                continue
            root = IngestRoot(path=str(resolved), kind=kind, added_at=_now())
            covered = [
                r.path for r in roots if r.path == root.path or kind is RootKind.FOLDER and root.holds(Path(r.path))
            ]
            with self._connect() as db:
                db.executemany("DELETE FROM ingest_roots WHERE path = ?", [(p,) for p in covered])
                db.execute(
                    "INSERT INTO ingest_roots (path, kind, added_at) VALUES (?,?,?)", (root.path, kind, root.added_at)
                )
            roots = [r for r in roots if r.path not in covered] + [root]
            added.append(root)
        return added

    def mark_synced(self, roots: Iterable[IngestRoot]) -> None:
        with self._connect() as db:
            db.executemany("UPDATE ingest_roots SET synced_at = ? WHERE path = ?", [(_now(), r.path) for r in roots])
