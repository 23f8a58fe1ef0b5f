"""The folders and single files the library was ingested from (its *ingest roots*), and when each was
last synced: what ``corpus.sync`` keeps the library in step with.

They live in the registry's database, in a table of their own that this module alone reads and
writes. Creating it is this module's own migration step: a registry written before roots were kept
gains the table, empty, the first time it is opened (the folders it was built from become known when
they are next ingested). Paths are stored resolved, as the registry stores documents' paths.

Each root also keeps the *identity* of its folder (a file root: the folder holding it) as it was when
the root was named: the device and inode numbers (``st_dev``, ``st_ino``) and the filesystem's id
(``statvfs``' ``f_fsid``, from its UUID on most filesystems: two drives mounted in turn at the same
place can share a device number and root inode, not a UUID). A sync or the folder watch compares
them before trusting what it sees there (``unseen``): an unmounted drive leaves its mount point, an
empty folder of another filesystem, and a bind mount over the root or its parent puts another folder
at the same path; either would otherwise read as "every file deleted" (and another folder's files
added). A root named again in a later ingest has its identity recorded anew. The columns came later
(a second migration step, ``ADD COLUMN``): a registry written before them keeps working, its roots'
identity unknown (NULL) until they are next named or synced, and meanwhile a root whose folder is
empty while the library holds documents from it is left alone.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from corpus.database import Database, as_database
from corpus.file_names import is_utf8
from corpus.ingest import hidden, sha256_of

MIGRATION = """
CREATE TABLE IF NOT EXISTS ingest_roots (
    path TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('folder', 'file')),
    added_at TEXT NOT NULL,
    synced_at TEXT
) WITHOUT ROWID;
"""
#: The identity of each root's folder, added after the table (NULL: unknown, a root remembered before);
#: 64-bit numbers (BIGINT: SQLite's INTEGER is 64 bits, PostgreSQL's 32).
IDENTITY_COLUMNS = {"device": "BIGINT", "inode": "BIGINT", "fsid": "BIGINT"}

AGAIN = "`prp ingest {path}` takes the folder there now"
OTHER_FILESYSTEM = (
    "on another filesystem than when it was ingested ({which}): a drive not mounted, or another mounted in "
    "its place; its documents are kept ({again})"
)
OTHER_FOLDER = (
    "not the folder ingested (another folder, or a mount over it or its parent, in its place): its "
    "documents are kept ({again})"
)
EMPTY = "empty while the library holds {held} from it (a drive not mounted?): they are kept ({again})"


class RootKind(StrEnum):
    FOLDER = "folder"
    FILE = "file"


class IngestRoot(BaseModel):
    path: str = Field(description="A folder or a single file, resolved.")
    kind: RootKind
    added_at: str
    synced_at: str | None = Field(default=None, description="When a sync (or an ingest) last covered it, UTC.")
    device: int | None = Field(default=None, description="st_dev of its folder when named (None: unknown).")
    inode: int | None = Field(default=None, description="st_ino of its folder when named (None: unknown).")
    fsid: int | None = Field(default=None, description="f_fsid of its folder's filesystem (None, 0: unknown).")

    @property
    def folder(self) -> Path:
        """The folder whose identity is kept: the root itself, or the folder holding a file root."""
        return Path(self.path) if self.kind is RootKind.FOLDER else Path(self.path).parent

    def holds(self, path: Path) -> bool:
        """Whether ``path`` is this root or lies inside it (a walk of the folder would reach it)."""
        root = Path(self.path)
        if self.kind is RootKind.FILE or path == root:
            return path == root
        return path.is_relative_to(root) and not hidden(path.relative_to(root))


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _signed(number: int) -> int:
    """An unsigned 64-bit number (a device or inode number may use the top bit) as SQLite's signed one."""
    return number - (1 << 64) if number >= 1 << 63 else number


def identity(folder: Path) -> tuple[int, int, int] | None:
    """``(st_dev, st_ino, f_fsid)`` of ``folder`` as the registry stores them, or None when it cannot
    be read (``f_fsid`` is 0 where a filesystem gives none)."""
    try:
        status = os.stat(folder)
        fsid = os.statvfs(folder).f_fsid
    except OSError:
        return None
    return _signed(status.st_dev), _signed(status.st_ino), _signed(fsid)


def _empty(folder: Path) -> bool:
    """Nothing but hidden entries (an unmounted drive's mount point is empty)."""
    try:
        with os.scandir(folder) as entries:
            return all(entry.name.startswith(".") for entry in entries)
    except OSError:
        return False


def unseen(root: IngestRoot, held: Callable[[], list[tuple[str, str]]]) -> str | None:
    """Why what is at ``root``'s path now is not the filesystem it was ingested from (so a sync must
    remove nothing of it), or None when it is. ``held``: the path and SHA-256 of each document the
    library holds from it, asked for only when needed. Its folder is there (a missing one is the
    caller's case).

    A known identity must match (its filesystem id too, where the filesystem gives one), or else the folder must still hold one of those documents, bytes
    unchanged (up to ``EVIDENCE`` looked at): the same drive mounted again under another device
    number (btrfs and network filesystems number theirs anew at each mount), or the folder put back
    from a copy. An unknown identity (a root remembered before identities were kept): the folder
    must not be empty while documents of it are held."""
    now = identity(root.folder)
    if now is None:
        return None
    again = AGAIN.format(path=root.path)
    if root.device is not None and root.inode is not None:
        device, inode, fsid = now
        other_fs = bool(root.fsid and fsid and fsid != root.fsid)
        if (device, inode) == (root.device, root.inode) and not other_fs or _still_holds(held()):
            return None
        if device != root.device:
            which = f"device {_device(device)}, was {_device(root.device)}"
            return OTHER_FILESYSTEM.format(which=which, again=again)
        if other_fs:
            return OTHER_FILESYSTEM.format(which=f"device {_device(device)}, another filesystem id", again=again)
        return OTHER_FOLDER.format(again=again)
    if _empty(root.folder):
        count = len(held())
        if count:
            return EMPTY.format(held=f"{count} document{'' if count == 1 else 's'}", again=again)
    return None


#: How many of a root's documents ``unseen`` hashes, at most, looking for one still there.
EVIDENCE = 5


def _still_holds(held: list[tuple[str, str]]) -> bool:
    """Whether one of the first EVIDENCE documents found at their paths has the bytes it was indexed with."""
    looked = 0
    for path, sha in held:
        if looked >= EVIDENCE:
            return False
        if not os.path.isfile(path):
            continue
        looked += 1
        try:
            if sha256_of(Path(path)) == sha:
                return True
        except OSError:
            continue
    return False


def _device(number: int) -> str:
    """A device number as ``major:minor``, as ``stat`` and ``/proc/self/mountinfo`` show it."""
    unsigned = number % (1 << 64)
    return f"{os.major(unsigned)}:{os.minor(unsigned)}"


def _reached(roots: list[IngestRoot], path: Path, kind: RootKind) -> bool:
    """Whether a remembered root already is or reaches ``path`` (a file root only a file)."""
    return any((r.kind is RootKind.FOLDER or r.kind is kind) and r.holds(path) for r in roots)


class IngestRoots:
    """Typed access to the ``ingest_roots`` table of the registry's database (or the registry file at a path)."""

    def __init__(self, database: Database | Path):
        self.database = as_database(database)
        with self._connect() as db:
            self.database.create(db, MIGRATION)
            present = self.database.columns(db, "ingest_roots")
            for column, kind in IDENTITY_COLUMNS.items():
                if column not in present:
                    self.database.add_column(db, "ingest_roots", column, kind)

    def _connect(self) -> Any:
        # A connection per transaction, as the registry takes them, so any thread or process may use it.
        return self.database.connect()

    def all(self) -> list[IngestRoot]:
        with self._connect() as db:
            rows = db.execute("SELECT * FROM ingest_roots ORDER BY path").fetchall()
        return [IngestRoot(**dict(r)) for r in rows]

    def remember(self, paths: Iterable[Path]) -> list[IngestRoot]:
        """Remember the folders and files named in an ingest (paths that do not exist are not
        roots: the ingest reports them). A path a remembered root already is or reaches adds
        nothing (ingesting the same file twice is one root) but its identity, recorded anew when it
        is a root itself; a folder added over remembered roots, or a path that was a file and is now
        a folder (or the reverse), takes their place. Returns the roots added."""
        added: list[IngestRoot] = []
        roots = self.all()
        for path in paths:
            resolved = Path(path).expanduser().resolve()
            if not resolved.exists() or not is_utf8(resolved):  # the ingest names it (``corpus.file_names``)
                continue
            kind = RootKind.FOLDER if resolved.is_dir() else RootKind.FILE
            if _reached(roots, resolved, kind):
                self.identify([r for r in roots if r.path == str(resolved) and r.kind is kind])
                continue
            root, covered = self._add(resolved, kind, roots)
            roots = [r for r in roots if r.path not in covered] + [root]
            added.append(root)
        return added

    def _add(self, path: Path, kind: RootKind, roots: list[IngestRoot]) -> tuple[IngestRoot, list[str]]:
        """Record ``path`` as a root with its identity, in place of the remembered ``roots`` it is or
        (a folder) holds; the root, and the paths of those it took the place of."""
        root = IngestRoot(path=str(path), kind=kind, added_at=_now())
        root.device, root.inode, root.fsid = identity(root.folder) or (None, None, None)
        covered = [r.path for r in roots if r.path == root.path or kind is RootKind.FOLDER and root.holds(Path(r.path))]
        with self._connect() as db:
            db.executemany("DELETE FROM ingest_roots WHERE path = ?", [(p,) for p in covered])
            db.execute(
                # Another process sharing the database (PRP_DATABASE_URL) may have named it just now.
                "INSERT INTO ingest_roots (path, kind, added_at, device, inode, fsid) VALUES (?,?,?,?,?,?) "
                "ON CONFLICT (path) DO UPDATE SET kind = excluded.kind, added_at = excluded.added_at, "
                "synced_at = NULL, device = excluded.device, inode = excluded.inode, fsid = excluded.fsid",
                (root.path, kind.value, root.added_at, root.device, root.inode, root.fsid),
            )
        return root, covered

    def mark_synced(self, roots: Iterable[IngestRoot]) -> None:
        """Note a sync of ``roots``, which it found to be the folders ingested (``unseen``): their
        identity as it is now is recorded too (a root remembered before identities were kept gains
        one; a drive mounted again under another device number is known by it)."""
        roots = list(roots)
        with self._connect() as db:
            db.executemany("UPDATE ingest_roots SET synced_at = ? WHERE path = ?", [(_now(), r.path) for r in roots])
        self.identify(roots)

    def identify(self, roots: Iterable[IngestRoot]) -> None:
        """Record the identity each of ``roots``' folders has now."""
        rows = [(*now, r.path) for r in roots if (now := identity(r.folder)) is not None]
        with self._connect() as db:
            db.executemany("UPDATE ingest_roots SET device = ?, inode = ?, fsid = ? WHERE path = ?", rows)
