"""Bounds on a request's line and headers, which the server reads before any of the app's code runs.

uvicorn's ``httptools`` protocol (the one it picks) took 1 MB of headers and waited for them forever:
a client that connects and sends a byte now and then holds a connection and its buffer as long as it
likes. ``bounded_protocol`` is that protocol with two bounds:

- **size**: more than ``PRP_HEADER_MAX_KB`` read while the line and headers are incomplete: 431 and
  the connection closed (the parser holds at most that and one read of the socket);
- **time**: the line and headers not complete ``PRP_HEADER_TIMEOUT`` seconds after the connection
  was made or the request's first byte came: 408 and the connection closed. Idle kept-alive
  connections close on uvicorn's own keep-alive timeout; bodies and answers are not timed here.

LangGraph's ``run_server`` takes ``http`` for its own configuration, so uvicorn's ``http`` (the
protocol class) cannot be passed through it: ``serving_with`` makes the protocol uvicorn's ``auto``
choice while the server runs, and restores uvicorn's afterwards.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from contextlib import contextmanager

from uvicorn import config as uvicorn_config
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

_REASONS = {408: b"Request Timeout", 431: b"Request Header Fields Too Large"}


class BoundedHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with the bounds above (``bounded_protocol`` sets them)."""

    max_header_kb = 64
    header_timeout = 15.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._head_bytes = 0
        self._in_head = True
        self._refused = False
        self._head_timer: asyncio.TimerHandle | None = None
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return
        super().data_received(data)
        if not self._in_head or self.transport.is_closing():
            return
        # Headers still incomplete: what was read so far counts (the parser holds it).
        self._head_bytes += len(data)
        if self._head_bytes > self.max_header_kb * 1024:
            self._too_large()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if not self._in_head:  # the next request on a kept-alive connection
            self._in_head = True
            self._head_bytes = 0
            self._arm()

    def on_headers_complete(self) -> None:
        self._in_head = False
        self._disarm()
        # Headers complete in one read are measured as parsed: the request line and each header's line.
        if len(self.url) + sum(len(name) + len(value) + 4 for name, value in self.headers) > self.max_header_kb * 1024:
            self._too_large()  # no request cycle starts: the app never sees it
            return
        super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        if not self._refused:
            super().on_body(body)

    def on_message_complete(self) -> None:
        if not self._refused:
            super().on_message_complete()

    def _too_large(self) -> None:
        self._refuse(
            431, f"the request's line and headers are over {self.max_header_kb} KB, the limit (PRP_HEADER_MAX_KB)"
        )

    def _arm(self) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(self.header_timeout, self._timed_out)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _timed_out(self) -> None:
        self._head_timer = None
        if not self._in_head or self.transport.is_closing():
            return
        if self.cycle is not None and not self.cycle.response_complete:
            self._arm()  # a pipelined request waits for the answer before it: its turn comes
            return
        self._refuse(
            408, f"the request's line and headers took over {self.header_timeout:g} s, the limit (PRP_HEADER_TIMEOUT)"
        )

    def _refuse(self, status: int, detail: str) -> None:
        self._refused = True
        self._disarm()
        body = json.dumps({"detail": detail}).encode()
        head = [
            b"HTTP/1.1 %d %s\r\n" % (status, _REASONS[status]),
            b"content-type: application/json\r\n",
            b"content-length: %d\r\n" % len(body),
            b"connection: close\r\n\r\n",
        ]
        self.transport.write(b"".join(head) + body)
        self.transport.close()


def bounded_protocol(max_header_kb: int, header_timeout: float) -> type[asyncio.Protocol]:
    """``BoundedHttpProtocol`` with these bounds."""
    bounds = {"max_header_kb": max_header_kb, "header_timeout": header_timeout}
    return type("BoundedHttpProtocol", (BoundedHttpProtocol,), bounds)


@contextmanager
def serving_with(protocol: type[asyncio.Protocol]) -> Iterator[None]:
    """uvicorn's ``http="auto"`` is ``protocol`` inside the block."""
    protocols: dict = uvicorn_config.HTTP_PROTOCOLS
    saved = protocols["auto"]
    protocols["auto"] = protocol  # uvicorn imports a string, and takes a class as it is
    try:
        yield
    finally:
        protocols["auto"] = saved
