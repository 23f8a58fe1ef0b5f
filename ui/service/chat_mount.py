"""The research chat under ``/chat``, built once the service has started.

Importing Gradio and building the chat is about a third of the service's start-up; the REST API, the
LangGraph API and the CLI through the service need none of it. So the chat is built in the background
as the service starts answering, and a request to ``/chat`` that comes sooner waits for it. The chat
is mounted, as Gradio mounts it (``gr.mount_gradio_app``), on an app of its own, whose lifespan (the
chat's queue) runs for as long as the service's.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import AsyncIterator
from concurrent.futures import Future
from contextlib import asynccontextmanager

import anyio
from fastapi import FastAPI
from fastapi.responses import JSONResponse
from starlette.types import Receive, Scope, Send

from ui.core.local import LocalPortal

PATH = "/chat"
log = logging.getLogger(__name__)


class ChatMount:
    """An ASGI app for ``PATH`` that hands each request to the chat once it is built."""

    def __init__(self, portal: LocalPortal):
        self._portal = portal
        self._host: FastAPI | None = None
        self._failed: str | None = None
        self._settled: anyio.Event | None = None

    @asynccontextmanager
    async def serving(self) -> AsyncIterator[None]:
        """For the service's lifespan: the chat is built in the background meanwhile, and stops with it."""
        self._settled = anyio.Event()
        stop = anyio.Event()
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(self._run, stop)
            try:
                yield
            finally:
                if self._host is None:  # stopped before the chat was built: give the build up
                    tasks.cancel_scope.cancel()
                stop.set()

    async def _run(self, stop: anyio.Event) -> None:
        try:
            host = await asyncio.wrap_future(self._build_in_background())
            async with host.router.lifespan_context(host):
                self._host = host
                self._settled.set()
                await stop.wait()
        except Exception as exc:  # the API goes on without the chat; the chat says why
            log.exception("the research chat could not start")
            self._failed = f"the research chat could not start: {type(exc).__name__}: {exc}"
            self._settled.set()

    def _build_in_background(self) -> Future[FastAPI]:
        """The build, in a daemon thread: a service stopped before the chat is built exits at once,
        not when Gradio's import ends (some 7 s after start-up; a worker thread is waited for at exit)."""
        future: Future[FastAPI] = Future()
        future.set_running_or_notify_cancel()  # given up by a stop, it is still set without error

        def build() -> None:
            try:
                future.set_result(self._build())
            except BaseException as exc:  # told to ``_run``, which says why the chat is missing
                future.set_exception(exc)

        threading.Thread(target=build, name="prp chat build", daemon=True).start()
        return future

    def _build(self) -> FastAPI:
        try:
            return self._build_once()
        except SystemError as exc:
            # CPython 3.11's ast module is not thread-safe: building the chat while a research run in
            # another thread parses source (LangChain reads its functions' source) can raise "AST
            # constructor recursion depth mismatch". The race is transient; a second build meets none.
            log.warning("building the research chat again after %s", exc)
            return self._build_once()

    def _build_once(self) -> FastAPI:
        # Gradio is imported here, in the background, not with the service.
        import gradio as gr

        from ui.chat.app import build_app, gradio_environment, mount_options

        settings = self._portal.settings
        gradio_environment(settings)
        return gr.mount_gradio_app(FastAPI(), build_app(self._portal), path=PATH, **mount_options(settings))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self._settled.wait()  # set by ``serving``, which the service's lifespan enters
        if self._host is None:
            if scope["type"] == "http":
                await JSONResponse({"detail": self._failed}, status_code=503)(scope, receive, send)
            return
        # The chat's app routes by the whole path, from the root of the service.
        await self._host({**scope, "root_path": scope.get("app_root_path", "")}, receive, send)
