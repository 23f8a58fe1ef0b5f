"""Bounded work per input: whatever a file holds (base64, one endless word, runs of symbols or
spaces), parsing and chunking it takes time in proportion to its size and makes chunks that fit the
model's window; a file over the chunk budget is refused by name before anything is embedded; and a
cancel reaches inside a long file, between embedding batches, leaving the library consistent."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from config import LimitSettings
from corpus import non_prose
from corpus.chunking import MAX_CHARS_PER_TOKEN, chunk_document
from corpus.ingest import WRITE_BATCH
from corpus.parsing import parse_file
from testing_support.hostile_corpus import base64_text, one_token_line, paragraph, prose
from tools.hybrid_search import hybrid_search
from ui.core.jobs import JobState
from ui.core.local import LocalPortal

from .test_hostile_ingest import assert_consistent

# Far above what these take now (a second or two each) and far below what they took before: 60 KB of
# "A. A. ..." 50 s, a heading line with a long run of spaces 40 s at 32 KB, 100 KB of base64 minutes.
PARSE_AND_CHUNK_SECONDS = 20

HOSTILE = {
    "base64.txt": base64_text(100_000),
    "one-token.txt": one_token_line(100_000),
    "one-token.md": f"# Notes\n\n{one_token_line(100_000)}\n",
    "initials.txt": "A. " * 20_000,
    "spaces.txt": f"a{' ' * 30_000}b\n",
    "hashes.html": f"<html><body><h1>{'#' * 30_000}x</h1></body></html>",
    "symbols.md": "=-*#" * 25_000,
}


@pytest.mark.timeout(300)
@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_text_is_parsed_and_chunked_in_bounded_time_into_chunks_that_fit(name, tmp_path, embedder):
    path = tmp_path / name
    path.write_text(HOSTILE[name], encoding="utf-8")
    started = time.perf_counter()
    parsed = parse_file(path)
    chunked = chunk_document(parsed.document, parsed.blocks, embedder.max_tokens, embedder.count_tokens_batch)
    seconds = time.perf_counter() - started
    assert seconds < PARSE_AND_CHUNK_SECONDS, f"{name}: {seconds:.1f} s"
    # Nothing but a blob (base64, one endless token) is in no chunk (``corpus.non_prose``).
    if not any(non_prose.strip(b.text) for b in parsed.blocks):
        assert chunked == [] and non_prose.summarise(b.text for b in parsed.blocks), name
        return
    assert chunked
    max_chars = embedder.max_tokens * MAX_CHARS_PER_TOKEN
    assert max(len(c.chunk.text) for c in chunked) <= max_chars
    tokens = embedder.count_tokens_batch([c.embed_text for c in chunked])
    # A cut through a word may tokenize a little longer than its pieces counted; the model
    # truncates those few tokens, nothing more.
    assert max(tokens) <= embedder.max_tokens + 8


@pytest.mark.timeout(300)
def test_base64_and_a_one_token_line_are_ingested_and_found_by_their_prose(tmp_path, make_library):
    folder = tmp_path / "encoded"
    folder.mkdir()
    (folder / "attachment.txt").write_text(f"{paragraph('marmot', 'alpine burrows')}\n\n{base64_text(20_000)}")
    (folder / "token.md").write_text(f"{paragraph('vicuna', 'high plateaus')}\n\n{one_token_line(100_000)}\n")
    (folder / "only-base64.txt").write_text(base64_text(20_000))
    library = make_library()
    started = time.perf_counter()
    summary = library.ingest([folder])
    assert time.perf_counter() - started < 120  # a chunk each; ~110 chunks of base64 once, minutes before that
    got = {Path(f.path).name: f for f in summary.files}
    assert [got[n].outcome.value for n in ("attachment.txt", "token.md")] == ["ok", "ok"], summary.files
    assert got["attachment.txt"].chunks == 1 and got["token.md"].chunks == 1
    assert [n.describe() for n in got["attachment.txt"].non_prose] == ["1 base64 or hex blob (20 KB)"]
    # Nothing but a blob: refused by name, as a file without text is.
    assert got["only-base64.txt"].outcome.value == "failed"
    assert got["only-base64.txt"].reason.startswith("no text to read or search: it holds only 1 base64 or hex blob")
    assert_consistent(library, {"attachment.txt": "marmot", "token.md": "vicuna"})


@pytest.mark.timeout(300)
def test_a_file_over_the_chunk_budget_is_refused_by_name_and_the_rest_ingested(tmp_path, make_library):
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "big.txt").write_text(prose(20_000), encoding="utf-8")
    (folder / "small.txt").write_text(paragraph("quoll", "night foraging"), encoding="utf-8")
    library = make_library(limits=LimitSettings(max_file_chunks=5))
    got = {Path(f.path).name: f for f in library.ingest([folder]).files}
    assert got["big.txt"].outcome.value == "failed"
    assert "over the limit of 5 per file (PRP_MAX_FILE_CHUNKS)" in got["big.txt"].reason
    assert got["small.txt"].outcome.value == "ok"
    assert [d.path for d in library.registry.documents(status="pending")] == []
    assert_consistent(library, {"small.txt": "quoll"})
    assert not any("tidal flats" in h.text for h in hybrid_search(library, "tidal flats survey", 10))


@pytest.mark.timeout(600)
def test_a_cancel_during_a_long_files_embedding_stops_promptly_and_the_next_ingest_converges(tmp_path, make_library):
    """Through the application core, as the chat and the REST service drive an ingest: the cancel
    lands while the file's chunks are being embedded; the job stops at the next batch, the file is
    absent (no pending rows, no stray vectors), and ingesting it again indexes it whole."""
    big = tmp_path / "long-report.txt"
    big.write_text(f"{paragraph('kakapo', 'island refuges')}\n\n{prose(160_000)}", encoding="utf-8")
    library = make_library()
    portal = LocalPortal(library)
    try:
        job = portal.start_ingest([big])
        deadline = time.monotonic() + 120
        while not library.registry.documents(status="pending"):  # parsed, chunked, now embedding
            assert not job.state.finished and time.monotonic() < deadline, job.view()
            time.sleep(0.05)
        cancelled_at = time.monotonic()
        job.cancel()
        assert job.wait(120)
        stopped_after = time.monotonic() - cancelled_at
    finally:
        portal.close()
    assert job.state is JobState.CANCELLED, job.view()
    # One batch at most finishes after the cancel (a few seconds; generous for a loaded machine).
    assert stopped_after < 60, stopped_after
    assert library.registry.documents(status="ready") == []
    assert_consistent(library, {})
    assert library.store.count() == 0
    summary = library.ingest([big])
    assert [f.outcome.value for f in summary.files] == ["ok"] and summary.files[0].chunks > 2 * WRITE_BATCH
    assert_consistent(library, {"long-report.txt": "kakapo"})
