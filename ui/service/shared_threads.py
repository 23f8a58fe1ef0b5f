"""Threads another worker's LangGraph API ran, served by this worker's LangGraph API too.

Workers sharing one database (docs/deployment.md) share the checkpoints, but LangGraph's server keeps
its table of threads in the process: a Studio or ``langgraph_sdk`` thread run on one worker was
listed and continued by every worker's REST API and chat, while the other workers' LangGraph API
answered 404 "Thread ... not found" for its state and history (a client that a proxy sends to another
worker, or whose worker was restarted, lost its threads). This ASGI middleware, on a request for a
thread (``/threads/<uuid>`` and below), first tells this server of a thread that a LangGraph API ran
(its checkpoints say on which graph), through the server's own ``POST /threads`` with
``if_exists: do_nothing``: the server then reads its state from the shared checkpoints as for one of
its own. A thread is looked up once; one with no such checkpoint yet (a thread just made here, before
its run) is looked up again on its next request.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import anyio
from starlette.types import ASGIApp, Message, Receive, Scope, Send

_THREAD = re.compile(r"^/threads/(?P<id>[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12})(?:/|$)")
# Headers of the request that describe its body: the request made here has its own.
_BODY_HEADERS = frozenset({b"content-length", b"content-type", b"transfer-encoding"})


class SharedThreads:
    """ASGI middleware: see the module's docstring. ``served_graph(thread_id)``: the graph a LangGraph
    API server ran the thread on, from the shared checkpoints; None for any other thread."""

    def __init__(self, app: ASGIApp, served_graph: Callable[[str], str | None]):
        self.app = app
        self.served_graph = served_graph
        self._known: set[str] = set()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        thread = _THREAD.match(scope.get("path", "")) if scope["type"] == "http" else None
        if thread is not None and thread["id"] not in self._known:
            graph = await anyio.to_thread.run_sync(self.served_graph, thread["id"])
            if graph is not None and await self._register(scope, thread["id"], graph):
                self._known.add(thread["id"])
        await self.app(scope, receive, send)

    async def _register(self, scope: Scope, thread_id: str, graph: str) -> bool:
        """``POST /threads`` for ``thread_id`` on the server below, as the request's client (its
        credentials kept); whether the server has the thread now."""
        body = json.dumps({"thread_id": thread_id, "metadata": {"graph_id": graph}, "if_exists": "do_nothing"})
        headers = [(k, v) for k, v in scope["headers"] if k.lower() not in _BODY_HEADERS]
        headers += [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        request = {**scope, "method": "POST", "path": "/threads", "raw_path": b"/threads", "query_string": b""}
        status, sent, answered = 0, False, anyio.Event()

        async def receive() -> Message:
            nonlocal sent
            if sent:  # the body was read: what follows it is the end, once the answer is whole
                await answered.wait()
                return {"type": "http.disconnect"}
            sent = True
            return {"type": "http.request", "body": body.encode(), "more_body": False}

        async def send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body" and not message.get("more_body"):
                answered.set()

        await self.app({**request, "headers": headers}, receive, send)
        return 200 <= status < 300
