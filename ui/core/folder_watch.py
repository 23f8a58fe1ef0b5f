"""Watching the library's ingest roots (``prp serve --watch``): a change inside a remembered folder
becomes a sync of the changed paths (``LocalPortal.start_sync``), an ordinary job in the jobs list and
the chat's banner, so a file saved into a watched folder is searchable a few seconds later and a
deleted one is gone.

The watch is the maintained ``watchfiles`` library (the operating system's notifications; polling
where there are none) on one thread the service owns: ``start`` when the service starts, ``stop``
when it stops. Changes are debounced, so a file being copied or saved in several writes is synced
once it is quiet. Never watched or synced: the data directory, hidden files and folders (a folder
walk skips them too), and temporary files (editor swap and backup files, ``.part`` downloads,
``~$`` lock files of office programs). A single-file root is watched through its folder, for
editors that save by writing a new file over the old one.

When the set of roots changes (a folder ingested, one that was missing comes back) the watch starts
again on the new set; a root that has become available again is synced whole, as is every root
when the watch starts (what changed while the service was stopped). A root that now leads elsewhere
(a link put in its place: ``corpus.off_limits.moved``), or whose folder is there but not the one
ingested (an unmounted drive's empty mount point, a bind mount over it: ``corpus.ingest_roots.unseen``),
is not watched, and the service's log says so once; a sync leaves it alone too.

A root holding a file or folder name that is not UTF-8, which ``watchfiles`` cannot take, is looked
at every ``POLL_SECONDS`` instead (a sync of it that finds nothing to do leaves no job), and the
service's log says so once; the other roots are watched as before.

The watch thread never dies of an error and never spins on one: a failure (a folder it may not
read, the operating system's watch limit) is one line in the service's log, and the watch starts
again after a wait that doubles with each failure in a row (1 s up to ``MAX_BACKOFF``).
"""

from __future__ import annotations

import re
import sys
import threading
import time
from pathlib import Path

from watchfiles import Change, watch

from corpus.ingest_roots import IngestRoot, RootKind, identity, unseen
from corpus.off_limits import moved
from corpus.sync import plan_sync
from corpus.text import counted
from ui.core.local import LocalPortal

#: Changes are grouped until none came for STEP_MS, or for at most DEBOUNCE_MS: a file copied in
#: several writes is synced once, and a save is searchable within a few seconds.
STEP_MS = 400
DEBOUNCE_MS = 2000
#: How often the watch wakes without a change, to see whether the roots changed or it should stop.
WAKE_MS = 1000
#: Seconds ``stop`` waits for the watch thread (it wakes every WAKE_MS).
STOP_TIMEOUT = 10.0
#: The longest wait, in seconds, before the watch starts again after failures in a row.
MAX_BACKOFF = 60.0
#: Seconds between two looks at a polled root (one whose notifications ``watchfiles`` cannot give).
POLL_SECONDS = 30.0
#: What ``watchfiles`` raises for a name in a watched folder that is not UTF-8, naming its path.
UNDECODABLE = re.compile(r'Unable to decode path "(?P<path>.*)" to string')

#: Names of temporary files: Vim swap files, Emacs backups, autosaves (``#name#``) and locks
#: (``.#name``), office lock files (``~$``), partial downloads and copies.
TEMPORARY = re.compile(
    r"(~$|^~\$|^#.*#$|^\.#|\.(sw[a-p]|swx|tmp|temp|part|partial|crdownload|download|kate-swp)$)", re.IGNORECASE
)


class FolderWatch:
    def __init__(self, portal: LocalPortal):
        self.portal = portal
        self._data_dir = portal.settings.storage.data_dir.resolve()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="prp-watch", daemon=True)
        self._roots: list[IngestRoot] = []
        self._refused: dict[str, str] = {}  # roots not watched, with the reason the log gave
        # Why a root's folder is not the one ingested, by the identity it had then and has now: looked
        # at every WAKE_MS, so the registry is read (and files hashed) once per change, not each time.
        self._unseen: dict[str, tuple[tuple, str | None]] = {}
        # Roots watched by looking every POLL_SECONDS: ``watchfiles`` fails on them (a file or
        # folder name in them that is not UTF-8), and must not stop the watch of the others.
        self._polled: set[str] = set()
        self._looked = 0.0  # when the polled roots were last looked at (time.monotonic)
        self.failures = 0  # failures in a row: the wait before the next start doubles with each

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(STOP_TIMEOUT)

    # --- the watch thread ---------------------------------------------------------------------

    def _run(self) -> None:
        available: set[str] | None = None  # none known yet: every root is synced first
        while not self._stop.is_set():
            try:
                available = self._watch(available)
                self.failures = 0
            except Exception as exc:  # the watch must outlive a bad moment (a root vanishing as it starts)
                if self._poll_instead(exc):
                    continue
                wait = self.backoff()
                self.failures += 1
                print(
                    f"prp: watching folders failed ({type(exc).__name__}: {exc}); trying again in {wait:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )
                self._stop.wait(wait)

    def backoff(self) -> float:
        """Seconds to wait before starting again, after ``failures`` failures in a row."""
        return min(MAX_BACKOFF, (WAKE_MS / 1000) * 2 ** min(self.failures, 16))

    def _watch(self, before: set[str] | None) -> set[str]:
        """Watch the roots as they are now until they change or the watch is stopped; returns the
        roots that were available."""
        if before is None:
            self._sync(None, "sync every folder (the watch started)")
        self._roots = self.portal.library.roots.all()
        available = self._available(self._roots)
        targets = {self._target(r) for r in self._roots if r.path in available and r.path not in self._polled}
        back = [Path(p) for p in sorted(available - before)] if before is not None else []
        if back:  # a folder missing until now (a drive mounted again): whatever changed in it meanwhile
            self._sync(back, f"sync {counted(len(back), 'folder')} available again")
        watched = sorted(str(t) for t in targets if t.is_dir())
        if not watched:
            self._look(available)
            self._stop.wait(WAKE_MS / 1000)
            return available
        for changes in watch(
            *watched,
            watch_filter=self._wanted,
            debounce=DEBOUNCE_MS,
            step=STEP_MS,
            stop_event=self._stop,
            rust_timeout=WAKE_MS,
            yield_on_timeout=True,
            raise_interrupt=False,
        ):
            if changes:
                paths = sorted({Path(path) for _, path in changes})
                self._sync(paths, f"sync {counted(len(paths), 'changed path')} in watched folders")
            self._look(available)
            if self._roots_changed(available):
                break
        return available

    def _poll_instead(self, exc: Exception) -> bool:
        """Whether ``exc`` is ``watchfiles`` failing on a name that is not UTF-8 in a root it was not
        polling yet; that root is then looked at every POLL_SECONDS instead (a sync of it names the
        file, ``corpus.file_names``), and the others are watched again at once."""
        found = UNDECODABLE.search(str(exc))
        if found is None:
            return False
        failing = {
            r.path
            for r in self._roots
            if found["path"].startswith(f"{self._target(r)}/") and r.path not in self._polled
        }
        for path in sorted(failing):
            print(
                f"prp: {path} holds a name that is not UTF-8, which the folder watch cannot take: "
                f"looking at it every {POLL_SECONDS:.0f} s instead",
                file=sys.stderr,
                flush=True,
            )
        self._polled |= failing
        return bool(failing)

    def _look(self, available: set[str]) -> None:
        """Sync the polled roots that are available, every POLL_SECONDS."""
        polled = sorted(self._polled & available)
        if not polled or time.monotonic() - self._looked < POLL_SECONDS:
            return
        self._looked = time.monotonic()
        self._sync([Path(p) for p in polled], f"sync {counted(len(polled), 'polled folder')}")

    def _target(self, root: IngestRoot) -> Path:
        return Path(root.path) if root.kind is RootKind.FOLDER else Path(root.path).parent

    def _available(self, roots: list[IngestRoot]) -> set[str]:
        """The roots whose folder is there and still the folder ingested; the log hears once of each
        root refused (and of it being watched again, when it is back)."""
        available = set()
        for root in roots:
            reason = moved(Path(root.path))
            if not reason and self._target(root).is_dir():
                reason = self._not_seen(root)
            if reason:
                if self._refused.get(root.path) != reason:
                    print(f"prp: not watching {root.path}: {reason}", file=sys.stderr, flush=True)
                self._refused[root.path] = reason
            elif self._target(root).is_dir():
                if self._refused.pop(root.path, None):
                    print(f"prp: watching {root.path} again", file=sys.stderr, flush=True)
                if identity(root.folder) != (root.device, root.inode, root.fsid):  # known now, or known anew
                    self.portal.library.roots.identify([root])
                available.add(root.path)
        return available

    def _not_seen(self, root: IngestRoot) -> str | None:
        """``corpus.ingest_roots.unseen`` for ``root``, asked again only when an identity changed."""
        key = ((root.device, root.inode, root.fsid), identity(root.folder))
        cached = self._unseen.get(root.path)
        if cached is not None and cached[0] == key and root.device is not None:
            return cached[1]
        reason = unseen(root, lambda: self._held(root))
        self._unseen[root.path] = (key, reason)
        return reason

    def _held(self, root: IngestRoot) -> list[tuple[str, str]]:
        """The path and SHA-256 of each document the library holds from ``root``."""
        documents = self.portal.library.registry.documents()
        return [(d.path, d.sha256) for d in documents if root.holds(Path(d.path))]

    def _roots_changed(self, available: set[str]) -> bool:
        roots = self.portal.library.roots.all()
        return [r.path for r in roots] != [r.path for r in self._roots] or available != self._available(roots)

    def _wanted(self, _change: Change, path: str) -> bool:
        changed = Path(path)
        if changed.is_relative_to(self._data_dir) or TEMPORARY.search(changed.name):
            return False
        return any(root.holds(changed) for root in self._roots)

    def _sync(self, scope: list[Path] | None, title: str) -> None:
        """A sync job for ``scope`` (every root: None), only when there is something to do, so
        changes that change nothing (a file saved unchanged, a temporary file) leave no job."""
        if plan_sync(self.portal.library, scope).has_work:
            self.portal.start_sync(scope=scope, title=title)
