"""kill -9 in the middle of an ingest and of a report, as the CLI runs them: the next run converges to
what a clean run gives (the same registry, the same vectors, chunk for chunk), and `--thread`
resumes an interrupted report. Real processes, signals, SQLite and the embedded Qdrant engine."""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from config import EmbeddingSettings, Settings, StorageSettings
from corpus.library import Library
from testing_support.hostile_corpus import paragraph, text_pdf

from ..cli_process import PRP, prp_env, run_prp_here
from ..paths import ROOT
from .test_hostile_ingest import assert_consistent, cli, stored_chunks

TOPICS = ("river deltas", "glacier retreat", "peat bogs", "coral bleaching", "salt marshes")
MARKERS = ("bittern", "curlew", "dunlin", "godwit", "knot", "plover", "redshank", "sanderling", "turnstone")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    folder = tmp_path_factory.mktemp("crash") / "docs"
    folder.mkdir()
    markers = {}
    for i, marker in enumerate(MARKERS):
        pages = [paragraph(marker, topic) for topic in TOPICS[: 2 + i % 3]]
        if i % 2:
            name = f"doc{i}.pdf"
            text_pdf(folder / name, pages)
        else:
            name = f"doc{i}.md"
            (folder / name).write_text("\n\n".join(f"## Part {n}\n\n{p}" for n, p in enumerate(pages)), "utf-8")
        markers[name] = marker
    return folder, markers


def snapshot(library: Library) -> tuple[set[str], dict[str, str]]:
    ready = {d.doc_id for d in library.registry.documents(status="ready")}
    return ready, stored_chunks(library)


def count_rows(database: Path, query: str) -> int:
    """A count read from a SQLite file while another process writes it (0 until it exists, and for
    the moment it is locked)."""
    if not database.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=0.2) as db:
            return db.execute(query).fetchone()[0]
    except sqlite3.Error:
        return 0


def next_run(args: list[str], data_dir: Path, models_dir: Path):
    """``prp ARGS`` on the data directory a killed process left, through the command's ``main`` in this
    process: the kill is what needs a process of its own, the run after it does not."""
    return run_prp_here(args, prp_env(data_dir, models_dir))


def kill_when(
    args: list[str], data_dir: Path, models_dir: Path, ready: Callable[[], bool], deadline: float = 120
) -> bool:
    """Run ``prp ARGS`` in its own process group and SIGKILL the group (workers too) once ``ready()``
    holds. Returns False if the command finished first."""
    process = subprocess.Popen(
        [*PRP, *args],
        cwd=ROOT,
        env=prp_env(data_dir, models_dir),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    end = time.monotonic() + deadline
    try:
        while time.monotonic() < end:
            if process.poll() is not None:
                return False
            if ready():
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=30)
                return True
            time.sleep(0.02)
        raise AssertionError("the kill point was never reached")
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)


@pytest.fixture(scope="module")
def clean_dir(corpus, tmp_path_factory, models_dir, embedder) -> Path:
    """The data directory an ingest never interrupted leaves, closed; the tests copy it rather than
    ingest the corpus again."""
    settings = Settings(
        storage=StorageSettings(data_dir=tmp_path_factory.mktemp("clean") / "data"),
        embeddings=EmbeddingSettings(models_path=models_dir),
    )
    with Library(settings, embedder=embedder) as clean:
        assert all(f.outcome.value == "ok" for f in clean.ingest([corpus[0]]).files)
    return settings.storage.data_dir


@pytest.fixture(scope="module")
def clean_index(clean_dir, models_dir, embedder) -> tuple[set[str], dict[str, str]]:
    """What an ingest never interrupted leaves (ids come from content, so any library compares)."""
    settings = Settings(
        storage=StorageSettings(data_dir=clean_dir), embeddings=EmbeddingSettings(models_path=models_dir)
    )
    with Library(settings, embedder=embedder) as clean:
        return snapshot(clean)


@pytest.mark.timeout(900)
# Killed as the first document is pending, then with about 10%, 50% and 90% of the documents ready.
@pytest.mark.parametrize("after_ready", [0, 1, 5, 8], ids=["before-any-ready", "10%", "50%", "90%"])
def test_an_ingest_killed_midway_converges_to_the_clean_index(
    corpus, clean_index, after_ready, make_library, models_dir
):
    folder, markers = corpus
    expected = clean_index
    crashed = make_library("crashed")
    crashed.close()  # the CLI process owns the store while it runs
    data_dir = crashed.settings.storage.data_dir
    registry = crashed.settings.storage.registry_path
    # "before any ready": as soon as the registry holds a pending document, before its vectors are in.
    status, at_least = ("pending", 1) if after_ready == 0 else ("ready", after_ready)

    def point() -> bool:
        return count_rows(registry, f"SELECT count(*) FROM documents WHERE status = '{status}'") >= at_least

    assert kill_when(["ingest", str(folder)], data_dir, models_dir, point), "the ingest finished before the kill point"

    again = next_run(["ingest", str(folder)], data_dir, models_dir)
    assert again.returncode == 0, again.stderr[-2000:]
    assert "Traceback" not in again.stderr
    library = make_library("crashed")
    assert snapshot(library) == expected
    # Nothing indexed twice, nothing lost: as many points as the registry has chunks.
    assert library.store.count() == len(expected[1]) == sum(len(library.registry.chunks_of(d)) for d in expected[0])
    assert_consistent(library, markers)


@pytest.mark.timeout(600)
def test_a_report_killed_midway_resumes_with_its_thread(clean_dir, models_dir, tmp_path):
    data_dir = tmp_path / "report"
    shutil.copytree(clean_dir, data_dir)  # the corpus, ingested
    # Both subjects stand on the corpus's pages (salt marshes, the last of TOPICS, is on none), so the
    # report has citations to compare.
    topic = "River deltas and peat bogs: water quality surveys, population changes and the local economy"
    checkpoints = data_dir / "checkpoints.sqlite"

    def steps_saved() -> int:
        return count_rows(checkpoints, "SELECT count(*) FROM checkpoints WHERE thread_id = 'crash-1'")

    # A full run saves 13 checkpoints; after 4 the plan is done and research under way.
    killed = kill_when(["report", topic, "--thread", "crash-1"], data_dir, models_dir, lambda: steps_saved() >= 4)
    assert killed, "the report finished before the kill point"
    resumed_json = tmp_path / "resumed.json"
    done = next_run(["report", topic, "--thread", "crash-1", "--json", str(resumed_json)], data_dir, models_dir)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    # It went on to the end. (Usually from the last step saved, without planning again; a kill between a
    # step's checkpoint and the tasks it queued leaves no pending step, and the run starts over: the
    # same report either way. Step-exact resumption is tested in tests/test_graph_llm.py.)
    assert "[finalize]" in done.stderr, done.stderr[-2000:]
    resumed = json.loads(resumed_json.read_text())
    # A clean run of the same topic gives the same report (offline mode is deterministic).
    clean_json = tmp_path / "clean.json"
    clean = next_run(["report", topic, "--thread", "clean-1", "--json", str(clean_json)], data_dir, models_dir)
    assert clean.returncode == 0, clean.stderr[-2000:]
    clean_report = json.loads(clean_json.read_text())
    assert resumed["citations"] and resumed["citations"] == clean_report["citations"]
    assert resumed["sections"] == clean_report["sections"]


def _small_disk() -> None:
    """In the child: files may not grow past 60 KB, as on a full disk (EFBIG instead of SIGXFSZ)."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (60_000, 60_000))


@pytest.mark.timeout(600)
def test_a_full_disk_stops_the_ingest_with_a_clear_error_and_the_next_run_converges(
    corpus, clean_index, make_library, models_dir
):
    folder, markers = corpus
    expected = clean_index
    full = make_library("full")
    full.close()
    data_dir = full.settings.storage.data_dir
    stopped = cli(["ingest", str(folder)], data_dir, models_dir, preexec_fn=_small_disk)
    assert stopped.returncode == 2, stopped.stderr[-2000:]
    assert "Traceback" not in stopped.stderr
    assert "the disk is full" in stopped.stderr and str(full.settings.storage.data_dir.resolve()) in stopped.stderr
    again = next_run(["ingest", str(folder)], data_dir, models_dir)
    assert again.returncode == 0, again.stderr[-2000:]
    library = make_library("full")
    assert snapshot(library) == expected
    assert_consistent(library, markers)
