"""The MCP server (``ui.mcp.server``) at ``/mcp`` over streamable HTTP, for as long as the service runs.

The SDK's session manager runs once per instance, and an app's lifespan may run more than once (a
test client entering the app again): so each run of the service builds the server and its HTTP app
afresh, and requests go to the current one.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from ui.core.local import LocalPortal
from ui.mcp.server import build_server

#: LangGraph's server has an MCP endpoint of its own at this path (the graph as one tool);
#: ``ui.cli.serve`` turns it off (docs/mcp.md says why).
PATH = "/mcp"


class McpMount:
    """An ASGI app for ``PATH`` handing each request to the MCP server of the service's current run."""

    def __init__(self, portal: LocalPortal):
        self._portal = portal
        self._app: ASGIApp | None = None

    @asynccontextmanager
    async def serving(self) -> AsyncIterator[None]:
        """For the service's lifespan."""
        server = build_server(lambda: self._portal)
        server.settings.streamable_http_path = PATH  # the route the SDK's app answers: the whole path
        app = server.streamable_http_app()
        async with server.session_manager.run():
            self._app = app
            try:
                yield
            finally:
                self._app = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self._app is None:
            if scope["type"] == "http":
                await JSONResponse({"detail": "the MCP server is not running"}, status_code=503)(scope, receive, send)
            return
        await self._app(scope, receive, send)
