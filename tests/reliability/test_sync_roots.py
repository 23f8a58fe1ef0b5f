"""A synced folder never reaches outside itself (issue 34, item 1). Reported: ``prp ingest ~/papers;
mv ~/papers ~/papers.real; ln -s / ~/papers; prp sync --dry-run`` planned 9,505 additions (other
libraries' uploads, /etc, a private file) and the removal of the user's 4 documents; under
``prp serve --watch`` the watch thread crashed and walked ``/`` again every two minutes.

A root that now leads elsewhere is refused by name before any walk (a guard fails the test if ``/``
is walked); nothing is added or removed; the watch does not watch it and never dies of an error.
Real files, real symlink swaps; through the core, ``prp sync`` and ``prp serve --watch``."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from corpus import sync as sync_module
from corpus.errors import RefusedPathError
from corpus.ingest import DATA_DIRECTORY, discover
from corpus.retrieval import SearchMode
from tools.hybrid_search import hybrid_search
from ui.core import folder_watch
from ui.core.folder_watch import FolderWatch
from ui.core.local import LocalPortal

from ..cli_process import prp_env, run_prp_here
from ..served import start, stop
from ..test_serve_watch import searchable, seconds_until


def note(folder: Path, name: str, word: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"# Note on {word}\n\nThis note records that {word} was measured twice in the field.\n")
    return path


def found(library, word: str) -> bool:
    return any(word in h.text for h in hybrid_search(library, word, k=3, mode=SearchMode.SPARSE))


def swap_for_link(folder: Path, target: Path) -> Path:
    """``mv folder folder.real; ln -s target folder``: the user's folder moved, a link in its place."""
    real = folder.with_name(folder.name + ".real")
    folder.rename(real)
    folder.symlink_to(target, target_is_directory=True)
    return real


@pytest.fixture
def no_walk_of_root(monkeypatch):
    """Fails the test the moment a sync would walk ``/``, before any walk starts."""
    walk = sync_module.discover

    def guarded(paths):
        paths = list(paths)
        assert not any(Path(p).resolve() == Path("/") for p in paths), f"a sync walked / ({paths})"
        return walk(paths)

    monkeypatch.setattr(sync_module, "discover", guarded)


def test_a_root_swapped_for_a_link_to_slash_is_refused_by_name_and_nothing_changes(
    make_library, tmp_path, no_walk_of_root
):
    folder = tmp_path / "papers"
    for name, word in (("a.md", "rambutan"), ("b.md", "jabuticaba"), ("c.txt", "cupuacu"), ("d.md", "bacuri")):
        note(folder, name, word)
    library = make_library()
    with LocalPortal(library, foreground=True) as portal:
        portal.follow(portal.ingest([folder]).job_id, lambda e: None)
        before = library.registry.documents()
        swap_for_link(folder, Path("/"))
        for dry_run in (True, False):
            outcome = portal.follow(portal.sync(dry_run=dry_run).job_id, lambda e: None)
            summary = outcome.sync
            assert summary is not None, outcome.job
            assert (summary.added, summary.changed, summary.removed, summary.failed) == ([], [], [], [])
            [refused] = summary.unavailable
            assert refused.root.path == str(folder) and refused.documents == 4
            assert "now leads to /" in refused.reason and "left alone" in refused.reason
        assert library.registry.documents() == before
        assert all(found(library, w) for w in ("rambutan", "jabuticaba", "cupuacu", "bacuri"))
        # Nor can "/" (or a system folder) become a root in the first place.
        for path in (Path("/"), Path("/etc"), Path("/usr/share")):
            with pytest.raises(RefusedPathError):
                portal.ingest([path])


def test_another_library_s_data_directory_is_never_walked(make_library, tmp_path):
    shared = tmp_path / "shared"
    note(shared, "mine.md", "sapote")
    other = make_library("other")  # a second library whose data directory sits in the folder, unhidden
    other_dir = shared / "lab-library"
    other_dir.mkdir()
    (other_dir / "registry.sqlite").write_bytes(other.settings.storage.registry_path.read_bytes())
    note(other_dir / "uploads", "their-upload.md", "mamoncillo")
    found_files = discover([shared])
    assert [p.name for p in found_files.files] == ["mine.md"]
    assert [(r.path, r.reason) for r in found_files.refused] == [(str(other_dir), DATA_DIRECTORY)]
    library = make_library()
    with LocalPortal(library, foreground=True) as portal, pytest.raises(RefusedPathError, match="data directory"):
        portal.ingest([other_dir / "uploads"])


def test_prp_sync_refuses_a_swapped_root_and_keeps_the_user_s_documents(make_library, tmp_path, models_dir):
    folder, elsewhere = tmp_path / "papers", tmp_path / "someone-else"
    note(folder, "a.md", "bilberry")
    note(folder, "b.md", "cloudberry")
    note(elsewhere, "private.md", "salmonberry")
    library = make_library()
    library.close()
    env = prp_env(library.settings.storage.data_dir, models_dir)
    assert run_prp_here(["ingest", str(folder)], env).returncode == 0
    swap_for_link(folder, elsewhere)
    for args in (["sync", "--dry-run", "--json"], ["sync", "--json"]):
        done = run_prp_here(args, env)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
        data = json.loads(done.stdout)
        assert data["counts"] == {"added": 0, "changed": 0, "removed": 0, "unchanged": 0, "failed": 0}
        [root] = data["roots"]
        assert not root["available"] and f"now leads to {elsewhere}" in root["reason"]
    said = run_prp_here(["sync"], env).stdout
    assert f"unavailable: {folder}: now leads to {elsewhere}" in said and "(2 documents)" in said
    library = make_library()
    assert found(library, "bilberry") and found(library, "cloudberry") and not found(library, "salmonberry")


def test_prp_serve_watch_does_not_follow_a_swapped_root_and_keeps_running(tmp_path, models_dir):
    folder, elsewhere, data_dir = tmp_path / "papers", tmp_path / "someone-else", tmp_path / "data"
    note(folder, "a.md", "lingonberry")
    note(elsewhere, "private.md", "huckleberry")
    assert run_prp_here(["ingest", str(folder)], prp_env(data_dir, models_dir)).returncode == 0
    process, url, _ = start(data_dir, models_dir, "--watch")
    try:
        real = swap_for_link(folder, elsewhere)
        note(elsewhere, "later.md", "gooseberry")  # a change seen through the link
        note(real, "moved-away.md", "boysenberry")  # and one in the folder moved away
        time.sleep(6)  # several debounce periods and wake-ups of the watch
        assert searchable(url, "lingonberry")
        assert not any(searchable(url, w) for w in ("huckleberry", "gooseberry", "boysenberry"))
        # The folder put back: watched (and synced whole) again.
        folder.unlink()
        real.rename(folder)
        seconds_until(lambda: searchable(url, "boysenberry"), limit=30)
        assert searchable(url, "lingonberry") and not searchable(url, "huckleberry")
    finally:
        out = stop(process)
    assert "Traceback" not in out, out[-3000:]
    assert f"not watching {folder}: now leads to {elsewhere}" in out, out[-3000:]
    assert f"watching {folder} again" in out


def test_a_failing_watch_is_reported_and_retried_with_back_off(make_library, tmp_path, monkeypatch, capsys):
    note(tmp_path / "papers", "a.md", "salal")
    library = make_library()
    calls: list[float] = []

    def failing_watch(*args, **kwargs):
        calls.append(time.monotonic())
        raise PermissionError(13, "Permission denied", str(tmp_path / "papers" / "locked"))

    monkeypatch.setattr(folder_watch, "watch", failing_watch)
    monkeypatch.setattr(folder_watch, "WAKE_MS", 100)  # back-off from 0.1 s, so the test takes a second
    with LocalPortal(library, foreground=True) as portal:
        portal.follow(portal.ingest([tmp_path / "papers"]).job_id, lambda e: None)
        watcher = FolderWatch(portal)
        watcher.start()
        time.sleep(1.6)
        alive = watcher._thread.is_alive()
        watcher.stop()
    assert alive and not watcher._thread.is_alive()
    gaps = [b - a for a, b in zip(calls, calls[1:], strict=False)]
    assert 2 <= len(calls) <= 6, calls  # 0.1, 0.2, 0.4, 0.8 s apart: no spin
    assert all(later > earlier for earlier, later in zip(gaps, gaps[1:], strict=False)), gaps
    err = capsys.readouterr().err
    assert "prp: watching folders failed (PermissionError" in err and "trying again in" in err
    assert "Traceback" not in err
    assert os.path.isdir(tmp_path / "papers")
