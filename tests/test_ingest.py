"""Ingestion: idempotency, replacement of changed files, bad input, recovery and the store lock."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from fpdf import FPDF

from corpus.errors import StoreLockedError
from corpus.ingest import Outcome
from corpus.parsing import parse_file

from .cli_process import prp_env, run_prp, run_prp_here

ALPHA = """# Alpha study of rooftop meadows

## Results

Rooftop meadows in Lindenport reduced peak membrane temperature by 27 degrees.

Pollinator visits doubled in the second summer of monitoring.
"""

BETA = """Beta notes on rain gauges

1. Method

We weighed the drainage tray every hour during eleven storms.

2. Findings

The tray retained most of the light showers and little of the heavy ones.
"""


def write_pdf(path: Path, paragraphs: list[str], encrypt: bool = False) -> Path:
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 16)
    pdf.multi_cell(0, 10, "A Test Report on Roof Drainage", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", size=11)
    for para in paragraphs:
        pdf.multi_cell(0, 6, para, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(4)
    if encrypt:
        pdf.set_encryption(owner_password="owner", user_password="secret")
    pdf.output(str(path))
    return path


@pytest.fixture
def docs_dir(tmp_path: Path) -> Path:
    d = tmp_path / "docs"
    (d / "sub").mkdir(parents=True)
    (d / "alpha.md").write_text(ALPHA)
    (d / "sub" / "beta.txt").write_text(BETA)
    write_pdf(d / "gamma.pdf", ["Drainage mats made of recycled felt held water for three days."] * 3)
    return d


def index_consistent(library) -> None:
    """Every ready document's chunks are in Qdrant, and nothing else is."""
    assert library.store.count() == library.registry.counts()["chunks"]
    assert library.registry.documents(status="pending") == []
    assert library.registry.tombstones() == []


def test_ingest_folder_recursively(make_library, docs_dir: Path):
    library = make_library()
    summary = library.ingest([docs_dir])
    assert summary.count(Outcome.OK) == 3, summary
    assert summary.chunks > 0 and summary.blocks >= summary.chunks
    titles = {d.title for d in library.registry.documents()}
    assert "Alpha study of rooftop meadows" in titles
    index_consistent(library)


def test_ids_stable_across_runs(make_library, docs_dir: Path):
    first, second = make_library("one"), make_library("two")
    first.ingest([docs_dir])
    second.ingest([docs_dir])
    for doc in first.registry.documents():
        assert [b.block_id for b in first.registry.blocks_of(doc.doc_id)] == [
            b.block_id for b in second.registry.blocks_of(doc.doc_id)
        ]
        assert [c.chunk_id for c in first.registry.chunks_of(doc.doc_id)] == [
            c.chunk_id for c in second.registry.chunks_of(doc.doc_id)
        ]
    # Block ids are unique across the whole corpus.
    all_ids = [b.block_id for b in first.registry.iter_blocks()]
    assert len(all_ids) == len(set(all_ids))


def test_reingest_adds_nothing(make_library, docs_dir: Path):
    library = make_library()
    library.ingest([docs_dir])
    before = (library.store.count(), library.registry.counts())
    again = library.ingest([docs_dir])
    assert again.count(Outcome.SKIPPED) == 3 and again.count(Outcome.OK) == 0
    assert all(f.reason == "unchanged" for f in again.files)
    assert (library.store.count(), library.registry.counts()) == before


def test_changed_file_replaces_its_chunks(make_library, docs_dir: Path):
    from tools.hybrid_search import hybrid_search

    library = make_library()
    library.ingest([docs_dir])
    old = {d.path: d.doc_id for d in library.registry.documents()}
    alpha = docs_dir / "alpha.md"
    alpha.write_text(ALPHA.replace("Pollinator visits doubled", "Beetle counts tripled"))
    summary = library.ingest([docs_dir])
    assert summary.count(Outcome.OK) == 1 and summary.count(Outcome.SKIPPED) == 2
    new = {d.path: d.doc_id for d in library.registry.documents()}
    assert new[str(alpha)] != old[str(alpha)]
    assert library.registry.document(old[str(alpha)]) is None
    assert library.registry.blocks_of(old[str(alpha)]) == []
    index_consistent(library)
    texts = " ".join(r.text for r in hybrid_search(library, "pollinator visits beetle counts", k=10))
    assert "Beetle counts tripled" in texts and "Pollinator visits doubled" not in texts


def test_corpus_derived_values_are_rebuilt_only_when_documents_change(make_library, docs_dir: Path):
    library = make_library()
    library.ingest([docs_dir])
    builds: list[int] = []

    def build(registry) -> int:
        builds.append(1)
        return registry.counts()["blocks"]

    first = library.derived("blocks", build)
    assert library.derived("blocks", build) == first and len(builds) == 1  # reused across runs
    library.ingest([docs_dir])  # nothing changed
    assert library.derived("blocks", build) == first and len(builds) == 1
    (docs_dir / "alpha.md").write_text(ALPHA + "\nA new paragraph on sedum mats and their weight.\n")
    library.ingest([docs_dir])  # a replaced document
    assert library.derived("blocks", build) > first and len(builds) == 2
    library.delete(library.registry.documents()[0].doc_id)
    library.derived("blocks", build)
    assert len(builds) == 3


def test_bad_files_are_reported_and_the_rest_lands(make_library, docs_dir: Path):
    (docs_dir / "corrupt.pdf").write_bytes(b"%PDF-1.7\n" + os.urandom(2048))
    write_pdf(docs_dir / "locked.pdf", ["Secret drainage figures."], encrypt=True)
    (docs_dir / "empty.txt").write_text("")
    (docs_dir / "slides.pptx").write_bytes(b"PK\x03\x04 not really")
    (docs_dir / "minutes.rtf").write_text("{\\rtf1 minutes}")
    library = make_library()
    summary = library.ingest([docs_dir])
    by_name = {Path(f.path).name: f for f in summary.files}
    assert by_name["alpha.md"].outcome is Outcome.OK
    assert by_name["beta.txt"].outcome is Outcome.OK
    assert by_name["gamma.pdf"].outcome is Outcome.OK
    assert by_name["corrupt.pdf"].outcome is Outcome.FAILED
    assert "corrupt" in by_name["corrupt.pdf"].reason.lower() or "unreadable" in by_name["corrupt.pdf"].reason.lower()
    assert by_name["locked.pdf"].outcome is Outcome.FAILED
    assert "encrypted" in by_name["locked.pdf"].reason.lower()
    assert by_name["empty.txt"].outcome is Outcome.FAILED and "empty" in by_name["empty.txt"].reason
    assert (
        by_name["slides.pptx"].outcome is Outcome.FAILED
        and "not a readable PowerPoint" in by_name["slides.pptx"].reason
    )
    assert by_name["minutes.rtf"].outcome is Outcome.FAILED and "unsupported" in by_name["minutes.rtf"].reason
    assert len(library.registry.documents()) == 3
    index_consistent(library)


def test_recover_finishes_an_interrupted_ingest(make_library, docs_dir: Path):
    library = make_library()
    library.ingest([docs_dir / "alpha.md"])
    # Simulate a crash after the registry recorded a document as pending and vectors were written,
    # and another after a document was retired but before its vectors were deleted.
    parsed = parse_file(docs_dir / "sub" / "beta.txt")
    library.registry.add_pending(parsed.document, parsed.blocks, [])
    alpha_id = library.registry.documents()[0].doc_id
    library.registry.retire(alpha_id)
    library.ingest([])
    assert library.registry.documents(status="pending") == []
    assert library.store.count() == 0
    index_consistent(library)


def test_same_content_twice_is_one_document(make_library, docs_dir: Path):
    (docs_dir / "alpha-copy.md").write_text(ALPHA)
    library = make_library()
    summary = library.ingest([docs_dir])
    copies = [f for f in summary.files if f.reason.startswith("same content as")]
    assert len(copies) == 1
    assert len(library.registry.documents()) == 3


def test_second_process_gets_a_clear_lock_error(make_library, make_settings, docs_dir: Path):
    from corpus.library import Library

    holder = make_library()
    holder.ingest([docs_dir / "alpha.md"])
    settings = make_settings()
    with pytest.raises(StoreLockedError) as err:
        _ = Library(settings, embedder=holder.embedder).store
    message = str(err.value)
    assert str(settings.storage.data_dir.resolve()) in message and "prp serve" in message
    # The CLI prints it as an error, not a traceback.
    proc = run_prp(["search", "meadows"], prp_env(settings.storage.data_dir, settings.models_dir), timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert "prp serve" in proc.stderr and "Traceback" not in proc.stderr
    # The refused second process changed nothing: the holder's library is as it was.
    (doc,) = holder.registry.documents()
    assert holder.store.count() == len(holder.registry.chunks_of(doc.doc_id))


PROGRESS_LINE = re.compile(
    r"^ingest: (\d+)/(\d+) documents, (\d+) pages?, (\d+) chunks? · [\d.]+ documents/min, [\d.]+ chunks/s · "
    r"\S+ elapsed, (?:~\S+ left|time left unknown yet)",
    re.MULTILINE,
)


def test_cli_ingest_json_summary(make_settings, docs_dir: Path):
    settings = make_settings("cli")
    (docs_dir / "empty.txt").write_text("")
    env = prp_env(settings.storage.data_dir, settings.models_dir, PRP_PROGRESS_SECONDS="0.05")
    proc = run_prp_here(["ingest", str(docs_dir), "--json"], env)
    assert proc.returncode == 1  # one file failed; the others still landed
    summary = json.loads(proc.stdout)
    assert summary["documents"] == {"ok": 3, "skipped": 0, "failed": 1}
    assert summary["chunks"] > 0 and summary["seconds"] > 0
    # stderr is a pipe, not a terminal: progress lines with the counters, the last one the final counts.
    lines = [m.groups() for m in PROGRESS_LINE.finditer(proc.stderr)]
    assert lines, proc.stderr
    assert [int(done) for done, *_ in lines] == sorted(int(done) for done, *_ in lines)
    assert lines[-1] == ("4", "4", str(summary["pages"]), str(summary["chunks"]))


def test_parse_worker_path_keeps_input_order(make_library, docs_dir: Path):
    # Two PDFs send the batch to the parse worker; the first file is parsed in this process meanwhile.
    write_pdf(docs_dir / "delta.pdf", ["Sedum mats survived the drought of the second summer."] * 3)
    library = make_library()
    summary = library.ingest([docs_dir])
    assert [Path(f.path).name for f in summary.files] == ["alpha.md", "delta.pdf", "gamma.pdf", "beta.txt"]
    assert all(f.outcome is Outcome.OK for f in summary.files)
    index_consistent(library)
