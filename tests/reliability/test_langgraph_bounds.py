"""Input bounds on the LangGraph API that ``prp serve`` serves (issue 34, item 4), against a real served
process: a 1 MB topic posted to ``/runs/wait`` used to be researched (17.8 MB answered) and kept as a
thread. Every route that starts a run or writes a thread's state now refuses what ``/api`` refuses — a
topic or follow-up over 4,000 characters, options out of their bounds — with 422 and a message, before
anything runs; no run, no thread state is left; a run within the bounds still runs."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from ui.core.query_limit import MAX_QUERY_CHARS

from ..served import start, stop

ONE_MB = "green roofs " * 87_382  # 1 MB of words
LONG = "x" * (MAX_QUERY_CHARS + 1)


@pytest.fixture(scope="module")
def url(tmp_path_factory, models_dir) -> Iterator[str]:
    """``prp serve`` on an empty library: a refusal happens before the library is read."""
    process, url, _ = start(tmp_path_factory.mktemp("langgraph-bounds"), models_dir)
    try:
        yield url
    finally:
        out = stop(process)
        assert "Traceback" not in out, out[-3000:]


def _runs(client: httpx.Client, thread_id: str) -> list:
    return client.get(f"/threads/{thread_id}/runs").json()


@pytest.mark.timeout(300)
def test_every_route_that_starts_a_run_refuses_what_api_refuses(url):
    with httpx.Client(base_url=url, timeout=120) as client:
        thread_id = client.post("/threads", json={}).json()["thread_id"]
        run_routes = ["/runs/wait", "/runs", "/runs/stream", "/runs/crons"] + [
            f"/threads/{thread_id}{r}" for r in ("/runs/wait", "/runs", "/runs/stream", "/runs/crons")
        ]
        bad_runs = {
            "a 1 MB topic": ({"topic": ONE_MB}, None, "over"),
            "a topic over the limit": ({"topic": LONG}, None, f"over the limit of {MAX_QUERY_CHARS:,}"),
            "a follow-up over the limit": ({"topic": "roofs", "asked": LONG}, None, "the question is"),
            "state that is the graph's own": ({"topic": "roofs", "plan": [{"id": "q1"}]}, None, "not plan"),
            "no topic": ({"single_question": True}, None, "needs a topic"),
            "k out of bounds": ({"topic": "roofs"}, {"k": 10_000}, "k:"),
            "an unknown search mode": ({"topic": "roofs"}, {"search_mode": "psychic"}, "search_mode"),
        }
        for route in run_routes:
            for case, (given, context, words) in bad_runs.items():
                body = {"assistant_id": "research", "input": given, "schedule": "0 0 * * *"}
                if context is not None:
                    body["context"] = context
                refused = client.post(route, json=body)
                assert refused.status_code == 422, (route, case, refused.text[:300])
                detail = refused.json()["detail"]
                assert words in detail and len(detail) < 500, (route, case, detail)  # said, not echoed
        batch = [
            {"assistant_id": "research", "input": {"topic": "roofs"}},
            {"assistant_id": "research", "input": {"topic": LONG}},
        ]
        assert client.post("/runs/batch", json=batch).status_code == 422
        command = {"assistant_id": "research", "command": {"update": {"topic": LONG}}}
        assert client.post(f"/threads/{thread_id}/runs/wait", json=command).status_code == 422
        # Writing a thread's state directly is bounded the same way.
        assert client.post(f"/threads/{thread_id}/state", json={"values": {"topic": LONG}}).status_code == 422
        supersteps = [{"updates": [{"values": {"topic": ONE_MB}, "as_node": "plan"}]}]
        assert client.post("/threads", json={"supersteps": supersteps}).status_code == 422
        assert client.post("/assistants", json={"graph_id": "research", "context": {"k": 0}}).status_code == 422

        # Nothing ran and nothing was kept.
        assert _runs(client, thread_id) == []
        assert client.get(f"/threads/{thread_id}/state").json()["values"] in ({}, None, [])
        assert client.get("/api/threads").json() == []


@pytest.mark.timeout(300)
def test_a_run_within_the_bounds_still_runs(url):
    with httpx.Client(base_url=url, timeout=240) as client:
        given = {"topic": "y" * MAX_QUERY_CHARS, "single_question": True}
        done = client.post("/runs/wait", json={"assistant_id": "research", "input": given, "context": {"k": 4}})
        assert done.status_code == 200, done.text[:500]
        assert done.json()["report"]["title"]
