"""Limits on what one client may make ``prp serve`` read, wait for and keep (issue 48, group 9), against
one real served process with small limits: ``/api`` took a 50 MB body and 200,000 paths (22.7 s,
+100 MB), 1 MB of headers and waited for headers forever; the LangGraph API's store took 400 PUTs
(110 MB), from Studio's origin too; the LangGraph API ran ``single_question: "yes please"``, answered
``configurable.k=100000`` with 200 and the error inside, and a ``command.goto`` on a new thread left a
thread without a topic listed. Each is now refused with its status and the reason; what is within
the limits is still served, on a kept-alive connection too."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import httpx
import pytest
from mcp.server.fastmcp.exceptions import ToolError

from ui.api.security import STUDIO_ORIGINS
from ui.mcp.server import build_server

from ..served import start, stop

LIMITS = {
    "PRP_REQUEST_MAX_KB": "64",
    "PRP_INGEST_MAX_PATHS": "5",
    "PRP_HEADER_MAX_KB": "8",
    "PRP_HEADER_TIMEOUT": "1",
    "PRP_STORE_MAX_ITEMS": "3",
    "PRP_STORE_MAX_MB": "0.05",
}


@pytest.fixture(scope="module")
def url(tmp_path_factory, models_dir) -> Iterator[str]:
    """``prp serve`` on an empty library: every refusal here comes before the library is read."""
    process, url, _ = start(tmp_path_factory.mktemp("service-limits"), models_dir, **LIMITS)
    try:
        yield url
    finally:
        out = stop(process)
        assert "Traceback" not in out, out[-3000:]


def _raw(url: str, request: bytes, pause: float = 0.0) -> bytes:
    """What the service answers ``request`` sent as is (``pause`` s before the rest of it) on a socket."""
    host, port = urlsplit(url).hostname, urlsplit(url).port
    with socket.create_connection((host, port), timeout=10) as conn:
        first, rest = (request[:20], request[20:]) if pause else (request, b"")
        conn.sendall(first)
        if pause:
            time.sleep(pause)
            try:
                conn.sendall(rest)
            except OSError:
                pass  # closed already: its answer is what counts
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    return answer


@pytest.mark.timeout(120)
def test_bodies_paths_and_headers_are_bounded(url):
    with httpx.Client(base_url=url, timeout=30) as client:
        # A body over PRP_REQUEST_MAX_KB, declared or streamed: 413 with the reason.
        paths = [f"/tmp/{i:06d}/paper.pdf" for i in range(4000)]  # ~100 KB of JSON
        declared = client.post("/api/ingest", json={"paths": paths})
        assert declared.status_code == 413 and "PRP_REQUEST_MAX_KB" in declared.json()["detail"], declared.text
        streamed = client.post("/api/search", content=(b"x" * 8192 for _ in range(16)))  # chunked, no length
        assert streamed.status_code == 413, streamed.text
        # More paths than PRP_INGEST_MAX_PATHS in a small body: 422, naming the setting.
        many = client.post("/api/ingest", json={"paths": [f"/tmp/p{i}.md" for i in range(6)]})
        assert many.status_code == 422 and "PRP_INGEST_MAX_PATHS" in many.json()["detail"], many.text
        # Within the limits, on the same kept-alive connection: served.
        assert client.get("/api/health").status_code == 200
        assert client.post("/api/search", json={"query": "roofs"}).status_code == 200

    # Headers over PRP_HEADER_MAX_KB: 431, whole or still coming (refused before they end).
    big = b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + b"a" * 20_000 + b"\r\n\r\n"
    for request in (big, big[:-4]):
        answer = _raw(url, request)
        assert answer.startswith(b"HTTP/1.1 431") and b"PRP_HEADER_MAX_KB" in answer, answer[:300]
    # Headers not complete within PRP_HEADER_TIMEOUT (1 s here): 408 and the connection closed.
    started = time.monotonic()
    answer = _raw(url, b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", pause=2.5)
    assert answer.startswith(b"HTTP/1.1 408") and b"PRP_HEADER_TIMEOUT" in answer, answer[:300]
    assert time.monotonic() - started < 5
    # A connection that sends nothing is closed too.
    assert _raw(url, b"", pause=2.0).startswith(b"HTTP/1.1 408")
    # A request sent at once is served.
    assert _raw(url, b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").startswith(
        b"HTTP/1.1 200"
    )


@pytest.mark.timeout(120)
def test_the_store_has_a_quota_and_studio_only_reads_it(url):
    with httpx.Client(base_url=url, timeout=30) as client:
        studio = {"Origin": STUDIO_ORIGINS[0]}
        item = {"namespace": ["notes"], "key": "k0", "value": {"text": "green roofs"}}
        refused = client.put("/store/items", json=item, headers=studio)
        assert refused.status_code == 403 and "not write" in refused.json()["detail"], refused.text
        assert client.post("/store/items/search", json={"namespace_prefix": ["notes"]}, headers=studio).is_success

        for i in range(3):
            assert client.put("/store/items", json={**item, "key": f"k{i}"}).is_success
        assert client.put("/store/items", json={**item, "value": {"text": "replaced"}}).is_success  # no new item
        fourth = client.put("/store/items", json={**item, "key": "k3"})
        assert fourth.status_code == 413 and "PRP_STORE_MAX_ITEMS" in fourth.json()["detail"], fourth.text
        large = client.put("/store/items", json={**item, "value": {"text": "x" * 60_000}})
        assert large.status_code == 413 and "PRP_STORE_MAX_MB" in large.json()["detail"], large.text
        assert client.request("DELETE", "/store/items", json={"namespace": ["notes"], "key": "k2"}).is_success
        assert client.put("/store/items", json={**item, "key": "k3"}).is_success  # room again
        held = client.post("/store/items/search", json={"namespace_prefix": ["notes"], "limit": 10}).json()["items"]
        assert sorted(i["key"] for i in held) == ["k0", "k1", "k3"]


@pytest.mark.timeout(120)
def test_langgraph_runs_are_validated_as_api_requests(url):
    with httpx.Client(base_url=url, timeout=60) as client:
        cases = {
            "a true or false that is neither": (
                {"input": {"topic": "roofs", "single_question": "yes please"}},
                "single_question",
            ),
            "options out of bounds in configurable": (
                {"input": {"topic": "roofs"}, "config": {"configurable": {"k": 100_000}}},
                "k:",
            ),
            "a goto with no thread": ({"command": {"goto": "plan"}}, "a new thread"),
        }
        for case, (body, words) in cases.items():
            refused = client.post("/runs/wait", json={"assistant_id": "research", **body})
            assert refused.status_code == 422, (case, refused.text[:300])
            assert words in refused.json()["detail"], (case, refused.json())
        thread_id = client.post("/threads", json={}).json()["thread_id"]
        goto = client.post(
            f"/threads/{thread_id}/runs/wait", json={"assistant_id": "research", "command": {"goto": "plan"}}
        )
        assert goto.status_code == 422 and thread_id in goto.json()["detail"], goto.text
        assigned = {"graph_id": "research", "config": {"configurable": {"k": 0}}}
        assert client.post("/assistants", json=assigned).status_code == 422
        # Nothing ran, nothing is listed.
        assert client.get(f"/threads/{thread_id}/runs").json() == []
        assert client.get("/api/threads").json() == []


def test_the_mcp_ingest_tool_takes_at_most_the_limit_of_paths():
    def unopened():
        raise AssertionError("the library is not opened for a refused call")

    server = build_server(unopened, allow_ingest=True, ingest_max_paths=5)
    paths = [f"/tmp/p{i}.md" for i in range(10_000)]
    with pytest.raises(ToolError, match="PRP_INGEST_MAX_PATHS"):
        asyncio.run(server.call_tool("ingest", {"paths": paths}))
