"""A cap on the request bodies the service reads, before a route (or FastAPI's validation) holds them.

``/api`` took a 50 MB JSON body and 200,000 paths (22.7 s, +100 MB) before anything refused it: a
request to the service's own routes is a few paths, a question and its options, never a document
(documents are uploaded: ``PUT /api/uploads/{name}`` has its own cap, ``PRP_UPLOAD_MAX_MB``). This
ASGI middleware answers 413 with the reason as soon as a body is known to be larger than
``PRP_REQUEST_MAX_KB``: at once when its ``Content-Length`` says so, else when the bytes read pass it.
``read_body`` is the bounded read it shares with the LangGraph API's bounds (``ui.service.run_bounds``).
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: Methods whose requests carry no body worth reading first (a GET's event stream runs on unread).
_BODYLESS = frozenset({"GET", "HEAD", "OPTIONS"})


class BodyTooLarge(ValueError):
    """The body passed the limit it was read under."""


class ClientGone(ConnectionError):
    """The client disconnected before its body was whole."""


async def read_body(receive: Receive, limit: int) -> tuple[bytes, Receive]:
    """The whole body (``BodyTooLarge`` past ``limit`` bytes, having read no more than that and one
    chunk), and a ``receive`` that gives it again to the app."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise ClientGone("the client disconnected")
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise BodyTooLarge(f"over {limit} bytes")
        chunks.append(chunk)
        if not message.get("more_body"):
            break
    body = b"".join(chunks)
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if sent:
            return await receive()  # what follows the body: the client's disconnect
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return body, replay


class BodyLimit:
    """ASGI middleware: requests under ``paths`` (and not under ``exempt``) with a body over
    ``limit_kb`` kilobytes get 413 and ``{"detail": reason}``; the rest reach the app unchanged."""

    def __init__(self, app: ASGIApp, limit_kb: int, paths: tuple[str, ...], exempt: tuple[str, ...] = ()):
        self.app = app
        self.limit = limit_kb * 1024
        self.limit_kb = limit_kb
        self.paths = paths
        self.exempt = exempt

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or not _under(path, self.paths) or _under(path, self.exempt):
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > self.limit:
            await refuse(send, 413, self._reason())
            return
        if scope["method"] in _BODYLESS:
            await self.app(scope, receive, send)
            return
        try:
            _, replay = await read_body(receive, self.limit)
        except BodyTooLarge:
            await refuse(send, 413, self._reason())
            return
        except ClientGone:
            return  # nobody to answer
        await self.app(scope, replay, send)

    def _reason(self) -> str:
        return (
            f"the request body is over {self.limit_kb:,} KB, the service's limit (PRP_REQUEST_MAX_KB): name a "
            "folder rather than each of its files, and upload a document (PUT /api/uploads/{name}) rather than "
            "sending its text"
        )


def _under(path: str, prefixes: tuple[str, ...]) -> bool:
    return any(path == p or path.startswith(f"{p}/") for p in prefixes)


async def refuse(send: Send, status: int, detail: str) -> None:
    """A JSON ``{"detail": ...}`` answer with ``status``, the request unread."""
    body = json.dumps({"detail": detail}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
