"""Boilerplate across documents (corpus.boilerplate): a documentation site's navigation, breadcrumbs,
cookie banner and footer are marked at ingest, kept in the registry for citations, and in no chunk;
the marks do not depend on ingest order; titles are not doubled."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from config import EmbeddingSettings, Settings, StorageSettings
from corpus import boilerplate
from corpus.chunking import chunk_document
from corpus.database import PostgresDatabase
from corpus.ingest import Outcome
from corpus.library import Library
from corpus.loaders.markdown import load_markdown
from corpus.loaders.text import load_text
from corpus.loaders.titles import clean_title, is_breadcrumb, page_title
from corpus.models import Block, BlockKind, DocType, Document
from corpus.parsing import parse_file
from corpus.registry import Registry
from graph.run import run_research
from strategies.offline.strategy import OfflineStrategy
from tools.citations.index import BlockIndex
from tools.citations.resolve import resolve_citation
from tools.hybrid_search import hybrid_search

from . import webpages
from .webpages import PAGES, write_site

BOILERPLATE_TEXTS = [
    webpages.COOKIE_BANNER,
    "Accept all cookies",
    " | ".join(webpages.NAV),
    webpages.FEEDBACK,
    webpages.FOOTER,
    webpages.FOOTER_LINKS,
    *PAGES,  # the navigation menu's entries
]
CONTENT = [p for paragraphs in PAGES.values() for p in paragraphs if not p.startswith("## ")]
# Text no chunk may contain: navigation, breadcrumbs, banner, footer.
NOT_IN_CHUNKS = ["Documentation / User Guide", "cookies", "All rights reserved", "Privacy Policy", "Home | Doc"]


def snapshot(library: Library) -> dict:
    """Per document (by file name): its blocks' marks and its chunks' texts and block ids."""
    out = {}
    for doc in library.registry.documents():
        blocks = library.registry.blocks_of(doc.doc_id)
        chunks = library.registry.chunks_of(doc.doc_id)
        out[Path(doc.path).name] = (
            [(b.text, b.boilerplate) for b in blocks],
            [(c.text, c.block_ids) for c in chunks],
        )
    return out


def index_consistent(library: Library) -> None:
    assert library.store.count() == library.registry.counts()["chunks"]
    assert library.registry.remark_queue() == []


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return write_site(tmp_path_factory.mktemp("site"))


@pytest.fixture(scope="module")
def site_library(tmp_path_factory: pytest.TempPathFactory, models_dir: Path, embedder, site) -> Iterator[Library]:
    settings = Settings(
        storage=StorageSettings(data_dir=tmp_path_factory.mktemp("site-data")),
        embeddings=EmbeddingSettings(models_path=models_dir),
    )
    library = Library(settings, embedder=embedder)
    summary = library.ingest(site)
    assert summary.count(Outcome.OK) == len(PAGES), summary
    yield library
    library.close()


def test_site_boilerplate_is_marked_and_kept_out_of_every_chunk(site_library: Library):
    registry = site_library.registry
    for doc in registry.documents():
        page = doc.title
        blocks = registry.blocks_of(doc.doc_id)
        marked = {b.text for b in blocks if b.boilerplate}
        assert marked >= {*BOILERPLATE_TEXTS, webpages.BREADCRUMB.format(page=page), webpages.PRODUCT}, page
        kept = {b.text for b in blocks if not b.boilerplate}
        # Content, the page's own heading and its subheadings stay.
        assert kept == {page, *(p.removeprefix("## ") for p in PAGES[page])}, page
        marked_ids = {b.block_id for b in blocks if b.boilerplate}
        for chunk in registry.chunks_of(doc.doc_id):
            assert not marked_ids & set(chunk.block_ids)
            assert not any(s in chunk.text for s in NOT_IN_CHUNKS), chunk.text
    # The vectors' payloads say the same as the registry.
    points = list(site_library.store.points())
    assert len(points) == registry.counts()["chunks"]
    assert not any(s in p.payload["text"] for p in points for s in NOT_IN_CHUNKS)
    assert all(any(c in p.payload["text"] for p in points) for c in CONTENT)
    summary_blocks = sum(1 for b in registry.iter_blocks() if b.boilerplate)
    assert summary_blocks == len(PAGES) * (len(BOILERPLATE_TEXTS) + 2)
    index_consistent(site_library)


def test_what_is_the_product_finds_content_not_navigation(site_library: Library):
    results = hybrid_search(site_library, "What is Acme Router?", k=8)
    assert webpages.OVERVIEW_ANSWER in results[0].text
    for r in results:
        assert not any(s in r.text for s in NOT_IN_CHUNKS), r.text
        assert not any(b.boilerplate for b in r.blocks)
    tier = hybrid_search(site_library, "Which tier are requests routed to by default?", k=3)
    assert webpages.DEFAULT_TIER in tier[0].text


def test_a_breadcrumb_citation_still_resolves_to_its_block(site_library: Library):
    index = BlockIndex.from_registry(site_library.registry)
    crumb = webpages.BREADCRUMB.format(page="Service Tiers")
    resolution = resolve_citation(crumb, None, index)
    assert resolution is not None and resolution.title == "Service Tiers"
    (block_id,) = resolution.block_ids
    block = site_library.registry.blocks([block_id])[block_id]
    assert block.text == crumb and block.boilerplate
    # Also as the single short line a nav entry is, when the hint names it.
    nav = next(b for b in site_library.registry.blocks_of(resolution.doc_id) if b.text == "Load Balancing")
    short = resolve_citation("Load Balancing", nav.block_id, index)
    assert short is not None and short.block_ids == [nav.block_id]


def test_titles_are_the_page_names_not_doubled(site_library: Library):
    titles = sorted(d.title for d in site_library.registry.documents())
    assert titles == sorted(PAGES)
    document = site_library.registry.documents()[0]
    blocks = site_library.registry.blocks_of(document.doc_id)
    embedder = site_library.embedder
    for c in chunk_document(document, blocks, embedder.max_tokens, embedder.count_tokens_batch):
        header = c.embed_text.split("\n\n", 1)[0]
        assert header.count(document.title) == 1, header


def test_marks_do_not_depend_on_ingest_order_and_reingest_is_a_no_op(
    make_library, site: list[Path], site_library: Library, monkeypatch
):
    library = make_library("two-batches")
    first = library.ingest(site[:2])
    # Two pages share their template with nobody else yet: nothing is boilerplate.
    assert not any(b.boilerplate for b in library.registry.iter_blocks())
    second = library.ingest(site[2:])
    assert second.count(Outcome.OK) == len(site) - 2
    earlier = {f.doc_id for f in first.files}
    assert set(second.remarked) == earlier  # only the two earlier pages were re-chunked
    assert snapshot(library) == snapshot(site_library)
    index_consistent(library)

    calls: list[int] = []
    embed = library.embedder.embed_passages
    monkeypatch.setattr(library.embedder, "embed_passages", lambda texts: calls.append(len(texts)) or embed(texts))
    before = snapshot(library)
    again = library.ingest(site)
    assert again.count(Outcome.SKIPPED) == len(site) and again.remarked == []
    assert calls == [] and snapshot(library) == before
    index_consistent(library)


def test_an_interrupted_remark_is_finished_by_the_next_ingest(make_library, tmp_path: Path, monkeypatch, backend):
    pages = write_site(tmp_path / "site", list(PAGES)[:3])
    library = make_library("interrupted", database_url=backend)
    library.ingest(pages[:2])
    # The process dies after the third page is indexed, before the first two are marked again.
    monkeypatch.setattr("corpus.ingest.Ingestor.remark", lambda self: {})
    library.ingest(pages[2:])
    monkeypatch.undo()
    stale = [
        d for d in library.registry.documents() if not any(b.boilerplate for b in library.registry.blocks_of(d.doc_id))
    ]
    assert len(stale) == 2 and library.registry.remark_queue()
    summary = library.ingest([])  # any ingest recovers first
    assert set(summary.remarked) == {d.doc_id for d in stale}
    assert all(any(b.boilerplate for b in library.registry.blocks_of(d.doc_id)) for d in library.registry.documents())
    index_consistent(library)


def test_deleting_pages_unmarks_text_only_two_documents_still_share(make_library, tmp_path: Path, backend):
    library = make_library("delete", database_url=backend)
    library.ingest(write_site(tmp_path / "site", list(PAGES)[:3]))
    docs = library.registry.documents()
    assert all(any(b.boilerplate for b in library.registry.blocks_of(d.doc_id)) for d in docs)
    assert library.delete(docs[0].doc_id)
    for doc in library.registry.documents():
        assert not any(b.boilerplate for b in library.registry.blocks_of(doc.doc_id))
        assert any("Documentation / User Guide" in c.text for c in library.registry.chunks_of(doc.doc_id))
    index_consistent(library)


def test_a_changed_page_replaces_its_old_version_without_counting_it(make_library, tmp_path: Path, backend):
    library = make_library("replace", database_url=backend)
    site = write_site(tmp_path / "site", list(PAGES)[:3])
    library.ingest(site)
    site[2].write_text(site[2].read_text().replace("Create a file", "First create a file"))
    summary = library.ingest(site)
    assert summary.count(Outcome.OK) == 1 and summary.remarked == []
    marks = [sum(b.boilerplate for b in library.registry.blocks_of(d.doc_id)) for d in library.registry.documents()]
    assert len(marks) == 3 and len(set(marks)) == 1 and marks[0] > 0
    index_consistent(library)


def test_the_sample_corpus_has_no_boilerplate(sample_library: Library):
    assert not [b.text for b in sample_library.registry.iter_blocks() if b.boilerplate]


# --- the rule, on blocks ---------------------------------------------------------------------


def _blocks(texts: list[str | tuple[BlockKind, str]]) -> list[Block]:
    out = []
    for seq, item in enumerate(texts):
        kind, text = item if isinstance(item, tuple) else (BlockKind.PARAGRAPH, item)
        out.append(Block(block_id=f"d-{seq:04d}", doc_id="d", seq=seq, page=1, kind=kind, text=text))
    return out


def _detect(documents: list[tuple[str, list]]) -> list[list[bool]]:
    """Mark each (title, blocks) document against all of them."""
    parsed = [(_blocks(texts), title) for title, texts in documents]
    fps = [boilerplate.fingerprints(blocks, title) for blocks, title in parsed]
    counts: dict[str, int] = {}
    for doc_fps in fps:
        for fp in {f for f in doc_fps if f}:
            counts[fp] = counts.get(fp, 0) + 1
    return [boilerplate.detect(blocks, f, counts) for (blocks, _), f in zip(parsed, fps, strict=True)]


def test_three_documents_make_boilerplate_two_do_not():
    page = ["© 2023 Example Corp.", "Our findings on roofs."]
    assert _detect([("A", page), ("B", page)]) == [[False, False]] * 2
    three = _detect([("A", page), ("B", ["© 2024 Example Corp.", "Other"]), ("C", ["© 2021  EXAMPLE corp", "X"])])
    assert [m[0] for m in three] == [True, True, True] and not any(m[1] for m in three)


def test_the_title_is_masked_so_breadcrumbs_match():
    topics = {"Alpha": "apples", "Beta Two": "bananas", "Gamma": "grapes"}
    docs = [(t, [f"Docs / Guide / {t}", f"{t} is about {fruit}."]) for t, fruit in topics.items()]
    assert _detect(docs) == [[True, False]] * 3
    # A line that differs only by the page's own title is the template's too.
    reading = [(t, [f"You are reading {t}.", f"{t} is about {fruit}."]) for t, fruit in topics.items()]
    assert _detect(reading) == [[True, False]] * 3


def test_headings_stay_unless_they_head_boilerplate():
    heading = (BlockKind.HEADING, "Site Name")
    section = (BlockKind.HEADING, "Results")
    findings = ["Roofs cooled.", "Gutters overflowed.", "Moss spread."]
    docs = [(t, [heading, "Home | Blog | Shop", section, f]) for t, f in zip("ABC", findings, strict=True)]
    assert _detect(docs) == [[True, True, False, False]] * 3


def test_copies_of_one_report_keep_their_paragraphs():
    shared = [f"Paragraph {i} of the report says something long enough to count as content. " * 3 for i in range(6)]
    changes = ["Typos fixed.", "Figures redrawn.", "Summary added."]
    docs = [(f"Draft {c}", ["Company Confidential", *shared, c]) for c in changes]
    marks = _detect(docs)
    # The short repeated line is still boilerplate; the shared paragraphs are content.
    assert marks == [[True, *[False] * len(shared), False]] * 3


def test_a_block_without_letters_has_no_fingerprint():
    assert boilerplate.fingerprint("12 | 14 | 2020") is None
    assert boilerplate.fingerprint("Page 3 of 12") == boilerplate.fingerprint("page 4 OF 12")


# --- titles and breadcrumbs in the loaders -----------------------------------------------------


def test_a_title_line_glued_to_the_same_heading_is_not_doubled(tmp_path: Path):
    scraped = "Overview - Acme Router\nOverview - Acme Router\n======================\n\nAcme Router routes requests.\n"
    doc = load_markdown(scraped)
    assert doc.title == "Overview - Acme Router"
    assert doc.blocks[0].kind is BlockKind.HEADING and doc.blocks[0].text == "Overview - Acme Router"
    text = load_text("Overview - Acme Router\nOverview - Acme Router\n\nAcme Router routes requests.\n")
    assert text.title == "Overview - Acme Router" and text.blocks[0].kind is BlockKind.HEADING
    path = tmp_path / "page.md"
    path.write_text(scraped)
    assert parse_file(path).document.title == "Overview - Acme Router"


def test_html_titles_drop_the_site_name_and_permalink_marks():
    assert page_title("Overview - Acme Router", "Acme Router") == "Overview"
    assert page_title("Acme Router | Overview", "Acme Router") == "Overview"
    assert page_title("Overview - Acme Router", None, "Overview") == "Overview"
    assert page_title("Overview - Acme Router", None, None) == "Overview - Acme Router"
    assert page_title("Routing: the basics", None, "Something else") == "Routing: the basics"
    assert clean_title("Overview¶") == "Overview" and clean_title(" Overview  -  X Overview - X ") == "Overview - X"


def test_a_breadcrumb_line_is_its_own_block_never_a_heading():
    assert is_breadcrumb("Documentation / User Guide / Overview") and is_breadcrumb("Home > Docs > Routing")
    assert not is_breadcrumb("Input / Output") and not is_breadcrumb("We used A / B / C testing in 2020.")
    text = load_text("Site\n\nDocumentation / User Guide / Overview\nAcme Router routes requests\nto backends.\n")
    assert [(b.kind, b.text) for b in text.blocks[1:]] == [
        (BlockKind.PARAGRAPH, "Documentation / User Guide / Overview"),
        (BlockKind.PARAGRAPH, "Acme Router routes requests to backends."),
    ]
    alone = load_text("Site\n\nDocumentation / User Guide / Overview\n\nAcme Router routes requests.\n")
    assert alone.blocks[1].kind is BlockKind.PARAGRAPH and alone.blocks[2].section == "Site"
    source = "# Overview\n\nDocumentation / User Guide / Overview\nAcme Router routes *requests*.\n"
    md = load_markdown(source)
    crumb, body = md.blocks[1:]
    assert crumb.text == "Documentation / User Guide / Overview" and body.text == "Acme Router routes requests."
    assert source[crumb.span.start : crumb.span.end] == crumb.text
    assert source[body.span.start : body.span.end] == "Acme Router routes *requests*."


def test_the_chunk_header_does_not_repeat_the_title(embedder):
    document = Document(
        doc_id="0" * 16, title="Overview", path="/x.html", type=DocType.HTML, page_count=1, sha256="0" * 64
    )
    blocks = _blocks([(BlockKind.HEADING, "Overview"), "Acme Router routes requests to backend pools. " * 4])
    blocks = [b.model_copy(update={"doc_id": document.doc_id, "section": "Overview"}) for b in blocks]
    # The header is the title alone, not "Overview | Overview"; the heading block follows it.
    (chunk,) = chunk_document(document, blocks, embedder.max_tokens, embedder.count_tokens_batch)
    assert chunk.embed_text.split("\n\n")[:2] == ["Overview", "Overview"]
    titled = document.model_copy(update={"title": "Overview - Acme Router"})
    (chunk,) = chunk_document(titled, blocks, embedder.max_tokens, embedder.count_tokens_batch)
    assert chunk.embed_text.split("\n\n")[:2] == ["Overview - Acme Router", "Overview"]
    other = blocks[1].model_copy(update={"section": "Key features"})
    (chunk,) = chunk_document(titled, [other], embedder.max_tokens, embedder.count_tokens_batch)
    assert chunk.embed_text.startswith("Overview - Acme Router | Key features\n\n")


# --- registries written before boilerplate detection -----------------------------------------


def test_an_older_registry_gets_the_new_columns_and_its_fingerprints(tmp_path: Path, backend: str | None):
    old_schema = """
    CREATE TABLE documents (doc_id TEXT PRIMARY KEY, path TEXT NOT NULL, title TEXT NOT NULL, type TEXT NOT NULL,
        page_count INTEGER NOT NULL, year INTEGER, sha256 TEXT NOT NULL, status TEXT NOT NULL, added_at TEXT NOT NULL,
        n_blocks INTEGER NOT NULL, n_chunks INTEGER NOT NULL);
    CREATE TABLE blocks (block_id TEXT PRIMARY KEY, doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
        seq INTEGER NOT NULL, page INTEGER NOT NULL, x0 REAL, top REAL, x1 REAL, bottom REAL,
        span_start INTEGER, span_end INTEGER, section TEXT NOT NULL, kind TEXT NOT NULL, text TEXT NOT NULL);
    INSERT INTO documents VALUES ('d1', '/a.md', 'A', 'markdown', 1, NULL, 'x', 'ready', 'now', 1, 0);
    INSERT INTO blocks VALUES ('d1-0000', 'd1', 0, 1, NULL, NULL, NULL, NULL, 0, 5, '', 'paragraph', 'Hello');
    """
    if backend is None:
        with sqlite3.connect(tmp_path / "registry.sqlite") as db:
            db.executescript(old_schema)
        registry = Registry(tmp_path / "registry.sqlite")
    else:
        with psycopg.connect(backend) as db:
            db.execute(old_schema)  # type: ignore[arg-type]
        registry = Registry(PostgresDatabase(backend))
    (block,) = registry.blocks_of("d1")
    assert block.text == "Hello" and not block.boilerplate and block.words == []
    assert registry.document_counts([boilerplate.fingerprint("Hello", "A")]) == {boilerplate.fingerprint("Hello"): 1}
    assert registry.remark_queue() == [boilerplate.fingerprint("Hello")]
    registry.database.close()


# -- the answer layer on the site: content quoted, never navigation ---------------------------------


def test_what_is_the_product_is_answered_from_the_overview_not_the_breadcrumbs(site_library: Library, embedder):
    report = run_research(site_library, OfflineStrategy(embedder), f"What is {webpages.PRODUCT}?", single_question=True)
    (section,) = report.report.sections
    assert section.claims, report.report.markdown
    assert section.claims[0].text == webpages.OVERVIEW_ANSWER
    for claim in section.claims:
        assert not any(text in claim.text for text in NOT_IN_CHUNKS), claim.text


def test_a_question_answered_verbatim_by_one_page_is_not_abstained(site_library: Library, embedder):
    result = run_research(
        site_library, OfflineStrategy(embedder), "Which tier are requests routed to by default?", single_question=True
    )
    (section,) = result.report.sections
    assert section.claims and section.claims[0].text.startswith(webpages.DEFAULT_TIER), result.report.markdown
    assert section.claims[0].answer == "Standard tier"
