"""A sync that cannot see its root's filesystem removes nothing and says why (issue 48, item 3).
Reported: ingest a folder on a mounted filesystem, unmount it, ``prp sync`` -> "1 removed", 0
documents; a bind mount over the root or its parent "added" the other folder's files and removed the
user's.

Each root keeps its folder's identity (device and inode, ``corpus.ingest_roots``); a sync and the
folder watch compare it before trusting the folder. Real tmpfs and bind mounts (root only: skipped
with the reason elsewhere), ``prp ingest`` / ``prp sync`` through the CLI, real SQLite and Qdrant."""

from __future__ import annotations

import json
import shutil
import sqlite3
import time
from pathlib import Path

import pytest

from corpus.ingest_roots import IngestRoots
from ui.core.folder_watch import FolderWatch
from ui.core.local import LocalPortal

from ..cli_process import prp_env, run_prp_here
from .mounts import bind, tmpfs, unmount
from .test_sync_roots import found, note

NOTHING = {"added": 0, "changed": 0, "removed": 0, "unchanged": 0, "failed": 0}


def synced(portal: LocalPortal):
    outcome = portal.follow(portal.sync().job_id, lambda e: None)
    assert outcome.sync is not None, outcome.job
    return outcome.sync


def counts(summary) -> tuple[int, int, int]:
    return len(summary.added), len(summary.changed), len(summary.removed)


def test_prp_sync_after_the_drive_is_unmounted_removes_nothing_and_says_why(make_library, tmp_path, models_dir):
    drive = tmp_path / "drive"
    library = make_library()
    library.close()
    env = prp_env(library.settings.storage.data_dir, models_dir)
    with tmpfs(drive):
        note(drive, "a.md", "cloudberry")
        note(drive, "b.md", "bilberry")
        assert run_prp_here(["ingest", str(drive)], env).returncode == 0
        shutil.copytree(drive, tmp_path / "backup")
        unmount(drive)  # the drive unplugged: its mount point, an empty folder of another filesystem
        for args in (["sync", "--dry-run", "--json"], ["sync", "--json"]):
            done = run_prp_here(args, env)
            assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
            data = json.loads(done.stdout)
            assert data["counts"] == NOTHING  # was: "1 removed" (here 2), 0 documents
            [root] = data["roots"]
            assert not root["available"] and root["documents"] == 2
            assert "on another filesystem than when it was ingested" in root["reason"], root["reason"]
        said = run_prp_here(["sync"], env).stdout
        assert f"unavailable: {drive}: on another filesystem" in said and "(2 documents)" in said, said
    library = make_library()
    assert found(library, "cloudberry") and found(library, "bilberry")
    library.close()
    # Mounted again (another device number, as a remount may give): the same folder, synced as before.
    with tmpfs(drive):
        shutil.copytree(tmp_path / "backup", drive, dirs_exist_ok=True)
        note(drive, "c.md", "crowberry")
        done = run_prp_here(["sync", "--json"], env)
        assert done.returncode == 0, done.stderr[-2000:]
        data = json.loads(done.stdout)
        assert data["counts"] == {**NOTHING, "added": 1, "unchanged": 2}, data["roots"]
        assert data["roots"][0]["available"]
    library = make_library()
    assert all(found(library, w) for w in ("cloudberry", "bilberry", "crowberry"))


def test_another_drive_mounted_in_its_place_adds_and_removes_nothing(make_library, tmp_path):
    drive = tmp_path / "drive"
    library = make_library()
    with LocalPortal(library, foreground=True) as portal:
        with tmpfs(drive):
            note(drive, "mine.md", "rambutan")
            portal.follow(portal.ingest([drive]).job_id, lambda e: None)
        with tmpfs(drive):
            note(drive, "theirs.md", "durian")  # someone else's stick at the same mount point
            summary = synced(portal)
        assert counts(summary) == (0, 0, 0)
        [refused] = summary.unavailable
        assert refused.documents == 1 and "on another filesystem" in refused.reason
        assert f"`prp ingest {drive}` takes the folder there now" in refused.reason
    assert found(library, "rambutan") and not found(library, "durian")


def test_a_bind_mount_over_the_root_or_its_parent_adds_and_removes_nothing(make_library, tmp_path):
    parent = tmp_path / "home"
    folder = parent / "papers"
    note(folder, "a.md", "jabuticaba")
    note(folder, "b.md", "cupuacu")
    other = tmp_path / "other"
    note(other, "x.md", "mangosteen")
    elsewhere = tmp_path / "elsewhere"
    note(elsewhere / "papers", "y.md", "salak")  # a folder of the same name under the parent mounted over
    library = make_library()
    with LocalPortal(library, foreground=True) as portal:
        portal.follow(portal.ingest([folder]).job_id, lambda e: None)
        for source, point in ((other, folder), (elsewhere, parent)):
            with bind(source, point):
                summary = synced(portal)
            assert counts(summary) == (0, 0, 0), (point, summary.counts_line())
            [refused] = summary.unavailable
            assert refused.documents == 2 and "not the folder ingested" in refused.reason, refused.reason
        summary = synced(portal)  # both unmounted: the folder itself again, nothing to do
        assert counts(summary) == (0, 0, 0) and not summary.unavailable and summary.unchanged == 2
    assert found(library, "jabuticaba") and found(library, "cupuacu")
    assert not found(library, "mangosteen") and not found(library, "salak")


def test_a_root_replaced_by_another_folder_is_left_alone_until_it_is_named_again(make_library, tmp_path):
    folder = tmp_path / "papers"
    note(folder, "a.md", "bacuri")
    note(folder, "b.md", "pequi")
    library = make_library()
    with LocalPortal(library, foreground=True) as portal:
        portal.follow(portal.ingest([folder]).job_id, lambda e: None)
        folder.rename(tmp_path / "papers.old")
        note(folder, "z.md", "araza")  # another folder at the same path
        summary = synced(portal)
        assert counts(summary) == (0, 0, 0) and "not the folder ingested" in summary.unavailable[0].reason
        # Named again: its identity is recorded anew, and the next sync keeps the library in step with it.
        portal.follow(portal.ingest([folder]).job_id, lambda e: None)
        summary = synced(portal)
        assert not summary.unavailable and sorted(Path(r.path).name for r in summary.removed) == ["a.md", "b.md"]
    assert found(library, "araza") and not found(library, "bacuri")


def test_a_registry_from_before_identities_keeps_working_and_an_empty_root_removes_nothing(make_library, tmp_path):
    registry = tmp_path / "old.sqlite"
    with sqlite3.connect(registry) as db:  # the table as an earlier prp made it
        db.execute(
            "CREATE TABLE ingest_roots (path TEXT PRIMARY KEY, kind TEXT NOT NULL, added_at TEXT NOT NULL, "
            "synced_at TEXT) WITHOUT ROWID"
        )
        db.execute("INSERT INTO ingest_roots VALUES ('/srv/papers', 'folder', '2026-01-01T00:00:00+00:00', NULL)")
    [old] = IngestRoots(registry).all()
    assert (old.path, old.device, old.inode) == ("/srv/papers", None, None)
    drive = tmp_path / "drive"
    library = make_library()
    with LocalPortal(library, foreground=True) as portal, tmpfs(drive):
        note(drive, "a.md", "sapote")
        portal.follow(portal.ingest([drive]).job_id, lambda e: None)
        with sqlite3.connect(library.settings.storage.registry_path) as db:  # its identity unknown, as before
            db.execute("UPDATE ingest_roots SET device = NULL, inode = NULL, fsid = NULL")
        unmount(drive)
        summary = synced(portal)
        assert counts(summary) == (0, 0, 0)
        assert "empty while the library holds 1 document from it" in summary.unavailable[0].reason
    assert found(library, "sapote")
    with LocalPortal(library, foreground=True) as portal, tmpfs(drive):
        note(drive, "a.md", "sapote")
        summary = synced(portal)  # there again: synced, and its identity known from now on
        assert counts(summary) == (0, 0, 0) and not summary.unavailable
        [root] = library.roots.all()
        assert root.device is not None and root.inode is not None


@pytest.mark.timeout(120)
def test_the_watch_leaves_an_unmounted_drive_alone_and_syncs_it_when_it_is_back(make_library, tmp_path, capsys):
    drive = tmp_path / "drive"
    library = make_library()
    with LocalPortal(library) as portal, tmpfs(drive):
        note(drive, "a.md", "pulasan")
        changed = note(drive, "b.md", "marang")
        portal.follow(portal.ingest([drive]).job_id, lambda e: None)
        shutil.copytree(drive, tmp_path / "backup")
        watch = FolderWatch(portal)
        watch.start()
        try:
            time.sleep(2)
            unmount(drive)
            time.sleep(4)  # wake-ups of the watch, and whatever the unmount told it
            assert found(library, "pulasan") and found(library, "marang")
            with tmpfs(drive):
                shutil.copytree(tmp_path / "backup", drive, dirs_exist_ok=True)
                changed.write_text("# Changed\n\nNow about kepel.\n")
                deadline = time.monotonic() + 30
                while not found(library, "kepel"):
                    assert time.monotonic() < deadline, [j.title for j in portal.runner.list()]
                    time.sleep(0.2)
        finally:
            watch.stop()
        jobs = portal.runner.list()
    assert not any(j.kind == "sync" and j.result and j.result.removed for j in jobs)
    assert found(library, "pulasan") and not found(library, "marang")
    err = capsys.readouterr().err
    assert f"not watching {drive}: on another filesystem" in err and f"watching {drive} again" in err, err
    assert "Traceback" not in err
