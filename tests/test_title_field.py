"""The title field: a chunk's document title, URL path and section heading, indexed as a BM25 vector of
its own (``corpus.title_field``) and fused with the body's rankings (``tools.retrievers``). A term every
page's title repeats ("- Acme Router") weighs nothing; a page exported without heading markup has its
one-line headings read as its sections (``corpus.loaders.markdown``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from qdrant_client import QdrantClient

from corpus.index import rebuild, schema
from corpus.index.client import ClientIndex
from corpus.library import Library
from corpus.loaders.markdown import load_markdown
from corpus.models import Bibliography, DocType, Document, MetadataOverride
from corpus.title_field import field_text, url_words
from graph.run import run_research
from strategies.offline.strategy import OfflineStrategy
from tests.webpages import write_crawled_markdown
from tools.hybrid_search import hybrid_search
from tools.retrievers import TITLE_WEIGHT, title_ranks

PAGES = {
    "what-is-acme-router": ("Overview", "Acme Router is a fully managed service that routes HTTP requests."),
    "quotas": ("Quotas", "Acme Router is controlled by quotas: 50 routes per region and account."),
    "pricing": ("Pricing", "Acme Router is billed per million requests; rejected requests are free."),
    "logging": ("Logging", "Acme Router writes one log line per request and keeps it for seven days."),
    "security": ("Security", "Acme Router encrypts traffic in transit and rotates certificates automatically."),
    "regions": ("Regions", "Acme Router runs in twelve locations; pick the ones nearest your users."),
}


def test_the_field_is_title_url_path_and_heading():
    document = Document(
        doc_id="d",
        path="p.md",
        title="Quotas - Acme Router",
        type=DocType.MARKDOWN,
        page_count=1,
        sha256="0",
        bibliography=Bibliography(url="https://docs.acme.example/en/router/raise-a-quota.html"),
    )
    assert url_words(document.bibliography.url) == "router raise a quota"
    assert (
        field_text(document, ["Limits per region"]) == "Quotas - Acme Router\nrouter raise a quota\nLimits per region"
    )
    # A heading above the section repeating a part of the title ("Quotas") does not count its words twice.
    assert field_text(document, ["Quotas", "Limits per region"]) == field_text(document, ["Limits per region"])
    assert url_words(None) == ""


def test_a_term_every_title_repeats_carries_no_weight_and_a_named_page_ranks_first(make_library, tmp_path: Path):
    library = make_library()
    library.ingest([write_crawled_markdown(tmp_path / "site", PAGES)])
    assert library.store.has_titles

    def title_hits(query: str) -> list:
        sparse = schema.sparse_vector(library.embedder.embed_sparse_query(query))
        return title_ranks(library.store.query(schema.sparse_query(sparse, 20, None, schema.TITLE)))

    # The site's name is in every page's title and URL: no title match at all.
    assert title_hits("Acme Router") == []
    # A page's own name is a title match, that page's alone.
    assert {library.registry.document(h.doc_id).title for _, h in title_hits("acme router regions")} == {
        "Regions - Acme Router"
    }
    assert TITLE_WEIGHT > 0
    hits = hybrid_search(library, "Which regions does Acme Router support?", k=3)
    assert hits[0].title == "Regions - Acme Router"
    # A title edited by hand is in the field from then on.
    library.edit_metadata(hits[0].doc_id, MetadataOverride(title="Availability zones - Acme Router"))
    assert {h.doc_id for _, h in title_hits("availability zones")} == {hits[0].doc_id}


def test_a_page_without_heading_markup_has_its_one_line_headings_as_sections():
    page = (
        "<!-- source: https://docs.example.com/en/docs/eval-tool -->\n\n"
        "Accessing the Evaluate Feature\n\n\n"
        "To get started with the Evaluation tool, open the console.\n\n"
        "Creating Test Cases\n\n\n"
        "When you first access the Evaluation screen, you see a single row.\n\n"
        "Where the model is running. e.g. us-central1\n\n"
        "Click the button.\n"
    )
    blocks = load_markdown(page).blocks
    assert [b.section for b in blocks] == [
        "Accessing the Evaluate Feature",
        "Accessing the Evaluate Feature",
        "Creating Test Cases",
        "Creating Test Cases",
        "Creating Test Cases",  # a sentence, not a heading
        "Creating Test Cases",
    ]
    # A page with heading markup keeps its own headings only.
    marked = load_markdown("# Guide\n\nCreating Test Cases\n\nClick the button.\n").blocks
    assert [b.section for b in marked] == ["Guide", "Guide", "Guide"]


def test_a_block_knows_the_headings_its_section_sits_under():
    page = (
        "# SDK guide\n\nIntro.\n\n## Python\n\nInstall it.\n\n### Examples\n\nprint(1)\n\n"
        "## TypeScript\n\n### Examples\n\nconsole.log(1)\n\n# Appendix\n\nMore.\n"
    )
    placed = [(b.parents, b.section, b.text) for b in load_markdown(page).blocks]
    assert placed == [
        ([], "SDK guide", "SDK guide"),
        ([], "SDK guide", "Intro."),
        (["SDK guide"], "Python", "Python"),
        (["SDK guide"], "Python", "Install it."),
        (["SDK guide", "Python"], "Examples", "Examples"),
        (["SDK guide", "Python"], "Examples", "print(1)"),
        (["SDK guide"], "TypeScript", "TypeScript"),
        (["SDK guide", "TypeScript"], "Examples", "Examples"),
        (["SDK guide", "TypeScript"], "Examples", "console.log(1)"),
        ([], "Appendix", "Appendix"),
        ([], "Appendix", "More."),
    ]
    document = Document(doc_id="d", path="p.md", title="SDK guide", type=DocType.MARKDOWN, page_count=1, sha256="0")
    # The page's own title heading is not counted twice.
    assert field_text(document, ["SDK guide", "TypeScript", "Examples"]) == "SDK guide\nTypeScript\nExamples"


SDKS = {
    "Python": "pip install acme-sdk, then create a client with your key.",
    "TypeScript": "npm install @acme/sdk, then create a client with your key.",
    "Go": "go get acme.example/sdk, then create a client with your key.",
}


def test_a_question_naming_a_sections_parent_heading_ranks_that_section_first(make_library, tmp_path: Path):
    """Three "Examples" sections, one under each language: the language is in no example's text, only
    in the heading above it, and the question that names it finds that section's examples first."""
    parts = ["# Client libraries\n\nAcme ships a client library for three languages.\n"]
    for language, setup in SDKS.items():
        parts.append(
            f"## {language}\n\n{setup}\n\n### Examples\n\nclient.routes.list() returns every route; "
            "client.routes.create(name) adds one and returns its identifier.\n"
        )
    path = tmp_path / "sdk.md"
    path.write_text("\n".join(parts))
    library = make_library()
    library.ingest([path])
    for language in SDKS:
        hits = hybrid_search(library, f"Examples for the {language} client library", k=8)
        first = next(h for h in hits if h.section == "Examples")
        assert first.blocks[-1].parents == ["Client libraries", language]


# --- an index built before the title field ----------------------------------------------------------


def _before_the_title_field(monkeypatch, settings, embedder, folder: Path) -> int:
    """A library as prp left it before the title field: the collection created without its vector,
    chunks written without it. Returns its chunk count."""
    body_only = {schema.SPARSE: schema.CollectionSchema(embedder.dim).sparse_vectors()[schema.SPARSE]}
    with monkeypatch.context() as m:
        m.setattr(schema.CollectionSchema, "sparse_vectors", lambda self: dict(body_only))
        m.setattr(rebuild, "needed", lambda store: False)
        with Library(settings, embedder=embedder) as old:
            old.ingest([write_crawled_markdown(folder, PAGES)])
            assert not old.store.has_titles
            assert all(schema.TITLE not in p.vectors for p in old.store.backend.scroll(with_vectors=True))
            return old.store.count()


def _title_hits(library: Library, query: str) -> list:
    sparse = schema.sparse_vector(library.embedder.embed_sparse_query(query))
    return title_ranks(library.store.query(schema.sparse_query(sparse, 20, None, schema.TITLE)))


def test_an_index_built_before_the_title_field_is_rebuilt_once_on_open(
    monkeypatch, make_settings, embedder, tmp_path: Path, capfd
):
    settings = make_settings("old")
    chunks = _before_the_title_field(monkeypatch, settings, embedder, tmp_path / "site")
    capfd.readouterr()
    with Library(settings, embedder=embedder) as library:
        assert library.store.has_titles and library.store.count() == chunks
        err = capfd.readouterr().err
        assert (
            "built before the title field" in err and f"rebuilt the index with the title field ({chunks} chunks)" in err
        )
        assert all(schema.TITLE in p.vectors for p in library.store.backend.scroll(with_vectors=True))
        assert {library.registry.document(h.doc_id).title for _, h in _title_hits(library, "regions")} == {
            "Regions - Acme Router"
        }
        assert (
            hybrid_search(library, "Which regions does Acme Router support?", k=3)[0].title == "Regions - Acme Router"
        )
    assert not settings.index_path.with_name(settings.index_path.name + rebuild.REBUILDING).exists()
    with Library(settings, embedder=embedder) as again:
        assert again.store.count() == chunks
    assert "rebuild" not in capfd.readouterr().err


def test_an_interrupted_rebuild_leaves_the_old_index_and_runs_again(monkeypatch, make_settings, embedder, tmp_path):
    settings = make_settings("old")
    chunks = _before_the_title_field(monkeypatch, settings, embedder, tmp_path / "site")
    with monkeypatch.context() as m:
        m.setattr(rebuild, "_with_titles", lambda *a: (_ for _ in ()).throw(KeyboardInterrupt))
        library = Library(settings, embedder=embedder)
        with pytest.raises(KeyboardInterrupt):
            _ = library.store
        library.close()
    # A crash between setting the old shard aside and moving the new one in: the old one comes back.
    settings.index_path.rename(settings.index_path.with_name(settings.index_path.name + ".replaced"))
    with Library(settings, embedder=embedder) as library:
        assert library.store.has_titles and library.store.count() == chunks
        assert (
            hybrid_search(library, "Which regions does Acme Router support?", k=3)[0].title == "Regions - Acme Router"
        )


def test_a_server_collection_built_before_the_title_field_is_rebuilt(monkeypatch, make_settings, embedder, tmp_path):
    """The same rebuild on qdrant-client (a server's code path; local mode stands in for the server)."""
    settings = make_settings("old")
    chunks = _before_the_title_field(monkeypatch, settings, embedder, tmp_path / "site")
    with Library(settings, embedder=embedder) as library:
        points = [p.as_point() for p in library.store.backend.scroll(with_vectors=True)]
        server = ClientIndex(QdrantClient(location=":memory:"), "prp")
        body_only = {schema.SPARSE: schema.CollectionSchema(embedder.dim).sparse_vectors()[schema.SPARSE]}
        with monkeypatch.context() as m:
            m.setattr(schema.CollectionSchema, "sparse_vectors", lambda self: dict(body_only))
            server.ensure(schema.CollectionSchema(embedder.dim))
        for p in points:
            p.vector = {k: v for k, v in p.vector.items() if k != schema.TITLE}
        server.upsert(points)
        edge, library.store.backend = library.store.backend, server
        try:
            assert rebuild.needed(library.store)
            assert rebuild.rebuild(library.store, library.registry, embedder) == chunks
            assert not rebuild.needed(library.store) and server.count() == chunks
            assert not server.client.collection_exists("prp" + rebuild.REBUILDING)
            assert {library.registry.document(h.doc_id).title for _, h in _title_hits(library, "regions")} == {
                "Regions - Acme Router"
            }
        finally:
            library.store.backend = edge
            server.close()


def test_what_is_the_product_finds_the_page_that_defines_it(make_library, tmp_path: Path):
    """A crawled site where every page's title ends "- Acme Router" and every page names it several
    times: the overview page (URL .../what-is-acme-router.html) ranks first and the answer is the
    sentence that defines the product, not the quotas page's "Acme Router is controlled by quotas"."""
    library = make_library()
    folder = tmp_path / "site"
    folder.mkdir()
    for slug, (title, sentences) in SITE.items():
        (folder / f"docs__{slug}.md").write_text(
            f"Source: https://docs.acme.example/router/{slug}.html\nFetched-At: 2026-01-02T10:00:00Z\n\n"
            f"# {title} - Acme Router\n\n" + "\n\n".join(sentences) + "\n"
        )
    library.ingest([folder])
    for question in ("What is Acme Router?", "What does Acme Router do?"):
        assert hybrid_search(library, question, k=3)[0].title == "Overview - Acme Router"
        result = run_research(library, OfflineStrategy(library.embedder), question, single_question=True)
        (finding,) = result.state["findings"]
        assert finding.claims[0].text == SITE["what-is-acme-router"][1][0]


SITE = {
    "what-is-acme-router": (
        "Overview",
        [
            "Acme Router is a fully managed service that routes HTTP requests to your backends.",
            "With Acme Router you describe routes once and the service applies them in every region.",
            "This guide shows how to set up Acme Router, send traffic through it and watch its logs.",
        ],
    ),
    "quotas": (
        "Quotas",
        [
            "Acme Router is controlled by quotas that limit how many routes and requests an account may use.",
            "Each Acme Router account may create 50 routes per region; ask support to raise the quota.",
            "Requests above the Acme Router request quota are rejected with status 429.",
        ],
    ),
    "pricing": (
        "Pricing",
        [
            "Acme Router is billed per million requests routed; rejected requests are free.",
            "Acme Router data transfer is billed at the rate of the region the request leaves from.",
            "There is no minimum fee for Acme Router and no charge for idle routes.",
        ],
    ),
    "logging": (
        "Logging",
        [
            "Acme Router writes one log line per request and keeps it for seven days.",
            "You can export Acme Router logs to your own storage bucket.",
            "Acme Router log lines hold the route, the status and the latency of each request.",
        ],
    ),
    "security": (
        "Security",
        [
            "Acme Router encrypts traffic in transit and rotates certificates automatically.",
            "Access to Acme Router is granted by roles; an administrator role may change routes.",
            "Acme Router never stores request bodies.",
        ],
    ),
    "regions": (
        "Regions",
        [
            "Acme Router runs in twelve locations; pick the ones nearest your users.",
            "An Acme Router route can be served from several regions at once.",
            "New Acme Router regions are announced on the status page.",
        ],
    ),
    "getting-started": (
        "Getting started",
        [
            "To start with Acme Router, create an account and a first route in the console.",
            "Acme Router then gives you an endpoint; point your DNS record at it.",
            "Send a test request and Acme Router shows it in the logs within a minute.",
        ],
    ),
    "limits": (
        "Limits",
        [
            "Acme Router accepts request headers up to 64 KB and bodies up to 32 MB.",
            "A route in Acme Router may have up to 100 rules.",
            "Acme Router closes idle connections after 10 minutes.",
        ],
    ),
}
