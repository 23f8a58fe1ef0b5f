"""A library whose registry is in PostgreSQL (``PRP_DATABASE_URL``): it ingests, searches and resolves
citations as one on SQLite does; two processes sharing it never index a document twice; ``prp
database migrate`` moves a SQLite library into it; and a server that cannot be reached is one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from corpus.database import PostgresDatabase
from corpus.embeddings import Embedder
from corpus.ingest import ELSEWHERE, Outcome
from corpus.models import MetadataOverride
from corpus.parsing import parse_file
from corpus.registry import Registry
from tools.citations.index import BlockIndex
from tools.citations.resolve import resolve_citation
from tools.hybrid_search import hybrid_search

from .cli_process import prp_env, run_prp_here
from .paths import ROOT

pytestmark = pytest.mark.postgres

# Made-up notes, one subject each, so a search has one right answer.
NOTES = {
    "otters.md": "# River otters\n\nRiver otters hold hands while sleeping so the current does not part them.",
    "kilns.md": "# Brick kilns\n\nA brick kiln is fired slowly over three days so the clay does not crack.",
    "tides.md": "# Tide pools\n\nTide pools shelter anemones that close their tentacles when the water drains.",
}


def _write(folder: Path, notes: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in notes.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_a_library_on_postgresql_searches_resolves_and_ingests_again_as_a_no_op(
    make_library, database_url: str, tmp_path: Path
):
    folder = _write(tmp_path / "notes", NOTES)
    (folder / "broken.pdf").write_bytes(b"not a PDF at all")
    library = make_library(database_url=database_url)
    summary = library.ingest([folder])
    assert summary.count(Outcome.OK) == 3 and summary.count(Outcome.FAILED) == 1, summary
    assert not (library.settings.storage.registry_path).exists()  # nothing went to the SQLite file
    assert library.store.count() == library.registry.counts()["chunks"] > 0

    (top, *_) = hybrid_search(library, "why do otters hold hands", k=3)
    assert top.title == "River otters"
    resolution = resolve_citation("fired slowly over three days", None, BlockIndex.from_registry(library.registry))
    assert resolution is not None and resolution.title == "Brick kilns"
    library.roots.remember([folder])
    assert [r.path for r in library.roots.all()] == [str(folder.resolve())]

    again = library.ingest([folder])
    assert again.count(Outcome.SKIPPED) == 3 and again.count(Outcome.OK) == 0
    assert library.registry.counts()["documents"] == 3
    assert library.store.count() == library.registry.counts()["chunks"]


def test_a_document_another_process_holds_is_skipped_until_it_lets_go(make_library, database_url: str, tmp_path: Path):
    folder = _write(tmp_path / "notes", NOTES)
    library = make_library(database_url=database_url)
    other = Registry(PostgresDatabase(database_url))  # another worker's connection to the same registry
    held = parse_file(folder / "otters.md").document.doc_id
    with other.claim(held) as mine:
        assert mine
        summary = library.ingest([folder])
    skipped = {f.doc_id: f.reason for f in summary.files if f.outcome is Outcome.SKIPPED}
    assert skipped == {held: ELSEWHERE}
    assert library.registry.counts()["documents"] == 2
    assert library.ingest([folder]).count(Outcome.OK) == 1  # let go: the next ingest takes it
    other.database.close()


def test_a_document_another_process_indexed_meanwhile_is_not_indexed_again(
    make_library, database_url: str, tmp_path: Path
):
    first, second = _write(tmp_path / "a", {"otters.md": NOTES["otters.md"]}), _write(tmp_path / "b", NOTES)
    library, other = make_library("one", database_url=database_url), make_library("two", database_url=database_url)

    def meanwhile(result) -> None:  # the other worker indexes the second file after this one looked at it
        if result.path.endswith("otters.md"):
            assert other.ingest([second / "tides.md"]).count(Outcome.OK) == 1

    summary = library.ingest([first / "otters.md", second / "tides.md"], progress=meanwhile)
    tides = summary.files[-1]
    assert tides.outcome is Outcome.SKIPPED and tides.reason.endswith("tides.md, indexed meanwhile")
    assert library.registry.counts()["documents"] == 2
    assert library.store.count() + other.store.count() == library.registry.counts()["chunks"]


# A worker: ingest the folder into the library its environment names (its own data directory and
# embedded index, the shared PRP_DATABASE_URL); print the documents it indexed and its index's points.
# The library alone, not the CLI: it imports less (the chat's search stack), and the machine is shared.
_WORKER = """
import json, sys
from pathlib import Path
from config import Settings
from corpus.library import Library
with Library(Settings()) as library:
    summary = library.ingest([Path(sys.argv[1])])
    ok = [f.doc_id for f in summary.files if f.outcome.value == "ok"]
    print(json.dumps({"ok": ok, "points": library.store.count(), "files": len(summary.files)}))
"""


def test_two_processes_sharing_the_database_index_each_document_once(
    database_url: str, tmp_path: Path, models_dir: Path, embedder: Embedder
):
    embedder.embed_passages(["load the model into models_dir before the processes start"])
    notes = {
        f"note{i:02}.md": f"# Field note {i}\n\nObservation {i}: the {i}th heron waded past pier {i * 7}."
        for i in range(20)
    }
    folder = _write(tmp_path / "notes", notes)
    envs = [prp_env(tmp_path / f"worker{n}", models_dir, PRP_DATABASE_URL=database_url) for n in (1, 2)]
    command = [sys.executable, "-c", _WORKER, str(folder)]
    workers = [subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True) for env in envs]
    outputs = [json.loads(w.communicate(timeout=180)[0]) for w in workers]
    assert [w.returncode for w in workers] == [0, 0]
    assert [out["files"] for out in outputs] == [20, 20]  # each told of every file: indexed, or skipped
    indexed = [set(out["ok"]) for out in outputs]
    assert not indexed[0] & indexed[1] and len(indexed[0] | indexed[1]) == 20

    registry = Registry(PostgresDatabase(database_url))
    assert registry.counts()["documents"] == 20 and not registry.documents(status="pending")
    assert sum(out["points"] for out in outputs) == registry.counts()["chunks"], outputs
    registry.database.close()


def test_prp_database_migrate_copies_a_sqlite_library_once(
    make_library, database_url: str, tmp_path: Path, models_dir: Path
):
    folder = _write(tmp_path / "notes", NOTES)
    source = make_library("sqlite")
    source.ingest([folder])
    source.roots.remember([folder])
    (doc, *_) = source.registry.documents()
    source.registry.override_metadata(doc.doc_id, MetadataOverride(year=1921))
    env = prp_env(source.settings.storage.data_dir, models_dir)

    done = run_prp_here(["database", "migrate", "--to", database_url], env)
    assert done.returncode == 0, done.stderr
    assert "3 documents" in done.stdout and "1 ingest roots" in done.stdout and "1 metadata edits" in done.stdout
    assert "0 research threads" in done.stdout  # none yet (their copy: tests/test_checkpoints_postgres.py)

    source.close()  # the embedded index admits one process at a time; the registry file stays readable
    moved = make_library("sqlite", database_url=database_url)  # the same data directory and index
    assert [d.model_dump() for d in moved.registry.documents()] == [d.model_dump() for d in source.registry.documents()]
    assert moved.registry.document(doc.doc_id).year == 1921
    assert moved.registry.blocks_of(doc.doc_id) == source.registry.blocks_of(doc.doc_id)
    assert moved.registry.fingerprint() == source.registry.fingerprint()
    assert moved.roots.all() == source.roots.all()
    assert hybrid_search(moved, "anemones in tide pools", k=1)[0].title == "Tide pools"

    again = run_prp_here(["database", "migrate", "--to", database_url], env)
    assert again.returncode == 2 and "already holds a library (3 documents" in again.stderr
    assert moved.registry.counts()["documents"] == 3


def test_a_postgresql_that_cannot_be_reached_is_one_line_without_its_password(tmp_path: Path, models_dir: Path):
    url = "postgresql://prp:s3cret-word@127.0.0.1:9/nowhere"
    env = prp_env(tmp_path / "data", models_dir, PRP_DATABASE_URL=url)
    Registry(tmp_path / "data" / "registry.sqlite")  # a library to migrate
    for args in (["docs"], ["database", "migrate", "--to", url]):
        result = run_prp_here(args, env)
        assert result.returncode == 2, result.stderr
        assert result.stderr.startswith(
            "prp: error: cannot use the PostgreSQL database postgresql://prp:***@127.0.0.1:9/"
        )
        assert len(result.stderr.strip().splitlines()) == 1 and "s3cret" not in result.stderr
    wrong = run_prp_here(["docs"], {**env, "PRP_DATABASE_URL": "mysql://prp:s3cret-word@db/library"})
    assert wrong.returncode == 2 and wrong.stderr == (
        "prp: error: not a PostgreSQL URL: mysql://prp:***@db/library (PRP_DATABASE_URL takes postgresql://…)\n"
    )
