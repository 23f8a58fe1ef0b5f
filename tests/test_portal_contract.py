"""One contract, two portals: every ``Portal`` method run on the library opened in this process
(``LocalPortal``) and on a copy of it served by a real ``prp serve`` (``RemotePortal``), with the
same results and the same errors — the error a call raises does not depend on whether a service
holds the library (``ui.core.errors.API_ERRORS``).

The library is ingested once and copied (an embedded index has one opener): both portals hold the
same documents, blocks and vectors, so their answers can be compared value for value.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from config import EmbeddingSettings, Settings, StorageSettings
from corpus.errors import ReferenceImportError, RefusedPathError
from corpus.library import Library
from corpus.models import MetadataOverride
from strategies.offline.strategy import OfflineStrategy
from tools.citations.normalise import normalise
from ui.core.errors import (
    BlockNotFoundError,
    CitationNotFoundError,
    DocumentNotFoundError,
    InvalidValueError,
    JobFinishedError,
    JobNotFoundError,
    QueryTooLongError,
    ThreadNotFoundError,
)
from ui.core.exports.formats import ExportFormat
from ui.core.jobs import JobState
from ui.core.local import LocalPortal
from ui.core.models import RunRequest, SearchRequest
from ui.core.portal import Portal
from ui.core.query_limit import MAX_QUERY_CHARS
from ui.core.remote import RemotePortal

from .paths import SAMPLE_DOCS
from .served import start, stop

DOCS = ("test_rig_retention_report_2018.txt", "hydrology_review_2019.pdf", "green_roof_faq_2021.html")
QUESTION = "How much annual rainfall do extensive green roofs retain?"
PORTALS = ("local", "remote")


def _settings(data_dir: Path, models_dir: Path) -> Settings:
    return Settings(storage=StorageSettings(data_dir=data_dir), embeddings=EmbeddingSettings(models_path=models_dir))


@pytest.fixture(scope="module")
def data_dirs(tmp_path_factory, copy_sample) -> tuple[Path, Path]:
    """The library, and a copy of it for the service."""
    local = copy_sample(tmp_path_factory.mktemp("contract-local") / "data", DOCS)
    return local, copy_sample(tmp_path_factory.mktemp("contract-served") / "data", DOCS)


@pytest.fixture(scope="module")
def local(data_dirs, models_dir, embedder) -> Iterator[LocalPortal]:
    settings = _settings(data_dirs[0], models_dir)
    with Library(settings, embedder=embedder) as library, LocalPortal(library, OfflineStrategy(embedder)) as portal:
        yield portal


@pytest.fixture(scope="module")
def remote(data_dirs, models_dir) -> Iterator[RemotePortal]:
    process, url, _env = start(data_dirs[1], models_dir)
    try:
        with RemotePortal(url) as portal:
            yield portal
    finally:
        out = stop(process)
        assert "Traceback" not in out, out[-3000:]


@pytest.fixture(params=PORTALS)
def portal(request) -> Portal:
    return request.getfixturevalue(request.param)


@pytest.fixture(scope="module")
def both(local, remote) -> dict[str, Portal]:
    return {"local": local, "remote": remote}


@pytest.fixture(scope="module")
def asked(both) -> dict[str, str]:
    """One finished ``ask`` on each portal: its thread id."""
    threads = {}
    for name, portal in both.items():
        job = portal.research("ask", RunRequest(topic=QUESTION))
        outcome = portal.follow(job.job_id, lambda event: None)
        assert outcome.job.state is JobState.DONE and outcome.report is not None, outcome.job.error
        threads[name] = job.info["thread_id"]
    return threads


def pdf_block(portal: Portal) -> str:
    """A block of the PDF, as a search gives it."""
    request = SearchRequest(query="rainfall retention", k=1, filters={"types": ["pdf"]})
    return portal.search(request).results[0].blocks[0].block_id


# --- results ------------------------------------------------------------------------------------


def test_health_and_documents_are_the_same(local, remote):
    assert not remote.in_process and local.in_process
    here, there = local.health(), remote.health()
    same = {"status", "mode", "dense_model", "sparse_model", "documents", "chunks"}
    assert here.model_dump(include=same) == there.model_dump(include=same) and here.documents == len(DOCS)
    assert local.documents() == remote.documents()


def test_stored_text_reads_the_same(local, remote):
    for document in local.documents():
        assert local.document_pages(document.doc_id) == remote.document_pages(document.doc_id)
    block = pdf_block(local)
    assert local.cite(block) == remote.cite(block)


def test_a_block_is_shown_the_same_with_its_page(local, remote):
    block = pdf_block(local)
    view = local.block_view(block)
    assert view == remote.block_view(block)
    assert view.number is None and view.block_ids == [block] and view.found == "block" and view.score == 100
    assert view.zoom_png and view.page_png and view.bibtex.startswith("@") and view.document is not None
    assert [b.block_id for b in view.passage if b.match is not None] == [block]
    bare = remote.block_view(block, images=False)
    assert bare.zoom_png is None and bare.page_png is None and bare.passage == view.passage
    # A quote of a paragraph: its own words boxed, on both sides.
    found = local.search(SearchRequest(query="rainfall retention", k=1, filters={"types": ["pdf"]})).results[0]
    paragraph = max((local.cite(b.block_id) for b in found.blocks), key=lambda c: len(c.text)).block_id
    quote = " ".join(local.cite(paragraph).text.split()[2:12])
    quoted = local.block_view(paragraph, images=False, quote=quote)
    assert quoted == remote.block_view(paragraph, images=False, quote=quote)
    assert quoted.matched_text == quote and normalise(" ".join(w.text for w in quoted.words)) == normalise(quote)
    for portal in (local, remote):
        with pytest.raises(InvalidValueError, match=f"block {paragraph} does not hold this quote"):
            portal.block_view(paragraph, quote="street trees shade the canal")


def test_searches_rank_the_same(local, remote):
    request = SearchRequest(query="rainfall retention of extensive green roofs", k=5)
    here, there = local.search(request), remote.search(request)
    assert [c.chunk_id for c in here.results] == [c.chunk_id for c in there.results] and here.results
    assert [c.score for c in here.results] == pytest.approx([c.score for c in there.results], rel=1e-4)
    assert here.scope == there.scope and here.query == there.query


def test_a_research_run_reports_the_same(both, asked):
    reports = {name: portal.report(asked[name]) for name, portal in both.items()}
    local, remote = reports["local"], reports["remote"]
    assert local.model_dump(exclude={"thread_id"}) == remote.model_dump(exclude={"thread_id"})
    assert local.citations and local.single_question
    for name, portal in both.items():
        thread_id = asked[name]
        assert any(thread_id in [r.thread_id for r in c.runs] for c in portal.threads())
        job = portal.jobs("research")[0]
        assert job.info["thread_id"] == thread_id and portal.job(job.job_id) == job and job.state is JobState.DONE
        assert [f.name for f in portal.exports(thread_id)] == [f.name for f in both["local"].exports(asked["local"])]
    bibtex = {name: portal.export(asked[name], ExportFormat.BIBTEX) for name, portal in both.items()}
    assert bibtex["local"] == bibtex["remote"] and bibtex["local"].startswith(b"@")
    conversation = {name: portal.export_conversation(asked[name], ExportFormat.BIBTEX) for name, portal in both.items()}
    assert conversation["local"] == conversation["remote"]


def test_a_citation_is_shown_the_same(both, asked):
    views = {name: portal.citation_view(asked[name], 1) for name, portal in both.items()}
    assert views["local"] == views["remote"]
    view = views["local"]
    assert view.number == 1 and view.passage and view.document is not None and view.image_note
    bare = both["remote"].citation_view(asked["remote"], 1, images=False)
    assert bare.zoom_png is None and bare.model_dump(exclude={"zoom_png", "page_png", "image_note"}) == view.model_dump(
        exclude={"zoom_png", "page_png", "image_note"}
    )


def test_an_edit_reads_back_the_same(local, remote):
    (doc,) = [d for d in local.documents() if d.type.value == "html"]
    edit = MetadataOverride(venue="Riverton Council", arxiv_id="2101.01234")
    assert local.edit_document(doc.doc_id, edit) == remote.edit_document(doc.doc_id, edit)


# --- errors -------------------------------------------------------------------------------------


def test_unknown_ids_raise_the_same_errors(portal):
    with pytest.raises(DocumentNotFoundError):
        portal.document_pages("no-such-doc")
    with pytest.raises(DocumentNotFoundError):
        portal.edit_document("no-such-doc", MetadataOverride(year=2001))
    assert portal.delete("no-such-doc") is None
    for call in (portal.cite, portal.block_view):
        with pytest.raises(BlockNotFoundError, match="no block 'nope-0001'"):
            call("nope-0001")
    for call in (portal.job, portal.cancel):
        with pytest.raises(JobNotFoundError):
            call("no-such-job")
    with pytest.raises(JobNotFoundError):
        portal.follow("no-such-job", lambda event: None)


def test_unknown_threads_and_citations_raise_the_same_errors(portal, asked, request):
    for call in (
        lambda: portal.report("no-such-thread"),
        lambda: portal.exports("no-such-thread"),
        lambda: portal.export("no-such-thread", ExportFormat.BIBTEX),
        lambda: portal.export_conversation("no-such-thread", ExportFormat.BIBTEX),
        lambda: portal.citation_view("no-such-thread", 1),
        lambda: portal.research("ask", RunRequest(topic=QUESTION, conversation="no-such-conversation")),
    ):
        with pytest.raises(ThreadNotFoundError):
            call()
    thread_id = asked[request.node.callspec.params["portal"]]
    with pytest.raises(CitationNotFoundError, match=r"no citation \[99\]"):
        portal.citation_view(thread_id, 99)


def test_refused_input_raises_the_same_errors(portal, data_dirs, tmp_path):
    long = "x" * (MAX_QUERY_CHARS + 1)
    with pytest.raises(QueryTooLongError, match="over the limit of 4,000"):
        portal.search(SearchRequest(query=long))
    for kind in ("ask", "report"):
        with pytest.raises(QueryTooLongError, match="over the limit of 4,000"):
            portal.research(kind, RunRequest(topic=long))
    (doc, *_) = portal.documents()
    with pytest.raises(InvalidValueError, match="not a DOI"):
        portal.edit_document(doc.doc_id, MetadataOverride(doi="see the journal"))
    with pytest.raises(ValueError):  # an InvalidValueError is a ValueError, as a model's own refusal is
        portal.edit_document(doc.doc_id, MetadataOverride(arxiv_id="soon"))
    own = data_dirs[0] if isinstance(portal, LocalPortal) else data_dirs[1]
    with pytest.raises(RefusedPathError):
        portal.ingest([own])
    with pytest.raises(ReferenceImportError):
        portal.ingest([], imports=[tmp_path / "missing.bib"])


def test_cancelling_a_finished_job_raises_the_same_error(portal, asked):
    (job, *_) = portal.jobs("research")
    with pytest.raises(JobFinishedError, match="already finished"):
        portal.cancel(job.job_id)


# --- changes (last: each portal's library changes alike) -----------------------------------------


def test_ingest_sync_and_delete_end_the_same(both):
    added = SAMPLE_DOCS / "harborview_policy_brief_2023.md"
    ends = {}
    for name, portal in both.items():
        ingested = portal.follow(portal.ingest([added]).job_id, lambda event: None)
        synced = portal.follow(portal.sync(dry_run=True).job_id, lambda event: None)
        (document,) = [d for d in portal.documents() if d.path == str(added)]
        deleted = portal.delete(document.doc_id)
        ends[name] = (ingested, synced, deleted, portal.documents())
    (ingested, synced, deleted, documents), remote = ends["local"], ends["remote"]
    assert [f.model_dump(exclude={"seconds"}) for f in ingested.summary.files] == [
        f.model_dump(exclude={"seconds"}) for f in remote[0].summary.files
    ]
    assert ingested.summary.files[0].outcome.value == "ok"
    # What differs is when: the second the file was ingested (its root's and document's ``added_at``).
    assert synced.sync.model_dump(exclude={"seconds", "roots"}) == remote[1].sync.model_dump(
        exclude={"seconds", "roots"}
    )
    assert [(r.root.path, r.available, r.documents) for r in synced.sync.roots] == [
        (r.root.path, r.available, r.documents) for r in remote[1].sync.roots
    ]
    assert deleted.model_dump(exclude={"added_at"}) == remote[2].model_dump(exclude={"added_at"})
    assert deleted.path == str(added)
    assert documents == remote[3] and len(documents) == len(DOCS)
