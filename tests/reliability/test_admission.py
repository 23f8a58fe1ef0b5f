"""What may be ingested, and what an ingest remembers (issue 48, groups 1, 2, 5 and three of 9).

Reported: ``prp ingest /tmp/a.md`` twice crashed on the ingest roots' unique path; one file name
that is not UTF-8 (``caf\\xe9.md``) ended an ingest with 0 documents and ``prp sync`` with exit 1;
``POST /api/ingest`` took single files in ``/etc``, ``/proc``, ``/root`` and another library's data
directory while their folders got 422; a cancelled ingest stayed a sync root; hidden files were left
out without a word; a sub-folder swapped for a link kept a document at a path no longer there.

Real files, a real library; the one rule (``corpus.off_limits.refusal``) through the core and the
REST API.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from corpus.errors import RefusedPathError
from corpus.file_names import NOT_UTF8
from corpus.ingest import Outcome
from corpus.off_limits import REGISTRY_NAME, refusal
from strategies.offline.strategy import OfflineStrategy
from ui.cli.output import format_summary, format_sync
from ui.core import folder_watch
from ui.core.folder_watch import FolderWatch
from ui.core.jobs import JobCancelled, JobState
from ui.core.local import LocalPortal
from ui.service.app import create_app

LOCAL = dict(base_url="http://127.0.0.1:8400", client=("127.0.0.1", 50000))


def note(path: Path, word: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"# Note on {word}\n\nThis note records that {word} was measured twice in the field.\n")
    return path


def ingested(portal: LocalPortal, paths: list[Path]):
    return portal.follow(portal.ingest(paths).job_id, lambda e: None)


def test_ingesting_the_same_file_twice_is_one_root_and_skips_it(make_library, tmp_path):
    a = note(tmp_path / "a.md", "rambutan")
    library = make_library()
    with LocalPortal(library, foreground=True) as portal:
        first, second = ingested(portal, [a]), ingested(portal, [a])
    assert first.job.state is JobState.DONE and second.job.state is JobState.DONE, second.job.error
    assert (second.summary.count(Outcome.OK), second.summary.count(Outcome.SKIPPED)) == (0, 1)
    assert [(r.path, r.kind.value) for r in library.roots.all()] == [(str(a.resolve()), "file")]


def test_a_file_is_refused_where_its_folder_is_from_every_surface(make_library, tmp_path):
    other = tmp_path / "other-library"
    other.mkdir()
    (other / REGISTRY_NAME).write_bytes(b"")
    planted = note(other / "uploads" / "theirs.md", "jabuticaba")
    refused = [planted, Path("/etc/passwd"), Path("/etc/hosts"), Path("/proc/self/environ"), Path("/dev/zero")]
    refused += [Path("/root/notes.md"), Path("/notes.md")]
    for path in refused:
        assert refusal(path), path
    allowed = note(tmp_path / "mine.md", "cupuacu")
    assert refusal(allowed.resolve()) is None and refusal(Path("/tmp/a.md")) is None
    library = make_library()
    with LocalPortal(library, foreground=True) as portal:
        for path in refused:
            with pytest.raises(RefusedPathError):
                portal.ingest([path])
    with TestClient(create_app(LocalPortal(library, OfflineStrategy(library.embedder)), chat=False), **LOCAL) as api:
        for path in refused:
            answer = api.post("/api/ingest", json={"paths": [str(path)]})
            assert answer.status_code == 422, (path, answer.text)
        assert api.get("/api/jobs").json() == []
    assert library.registry.documents() == [] and library.roots.all() == []


def test_a_remembered_file_root_in_a_shared_folder_is_synced(make_library, tmp_path):
    """The sync asks the same rule of a file root as the ingest did (it used to ask it of the file's
    folder, so a file root straight in a shared folder was left alone at every sync)."""
    a = note(Path("/tmp") / f"prp-{tmp_path.name}-{os.getpid()}.md", "bacuri")
    library = make_library()
    try:
        with LocalPortal(library, foreground=True) as portal:
            ingested(portal, [a])
            a.write_text("# Note on bacuri\n\nThe bacuri note now records a third measurement.\n")
            summary = portal.follow(portal.sync().job_id, lambda e: None).sync
    finally:
        a.unlink()
    assert [r.available for r in summary.roots] == [True] and summary.changed == [str(a.resolve())]


def test_a_cancelled_ingest_is_no_sync_root(make_library, tmp_path, monkeypatch):
    venv = tmp_path / "venv"
    note(venv / "lib" / "README.md", "pitanga")
    library = make_library()

    def cancelled(*args, **kwargs):
        raise JobCancelled

    monkeypatch.setattr(library, "ingest", cancelled)
    with LocalPortal(library, foreground=True) as portal:
        outcome = ingested(portal, [venv])
    assert outcome.job.state is JobState.CANCELLED
    assert library.roots.all() == []


def test_a_name_that_is_not_utf8_is_named_and_stops_nothing(make_library, tmp_path):
    folder = tmp_path / "notes"
    note(folder / "ok.md", "jacaranda")
    bad = Path(os.fsdecode(bytes(folder) + b"/caf\xe9.md"))
    note(bad, "guarana")
    library = make_library()
    with LocalPortal(library, foreground=True) as portal:
        outcome = ingested(portal, [folder])
        assert outcome.job.state is JobState.DONE, outcome.job.error
        sync = portal.follow(portal.sync().job_id, lambda e: None)
    summary = outcome.summary
    assert summary.count(Outcome.OK) == 1
    [skipped] = [f for f in summary.files if f.outcome is Outcome.SKIPPED]
    assert skipped.path.endswith("caf\ufffd.md") and skipped.reason == NOT_UTF8
    # Every surface writes it: a terminal, JSON, the registry.
    format_summary(summary).encode("utf-8")
    json.dumps(summary.as_dict()).encode("utf-8")
    assert sync.job.state is JobState.DONE, sync.job.error
    assert [f.path for f in sync.sync.skipped] == [skipped.path] and not sync.sync.failed
    format_sync(sync.sync).encode("utf-8")
    assert [Path(d.path).name for d in library.registry.documents()] == ["ok.md"]


def test_hidden_files_left_out_are_named(make_library, tmp_path):
    folder = tmp_path / "notes"
    note(folder / "a.md", "araza")
    note(folder / "..dots..md", "camu camu")
    note(folder / ".git" / "notes.md", "buriti")
    library = make_library()
    with LocalPortal(library, foreground=True) as portal:
        summary = ingested(portal, [folder]).summary
    assert summary.hidden == [str(folder / "..dots..md"), str(folder / ".git")]
    assert "..dots..md" in format_summary(summary) and summary.as_dict()["hidden"] == summary.hidden
    assert [Path(d.path).name for d in library.registry.documents()] == ["a.md"]


def test_a_sub_folder_swapped_for_a_link_keeps_no_document_at_a_gone_path(make_library, tmp_path):
    root = tmp_path / "papers"
    note(root / "a.md", "mangaba")
    b = note(root / "sub" / "b.md", "cagaita").resolve()
    elsewhere = tmp_path / "elsewhere"
    library = make_library()
    with LocalPortal(library, foreground=True) as portal:
        ingested(portal, [root])
        (root / "sub").rename(elsewhere)
        (root / "sub").symlink_to(elsewhere, target_is_directory=True)
        summary = portal.follow(portal.sync().job_id, lambda e: None).sync
    assert [d.path for d in summary.removed] == [str(b)]
    for document in library.registry.documents():
        assert Path(document.path).resolve() == Path(document.path), document.path
    assert [Path(d.path).name for d in library.registry.documents()] == ["a.md"]


def test_a_watched_folder_holding_a_name_that_is_not_utf8_is_polled(make_library, tmp_path, monkeypatch, capsys):
    folder = tmp_path / "papers"
    note(folder / "a.md", "murici")
    note(Path(os.fsdecode(bytes(folder) + b"/sub\xe9/c.md")), "pequi")  # watchfiles fails as it starts
    monkeypatch.setattr(folder_watch, "WAKE_MS", 100)
    monkeypatch.setattr(folder_watch, "POLL_SECONDS", 0.5)
    library = make_library()
    with LocalPortal(library) as portal:
        portal.follow(portal.ingest([folder]).job_id, lambda e: None)
        watcher = FolderWatch(portal)
        watcher.start()
        try:
            note(folder / "b.md", "buriti")
            deadline = time.monotonic() + 30
            while len(library.registry.documents()) < 2 and time.monotonic() < deadline:
                time.sleep(0.2)
            alive = watcher._thread.is_alive()
        finally:
            watcher.stop()
    assert alive and sorted(Path(d.path).name for d in library.registry.documents()) == ["a.md", "b.md"]
    err = capsys.readouterr().err
    assert "not UTF-8" in err and "looking at it every" in err
    assert "watching folders failed" not in err and "Traceback" not in err
