"""``prp mcp``: the library as an MCP server on stdio, for the assistants that launch one (Claude
Desktop, Claude Code, Cursor). It works through the ``prp serve`` serving the library when one runs,
otherwise on the library opened in this process, as every command does (``ui.core.connect``).

The client starts by listing the tools, so that is answered first, and the library opens on a thread
afterwards (the core, the index and the embedding model load then); a call that comes sooner waits for it.
Standard output is the protocol's alone: whatever else writes to it in this process writes to
standard error instead.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
from contextlib import ExitStack
from io import TextIOWrapper
from typing import TYPE_CHECKING

import anyio

from config import Settings

if TYPE_CHECKING:
    from ui.core.portal import Portal


class OpenOnce:
    """The portal, opened at the first call (or by ``warm``, ahead of it) and closed with ``close``."""

    def __init__(self, settings: Settings):
        self._settings = settings
        self._lock = threading.Lock()
        self._opened = ExitStack()
        self._portal: Portal | None = None

    def __call__(self) -> Portal:
        with self._lock:
            if self._portal is None:
                from ui.core.connect import open_portal

                # Background jobs, as a service runs them: calls come and go on threads of their own.
                self._portal = self._opened.enter_context(open_portal(self._settings, foreground=False))
            return self._portal

    def warm(self) -> None:
        """Open ahead of the first call; a failure is told to that call (and each one after)."""
        try:
            self()
        except Exception as exc:  # noqa: BLE001 - reported again, in words, to the call that needs the library
            print(f"prp mcp: the library could not be opened yet: {exc}", file=sys.stderr, flush=True)

    def close(self) -> None:
        with self._lock:
            self._opened.close()


def run(settings: Settings, args: argparse.Namespace) -> int:
    protocol = anyio.wrap_file(TextIOWrapper(os.fdopen(os.dup(sys.stdout.fileno()), "wb"), encoding="utf-8"))
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdout = sys.stderr
    portal = OpenOnce(settings)
    try:
        anyio.run(_serve, portal, args.allow_ingest, settings.service.ingest_max_paths, protocol)
    except KeyboardInterrupt:
        pass
    finally:
        portal.close()
    return 0


async def _serve(portal: OpenOnce, allow_ingest: bool, max_paths: int, protocol: anyio.AsyncFile[str]) -> None:
    from mcp.server.stdio import stdio_server

    from ui.mcp.server import build_server

    server = build_server(portal, allow_ingest=allow_ingest, ingest_max_paths=max_paths, warm=portal.warm)
    async with stdio_server(stdout=protocol) as (read, write):
        # FastMCP's own ``run_stdio_async`` writes to sys.stdout, which is standard error here.
        low_level = server._mcp_server
        await low_level.run(read, write, low_level.create_initialization_options())
