"""``prp serve`` as a user runs it: its own process on a free loopback port, LangGraph's server with
the chat, the REST API and the LangGraph API on one library; the CLI beside it going through the
service; a LangGraph SDK client running the ``research`` graph; a token required beyond loopback."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from corpus.registry import Registry
from ui.core import discovery
from ui.core.discovery import ServiceRecord
from ui.core.errors import JobFinishedError
from ui.core.remote import RemotePortal

from .cli_process import PRP, prp_env, run_prp_here
from .paths import ROOT, SAMPLE_DOCS
from .served import kill_group, start, stop
from .ui_server import free_port

DOCS = ("test_rig_retention_report_2018.txt", "hydrology_review_2019.pdf", "green_roof_faq_2021.html")
QUESTION = "How much annual rainfall did the test rig retain?"


@dataclass
class Served:
    url: str
    env: dict[str, str]
    data_dir: Path
    process: subprocess.Popen
    direct: dict[str, str]  # what the CLI printed with the library opened directly, before serving


@pytest.fixture(scope="module")
def served(tmp_path_factory, models_dir, copy_sample) -> Iterator[Served]:
    data_dir = copy_sample(tmp_path_factory.mktemp("served") / "data", DOCS)
    env = prp_env(data_dir, models_dir)
    direct = {
        "docs": run_prp_here(["docs"], env).stdout,
        "search": run_prp_here(["search", "rainfall retention", "--k", "3", "--json"], env).stdout,
    }
    process, url, env = start(data_dir, models_dir)
    try:
        yield Served(url, env, data_dir, process, direct)
    finally:
        out = stop(process)
        assert "Traceback" not in out, out[-3000:]
        assert not (data_dir / "service.json").exists()  # the CLI will open the library itself again


def sse_events(url: str, headers: dict | None = None) -> Iterator[tuple[str, dict]]:
    with httpx.stream("GET", url, headers=headers, timeout=120) as response:
        name = None
        for line in response.iter_lines():
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                yield name, json.loads(line[6:])


def test_the_service_publishes_itself_and_the_cli_goes_through_it_with_the_same_output(served):
    record = json.loads((served.data_dir / "service.json").read_text())
    assert record["url"] == served.url and record["pid"] == served.process.pid
    health = httpx.get(f"{served.url}/api/health").json()
    assert health["documents"] == 3 and health["engine"].startswith("embedded Qdrant")
    # The commands through their ``main`` in this process, as in the test beyond loopback below: what
    # finds the service is the data directory's record, the same for any process.
    for name, args in (("docs", ["docs"]), ("search", ["search", "rainfall retention", "--k", "3", "--json"])):
        through = run_prp_here(args, served.env)
        assert through.returncode == 0, through.stderr[-2000:]
        assert through.stdout == served.direct[name]


def test_two_cli_commands_at_once_through_the_service(served, tmp_path):
    answer = tmp_path / "answer.json"
    new_doc = tmp_path / "apiary.md"
    new_doc.write_text("# Rooftop Apiaries in Lowmoor\n\nEach rooftop hive produced 14.5 kg of honey in 2023.\n")
    commands = [
        ["ask", QUESTION, "--json", str(answer), "--quiet"],
        ["ingest", str(new_doc)],
        ["search", "sedum roof retention", "--k", "2"],
    ]
    processes = [
        subprocess.Popen(
            [*PRP, *c], cwd=ROOT, env=served.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for c in commands
    ]
    results = [p.communicate(timeout=300) for p in processes]
    for process, (_, err), command in zip(processes, results, commands, strict=True):
        assert process.returncode == 0, (command, err[-2000:])
        assert "in use by another prp process" not in err
    report = json.loads(answer.read_text())
    assert report["citations"] and report["citations"][0]["blocks"][0]["block_id"]
    assert "through the service at" in results[0][1]
    assert "documents: 1 ok" in results[1][0]
    hits = run_prp_here(["search", "honey per rooftop hive", "--k", "1", "--json"], served.env)
    assert json.loads(hits.stdout)[0]["title"] == "Rooftop Apiaries in Lowmoor"


def test_ask_streams_over_sse_and_a_disconnecting_client_does_not_stop_the_run(served):
    run = httpx.post(f"{served.url}/api/ask", json={"topic": QUESTION}).json()
    events = list(sse_events(served.url + run["events"]))
    assert events[-1][0] == "result" and any(name == "progress" for name, _ in events)
    report = events[-1][1]["report"]
    assert report["citations"] and all(c["page"] >= 1 and c["block_ids"] for c in report["citations"])
    # A client that reads one event and goes away: the run goes on to its report.
    run = httpx.post(f"{served.url}/api/report", json={"topic": "green roof stormwater retention and costs"}).json()
    with httpx.stream("GET", served.url + run["events"], timeout=60) as response:
        next(response.iter_lines())
    deadline = time.monotonic() + 120
    while httpx.get(f"{served.url}/api/jobs/{run['job']['job_id']}").json()["state"] in ("queued", "running"):
        assert time.monotonic() < deadline
        time.sleep(0.2)
    assert httpx.get(f"{served.url}/api/threads/{run['thread_id']}").json()["citations"]


def test_a_langgraph_sdk_client_runs_the_research_graph_on_the_served_library(served):
    from langgraph_sdk import get_client

    async def research() -> dict:
        client = get_client(url=served.url)
        assistants = await client.assistants.search(graph_id="research")
        assert assistants, "the research graph is not served"
        thread = await client.threads.create()
        nodes = []
        async for part in client.runs.stream(
            thread["thread_id"],
            "research",
            input={"topic": QUESTION, "single_question": True},
            context={"k": 4, "max_retries": 0},
            stream_mode="updates",
        ):
            if part.event == "updates":
                nodes.extend(part.data)
        state = await client.threads.get_state(thread["thread_id"])
        return {"nodes": nodes, "report": state["values"]["report"], "thread_id": thread["thread_id"]}

    result = asyncio.run(research())
    assert result["nodes"][0] == "plan" and "resolve_citations" in result["nodes"] and result["nodes"][-1] == "finalize"
    report = result["report"]
    cited = {c["resolution"]["doc_id"] for c in report["citations"]}
    served_docs = {d["doc_id"] for d in httpx.get(f"{served.url}/api/documents").json()}
    assert cited and cited <= served_docs  # the same library the REST API serves
    # One thread history: the run is a thread of the library's checkpoints like the CLI's and the chat's.
    listed = {r["thread_id"] for c in httpx.get(f"{served.url}/api/threads").json() for r in c["runs"]}
    assert result["thread_id"] in listed
    fetched = httpx.get(f"{served.url}/api/threads/{result['thread_id']}").json()
    assert [c["number"] for c in fetched["citations"]] == [c["number"] for c in report["citations"]]


def test_studio_reaches_the_langgraph_api_only_and_pages_without_an_origin_change_nothing(served):
    studio = {"Origin": "https://smith.langchain.com"}
    preflight = {"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"}
    langgraph = httpx.post(f"{served.url}/assistants/search", json={}, headers=studio)
    assert langgraph.status_code == 200 and langgraph.headers["access-control-allow-origin"] == studio["Origin"]
    assert httpx.options(f"{served.url}/assistants/search", headers={**studio, **preflight}).status_code == 200
    nowhere = {"paths": [str(served.data_dir / "no-such-folder")]}  # refused by its origin before its path
    for headers in (studio, {"Origin": "null"}):
        refused = httpx.post(f"{served.url}/api/ingest", json=nowhere, headers=headers)
        assert refused.status_code == 403 and "access-control-allow-origin" not in refused.headers
    cors = httpx.options(f"{served.url}/api/ingest", headers={**studio, **preflight})
    assert "access-control-allow-origin" not in cors.headers  # the browser does not even send it
    upload = httpx.post(
        f"{served.url}/chat/gradio_api/upload", files={"files": ("x.md", b"# X")}, headers={"Origin": "null"}
    )
    assert upload.status_code == 403


def test_a_second_service_on_the_same_data_directory_is_refused(served, models_dir):
    # Refused before anything is opened or started: the command's words, in this process.
    second = run_prp_here(["serve", "--port", str(free_port())], served.env)
    assert second.returncode == 2 and "already serves" in second.stderr


def test_beyond_loopback_a_token_is_required(tmp_path, models_dir, copy_sample):
    copy_sample(tmp_path / "lan", DOCS[:1])
    env = prp_env(tmp_path / "lan", models_dir)
    # Refused before anything is opened or started: the command's words, in this process.
    refused = run_prp_here(["serve", "--host", "0.0.0.0", "--port", str(free_port())], env)
    assert refused.returncode == 2 and "PRP_API_TOKEN" in refused.stderr
    process, url, env = start(tmp_path / "lan", models_dir, "--host", "0.0.0.0", PRP_API_TOKEN="lan-t0ken-123")
    try:
        assert httpx.get(f"{url}/api/health").status_code == 401
        assert httpx.get(f"{url}/chat/", headers={"Accept": "text/html"}).status_code == 303
        assert httpx.post(f"{url}/assistants/search", json={}).status_code == 401  # the LangGraph API too
        assert httpx.get(f"{url}/api/health", headers={"Authorization": "Bearer lan-t0ken-123"}).status_code == 200
        # The CLI on this machine finds the service and its token in the data directory.
        cli_env = {k: v for k, v in env.items() if k != "PRP_API_TOKEN"}
        docs = run_prp_here(["docs"], cli_env)
        assert docs.returncode == 0 and "1 documents" in docs.stdout
    finally:
        stop(process)


def test_after_kill_9_the_next_start_replaces_the_stale_record_and_ingests_the_uploads_left_waiting(
    tmp_path, models_dir, copy_sample
):
    data_dir = copy_sample(tmp_path / "killed", DOCS[:1])
    folder = tmp_path / "many"
    shutil.copytree(SAMPLE_DOCS, folder)
    uploads = {
        "apiary.md": "# Rooftop Apiaries in Lowmoor\n\nEach rooftop hive produced 14.5 kg of honey in 2023.\n",
        "moss.md": "# Moss Walls in Eastgate\n\nThe moss wall cut the street noise by 4 dB.\n",
    }
    process, url, _ = start(data_dir, models_dir)
    try:
        # A long ingest holds the one writer, so the uploads are stored and queue behind it...
        assert httpx.post(f"{url}/api/ingest", json={"paths": [str(folder)]}).status_code == 202
        for name, text in uploads.items():
            assert httpx.put(f"{url}/api/uploads/{name}", content=text.encode()).status_code == 202
    finally:
        process.kill()  # ...when the service is killed: kill -9, the process alone
        process.wait()
        process.stdout.close()  # not read to the end
    stale = json.loads((data_dir / "service.json").read_text())
    assert stale["pid"] == process.pid
    held = {Path(d.path).name for d in Registry(data_dir / "registry.sqlite").documents()}
    assert set(uploads) - held, "the uploads were ingested before the kill: nothing to test"
    try:  # (its parse workers died with it: ``corpus.worker_lifetime``)
        restarted, url, _ = start(data_dir, models_dir)
        try:
            assert json.loads((data_dir / "service.json").read_text())["pid"] == restarted.pid
            (job,) = httpx.get(f"{url}/api/jobs", params={"kind": "ingest"}).json()
            assert "left unindexed" in job["title"]
            events = sse_events(f"{url}/api/jobs/{job['job_id']}/events")
            assert [data for name, data in events if name == "result"][0]["job"]["state"] == "done"
            titles = {d["title"] for d in httpx.get(f"{url}/api/documents").json()}
            assert {"Rooftop Apiaries in Lowmoor", "Moss Walls in Eastgate"} <= titles
            with RemotePortal(url) as portal, pytest.raises(JobFinishedError, match="already finished"):
                portal.cancel(job["job_id"])  # the CLI's portal gets the core's error, not a bare 409
        finally:
            out = stop(restarted)
    finally:
        kill_group(process)
    assert "Traceback" not in out, out[-3000:]
    assert "left unindexed by the last run" in out


def test_a_record_left_by_a_dead_process_counts_as_no_service(make_settings):
    settings = make_settings()
    settings.storage.data_dir.mkdir(parents=True)
    url = "http://127.0.0.1:8400"
    zombie = subprocess.Popen(["true"])
    deadline = time.monotonic() + 10
    while Path(f"/proc/{zombie.pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    try:
        for pid in (zombie.pid, os.getpid()):  # dead, not reaped; this process (its pid used again)
            settings.storage.service_file.write_text(
                ServiceRecord(url=url, pid=pid, data_dir="x", started_at="t").model_dump_json()
            )
            assert discovery.running(settings) is None, pid
        live = subprocess.Popen(["sleep", "30"])
        try:
            settings.storage.service_file.write_text(
                ServiceRecord(url=url, pid=live.pid, data_dir="x", started_at="t").model_dump_json()
            )
            assert discovery.running(settings).pid == live.pid
        finally:
            live.kill()
            live.wait()
    finally:
        zombie.wait()
