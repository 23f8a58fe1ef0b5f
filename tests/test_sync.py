"""Folders kept in sync (``corpus.sync``): the library remembers what ``prp ingest`` was given, and a
sync adds new files, indexes changed ones again and removes documents whose files are gone, never
touching documents from elsewhere, uploads, or a folder that is missing. Real ingest, real index;
through the core (foreground jobs, as a command runs them), the CLI and the REST API."""

from __future__ import annotations

import json
import shutil
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from watchfiles import Change

from corpus.ingest import Outcome
from corpus.ingest_roots import RootKind
from corpus.retrieval import SearchMode
from corpus.sync import SyncSummary, plan_sync
from strategies.offline.strategy import OfflineStrategy
from tools.hybrid_search import hybrid_search
from ui.chat.library_tab import sync_folders
from ui.cli.main import main
from ui.core.folder_watch import FolderWatch
from ui.core.local import LocalPortal
from ui.service.app import create_app

LOCAL = dict(base_url="http://127.0.0.1:8400", client=("127.0.0.1", 50000))


def note(folder: Path, name: str, word: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"# Note on {word}\n\nThis note records that {word} was measured twice in the field.\n")
    return path


def found(library, word: str) -> list[str]:
    """Paths of the documents a sparse search for ``word`` finds (one word only they hold)."""
    hits = hybrid_search(library, word, k=3, mode=SearchMode.SPARSE)
    return sorted({library.registry.document(h.doc_id).path for h in hits if word in h.text})


def run_sync(portal: LocalPortal, dry_run: bool = False) -> SyncSummary:
    outcome = portal.follow(portal.sync(dry_run=dry_run).job_id, lambda event: None)
    assert outcome.sync is not None, outcome.job
    return outcome.sync


def ingest(portal: LocalPortal, *paths: Path) -> None:
    outcome = portal.follow(portal.ingest(list(paths)).job_id, lambda event: None)
    assert outcome.summary is not None and not outcome.summary.count(Outcome.FAILED), outcome


@pytest.fixture
def portal(make_library) -> Iterator[LocalPortal]:
    with LocalPortal(make_library(), foreground=True) as opened:
        yield opened


def test_a_sync_adds_changes_and_removes_and_leaves_documents_from_elsewhere(portal, tmp_path):
    folder, elsewhere = tmp_path / "papers", tmp_path / "elsewhere"
    keep, change, gone = (
        note(folder, n, w) for n, w in (("keep.md", "kumquat"), ("change.md", "quince"), ("gone.txt", "loquat"))
    )
    single = note(elsewhere, "single.md", "medlar")  # a file root: only this file, not its folder
    other = note(elsewhere, "other.md", "sapodilla")
    ingest(portal, folder, single)
    library = portal.library
    library.ingest([other])  # straight into the library, as an evaluation does: not remembered
    roots = {r.path: r.kind for r in library.roots.all()}
    assert roots == {str(folder.resolve()): RootKind.FOLDER, str(single.resolve()): RootKind.FILE}

    nothing = run_sync(portal)
    assert (nothing.added, nothing.changed, nothing.removed, nothing.unchanged) == ([], [], [], 4)

    change.write_text("# Note on quince\n\nThe quince figure was revised to persimmon levels.\n")
    gone.unlink()
    added = note(folder / "sub", "new.md", "tamarillo")
    note(folder / ".hidden", "secret.md", "feijoa")  # a walk skips hidden folders
    (folder / "draft.md~").write_text("an editor's backup")  # not a supported type
    single.unlink()
    other.unlink()
    summary = run_sync(portal)
    assert summary.added == [str(added.resolve())] and summary.changed == [str(change.resolve())]
    assert sorted(d.path for d in summary.removed) == sorted([str(gone.resolve()), str(single.resolve())])
    assert summary.unchanged == 1 and summary.failed == []
    assert [Path(s.path).name for s in summary.skipped] == ["draft.md~"]
    assert found(library, "tamarillo") == [str(added.resolve())]
    assert found(library, "persimmon") == [str(change.resolve())] and found(library, "quince") == [
        str(change.resolve())
    ]
    assert found(library, "loquat") == [] and found(library, "medlar") == [] and found(library, "feijoa") == []
    # Not under a root: its file is gone, its document is the user's to delete.
    assert found(library, "sapodilla") == [str(other.resolve())]
    assert found(library, "kumquat") == [str(keep.resolve())]
    assert all(r.root.synced_at for r in summary.roots)
    # Registry and index agree, and a second sync has nothing to do.
    assert library.store.count() == sum(d.n_chunks for d in library.registry.documents())
    again = run_sync(portal)
    assert (again.added, again.changed, again.removed, again.unchanged) == ([], [], [], 3)


def test_a_renamed_file_is_indexed_at_its_new_path(portal, tmp_path):
    folder = tmp_path / "papers"
    old = note(folder, "old-name.md", "rambutan")
    ingest(portal, folder)
    new = old.rename(folder / "new-name.md")
    summary = run_sync(portal)
    assert summary.added == [str(new.resolve())] and [d.path for d in summary.removed] == [str(old.resolve())]
    assert found(portal.library, "rambutan") == [str(new.resolve())]


def test_a_copy_of_a_held_document_is_skipped_once_and_not_planned_again(portal, tmp_path):
    folder = tmp_path / "papers"
    original = note(folder, "original.md", "soursop")
    ingest(portal, folder)
    copy = folder / "copy.md"
    shutil.copyfile(original, copy)
    summary = run_sync(portal)
    assert summary.added == [] and [r.path for r in summary.skipped] == [str(copy.resolve())]
    assert "same content as" in summary.skipped[0].reason
    assert not plan_sync(portal.library).has_work  # the copy is not "added" on every later sync


def test_a_dry_run_changes_nothing(portal, tmp_path):
    folder = tmp_path / "papers"
    change, gone = note(folder, "change.md", "jabuticaba"), note(folder, "gone.md", "mangosteen")
    ingest(portal, folder)
    before = portal.library.registry.documents()
    change.write_text("# Changed\n\nNow about cherimoya instead.\n")
    gone.unlink()
    added = note(folder, "new.md", "pitaya")
    summary = run_sync(portal, dry_run=True)
    assert summary.dry_run and summary.added == [str(added.resolve())] and summary.changed == [str(change.resolve())]
    assert [d.path for d in summary.removed] == [str(gone.resolve())]
    assert portal.library.registry.documents() == before
    assert found(portal.library, "mangosteen") and not found(portal.library, "pitaya")
    assert all(r.root.synced_at is None for r in summary.roots)


def test_a_missing_folder_is_reported_and_nothing_of_it_removed(portal, tmp_path, capsys, monkeypatch):
    mounted, present = tmp_path / "drive" / "papers", tmp_path / "local"
    note(mounted, "a.md", "guanabana")
    note(mounted, "b.md", "soursop")
    note(present, "c.md", "longan")
    ingest(portal, mounted, present)
    shutil.rmtree(tmp_path / "drive")  # the drive unmounted: its folder is not there at all
    summary = run_sync(portal)
    assert summary.removed == [] and summary.unchanged == 1
    [missing] = summary.unavailable
    assert missing.root.path == str(mounted.resolve()) and missing.documents == 2 and "missing" in missing.reason
    assert found(portal.library, "guanabana") and found(portal.library, "soursop")
    # The command line says so, and a missing folder is no failure.
    monkeypatch.setenv("PRP_DATA_DIR", str(portal.settings.storage.data_dir))
    monkeypatch.setenv("PRP_MODELS_DIR", str(portal.settings.models_dir))
    portal.close()
    portal.library.close()
    assert main(["sync"]) == 0
    out = capsys.readouterr().out
    assert "0 removed" in out and f"unavailable: {mounted.resolve()}: missing" in out and "(2 documents)" in out
    assert main(["sync", "--dry-run", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["dry_run"] and data["counts"] == {"added": 0, "changed": 0, "removed": 0, "unchanged": 1, "failed": 0}


def test_uploads_are_never_synced_away_and_a_library_without_roots_says_so(make_library, capsys, monkeypatch):
    library = make_library()
    with LocalPortal(library, foreground=True) as portal:
        source = note(library.settings.storage.data_dir.parent / "incoming", "upload.md", "salak")
        job, stored, _ = portal.upload([("upload.md", source)])
        portal.follow(job.id, lambda e: None)
        summary = run_sync(portal)
        assert summary.roots == [] and summary.removed == [] and found(library, "salak")
    library.close()
    monkeypatch.setenv("PRP_DATA_DIR", str(library.settings.storage.data_dir))
    monkeypatch.setenv("PRP_MODELS_DIR", str(library.settings.models_dir))
    assert main(["sync"]) == 0
    assert "no folders to sync" in capsys.readouterr().out


def test_the_api_starts_a_sync_job_and_streams_its_summary(make_library, tmp_path):
    library = make_library()
    folder = tmp_path / "papers"
    gone = note(folder, "gone.md", "ackee")
    with TestClient(create_app(LocalPortal(library, OfflineStrategy(library.embedder)), chat=False), **LOCAL) as api:
        started = api.post("/api/ingest", json={"paths": [str(folder)]}).json()
        events(api, started["events"])
        gone.unlink()
        added = note(folder, "new.md", "bilimbi")
        dry = api.post("/api/sync", json={"dry_run": True})
        assert dry.status_code == 202 and dry.json()["job"]["kind"] == "sync"
        result = events(api, dry.json()["events"])[-1][1]
        assert result["sync"]["dry_run"] and result["sync"]["added"] == [str(added.resolve())]
        assert api.get("/api/health").json()["documents"] == 1
        real = api.post("/api/sync")  # no body: a real sync
        assert real.status_code == 202
        names = events(api, real.json()["events"])
        assert [n for n, _ in names].count("removed") == 1 and any(n == "file" for n, _ in names)
        summary = names[-1][1]["sync"]
        assert summary["added"] == [str(added.resolve())] and summary["removed"][0]["path"] == str(gone.resolve())
        hits = api.post("/api/search", json={"query": "bilimbi", "k": 1, "search_mode": "sparse"}).json()["results"]
        assert hits and hits[0]["title"] == "Note on bilimbi"
        assert [j["kind"] for j in api.get("/api/jobs").json()] == ["sync", "sync", "ingest"]


def events(client: TestClient, url: str) -> list[tuple[str, dict]]:
    found_events = []
    with client.stream("GET", url) as response:
        name = None
        for line in response.iter_lines():
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                found_events.append((name, json.loads(line[6:])))
    return found_events


def test_the_watch_ignores_the_data_directory_hidden_and_temporary_files(portal, tmp_path):
    folder = tmp_path / "papers"
    note(folder, "a.md", "durian")
    ingest(portal, folder)
    watch = FolderWatch(portal)
    watch._roots = portal.library.roots.all()
    wanted = [
        folder / "paper.pdf",
        folder / "sub" / "notes.md",
        folder / "removed-folder",
        folder / "#1 ranked paper.md",
    ]
    ignored = [
        folder / ".git" / "index",
        folder / ".notes.md.swp",
        folder / "notes.md.swp",
        folder / "notes.md~",
        folder / "~$report.docx",
        folder / "paper.pdf.part",
        folder / "paper.pdf.crdownload",
        folder / ".#notes.md",
        folder / "#notes.md#",
        tmp_path / "elsewhere.md",
        portal.settings.storage.data_dir / "uploads" / "x.md",
    ]
    assert all(watch._wanted(Change.added, str(p)) for p in wanted)
    assert not any(watch._wanted(Change.added, str(p)) for p in ignored)


def test_the_chat_s_sync_button_logs_each_change_and_the_summary(make_library, tmp_path):
    library = make_library()
    folder = tmp_path / "papers"
    gone = note(folder, "gone.md", "santol")
    with LocalPortal(library) as portal:  # the service's portal: jobs on its own threads
        portal.follow(portal.ingest([folder]).job_id, lambda e: None)
        gone.unlink()
        note(folder, "new.md", "langsat")
        shutil.copy(folder / "new.md", folder / "copy.md")
        log = list(sync_folders(portal))[-1]
    assert "\u2713 <b>new.md</b>" in log or "\u2713 <b>copy.md</b>" in log
    assert "<b>gone.md</b>: Note on santol removed" in log
    assert "Synced 1 folder, 0 files in" in log and "1 added, 0 changed, 1 removed, 0 unchanged, 0 failed" in log


def test_a_registry_from_before_roots_gains_the_table_empty(make_library, tmp_path):
    library = make_library()
    note(tmp_path / "papers", "a.md", "nance")
    library.ingest([tmp_path / "papers"])
    library.close()
    with sqlite3.connect(library.settings.storage.registry_path) as db:
        db.execute("DROP TABLE ingest_roots")  # as a registry written before roots were kept
    reopened = make_library()
    assert reopened.roots.all() == [] and len(reopened.registry.documents()) == 1
    with LocalPortal(reopened, foreground=True) as portal:
        assert run_sync(portal).roots == []
        ingest(portal, tmp_path / "papers")  # ingested again: nothing parsed, the folder remembered
        assert [r.path for r in reopened.roots.all()] == [str((tmp_path / "papers").resolve())]


def test_the_watch_leaves_an_unmounted_folder_alone_and_syncs_it_when_it_comes_back(make_library, tmp_path):
    drive = tmp_path / "drive"
    folder = drive / "papers"
    note(folder, "a.md", "pulasan")
    changed = note(folder, "b.md", "marang")
    library = make_library()
    with LocalPortal(library) as portal:
        portal.follow(portal.ingest([folder]).job_id, lambda e: None)
        watch = FolderWatch(portal)
        watch.start()
        try:
            shutil.copytree(drive, tmp_path / "backup")
            shutil.rmtree(drive)  # the drive unmounted
            time.sleep(3)
            assert found(library, "pulasan") and found(library, "marang")
            shutil.copytree(tmp_path / "backup", drive)  # mounted again, one file changed meanwhile
            changed.write_text("# Changed\n\nNow about kepel.\n")
            # Generous: under the full suite on two workers the watch's next pass and its ingest can take 20 s.
            deadline = time.monotonic() + 60
            while not found(library, "kepel"):
                assert time.monotonic() < deadline, [j.title for j in portal.runner.list()]
                time.sleep(0.2)
        finally:
            watch.stop()
        assert not any(j.kind == "sync" and j.result and j.result.removed for j in portal.runner.list())
        assert found(library, "pulasan") and not found(library, "marang")
