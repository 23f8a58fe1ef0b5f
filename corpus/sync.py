"""Keeping the library in step with the folders it was ingested from (``corpus.ingest_roots``).

A sync walks every remembered root (or, for a watcher, only the paths that changed inside them) and
plans before it writes: files the library does not hold are *added*, files whose bytes changed (or
that an older parser read: ``corpus.parser_versions``) are *changed*, and documents whose files are
gone from a root are *removed*. The plan reads the registry and hashes files, nothing else, so a
dry run or a sync with nothing to do never loads a model.

What a sync never removes: a document ingested from elsewhere (no root holds its path), an upload
(the library's own copy, in its data directory), a file that still exists but cannot be read or is
no longer walked into (unless its path now leads through a link: a sub-folder swapped for a link to
another folder, whose files are not the root's), and anything under a root that is unavailable. A root whose folder is missing
entirely (a drive not mounted, a share offline) or cannot be read is reported and left alone: it
looks exactly like "every file deleted", which it almost never is. A file root counts as unavailable
when its folder is missing; when its folder is there and it is not, it was deleted. A root that now
leads elsewhere (a link put in its place, ``corpus.off_limits.moved``) is refused by name before
anything is walked, and left alone the same way: it is not the folder the user gave. So is a root
whose folder is there but not the one ingested (``corpus.ingest_roots.unseen``: another device or
inode than when it was named, as an unmounted drive's empty mount point or a bind mount over the
root or its parent shows; for a root remembered before identities were kept, an empty folder while
the library holds documents from it).

Removals run before the ingest: a renamed file is then a new document at its new path, not a copy
of the document at its old one (the ingest skips copies of documents it holds).
"""

from __future__ import annotations

import errno
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from corpus import parser_versions
from corpus.ingest import Checkpoint, FileResult, Outcome, ProgressCallback, carry_on, discover, sha256_of
from corpus.ingest_progress import ChunksCallback
from corpus.ingest_roots import IngestRoot, RootKind, unseen
from corpus.off_limits import moved
from corpus.parsing import SUFFIX_TYPES, doc_id_for
from corpus.registry import DocumentRecord
from corpus.text import counted

if TYPE_CHECKING:
    from corpus.library import Library

NO_ROOTS = "no folders to sync: the library remembers the folders and files `prp ingest` is given"
MISSING = "missing (a drive not mounted, or the folder moved): its documents are kept"
UNREADABLE = "cannot be read ({}): its documents are kept"


class RootReport(BaseModel):
    root: IngestRoot
    available: bool
    reason: str = Field(default="", description="Why the root was left alone, when it was.")
    documents: int = Field(description="Documents the library holds from it.")


class RemovedDocument(BaseModel):
    doc_id: str
    title: str
    path: str


class SyncSummary(BaseModel):
    dry_run: bool = Field(description="Nothing was changed: the lists say what a sync would do.")
    roots: list[RootReport]
    added: list[str] = Field(description="Files indexed as new documents.")
    changed: list[str] = Field(description="Files indexed again: their bytes changed, or a newer parser reads them.")
    removed: list[RemovedDocument] = Field(description="Documents whose files are gone from their root.")
    unchanged: int
    skipped: list[FileResult] = Field(
        default_factory=list, description="Files not indexed by choice: unsupported types, links not followed, copies."
    )
    failed: list[FileResult] = Field(default_factory=list)
    seconds: float

    @property
    def unavailable(self) -> list[RootReport]:
        return [r for r in self.roots if not r.available]

    def counts_line(self) -> str:
        """ "2 added, 1 changed, 0 removed, 9 unchanged, 0 failed": what every surface says first."""
        return (
            f"{len(self.added)} added, {len(self.changed)} changed, {len(self.removed)} removed, "
            f"{self.unchanged} unchanged, {len(self.failed)} failed"
        )

    def roots_line(self) -> str:
        """ "2 folders, 1 file": what was synced."""
        folders = sum(1 for r in self.roots if r.root.kind is RootKind.FOLDER)
        return f"{counted(folders, 'folder')}, {counted(len(self.roots) - folders, 'file')}"

    def as_dict(self) -> dict:
        data = self.model_dump(mode="json")
        data["counts"] = {
            "added": len(self.added),
            "changed": len(self.changed),
            "removed": len(self.removed),
            "unchanged": self.unchanged,
            "failed": len(self.failed),
        }
        data["seconds"] = round(self.seconds, 2)
        return data


@dataclass
class SyncPlan:
    roots: list[RootReport]
    walked: list[IngestRoot] = field(default_factory=list)  # the available roots the sync covers
    added: list[Path] = field(default_factory=list)
    changed: list[Path] = field(default_factory=list)
    unchanged: int = 0
    removed: list[DocumentRecord] = field(default_factory=list)
    skipped: list[FileResult] = field(default_factory=list)
    failed: list[FileResult] = field(default_factory=list)

    @property
    def has_work(self) -> bool:
        return bool(self.added or self.changed or self.removed)


@dataclass(frozen=True)
class _Scope:
    """The paths a sync covers: every path (``paths`` None), or those at or under one of ``paths``."""

    paths: list[Path] | None

    def holds(self, path: Path) -> bool:
        return self.paths is None or any(path == s or path.is_relative_to(s) for s in self.paths)

    def reaches(self, root: IngestRoot) -> bool:
        """Whether the sync walks ``root``: it holds a path of the scope, or lies under one."""
        return self.paths is None or any(root.holds(s) or Path(root.path).is_relative_to(s) for s in self.paths)


def plan_sync(library: Library, scope: Sequence[Path] | None = None) -> SyncPlan:
    """What a sync of every root (``scope`` None), or of the paths in ``scope`` inside them, would do."""
    data_dir = library.settings.storage.data_dir.resolve()
    documents = [d for d in library.registry.documents() if not Path(d.path).is_relative_to(data_dir)]
    reports = [_report(root, documents) for root in library.roots.all()]
    scoped = _Scope(None if scope is None else [Path(p).expanduser().resolve() for p in scope])
    plan = SyncPlan(roots=reports, walked=[r.root for r in reports if r.available and scoped.reaches(r.root)])
    _plan_files(library, plan, scoped, {d.path: d for d in documents}, data_dir)
    plan.removed = [d for d in documents if _is_removed(Path(d.path), reports, scoped)]
    return plan


def _plan_files(
    library: Library, plan: SyncPlan, scope: _Scope, held: dict[str, DocumentRecord], data_dir: Path
) -> None:
    """Sort every file of the walked roots in ``scope`` (but the library's own) into ``plan``: added,
    changed, unchanged, skipped or failed; ``held`` maps a path to the document the library holds there."""
    found = discover(Path(r.path) for r in plan.walked if r.kind is RootKind.FOLDER or Path(r.path).is_file())
    for refused in found.refused:
        if scope.holds(Path(refused.path)):
            (plan.skipped if refused.outcome is Outcome.SKIPPED else plan.failed).append(refused)
    for path in found.files:
        if scope.holds(path) and not path.is_relative_to(data_dir):
            _classify(path, held.get(str(path)), plan, library.registry.document)


def _is_removed(path: Path, reports: list[RootReport], scope: _Scope) -> bool:
    """Whether a sync removes the document at ``path``: in scope, under an available root and no
    unavailable one, and its file gone or now reached through a link."""
    if not scope.holds(path) or any(not r.available and r.root.holds(path) for r in reports):
        return False
    return any(r.available and r.root.holds(path) for r in reports) and (_gone(path) or _elsewhere(path))


def sync(
    library: Library,
    *,
    dry_run: bool = False,
    scope: Sequence[Path] | None = None,
    on_plan: Callable[[SyncPlan], None] | None = None,
    progress: ProgressCallback | None = None,
    on_removed: Callable[[DocumentRecord], None] | None = None,
    checkpoint: Checkpoint = carry_on,
    on_chunks: ChunksCallback | None = None,
) -> SyncSummary:
    """Plan, then (unless ``dry_run``) remove the documents whose files are gone and ingest the
    added and changed files. ``on_plan`` is told the plan first; ``progress`` each ingested file's
    result, ``on_chunks`` each batch of chunks written, ``on_removed`` each removed document, as
    they are done; ``checkpoint`` may stop the ingest between files and embedding batches (a
    cancelled job)."""
    started = time.perf_counter()
    plan = plan_sync(library, scope)
    if on_plan:
        on_plan(plan)
    results = None
    if not dry_run:
        results = _carry_out(library, plan, progress, on_removed, checkpoint, on_chunks)
    return _summary(plan, dry_run, results, started)


def _carry_out(
    library: Library,
    plan: SyncPlan,
    progress: ProgressCallback | None,
    on_removed: Callable[[DocumentRecord], None] | None,
    checkpoint: Checkpoint,
    on_chunks: ChunksCallback | None,
) -> list[FileResult]:
    """Remove the plan's documents, then ingest its added and changed files; the ingest's results."""
    if plan.has_work:
        library.disk_space.check()  # removals write too (``corpus.disk_space``)
    # One batch: removing 10 of 4,800 notes costs 10 removals and one re-marking, not 10.
    by_id = {d.doc_id: d for d in plan.removed}
    library.delete_many(by_id, (lambda doc_id: on_removed(by_id[doc_id])) if on_removed else None)
    todo = plan.added + plan.changed
    results = library.ingest(todo, progress, checkpoint, on_chunks=on_chunks).files if todo else []
    library.roots.mark_synced(plan.walked)
    return results


def _summary(plan: SyncPlan, dry_run: bool, results: list[FileResult] | None, started: float) -> SyncSummary:
    """The sync's summary: the plan as it stands (``results`` None: a dry run), or only the files
    the ingest indexed, with the files it skipped and failed added."""
    added, changed = [str(p) for p in plan.added], [str(p) for p in plan.changed]
    skipped, failed = list(plan.skipped), list(plan.failed)
    if results is not None:
        done = {r.path for r in results if r.outcome is Outcome.OK}
        added, changed = [p for p in added if p in done], [p for p in changed if p in done]
        skipped += [r for r in results if r.outcome is Outcome.SKIPPED]
        failed += [r for r in results if r.outcome is Outcome.FAILED]
    return SyncSummary(
        dry_run=dry_run,
        roots=plan.roots,
        added=added,
        changed=changed,
        removed=[RemovedDocument(doc_id=d.doc_id, title=d.title, path=d.path) for d in plan.removed],
        unchanged=plan.unchanged,
        skipped=skipped,
        failed=failed,
        seconds=time.perf_counter() - started,
    )


def _report(root: IngestRoot, documents: list[DocumentRecord]) -> RootReport:
    paths = [(d.path, d.sha256) for d in documents if root.holds(Path(d.path))]
    held = len(paths)
    elsewhere = moved(Path(root.path))
    if elsewhere:
        return RootReport(root=root, available=False, reason=elsewhere, documents=held)
    try:
        with os.scandir(root.folder):
            pass
    except (FileNotFoundError, NotADirectoryError):
        return RootReport(root=root, available=False, reason=MISSING, documents=held)
    except OSError as exc:
        return RootReport(root=root, available=False, reason=UNREADABLE.format(exc.strerror or exc), documents=held)
    not_seen = unseen(root, lambda: paths)
    if not_seen:
        return RootReport(root=root, available=False, reason=not_seen, documents=held)
    return RootReport(root=root, available=True, documents=held)


def _classify(
    path: Path, held: DocumentRecord | None, plan: SyncPlan, document: Callable[[str], DocumentRecord | None]
) -> None:
    """``held``: the document at this path, if any; ``document``: the library's document by id, to
    know a copy of a document held at another path (which the ingest would skip, so it is never
    "added", or every sync would plan it again)."""
    if path.suffix.lower() not in SUFFIX_TYPES:
        reason = f"unsupported file type '{path.suffix or '(none)'}'"
        plan.skipped.append(FileResult(path=str(path), outcome=Outcome.SKIPPED, reason=reason))
        return
    try:
        sha = sha256_of(path)
    except OSError as exc:
        plan.failed.append(
            FileResult(path=str(path), outcome=Outcome.FAILED, reason=f"cannot read file: {exc.strerror or exc}")
        )
        return
    if held is None:
        copy = document(doc_id_for(sha))
        if (
            copy is not None
            and copy.status == "ready"
            and not _gone(Path(copy.path))
            and not _elsewhere(Path(copy.path))
        ):
            reason = f"same content as {copy.path}"
            plan.skipped.append(FileResult(path=str(path), outcome=Outcome.SKIPPED, reason=reason, doc_id=copy.doc_id))
        else:
            plan.added.append(path)
        return
    if sha != held.sha256 or held.parser_version.older_than(parser_versions.current(held.type)):
        plan.changed.append(path)
    else:
        plan.unchanged += 1


def _elsewhere(path: Path) -> bool:
    """A document's path (stored resolved) that now passes through a link: a sub-folder of a root
    swapped for a link to another folder. The walk does not follow it, and the file the path now
    reaches is another folder's: the document's own path is no longer there."""
    return path.resolve() != path


def _gone(path: Path) -> bool:
    """Only a file that is not there is gone: one that cannot be reached (a folder without read
    permission) may well still be there."""
    try:
        os.stat(path)
    except OSError as exc:
        return exc.errno in (errno.ENOENT, errno.ENOTDIR)
    return False
