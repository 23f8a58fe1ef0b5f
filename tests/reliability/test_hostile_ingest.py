"""Hostile input at ingest: every file gets the outcome a user should get (ingested, or refused with a
named reason), nothing crashes or hangs, no good document is lost, and the index stays consistent.
Real parsers, fastembed and the embedded Qdrant engine; the CLI runs as a subprocess with timeouts."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import threading
from pathlib import Path

import pytest

from config import LimitSettings
from corpus.ingest import PARSER_DIED, IngestSummary
from corpus.library import Library
from corpus.registry import Registry
from testing_support.hostile_corpus import Expected, build, paragraph, text_pdf
from tools.hybrid_search import hybrid_search
from ui.core.uploads import store_uploads

from ..cli_process import PRP, prp_env, run_prp, run_prp_here
from ..paths import ROOT

CLI_TIMEOUT = 240


def relative(summary: IngestSummary, root: Path) -> dict[str, tuple[str, str]]:
    out = {}
    for f in summary.files:
        path = Path(f.path)
        key = str(path.relative_to(root)) if path.is_relative_to(root) else f.path
        out[key] = (f.outcome.value, f.reason)
    return out


def assert_consistent(library: Library, markers: dict[str, str]) -> None:
    """Registry and vectors agree, nothing is left pending, and every good document is found by a
    search for its marker word."""
    registry = library.registry
    assert registry.documents(status="pending") == []
    ready = {d.doc_id for d in registry.documents(status="ready")}
    indexed = {c.chunk_id: d for d in ready for c in registry.chunks_of(d)}
    assert stored_chunks(library) == indexed
    for name, marker in markers.items():
        hits = hybrid_search(library, f"the {marker} survey", 5)
        assert hits and marker in hits[0].text.lower(), f"{name}: its document is not found by '{marker}'"


def stored_chunks(library: Library) -> dict[str, str]:
    """chunk id -> document id of every point in the vector store."""
    return {p.payload["chunk_id"]: p.payload["doc_id"] for p in library.store.points()}


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> tuple[Path, dict[str, Expected]]:
    root = tmp_path_factory.mktemp("hostile")
    return root / "hostile", build(root)


def cli(args: list[str], settings_dir: Path, models_dir: Path, **kw) -> subprocess.CompletedProcess:
    return run_prp(args, prp_env(settings_dir, models_dir), CLI_TIMEOUT, **kw)


@pytest.mark.timeout(600)
def test_every_hostile_file_gets_its_outcome_and_the_index_stays_consistent(hostile, make_library, models_dir):
    """Through the CLI, as a user runs it: each refusal named with its reason, no traceback, exit code 1
    (some files failed, the rest is ingested); then the library itself is checked."""
    folder, expected = hostile
    library = make_library()
    library.close()  # the command opens the store
    done = run_prp_here(["ingest", str(folder), "--json"], prp_env(library.settings.storage.data_dir, models_dir))
    assert done.returncode == 1, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    report = json.loads(done.stdout)
    root = folder.resolve()
    got = {}
    for f in report["files"]:
        path = Path(f["path"])
        got[str(path.relative_to(root)) if path.is_relative_to(root) else f["path"]] = (
            f["outcome"],
            f.get("reason", ""),
        )
    assert set(got) == set(expected), set(got) ^ set(expected)
    for name, want in expected.items():
        outcome, reason = got[name]
        assert outcome == want.outcome, f"{name}: {outcome} ({reason})"
        assert want.reason in reason, f"{name}: {reason!r} lacks {want.reason!r}"
        assert "Traceback" not in reason and "\n" not in reason
    assert report["documents"]["ok"] == sum(1 for e in expected.values() if e.outcome == "ok")

    library = make_library()
    markers = {n: e.marker for n, e in expected.items() if e.outcome == "ok"}
    assert_consistent(library, markers)
    # The link out of the folder was not read: its text is nowhere in the index.
    assert not any("basilisk" in h.text for h in hybrid_search(library, "basilisk private matters", 10))
    # Re-ingesting changes nothing: every good document is unchanged, the index the same.
    before = stored_chunks(library)
    again = relative(library.ingest([folder]), root)
    assert all(again[n] == ("skipped", "unchanged") for n in markers)
    assert stored_chunks(library) == before


@pytest.mark.timeout(300)
def test_files_that_vanish_or_change_during_an_ingest(tmp_path, make_library):
    folder = tmp_path / "moving"
    folder.mkdir()
    for name, marker in [("a.txt", "heron"), ("b.txt", "ibis"), ("c.txt", "stork"), ("d.txt", "egret")]:
        (folder / name).write_text(paragraph(marker, "wading birds"), encoding="utf-8")
    library = make_library()
    seen: list[str] = []

    def progress(result) -> None:
        seen.append(Path(result.path).name)
        if len(seen) == 1:  # after the first file: one later file vanishes, another is rewritten
            (folder / "c.txt").unlink()
            (folder / "d.txt").write_text(paragraph("spoonbill", "wading birds"), encoding="utf-8")

    got = relative(library.ingest([folder], progress), folder.resolve())
    assert got["c.txt"][0] == "failed" and "cannot read file" in got["c.txt"][1]
    assert got["d.txt"][0] == "ok"
    assert_consistent(library, {"a.txt": "heron", "b.txt": "ibis", "d.txt": "spoonbill"})
    # The next ingest converges: nothing changes, and the vanished file is not resurrected.
    again = relative(library.ingest([folder]), folder.resolve())
    assert set(again) == {"a.txt", "b.txt", "d.txt"} and {o for o, _ in again.values()} == {"skipped"}


@pytest.mark.timeout(600)
def test_a_parser_process_that_dies_loses_no_other_document(tmp_path, make_library):
    """The out-of-memory killer (simulated: SIGKILL to a parse worker) takes one file's parse down,
    not the ingest: the file is parsed again alone, and every document ends up indexed."""
    folder = tmp_path / "pdfs"
    folder.mkdir()
    markers = {f"p{i}.pdf": m for i, m in enumerate(["lynx", "marten", "sable", "stoat", "weasel", "ermine"])}
    for name, marker in markers.items():
        text_pdf(folder / name, [paragraph(marker, topic) for topic in ("dens", "diet", "range")])
    library = make_library()
    killed: list[int] = []

    def progress(result) -> None:
        if not killed:
            for child in multiprocessing.active_children():
                if child.pid:
                    os.kill(child.pid, signal.SIGKILL)
                    killed.append(child.pid)

    summary = library.ingest([folder], progress)
    assert killed
    got = relative(summary, folder.resolve())
    assert {o for o, _ in got.values()} == {"ok"}, got
    assert all(PARSER_DIED not in r for _, r in got.values())
    assert_consistent(library, markers)


@pytest.mark.timeout(300)
def test_a_closed_pipe_ends_the_cli_quietly(tmp_path, make_library, models_dir):
    """`prp search --json ... | head`: the reader goes away; no BrokenPipeError traceback."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text(paragraph("gannet", "sea cliffs"), encoding="utf-8")
    library = make_library()
    library.ingest([folder])
    library.close()
    process = subprocess.Popen(
        [*PRP, "search", "gannet", "--json"],
        cwd=ROOT,
        env=prp_env(library.settings.storage.data_dir, models_dir),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    process.stdout.close()  # the reader is gone before the first line is written
    errors: list[bytes] = []
    reader = threading.Thread(target=lambda: errors.append(process.stderr.read()))
    reader.start()
    assert process.wait(timeout=CLI_TIMEOUT) == 128 + signal.SIGPIPE
    reader.join()
    assert b"Traceback" not in errors[0] and b"BrokenPipeError" not in errors[0]


@pytest.mark.timeout(300)
def test_hostile_uploads_land_inside_the_library_or_are_refused(hostile, make_library, make_settings):
    """The chat's uploads: path-traversal names land in uploads/ under a safe name; oversized, empty
    and mislabelled files are refused or fail to parse by name; nothing is written elsewhere."""
    folder, _ = hostile
    settings = make_settings("uploaded", limits=LimitSettings(upload_max_mb=0.5))
    files = [
        ("../../escape.md", folder / "notes.md"),
        ("C:\\Windows\\system32\\evil.txt", folder / "field-report.txt"),
        ("..\\..\\..\\etc\\passwd.html", folder / "page.html"),
        ("empty.pdf", folder / "empty.pdf"),
        ("photo.md", folder / "image-named.md"),
        ("archive.zip", folder / "report.docx"),
    ]
    big = folder.parent / "huge.txt"
    big.write_bytes(b"a" * 600_000)
    files.append(("huge.txt", big))
    stored, rejected = store_uploads(files, settings, Registry(settings.storage.registry_path))
    uploads = settings.storage.uploads_dir.resolve()
    assert all(s.path.resolve().parent == uploads for s in stored)
    assert {s.path.name for s in stored} >= {"escape.md", "evil.txt", "passwd.html", "photo.md"}
    reasons = {r.name: r.reason for r in rejected}
    assert "over the 0.5 MB limit" in reasons["huge.txt"]
    assert "empty" in reasons["empty.pdf"] and "not supported" in reasons["archive.zip"]
    assert not (folder.parent.parent / "escape.md").exists()
    library = make_library("uploaded", limits=LimitSettings(upload_max_mb=0.5))
    got = {Path(f.path).name: (f.outcome.value, f.reason) for f in library.ingest([s.path for s in stored]).files}
    assert got["photo.md"][0] == "failed" and "PNG image" in got["photo.md"][1]
    assert {got[n][0] for n in ("escape.md", "evil.txt", "passwd.html")} == {"ok"}
