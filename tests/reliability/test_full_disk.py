"""A disk that fills ends the ingest in words, and the library stays consistent (issue 48, item 4).
Reported: on a 26 MB tmpfs ``prp ingest`` died of SIGBUS (exit 135, no message): the embedded index
writes through memory-mapped files, and a mapped page the disk has no room for is a signal, not an
error (``ulimit -f``, which the crash tests use, never reaches it).

``corpus.disk_space``: before each write the data directory's free space is looked at, and under
``PRP_MIN_FREE_MB`` the ingest stops with exit 2 naming the directory. A real small filesystem (a
tmpfs, root only: skipped with the reason elsewhere), real processes, SQLite and Qdrant."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from config import EmbeddingSettings, Settings, StorageSettings
from corpus.library import Library
from corpus.retrieval import SearchMode
from tools.hybrid_search import hybrid_search

from ..cli_process import prp_env, run_prp, run_prp_here
from ..paths import SAMPLE_DOCS
from .mounts import tmpfs
from .test_hostile_ingest import stored_chunks

CLI_TIMEOUT = 600
SAMPLE_FILES = ("hydrology_review_2019.pdf", "harborview_policy_brief_2023.md", "green_roof_faq_2021.html")
# Many short notes, not a few long ones: the disk fills by the index's writes per chunk, while the
# time goes to embedding tokens; one chunk a note fills it at twice the bytes per second of embedding.
NOTES, NOTE_WORDS = 150, 40
WORDS = "river delta glacier peat coral marsh heron plover sediment nitrogen carbon flux basin tide estuary".split()


def fill(data_dir: Path, megabytes: float) -> Path:
    """Take ``megabytes`` of the disk with a file of zeros (real blocks, not a sparse file)."""
    filler = data_dir / "filler.bin"
    filler.write_bytes(b"\0" * int(megabytes * (1 << 20)))
    return filler


def notes(folder: Path, count: int) -> Path:
    folder.mkdir()
    for i in range(count):
        text = " ".join(f"{WORDS[(i * 7 + n) % len(WORDS)]}{(i * 31 + n * 17) % 9973}" for n in range(NOTE_WORDS))
        (folder / f"note{i:03d}.md").write_text(f"# Note {i}\n\nmarker{i:03d} is recorded here. {text}\n")
    return folder


def consistent(data_dir: Path, models_dir: Path, embedder) -> int:
    """The registry and the index agree, nothing pending; returns the documents ready."""
    settings = Settings(
        storage=StorageSettings(data_dir=data_dir), embeddings=EmbeddingSettings(models_path=models_dir)
    )
    with Library(settings, embedder=embedder) as library:
        registry = library.registry
        assert registry.documents(status="pending") == []
        ready = {d.doc_id for d in registry.documents(status="ready")}
        if settings.index_path.exists():  # opening it never makes it here: there is no room to
            assert stored_chunks(library) == {c.chunk_id: d for d in ready for c in registry.chunks_of(d)}
        return len(ready)


def room(data_dir: Path) -> None:
    """Make the tmpfs large: opening the index maps its files whole, and on a tmpfs every mapped page
    takes room (~55 MB for a small index), so the library is read back only once there is space."""
    subprocess.run(["mount", "-o", "remount,size=512m", str(data_dir)], check=True)


def stopped_in_words(done: subprocess.CompletedProcess, data_dir: Path) -> None:
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])  # was -7 (SIGBUS), exit 135 in a shell
    assert "Traceback" not in done.stderr
    assert f"the library at {data_dir}: its disk has" in done.stderr, done.stderr[-2000:]


@pytest.mark.timeout(300)
def test_an_ingest_onto_a_nearly_full_disk_stops_in_words_before_writing(tmp_path, models_dir, embedder):
    docs = tmp_path / "docs"  # three of the sample corpus, one per format: what is ingested is not the point
    docs.mkdir()
    for name in SAMPLE_FILES:
        shutil.copy(SAMPLE_DOCS / name, docs)
    data_dir = tmp_path / "data"
    with tmpfs(data_dir, size_mb=26):
        filler = fill(data_dir, 17)  # 9 MB left: the index's own creation needs more
        done = run_prp(["ingest", str(docs)], prp_env(data_dir, models_dir), CLI_TIMEOUT)
        stopped_in_words(done, data_dir)
        assert "under the 256 MB prp keeps free before writing (PRP_MIN_FREE_MB)" in done.stderr  # the default
        assert not (data_dir / "index").exists()  # nothing of the index begun
        assert consistent(data_dir, models_dir, embedder) == 0
        filler.unlink()
        room(data_dir)
        # With room again, the run that converges needs no process of its own: its ``main``, here.
        done = run_prp_here(["ingest", str(docs)], prp_env(data_dir, models_dir))
        assert done.returncode == 0, done.stderr[-2000:]
        assert consistent(data_dir, models_dir, embedder) == len(SAMPLE_FILES)


@pytest.mark.timeout(600)
def test_a_disk_that_fills_during_the_ingest_stops_it_consistent_and_the_next_run_converges(
    tmp_path, models_dir, embedder
):
    folder = notes(tmp_path / "notes", NOTES)
    data_dir = tmp_path / "data"
    env = prp_env(data_dir, models_dir, PRP_MIN_FREE_MB="8")  # 256 MB, the default, is more than the disk
    with tmpfs(data_dir, size_mb=26):
        fill(data_dir, 8.2)  # 17.8 MB: the index's creation (~9.3 MB), ~0.5 MB of documents, not all
        done = run_prp(["ingest", str(folder)], env, CLI_TIMEOUT)
        stopped_in_words(done, data_dir)
        assert "could not write to the library" in done.stderr and "PRP_MIN_FREE_MB" in done.stderr
        # Run again on the full tmpfs: opening the index would map its files whole (was SIGBUS too).
        again = run_prp(["ingest", str(folder)], env, CLI_TIMEOUT)
        stopped_in_words(again, data_dir)
        room(data_dir)  # space freed
        ingested = consistent(data_dir, models_dir, embedder)
        assert 0 < ingested < NOTES, ingested
        done = run_prp_here(["ingest", str(folder)], env)  # with room: in this process, as above
        assert done.returncode == 0, done.stderr[-2000:]
        assert f"{NOTES - ingested} ok" in done.stdout + done.stderr, done.stdout[-2000:]
        assert consistent(data_dir, models_dir, embedder) == NOTES
        settings = Settings(
            storage=StorageSettings(data_dir=data_dir), embeddings=EmbeddingSettings(models_path=models_dir)
        )
        with Library(settings, embedder=embedder) as library:
            for i in (0, ingested, NOTES - 1):  # before the stop, where it stopped, after
                hits = hybrid_search(library, f"marker{i:03d}", 3, mode=SearchMode.SPARSE)
                assert hits and f"marker{i:03d}" in hits[0].text
