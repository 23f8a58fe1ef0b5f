"""Two ``prp serve`` workers on one PostgreSQL, as docs/deployment.md sets them up: each with its own
data directory and embedded index, the same ``PRP_DATABASE_URL``. Uploads sent to both at once are each
indexed once, in the shared registry; a research thread started on one worker is read and continued
on the other. Real processes, real PostgreSQL; the offline strategy answers (no LLM)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from corpus.database import PostgresDatabase
from corpus.embeddings import Embedder
from corpus.registry import Registry

from .served import start, stop

pytestmark = pytest.mark.postgres

TERMINAL = {"done", "failed", "cancelled"}
# Made-up notes, one subject each: the green roof pair answers the conversation below, the first on
# worker 1's index (even uploads go there), the second on worker 2's.
NOTES = {
    "note00.md": "# Lowmoor green roofs\n\nThe green roofs of Lowmoor retain 61% of the annual rainfall.",
    "note01.md": "# Green roof installation\n\nInstalling green roofs costs 120 euros per square metre.",
    **{
        f"note{i:02}.md": f"# Field note {i}\n\nObservation {i}: the {i}th heron waded past pier {i * 7}."
        for i in range(2, 20)
    },
}
QUESTION = "How much rainfall do green roofs retain?"
FOLLOW_UP = "and how much does it cost to install them?"


@contextlib.contextmanager
def two_workers(tmp_path: Path, models_dir: Path, database_url: str) -> Iterator[list[str]]:
    """Two services started side by side; both stopped with Ctrl-C in the end, whatever happened,
    and neither leaves a process behind (parse workers included: each runs in its own group)."""
    dirs = [tmp_path / "worker1", tmp_path / "worker2"]
    with ThreadPoolExecutor(2) as pool:
        starting = [pool.submit(start, d, models_dir, PRP_DATABASE_URL=database_url) for d in dirs]
    started = [f.result() for f in starting if f.exception() is None]
    try:
        for future in starting:
            future.result()  # the first that failed to start fails the test (after the others stop)
        yield [url for _, url, _ in started]
    finally:
        with ThreadPoolExecutor(2) as pool:  # side by side: each takes a few seconds to stop
            outputs = list(pool.map(_stop_cleanly, [process for process, _, _ in started]))
        for out in outputs:
            assert "Traceback" not in out, out[-3000:]


def _stop_cleanly(process: subprocess.Popen) -> str:
    """Ctrl-C, as a user stops it; then nothing of its process group may be left running."""
    try:
        return stop(process)
    finally:
        left = _group_alive(process.pid)
        if left:
            os.killpg(process.pid, signal.SIGKILL)
        assert not left, f"prp serve (pid {process.pid}) left processes behind"


def _group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True


def wait_for(url: str, job_id: str, timeout: float = 120) -> dict:
    deadline = time.monotonic() + timeout
    while (job := httpx.get(f"{url}/api/jobs/{job_id}").json())["state"] not in TERMINAL:
        assert time.monotonic() < deadline, job
        time.sleep(0.2)
    return job


def answer(response: httpx.Response) -> dict | list:
    assert response.status_code == 200, (response.request.url, response.status_code, response.text[:500])
    return response.json()


def upload(url: str, name: str) -> tuple[str, str, str]:
    """``PUT /api/uploads/{name}``, as ``curl -T`` sends it: the worker, its ingest job, where it stored the file."""
    response = httpx.put(f"{url}/api/uploads/{name}", content=NOTES[name].encode(), timeout=60)
    assert response.status_code == 202, response.text
    started = response.json()
    return url, started["job"]["job_id"], started["stored_as"]


def ask(url: str, topic: str, **more: str) -> dict:
    started = httpx.post(f"{url}/api/ask", json={"topic": topic, **more}).json()
    job = wait_for(url, started["job"]["job_id"])
    assert job["state"] == "done", job
    return started


def test_two_served_workers_share_one_library_and_its_threads(
    tmp_path: Path, models_dir: Path, embedder: Embedder, make_library, database_url: str
):
    embedder.embed_passages(["load the model into models_dir before the services start"])
    with two_workers(tmp_path, models_dir, database_url) as urls:
        names = sorted(NOTES)
        with ThreadPoolExecutor(len(names)) as pool:  # 20 uploads at once, alternating between the workers
            uploads = list(pool.map(upload, [urls[i % 2] for i in range(len(names))], names))
        finished = [wait_for(url, job_id) for url, job_id, _ in uploads]
        assert [j["state"] for j in finished] == ["done"] * len(names), finished

        # A thread run through the first worker's LangGraph API (as Studio or langgraph_sdk runs one)...
        thread = answer(httpx.post(f"{urls[0]}/threads", json={}))["thread_id"]
        run = {"assistant_id": "research", "input": {"topic": QUESTION, "single_question": True}}
        answer(httpx.post(f"{urls[0]}/threads/{thread}/runs/wait", json=run, timeout=120))
        # ...is the other's too: its LangGraph API gives the state and history, its REST API the report...
        states = [answer(httpx.get(f"{url}/threads/{thread}/state")) for url in urls]
        assert states[1]["values"]["report"] == states[0]["values"]["report"]
        assert answer(httpx.post(f"{urls[1]}/threads/{thread}/history", json={"limit": 2}))[0]["values"]["report"]
        listed = {r["thread_id"] for c in httpx.get(f"{urls[1]}/api/threads").json() for r in c["runs"]}
        there, here = (httpx.get(f"{url}/api/threads/{thread}").json() for url in (urls[1], urls[0]))
        assert thread in listed and there == here
        assert {c["title"] for c in there["citations"]} == {"Lowmoor green roofs"}
        # ...and it continues it: the follow-up is read against the first turn, answered from its own index.
        second = ask(urls[1], FOLLOW_UP, conversation=thread)
        assert second["thread_id"] == f"{thread}.2"
        report = httpx.get(f"{urls[0]}/api/threads/{second['thread_id']}").json()  # read back on the first
        assert report["asked"] == FOLLOW_UP and "green roofs" in report["topic"], report["topic"]
        assert {c["title"] for c in report["citations"]} == {"Green roof installation"}

    registry = Registry(PostgresDatabase(database_url))
    documents = registry.documents()
    titles = Counter(d.title for d in documents)
    assert set(titles.values()) == {1} and len(titles) == len(NOTES), titles
    # Each upload is the one document of its content, held where the worker that took it stored it.
    assert sorted(d.path for d in documents) == sorted(stored for _, _, stored in uploads)
    assert not registry.documents(status="pending")
    chunks = registry.counts()["chunks"]
    registry.database.close()
    points = [make_library(f"worker{n}", database_url=database_url).store.count() for n in (1, 2)]
    assert sum(points) == chunks and all(points), (points, chunks)
