"""The service's REST API through FastAPI's test client, on real libraries (offline mode): health,
documents, uploads ingested in the background, search with filters, ask/report streamed as
server-sent events with resolved citations, cancelling, threads and exports, and who may call it."""

from __future__ import annotations

import json
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import gradio as gr
import pytest
from fastapi.testclient import TestClient

from config import LimitSettings
from corpus.ingest_progress import IngestCounter
from corpus.models import MetadataOverride
from strategies.offline.strategy import OfflineStrategy
from ui.chat.app import banner
from ui.cli.main import main
from ui.core.errors import DocumentNotFoundError
from ui.core.local import LocalPortal
from ui.core.query_limit import MAX_QUERY_CHARS
from ui.core.remote import RemotePortal
from ui.service.app import create_app

from .paths import SAMPLE_DOCS

LOCAL = dict(base_url="http://127.0.0.1:8400", client=("127.0.0.1", 50000))
QUESTION = "How much annual rainfall did the test rig retain?"
APIARY = b"""# Rooftop Apiaries in Lowmoor: Honey Yields from Twelve Hives

Each rooftop hive in the Lowmoor pilot produced 14.5 kg of honey over the 2023 season.
"""


def sse(client: TestClient, url: str, **kw) -> list[tuple[str, dict]]:
    """Every event of a job's stream, to its final ``result`` event."""
    events = []
    with client.stream("GET", url, **kw) as response:
        assert response.status_code == 200 and response.headers["content-type"].startswith("text/event-stream")
        name = None
        for line in response.iter_lines():
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                events.append((name, json.loads(line[6:])))
    return events


@pytest.fixture(scope="module")
def api(sample_library) -> Iterator[TestClient]:
    """The API over the session's sample library (read-only tests)."""
    app = create_app(LocalPortal(sample_library, OfflineStrategy(sample_library.embedder)), chat=False)
    with TestClient(app, **LOCAL) as client:
        yield client


# In the order test_portal_contract and test_service_process name them: one ingest of the set serves all.
WRITABLE_DOCS = ("test_rig_retention_report_2018.txt", "hydrology_review_2019.pdf", "green_roof_faq_2021.html")


@pytest.fixture
def writable(make_library, copy_sample, tmp_path) -> Iterator[TestClient]:
    """The API over a library of three sample documents of its own, for tests that change it (a copy of
    them ingested once for the session: these tests change what is there, not how it got there)."""
    copy_sample(tmp_path / "writable", WRITABLE_DOCS)
    library = make_library("writable")
    with TestClient(create_app(LocalPortal(library, OfflineStrategy(library.embedder)), chat=False), **LOCAL) as client:
        yield client


def test_health_names_engine_models_and_counts(api, sample_library):
    health = api.get("/api/health").json()
    documents = sample_library.registry.documents()
    assert health["status"] == "ok" and health["mode"] == "offline mode"
    assert health["engine"].startswith("embedded Qdrant at ") and health["sparse_model"] == "Qdrant/bm25"
    assert health["dense_model"].endswith("all-MiniLM-L6-v2")
    assert health["documents"] == len(documents) == 12
    assert health["chunks"] == sum(d.n_chunks for d in documents) == sample_library.store.count()
    assert health["active_jobs"] == []
    spec = api.get("/api/openapi.json").json()
    assert {"/api/search", "/api/ask", "/api/report", "/api/jobs/{job_id}/events", "/api/uploads/{filename}"} <= set(
        spec["paths"]
    )


def test_search_modes_filters_and_k(api, sample_library):
    hybrid = api.post("/api/search", json={"query": "annual rainfall retention of a test rig", "k": 3}).json()
    assert len(hybrid["results"]) == 3 and hybrid["results"][0]["title"] == "LABORATORY REPORT HL-2018-07"
    assert all(r["blocks"] and r["blocks"][0]["block_id"] for r in hybrid["results"])
    for mode in ("dense", "sparse"):
        ranked = api.post("/api/search", json={"query": "rainfall retention", "k": 5, "search_mode": mode}).json()
        assert len(ranked["results"]) == 5
    pdfs = api.post(
        "/api/search", json={"query": "rainfall retention", "k": 8, "filters": {"types": ["pdf"], "year_min": 2019}}
    ).json()["results"]
    assert pdfs and all(r["doc_type"] == "pdf" and r["year"] >= 2019 for r in pdfs)
    one = sample_library.registry.documents()[0].doc_id
    scoped = api.post("/api/search", json={"query": "roof", "filters": {"doc_ids": [one]}}).json()["results"]
    assert scoped and {r["doc_id"] for r in scoped} == {one}
    assert (
        api.post("/api/search", json={"query": "x", "filters": {"year_min": 2020, "year_max": 2010}}).status_code == 422
    )
    assert api.post("/api/search", json={"query": ""}).status_code == 422


def test_ask_streams_progress_then_the_report_with_resolved_citations(api, sample_library):
    started = api.post("/api/ask", json={"topic": QUESTION, "options": {"k": 4, "max_retries": 0}})
    assert started.status_code == 202
    run = started.json()
    events = sse(api, run["events"])
    names = [name for name, _ in events]
    assert names[0] == "state" and "progress" in names and names[-1] == "result"
    nodes = [data["node"] for name, data in events if name == "progress"]
    assert nodes[0] == "plan" and "finalize" in nodes
    result = events[-1][1]
    assert result["job"]["state"] == "done"
    report = result["report"]
    assert report["thread_id"] == run["thread_id"] and report["single_question"] is True
    assert report["citations"] and "57%" in report["markdown"]
    blocks = {
        b.block_id: b for d in sample_library.registry.documents() for b in sample_library.registry.blocks_of(d.doc_id)
    }
    for citation in report["citations"]:
        assert citation["doc_id"] and citation["page"] >= 1 and citation["block_ids"]
        for cited in citation["blocks"]:
            stored = blocks[cited["block_id"]]  # resolved to a real block, with where the quote sits in it
            start, end = cited["match"]["start"], cited["match"]["end"]
            assert stored.text[start:end] == cited["matched_text"]
    # The finished report, fetched again, is the same typed structure.
    fetched = api.get(run["report"]).json()
    assert fetched == report
    # Reading the stream again after the end replays it; ?after= skips what was seen.
    again = sse(api, run["events"] + "?after=3")
    assert again[0][0] != "state" and again[-1][1]["report"] == report


def test_a_pdf_citation_carries_its_bounding_box(api):
    run = api.post(
        "/api/ask",
        json={"topic": "How much rainfall do extensive green roofs retain according to the systematic review?"},
    ).json()
    report = sse(api, run["events"])[-1][1]["report"]
    boxes = [b["bbox"] for c in report["citations"] for b in c["blocks"] if b["bbox"]]
    assert boxes and all(len(box) == 4 or {"x0", "y0", "x1", "y1"} <= set(box) for box in boxes)


def test_report_threads_and_exports(api):
    run = api.post("/api/report", json={"topic": "green roof cooling and costs", "options": {"max_retries": 0}}).json()
    report = sse(api, run["events"])[-1][1]["report"]
    assert report["single_question"] is False and len(report["sections"]) >= 2
    conversations = api.get("/api/threads").json()
    assert any(r["thread_id"] == run["thread_id"] and r["finished"] for c in conversations for r in c["runs"])
    files = api.get(f"/api/threads/{run['thread_id']}/exports").json()
    assert {f["format"] for f in files} >= {"evidence-csv", "bibtex", "report-md", "report-pdf", "contradictions-csv"}
    markdown = api.get(next(f["url"] for f in files if f["format"] == "report-md"))
    assert markdown.status_code == 200 and report["title"] in markdown.text
    pdf = api.get(f"/api/threads/{run['thread_id']}/exports/report-pdf")
    assert pdf.content.startswith(b"%PDF")
    bib = api.get(f"/api/threads/{run['thread_id']}/exports/bibtex")
    noted = api.get(f"/api/threads/{run['thread_id']}/exports/bibtex", params={"with_notes": "true"})
    assert "\n  note = {prp document " not in bib.text and "\n  note = {prp document " in noted.text
    assert 'filename="bibliography.bib"' in noted.headers["content-disposition"]
    assert api.get("/api/threads/no-such-thread").status_code == 404
    assert api.get(f"/api/threads/{run['thread_id']}/exports/nonsense").status_code == 422


def test_a_cancelled_run_stops_checkpointed_and_resumes_with_its_thread(api):
    run = api.post("/api/report", json={"topic": "green roofs: stormwater, cooling, costs, maintenance"}).json()
    final, cancelled = None, False
    with api.stream("GET", run["events"]) as response:
        for line in response.iter_lines():
            if line == "event: progress" and not cancelled:  # planned and checkpointed: stop it now
                assert api.post(f"/api/jobs/{run['job']['job_id']}/cancel").json()["cancel_requested"]
                cancelled = True
            elif line.startswith("data: "):
                final = json.loads(line[6:])
    if final["job"]["state"] == "done":
        pytest.skip("the run finished before the cancel reached it")
    assert final["job"]["state"] == "cancelled" and "report" not in final
    resumed = api.post("/api/report", json={"topic": "ignored on resume", "thread_id": run["thread_id"]}).json()
    report = sse(api, resumed["events"])[-1][1]["report"]
    assert (
        report["thread_id"] == run["thread_id"]
        and report["topic"] == "green roofs: stormwater, cooling, costs, maintenance"
    )


def test_upload_is_ingested_in_the_background_and_becomes_searchable(writable):
    before = writable.get("/api/health").json()["documents"]
    started = writable.put("/api/uploads/..%5C..%5Capiary notes.md", content=APIARY)
    assert started.status_code == 202, started.text
    stored = started.json()["stored_as"]
    assert stored.endswith("/uploads/apiary_notes.md") and "/../" not in stored
    events = sse(writable, started.json()["events"])
    files = [data for name, data in events if name == "file"]
    assert [f["outcome"] for f in files] == ["ok"] and files[0]["done"] == files[0]["total"] == 1
    assert events[-1][1]["summary"]["files"][0]["title"].startswith("Rooftop Apiaries")
    assert writable.get("/api/health").json()["documents"] == before + 1
    hits = writable.post("/api/search", json={"query": "honey yield per rooftop hive", "k": 1}).json()["results"]
    assert hits[0]["title"].startswith("Rooftop Apiaries")
    doc_id = hits[0]["doc_id"]
    deleted = writable.delete(f"/api/documents/{doc_id}").json()["deleted"]
    assert deleted["doc_id"] == doc_id
    assert writable.delete(f"/api/documents/{doc_id}").status_code == 404
    assert writable.get("/api/health").json()["documents"] == before


def test_uploads_are_capped_and_checked(make_library):
    library = make_library("capped", limits=LimitSettings(upload_max_mb=0.01))
    with TestClient(create_app(LocalPortal(library, OfflineStrategy(library.embedder)), chat=False), **LOCAL) as client:
        big = client.put("/api/uploads/big.md", content=b"word " * 5_000)
        assert big.status_code == 413 and "PRP_UPLOAD_MAX_MB" in big.json()["detail"]
        streamed = client.put("/api/uploads/big.md", content=iter([b"word " * 1_000] * 5))  # no length given
        assert streamed.status_code == 413
        wrong = client.put("/api/uploads/tool.exe", content=b"MZ")
        assert wrong.status_code == 422 and "not supported" in wrong.json()["detail"]
        empty = client.put("/api/uploads/empty.md", content=b"")
        assert empty.status_code == 422 and "empty" in empty.json()["detail"]
    uploads = library.settings.storage.uploads_dir
    assert not uploads.exists() or not any(uploads.iterdir())
    assert not any((library.settings.storage.data_dir / "uploads-incoming").iterdir())


def test_searches_answer_during_an_ingest_and_see_documents_as_they_become_ready(writable, tmp_path):
    folder = tmp_path / "incoming"
    folder.mkdir()
    for name in (
        "harborview_cooling_model_2022.pdf",
        "roof_temperature_energy_2017.pdf",
        "carbon_air_quality_2025.txt",
    ):
        shutil.copy(SAMPLE_DOCS / name, folder / name)
    started = writable.post("/api/ingest", json={"paths": [str(folder)]}).json()
    answered, seen = 0, []
    while True:
        job = writable.get(f"/api/jobs/{started['job']['job_id']}").json()
        seen.append(job["progress"])
        response = writable.post("/api/search", json={"query": "roof surface temperature", "k": 3})
        assert response.status_code == 200
        answered += 1
        if job["state"] in ("done", "failed", "cancelled"):
            break
    assert job["state"] == "done" and answered >= 2
    # The job's status carries the ingest's counters as it goes, the same as its events.
    counted = [p for p in seen if p is not None]
    assert counted and all(p["files"] == 3 for p in counted)
    assert [p["done"] for p in counted] == sorted(p["done"] for p in counted)
    events = sse(writable, started["events"])
    files = [data for name, data in events if name == "file"]
    assert job["progress"] | {"seconds": 0} == {
        "files": 3,
        "done": 3,
        "pages": sum(f["pages"] for f in files),
        "chunks": sum(f["chunks"] for f in files),
        "current": None,
        "seconds": 0,
        "eta_seconds": 0.0,
    }
    chunk_events = [data["progress"] for name, data in events if name == "chunks"]
    assert chunk_events and all(p["current"].endswith((".pdf", ".txt")) for p in chunk_events)
    assert [f["progress"]["done"] for f in files] == [1, 2, 3]
    titles = {
        r["title"] for r in writable.post("/api/search", json={"query": "Harborview cooling model"}).json()["results"]
    }
    assert any("Harborview" in t for t in titles)
    active = writable.get("/api/jobs", params={"kind": "ingest", "active": True}).json()
    assert active == []


def test_ingest_by_path_is_for_this_machine_only(sample_library):
    app = create_app(LocalPortal(sample_library, OfflineStrategy(sample_library.embedder)), token="t0ken", chat=False)
    with TestClient(app, base_url="http://192.0.2.10:8400", client=("192.0.2.20", 4000)) as remote:
        refused = remote.post("/api/ingest", json={"paths": ["/etc"]}, headers={"Authorization": "Bearer t0ken"})
        assert refused.status_code == 403 and "upload" in refused.json()["detail"]


def test_without_a_token_only_this_machine_is_served(sample_library):
    app = create_app(LocalPortal(sample_library, OfflineStrategy(sample_library.embedder)), chat=False)
    with TestClient(app, base_url="http://192.0.2.10:8400", client=("192.0.2.20", 4000)) as remote:
        assert remote.get("/api/health").status_code == 403
    with TestClient(app, **LOCAL) as local:
        assert local.get("/api/health").status_code == 200
        # DNS rebinding: a loopback client whose Host is someone else's name.
        assert local.get("/api/health", headers={"Host": "attacker.example"}).status_code == 403
        # Another website's page calling the loopback API from the browser.
        assert local.get("/api/health", headers={"Origin": "https://attacker.example"}).status_code == 403
        assert local.get("/api/health", headers={"Origin": "http://127.0.0.1:8400"}).status_code == 200


def test_with_a_token_every_route_needs_it(sample_library):
    app = create_app(LocalPortal(sample_library, OfflineStrategy(sample_library.embedder)), token="s3cret-t0ken")
    with TestClient(app, base_url="http://192.0.2.10:8400", client=("192.0.2.20", 4000)) as remote:
        for path in ("/api/health", "/api/documents", "/api/openapi.json", "/chat/config", "/api/threads"):
            assert remote.get(path).status_code == 401, path
        assert remote.put("/api/uploads/x.md", content=b"# x").status_code == 401
        assert remote.get("/api/health", headers={"Authorization": "Bearer wrong"}).status_code == 401
        assert remote.get("/api/health", headers={"Authorization": "Bearer s3cret-t0ken"}).status_code == 200
        assert remote.get("/api/health", headers={"X-PRP-Token": "s3cret-t0ken"}).status_code == 200
        # A browser is sent to sign in, and the cookie it gets opens the chat.
        page = remote.get("/chat/", headers={"Accept": "text/html"}, follow_redirects=False)
        assert page.status_code == 303 and page.headers["location"] == "/login"
        assert remote.post("/login", data={"token": "wrong"}, follow_redirects=False).status_code == 401
        signed = remote.post("/login", data={"token": "s3cret-t0ken"}, follow_redirects=False)
        assert signed.status_code == 303 and "HttpOnly" in signed.headers["set-cookie"]
        assert "SameSite=Strict" in signed.headers["set-cookie"]
        assert remote.get("/chat/config").status_code == 200  # the client kept the cookie


def test_the_chat_banner_shows_an_ingest_started_anywhere_as_it_goes(sample_library):
    portal = LocalPortal(sample_library, OfflineStrategy(sample_library.embedder))
    release = threading.Event()

    def slow_ingest(job):
        job.progress = IngestCounter(3, {"a.pdf": 10, "b.pdf": 10, "c.pdf": 10})
        job.progress.file_done("a.pdf", pages=2, chunks=5, skipped=False)
        release.wait(30)

    job = portal.runner.submit("ingest", "ingest papers", slow_ingest)
    try:
        deadline = time.monotonic() + 10
        while ": 1 of 3 files, 5 chunks, ~" not in banner(portal):
            assert time.monotonic() < deadline, banner(portal)
            time.sleep(0.05)
        assert "ingest papers" in banner(portal)
    finally:
        release.set()
        job.wait(30)
        portal.close()
    assert "ingest papers" not in banner(portal)


# Files none of which the library holds yet, a PDF among them (parsed by a worker): enough for a cancel
# to land between two of them; each more is only more to embed when the next ingest finishes the rest.
CANCELLED_DOCS = (
    "biodiversity_survey_2016.txt",
    "carbon_air_quality_2025.txt",
    "harborview_policy_brief_2023.md",
    "maintenance_irrigation_guide_2020.md",
    "roof_temperature_energy_2017.pdf",
)


def test_a_cancelled_ingest_stops_between_files_with_what_it_finished_searchable(writable, tmp_path):
    folder = tmp_path / "many"
    folder.mkdir()
    for name in CANCELLED_DOCS:
        shutil.copy(SAMPLE_DOCS / name, folder / name)
    started = writable.post("/api/ingest", json={"paths": [str(folder)]}).json()
    done, cancelled = [], False
    with writable.stream("GET", started["events"]) as response:
        for line in response.iter_lines():
            if line.startswith("data: ") and '"outcome"' in line:
                done.append(json.loads(line[6:]))
                if not cancelled:
                    writable.post(f"/api/jobs/{started['job']['job_id']}/cancel")
                    cancelled = True
    job = writable.get(f"/api/jobs/{started['job']['job_id']}").json()
    if job["state"] == "done":
        pytest.skip("the ingest finished before the cancel reached it")
    assert job["state"] == "cancelled" and len(done) < len(CANCELLED_DOCS)
    ready = {d["doc_id"] for d in writable.get("/api/documents").json()}
    for file in done:
        if file["outcome"] == "ok":  # each finished file is whole and searchable
            assert file["doc_id"] in ready
            hits = writable.post(
                "/api/search", json={"query": file["title"], "k": 3, "filters": {"doc_ids": [file["doc_id"]]}}
            )
            assert hits.json()["results"]
    # The next ingest of the same folder finishes the rest and skips what is there.
    again = writable.post("/api/ingest", json={"paths": [str(folder)]}).json()
    summary = sse(writable, again["events"])[-1][1]["summary"]
    outcomes = [f["outcome"] for f in summary["files"]]
    assert "failed" not in outcomes and outcomes.count("skipped") >= len([f for f in done if f["outcome"] == "ok"])


@pytest.fixture
def empty(make_library) -> Iterator[TestClient]:
    """The API over an empty library of its own (cheap: nothing to embed until a test adds it)."""
    library = make_library("empty")
    with TestClient(create_app(LocalPortal(library, OfflineStrategy(library.embedder)), chat=False), **LOCAL) as client:
        yield client


def finished(client: TestClient, started: dict) -> dict:
    """The ``result`` event of a started job, once it has finished."""
    return sse(client, started["events"])[-1][1]


def test_ingest_by_path_refuses_the_library_s_own_folders(empty, models_dir, make_settings, monkeypatch, capsys):
    writable = empty
    health = writable.get("/api/health").json()
    data_dir, before = Path(health["data_dir"]), health["documents"]
    for path, words in (
        ("", "not an absolute path"),
        (".", "not an absolute path"),
        (str(data_dir), "is the library's data directory"),
        (str(data_dir / "uploads" / "notes.md"), "is inside the library's data directory"),
        (str(data_dir.parent), "holds the library's data directory"),
        (str(models_dir), "is the library's models directory"),
    ):
        refused = writable.post("/api/ingest", json={"paths": [path]})
        assert refused.status_code == 422 and words in json.dumps(refused.json()["detail"]), (path, refused.text)
    assert writable.get("/api/jobs", params={"kind": "ingest"}).json() == []
    assert writable.get("/api/health").json()["documents"] == before
    # The command line, with the library opened directly, refuses the data directory in the same words.
    own = make_settings("cli")
    monkeypatch.setenv("PRP_DATA_DIR", str(own.storage.data_dir))
    monkeypatch.setenv("PRP_MODELS_DIR", str(own.models_dir))
    assert main(["ingest", str(own.storage.data_dir)]) == 2
    assert "is the library's data directory" in capsys.readouterr().err


def test_a_duplicate_upload_is_not_kept_and_names_the_document_it_duplicates(empty):
    first = empty.put("/api/uploads/a.md", content=APIARY)
    assert first.status_code == 202 and finished(empty, first.json())["job"]["state"] == "done"
    (document,) = empty.get("/api/documents").json()
    for name in ("b.md", "a.md"):  # the same bytes under another name, or again under the same one
        again = empty.put(f"/api/uploads/{name}", content=APIARY)
        assert again.status_code == 409, again.text
        detail = again.json()["detail"]
        assert document["doc_id"] in detail and document["title"] in detail and "not stored again" in detail
    uploads = Path(empty.get("/api/health").json()["data_dir"]) / "uploads"
    assert [p.name for p in uploads.iterdir()] == ["a.md"]
    assert len(empty.get("/api/jobs", params={"kind": "ingest"}).json()) == 1
    assert [d["doc_id"] for d in empty.get("/api/documents").json()] == [document["doc_id"]]


def test_uploads_a_stopped_service_left_unindexed_are_ingested_as_it_starts(make_library, tmp_path):
    library = make_library("stray")
    kept = tmp_path / "kept.md"
    kept.write_text("# Sedum Trays\n\nSedum trays retained 41% of the rain.\n")
    library.ingest([kept])
    uploads = library.settings.storage.uploads_dir
    uploads.mkdir(parents=True)
    (uploads / "apiary.md").write_bytes(APIARY)  # accepted, its ingest never ran
    (uploads / "kept-copy.md").write_bytes(kept.read_bytes())  # a second copy, as earlier versions kept
    (uploads / "broken.pdf").write_bytes(b"%PDF-1.4 not really")  # cannot be ingested: reported, removed
    portal = LocalPortal(library, OfflineStrategy(library.embedder))
    with TestClient(create_app(portal, chat=False), **LOCAL) as client:
        (job,) = client.get("/api/jobs", params={"kind": "ingest"}).json()
        assert "left unindexed" in job["title"]
        # The banner shows the job while it runs: read before the job's state, which may have moved on.
        shown = banner(portal)
        assert "left unindexed" in shown or client.get(f"/api/jobs/{job['job_id']}").json()["state"] != "running"
        result = finished(client, {"events": f"/api/jobs/{job['job_id']}/events"})
        outcomes = {Path(f["path"]).name: (f["outcome"], f["reason"]) for f in result["summary"]["files"]}
        assert outcomes["apiary.md"][0] == "ok"
        assert outcomes["kept-copy.md"][0] == "skipped" and "same content" in outcomes["kept-copy.md"][1]
        assert outcomes["broken.pdf"][0] == "failed" and outcomes["broken.pdf"][1]
        titles = {d["title"] for d in client.get("/api/documents").json()}
        assert any(t.startswith("Rooftop Apiaries") for t in titles)
    assert sorted(p.name for p in uploads.iterdir()) == ["apiary.md"]  # only what the library holds
    with TestClient(create_app(LocalPortal(library, OfflineStrategy(library.embedder)), chat=False), **LOCAL) as again:
        assert again.get("/api/jobs").json() == []  # nothing left over: no job at the next start


def test_cancelling_a_finished_job_is_a_conflict_and_changes_nothing(empty):
    started = empty.put("/api/uploads/apiary.md", content=APIARY).json()
    finished(empty, started)
    job_id = started["job"]["job_id"]
    refused = empty.post(f"/api/jobs/{job_id}/cancel")
    assert refused.status_code == 409 and "already finished" in refused.json()["detail"]
    job = empty.get(f"/api/jobs/{job_id}").json()
    assert job["state"] == "done" and job["cancel_requested"] is False
    assert empty.post("/api/jobs/no-such-job/cancel").status_code == 404


def test_an_over_long_query_is_refused_in_the_same_words_by_the_api_the_cli_and_the_chat(
    empty, make_library, monkeypatch, capsys
):
    from ui.chat.chat_tab import research

    huge = "rainfall " * 100_000  # 900 KB: within PRP_REQUEST_MAX_KB, which refuses larger bodies with 413
    long = "x" * (MAX_QUERY_CHARS + 1)
    for path, body in (
        ("/api/search", {"query": huge}),
        ("/api/search", {"query": long}),
        ("/api/ask", {"topic": long}),
        ("/api/report", {"topic": huge}),
    ):
        refused = empty.post(path, json=body)
        assert refused.status_code == 422, (path, refused.status_code)
        assert "over the limit of 4,000" in refused.json()["detail"] and len(refused.text) < 1000  # not echoed
        assert refused.json()["code"] == "query_too_long"  # what a RemotePortal raises QueryTooLongError from
    assert empty.post("/api/search", json={"query": "x" * MAX_QUERY_CHARS}).status_code == 200
    assert empty.get("/api/jobs").json() == []
    library = make_library("cli")
    monkeypatch.setenv("PRP_DATA_DIR", str(library.settings.storage.data_dir))
    monkeypatch.setenv("PRP_MODELS_DIR", str(library.settings.models_dir))
    library.close()  # the command opens it itself
    for argv in (["search", long], ["ask", long], ["report", huge]):
        assert main(argv) == 2
        assert "over the limit of 4,000" in capsys.readouterr().err
    chat = make_library("chat")
    with pytest.raises(gr.Error, match="over the limit of 4,000"):
        list(research(LocalPortal(chat, OfflineStrategy(chat.embedder)), long, "question"))


def test_pages_without_an_origin_change_nothing_and_studio_reaches_only_the_langgraph_api(make_library, tmp_path):
    library = make_library("origins")
    doc = tmp_path / "notes.md"
    doc.write_text("# Notes\n\nA short note.\n")
    null, studio = {"Origin": "null"}, {"Origin": "https://smith.langchain.com"}
    with TestClient(create_app(LocalPortal(library, OfflineStrategy(library.embedder))), **LOCAL) as local:
        # A sandboxed iframe or a file:// page (Origin: null) may not ingest, upload, delete or research...
        for method, path, kw in (
            ("POST", "/api/ingest", {"json": {"paths": [str(doc)]}}),
            ("PUT", "/api/uploads/notes.md", {"content": b"# Notes"}),
            ("DELETE", "/api/documents/abc", {}),
            ("POST", "/api/ask", {"json": {"topic": QUESTION}}),
            ("POST", "/chat/gradio_api/upload", {"files": {"files": ("notes.md", b"# Notes")}}),
        ):
            refused = local.request(method, path, headers=null, **kw)
            assert refused.status_code == 403 and "Origin: null" in refused.json()["detail"], (method, path)
        assert local.get("/api/jobs").json() == [] and library.registry.documents() == []
        # ...and may read (CORS keeps the answer from the page); the chat's own page may upload.
        assert local.get("/api/health", headers=null).status_code == 200
        own = local.post(
            "/chat/gradio_api/upload", headers={"Origin": "http://127.0.0.1:8400"}, files={"files": ("n.md", b"# N")}
        )
        assert own.status_code == 200, own.text
        # Studio's origin: none of the service's own routes, read or write; the LangGraph API's are
        # LangGraph's server's (absent from this app, so past the guard they are not found).
        for method, path in (("GET", "/api/health"), ("POST", "/api/ingest"), ("DELETE", "/api/documents/a")):
            assert local.request(method, path, headers=studio).status_code == 403, path
        assert local.get("/chat/", headers=studio).status_code == 403
        assert local.post("/assistants/search", headers=studio, json={}).status_code == 404


def test_a_document_s_bibliographic_fields_are_edited_over_the_api_and_through_a_remote_portal(writable):
    (doc,) = [d for d in writable.get("/api/documents").json() if d["type"] == "html"]
    url = f"/api/documents/{doc['doc_id']}"
    edited = writable.patch(url, json={"authors": ["Ingrid Halvorsen", "Ana de la Cruz"], "year": 2020, "doi": None})
    assert edited.status_code == 200
    body = edited.json()
    assert body["bibliography"]["authors"] == ["Ingrid Halvorsen", "Ana de la Cruz"] and body["year"] == 2020
    assert body["overridden"] == ["year", "authors", "doi"] and body["title"] == doc["title"]
    assert writable.get(url).json() == body
    # Bad input: a clear error, nothing changed.
    assert writable.patch(url, json={"doi": "see the journal"}).status_code == 422
    assert writable.patch(url, json={"year": "soon"}).status_code == 422
    assert writable.patch(url, json={"title": ""}).status_code == 422
    assert writable.get(url).json() == body
    assert writable.patch("/api/documents/no-such-doc", json={"year": 2001}).status_code == 404

    # The command line's path over a running service: the same core operation, the same errors.
    remote = RemotePortal(str(writable.base_url))
    remote.http = writable
    record = remote.edit_document(doc["doc_id"], MetadataOverride(venue="Riverton Council", arxiv_id="2101.01234"))
    assert record.bibliography.venue == "Riverton Council" and record.bibliography.arxiv_id == "2101.01234"
    assert record.bibliography.authors == ["Ingrid Halvorsen", "Ana de la Cruz"]
    with pytest.raises(DocumentNotFoundError):
        remote.edit_document("no-such-doc", MetadataOverride(year=2001))
    with pytest.raises(ValueError, match="not a DOI"):
        remote.edit_document(doc["doc_id"], MetadataOverride(doi="see the journal"))
