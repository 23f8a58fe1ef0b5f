"""Text no reader reads stays out of the index (issue 34, item 7). Reported: 200 KB of base64 took
163 s to ingest (1 MB: about 500 s, 3,284 chunks), every chunk of it meaningless; a Markdown note
exported with its images inline as ``data:`` URIs is the everyday case. Such runs are kept in the
blocks (citations resolve as before) but in no chunk, the ingest summary names them, and the note's
prose is found. ``benchmarks/hostile_ingest.py --inline-images 2`` times the 2 MB case."""

from __future__ import annotations

import base64
import random
from pathlib import Path

from corpus import non_prose
from corpus.ingest import IngestSummary, Outcome
from corpus.retrieval import SearchMode
from testing_support.hostile_corpus import inline_images_note, paragraph
from tools.hybrid_search import hybrid_search
from ui.cli.output import format_summary

BLOB = base64.b64encode(random.Random(3).randbytes(3000)).decode()
WRAPPED = "\n".join(BLOB[i : i + 76] for i in range(0, len(BLOB), 76))


def test_runs_no_reader_reads_are_found_and_identifiers_are_not():
    cases = {
        f"![chart](data:image/png;base64,{WRAPPED}) After the chart.": ("![chart]() After the chart.", "data: URI"),
        f'<img src="data:image/jpeg;base64,{BLOB}"> Caption.': ('<img src=""> Caption.', "data: URI"),
        f"Figure 2: data:image/png;base64,{BLOB} Two trees.": ("Figure 2: Two trees.", "data: URI"),
        f"-----BEGIN KEY----- {WRAPPED} -----END KEY-----": (
            "-----BEGIN KEY----- -----END KEY-----",
            "base64 or hex blob",
        ),
        f"Dump: {random.Random(4).randbytes(400).hex()} end": ("Dump: end", "base64 or hex blob"),
        f"Word {'x' * 300} end": ("Word end", "long token without spaces"),
    }
    for text, (kept, kind) in cases.items():
        assert non_prose.strip(text) == kept, text[:60]
        assert [r.kind for r in non_prose.runs(text)] == [kind], text[:60]
    # Identifiers someone searches for stay, as does ordinary prose.
    for text in (
        "Fixed in commit 3f786850e387550fdab836ed7e6dc881de23001b and e3b0c44298fc1c149afbf4c8996fb92427ae41e4.",
        "See https://doi.org/10.1000/182 and arXiv:2101.01234 for the data: it is public.",
        paragraph("quokka", "island wildlife"),
        "    indented code\n\tkeeps   its   spacing",
    ):
        assert non_prose.runs(text) == [] and non_prose.strip(text) == text
    summary = non_prose.summarise([f"data:image/png;base64,{BLOB}", f"data:image/gif;base64,{BLOB}", "prose"])
    assert [s.describe() for s in summary] == ["2 data: URIs (8 KB)"]


def test_a_note_with_inline_images_is_indexed_by_its_prose_alone(make_library, tmp_path: Path):
    folder = tmp_path / "notes"
    folder.mkdir()
    text = inline_images_note(240_000)  # 9 images of 30 KB in the four forms exporters write
    (folder / "figures.md").write_text(text, encoding="utf-8")
    markers = sorted({w for w in text.split() if w.startswith("marker")})
    library = make_library()
    summary = library.ingest([folder])
    [result] = summary.files
    assert result.outcome is Outcome.OK, result.reason
    # One chunk or two per paragraph, none of image data (before: several hundred chunks of base64).
    assert result.chunks <= len(markers) + 2, result.chunks
    # The Markdown loader reads an image as its alt text and drops HTML tags; the URIs wrapped over
    # lines (which Markdown does not read as images) and those in running text reach the blocks.
    in_blocks = sum(1 for n in range(len(markers)) if n % 4 in (0, 3))
    kinds = {n.kind: n for n in result.non_prose}
    assert set(kinds) == {"data: URI"} and kinds["data: URI"].runs == in_blocks
    for chunk in library.registry.chunks_of(result.doc_id):
        assert "base64," not in chunk.text and max(map(len, chunk.text.split())) < 200, chunk.text[:200]
    for marker in markers:
        hits = hybrid_search(library, marker, 1, mode=SearchMode.SPARSE)
        assert hits and marker in hits[0].text, marker
    # The blocks still hold the note as read: a citation resolves to it.
    blocks = library.registry.blocks_of(result.doc_id)
    assert sum(len(b.text) for b in blocks) > kinds["data: URI"].chars > in_blocks * 29_000
    # The summary names what was left out, per document.
    said = format_summary(IngestSummary(files=[result], seconds=1, embed_seconds=1))
    assert f"kept out of chunks (not text to read or search): {result.path}: {in_blocks} data: URIs (" in said
