"""Who may talk to the service: one ASGI guard in front of every route — the REST API, the chat and
its uploads, and the LangGraph API alike.

- **Loopback.** Without a token only clients on this machine are served.
- **Token.** With ``PRP_API_TOKEN`` set (required to listen beyond loopback) every request carries it:
  ``Authorization: Bearer <token>`` or ``X-PRP-Token: <token>`` from programs; a browser signs in once
  at ``/login`` and gets it as an HttpOnly, SameSite=Strict cookie, which the chat's own requests
  (including its websocket and uploads) then carry.
- **Other websites.** A page on another site can make your browser send requests to a loopback
  port. Requests whose ``Origin`` is neither this service nor an allowed origin (LangGraph Studio's)
  are refused, and without a token the ``Host`` must be a loopback name, which defeats DNS rebinding.
  Studio's origin is allowed on the LangGraph API only, not on the service's own routes (the REST
  API, the chat): Studio needs nothing else, and a page there could otherwise ingest or delete. On
  the LangGraph API's store it may read and search but not write (``PUT``/``DELETE``): a page there
  could otherwise fill it.
- **Opaque origins.** Sandboxed iframes and ``file://`` pages send ``Origin: null``, which names no
  site to check: such a request may read (CORS keeps the answer from the page) but not change
  anything, so a state-changing method or a websocket with ``Origin: null`` is refused.
"""

from __future__ import annotations

import hmac
import html
import ipaddress
import json
from http.cookies import SimpleCookie
from urllib.parse import parse_qs, urlsplit

from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

LOOPBACK_NAMES = {"localhost", "127.0.0.1", "::1"}
TOKEN_COOKIE = "prp_token"
TOKEN_HEADER = "x-prp-token"
#: Where LangGraph Studio runs: it calls the LangGraph API of a local server from the browser.
STUDIO_ORIGINS = ("https://smith.langchain.com",)
LOGIN_PATH = "/login"
#: Methods that only read: every other method (and a websocket) may change the library.
READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: The methods that write to the LangGraph API's store (its POSTs search it).
STORE_WRITES = frozenset({"PUT", "PATCH", "DELETE"})
#: The LangGraph API's store (``/store/items``, ``/store/namespaces``).
STORE_PATH = "/store"


def is_loopback_host(host: str) -> bool:
    host = host.strip("[]")
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def is_loopback_client(request: Request) -> bool:
    return request.client is not None and is_loopback_host(request.client.host)


def _host_name(host_header: str) -> str:
    """``example.org:8400`` -> ``example.org``; ``[::1]:8400`` -> ``::1``."""
    return urlsplit(f"//{host_header}").hostname or ""


def _under(path: str, prefixes: tuple[str, ...]) -> bool:
    return path == "/" or any(path == p or path.startswith(f"{p}/") for p in prefixes)


class AccessGuard:
    """ASGI middleware checking origin, host and token on every HTTP and websocket request.

    ``own_paths``: the prefixes of the service's own routes (``/`` is always one), where only the
    service's own origin is allowed; ``allowed_origins`` apply to every other route, the LangGraph
    API that LangGraph's server adds beside them, except writes (``STORE_WRITES``) under
    ``origin_read_only``."""

    def __init__(
        self,
        app: ASGIApp,
        token: str | None,
        own_paths: tuple[str, ...],
        allowed_origins: tuple[str, ...] = STUDIO_ORIGINS,
        origin_read_only: tuple[str, ...] = (),
    ):
        self.app = app
        self.token = token or None
        self.own_paths = own_paths
        self.allowed_origins = set(allowed_origins)
        self.origin_read_only = origin_read_only

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "")
        client = scope.get("client")
        if self.token is None and not (
            is_loopback_host(_host_name(host)) and (client is None or is_loopback_host(client[0]))
        ):
            await _refuse(scope, send, 403, "without PRP_API_TOKEN this service serves this machine only")
            return
        refusal = self._origin_refusal(scope, headers.get("origin"), host)
        if refusal:
            await _refuse(scope, send, 403, refusal)
            return
        if self.token is None:
            await self.app(scope, receive, send)
            return
        if scope["type"] == "http" and scope["path"] == LOGIN_PATH:
            await self._login(scope, receive, send)
            return
        if self._presented(headers):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "http" and scope["method"] == "GET" and "text/html" in headers.get("accept", ""):
            await _send(send, 303, b"", [(b"location", LOGIN_PATH.encode())])  # a browser: sign in first
            return
        await _refuse(scope, send, 401, f"an API token is required: Authorization: Bearer <token> or {TOKEN_HEADER}")

    def _origin_refusal(self, scope: Scope, origin: str | None, host: str) -> str | None:
        """Why a request from this ``Origin`` is refused, or ``None`` (no origin: not a browser page's)."""
        if not origin:
            return None
        if origin == "null":
            if scope["type"] == "websocket" or scope["method"] not in READ_METHODS:
                return "requests that change anything are not accepted from pages without an origin (Origin: null)"
            return None
        if urlsplit(origin).netloc == host:
            return None
        if origin in self.allowed_origins and not _under(scope["path"], self.own_paths):
            if scope.get("method") in STORE_WRITES and _under(scope["path"], self.origin_read_only):
                return f"requests from {origin} may read {scope['path']} but not write to it"
            return None
        return f"requests from {origin} are not allowed here"

    def _presented(self, headers: dict[str, str]) -> bool:
        auth = headers.get("authorization", "")
        candidates = [
            auth[7:] if auth.lower().startswith("bearer ") else "",
            headers.get(TOKEN_HEADER, ""),
        ]
        cookie = SimpleCookie()
        try:
            cookie.load(headers.get("cookie", ""))
        except Exception:  # a malformed cookie header is simply no token
            pass
        if TOKEN_COOKIE in cookie:
            candidates.append(cookie[TOKEN_COOKIE].value)
        assert self.token is not None
        return any(c and hmac.compare_digest(c.encode(), self.token.encode()) for c in candidates)

    async def _login(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["method"] != "POST":
            await _send(send, 200, _login_page(""), [(b"content-type", b"text/html; charset=utf-8")])
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body") or len(body) > 8192:
                break
        given = parse_qs(body.decode("utf-8", "replace")).get("token", [""])[0]
        if not hmac.compare_digest(given.encode(), self.token.encode()):  # type: ignore[union-attr]
            await _send(send, 401, _login_page("Wrong token."), [(b"content-type", b"text/html; charset=utf-8")])
            return
        cookie = f"{TOKEN_COOKIE}={given}; HttpOnly; SameSite=Strict; Path=/"
        await _send(send, 303, b"", [(b"location", b"/chat/"), (b"set-cookie", cookie.encode())])


def _login_page(message: str) -> bytes:
    note = f'<p style="color:#b00">{html.escape(message)}</p>' if message else ""
    return (
        "<!doctype html><title>prp \u00b7 sign in</title><body style='font-family:sans-serif;max-width:30em;margin:4em auto'>"
        "<h1>prp research service</h1><p>This service needs its API token (PRP_API_TOKEN).</p>"
        f"{note}<form method='post' action='{LOGIN_PATH}'><input type='password' name='token' autofocus "
        "style='width:100%;padding:.4em' aria-label='API token'><p><button type='submit'>Sign in</button></p></form>"
    ).encode()


async def _refuse(scope: Scope, send: Send, status: int, detail: str) -> None:
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008, "reason": detail[:120]})
        return
    await _send(send, status, json.dumps({"detail": detail}).encode(), [(b"content-type", b"application/json")])


async def _send(send: Send, status: int, body: bytes, headers: list[tuple[bytes, bytes]]) -> None:
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
