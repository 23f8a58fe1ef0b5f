"""Documents parsed again when their parser improves: refreshed without re-embedding what is unchanged."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from fpdf import FPDF

from corpus import parser_versions
from corpus.embeddings import Embedder
from corpus.index import schema
from corpus.ingest import Outcome
from corpus.library import Library
from corpus.loaders import markdown
from corpus.models import DocType, LoadedDocument
from tools.hybrid_search import hybrid_search
from ui.cli.output import format_summary

# Three sections long enough to be a chunk each (the title joins the first).
GAMMA = """# Gamma review of green roof substrates

## Substrate depth

Deeper substrates held more water between storms and kept sedum alive through the dry July weeks, while
the shallow trays lost most of their plants by the end of the second summer of the trial in Lindenport.

## Irrigation

The irrigated plots were watered weekly from a rain tank, which kept the grass-forb mixture green but
doubled the maintenance visits needed across the season and raised the running cost of each plot.

## Costs

Installation cost per square metre fell by a third when the contractor reused the existing membrane,
and the council grant covered half of what remained for the three community buildings in the scheme.
"""

# Plain text (no Markdown headings): the text loader reads it.
BETA = """Beta notes on rain gauges

1. Method

We weighed the drainage tray every hour during eleven storms.

2. Findings

The tray retained most of the light showers and little of the heavy ones.
"""


class CountingEmbedder:
    """The real embedder, recording every passage it is asked to embed."""

    def __init__(self, embedder: Embedder):
        self._embedder = embedder
        self.passages: list[str] = []

    def embed_passages(self, texts: Sequence[str]) -> list[list[float]]:
        self.passages.extend(texts)
        return self._embedder.embed_passages(texts)

    def __getattr__(self, name: str) -> object:
        return getattr(self._embedder, name)


@pytest.fixture
def counting(embedder: Embedder) -> CountingEmbedder:
    return CountingEmbedder(embedder)


@pytest.fixture
def open_library(make_settings, counting: CountingEmbedder) -> Iterator:
    opened: list[Library] = []

    def open_(name: str = "data") -> Library:
        library = Library(make_settings(name), embedder=counting)  # type: ignore[arg-type]
        opened.append(library)
        return library

    yield open_
    for library in opened:
        library.close()


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "gamma.md").write_text(GAMMA)
    (folder / "beta.txt").write_text(BETA)
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=11)
    pdf.multi_cell(0, 6, "Drainage mats made of recycled felt held water for three days after each storm.")
    pdf.output(str(folder / "delta.pdf"))
    return folder


def _points(library: Library) -> dict[str, tuple[list[float], dict]]:
    """chunk id -> (dense vector, payload) of every stored point."""
    return {
        p.payload["chunk_id"]: (p.vectors[schema.DENSE], p.payload) for p in library.store.points(with_vectors=True)
    }


def _loader_editing_irrigation(monkeypatch: pytest.MonkeyPatch) -> None:
    """An improved Markdown loader (version 2) whose output differs in one paragraph."""
    original = markdown.load_markdown

    def improved(text: str) -> LoadedDocument:
        loaded = original(text)
        blocks = [b.model_copy(update={"text": b.text.replace("weekly", "every week")}) for b in loaded.blocks]
        return loaded.model_copy(update={"blocks": blocks})

    monkeypatch.setattr(markdown, "load_markdown", improved)
    monkeypatch.setattr(parser_versions, "MARKDOWN", parser_versions.MARKDOWN + 1)


def _consistent(library: Library) -> None:
    assert library.store.count() == library.registry.counts()["chunks"]
    assert library.registry.documents(status="pending") == [] and library.registry.tombstones() == []


def test_a_loader_update_refreshes_its_documents_and_re_embeds_only_changed_chunks(
    open_library, counting: CountingEmbedder, docs: Path, monkeypatch: pytest.MonkeyPatch
):
    library = open_library()
    assert library.ingest([docs]).count(Outcome.OK) == 3
    before = _points(library)
    added = {d.path: d.added_at for d in library.registry.documents()}
    counting.passages.clear()

    _loader_editing_irrigation(monkeypatch)
    summary = library.ingest([docs])

    # Markdown files and plain text (which can go through the Markdown loader) are parsed again;
    # the PDF is not.
    by_name = {Path(f.path).name: f for f in summary.files}
    assert summary.refreshed == 2 and by_name["gamma.md"].refreshed and by_name["beta.txt"].refreshed
    assert by_name["delta.pdf"].outcome is Outcome.SKIPPED and by_name["delta.pdf"].reason == "unchanged"
    assert "2 refreshed (parser updated)" in format_summary(summary)
    assert summary.as_dict()["refreshed_documents"] == 2
    # Only the chunk holding the changed paragraph was embedded again.
    (embedded,) = counting.passages
    assert "every week" in embedded and embedded.startswith("Gamma review of green roof substrates | Irrigation")
    after = _points(library)
    assert after.keys() == before.keys()  # same bytes: same document, chunk and point ids
    for chunk_id, (dense, payload) in after.items():
        if "every week" in payload["text"]:
            assert dense != pytest.approx(before[chunk_id][0], abs=1e-6)
        else:
            assert payload["text"] == before[chunk_id][1]["text"]
            assert dense == pytest.approx(before[chunk_id][0], abs=1e-6)
    versions = {Path(d.path).name: (d.loader_version, d.chunker_version) for d in library.registry.documents()}
    assert versions == {
        "gamma.md": (parser_versions.current(DocType.MARKDOWN).loader, parser_versions.CHUNKER),
        "beta.txt": (parser_versions.current(DocType.TEXT).loader, parser_versions.CHUNKER),
        "delta.pdf": (parser_versions.current(DocType.PDF).loader, parser_versions.CHUNKER),
    }
    assert {d.path: d.added_at for d in library.registry.documents()} == added  # refreshed, not added
    _consistent(library)
    assert any("every week" in r.text for r in hybrid_search(library, "how often were the plots watered", k=3))

    counting.passages.clear()
    again = library.ingest([docs])
    assert again.refreshed == 0 and again.count(Outcome.SKIPPED) == 3 and counting.passages == []


def test_a_refresh_drops_the_chunks_its_new_parse_no_longer_has(
    open_library, docs: Path, monkeypatch: pytest.MonkeyPatch
):
    library = open_library()
    library.ingest([docs / "gamma.md"])
    (gamma,) = library.registry.documents()
    before = {c.chunk_id for c in library.registry.chunks_of(gamma.doc_id)}
    original = markdown.load_markdown

    def without_costs(text: str) -> LoadedDocument:
        loaded = original(text)
        return loaded.model_copy(update={"blocks": [b for b in loaded.blocks if b.section != "Costs"]})

    monkeypatch.setattr(markdown, "load_markdown", without_costs)
    monkeypatch.setattr(parser_versions, "MARKDOWN", parser_versions.MARKDOWN + 1)
    assert library.ingest([docs / "gamma.md"]).refreshed == 1
    after = {c.chunk_id for c in library.registry.chunks_of(gamma.doc_id)}
    assert after < before
    assert {p.payload["chunk_id"] for p in library.store.points()} == after
    _consistent(library)


def test_a_library_from_before_versions_is_refreshed_once_without_re_embedding(
    open_library, counting: CountingEmbedder, docs: Path
):
    library = open_library()
    library.ingest([docs])
    # What an earlier prp left: a registry without version columns, points without the digest of
    # their embedded text.
    legacy_points = []
    for p in library.store.backend.scroll(with_vectors=True):
        del p.payload[schema.EMBEDDED]
        legacy_points.append(p.as_point())
    library.store.upsert_points(legacy_points)
    library.close()
    del library.__dict__["store"]
    with sqlite3.connect(library.settings.storage.registry_path) as db:
        db.execute("ALTER TABLE documents DROP COLUMN loader_version")
        db.execute("ALTER TABLE documents DROP COLUMN chunker_version")
    counting.passages.clear()

    reopened = open_library()
    assert {(d.loader_version, d.chunker_version) for d in reopened.registry.documents()} == {(0, 0)}
    summary = reopened.ingest([docs])
    assert summary.refreshed == 3 and counting.passages == []  # every vector was still right
    assert all(schema.EMBEDDED in p.payload for p in reopened.store.points())
    _consistent(reopened)
    assert reopened.ingest([docs]).refreshed == 0
