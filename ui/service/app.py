"""The service's web app: the REST API under ``/api``, the research chat under ``/chat``, a sign-in
page when a token is set, all behind one ``AccessGuard``, over one ``LocalPortal``. LangGraph's server
adds its own API (the ``research`` graph, for Studio and ``langgraph_sdk``) to this app when it loads
it (``ui.service.served``); tests use it alone with FastAPI's test client."""

from __future__ import annotations

from contextlib import asynccontextmanager

import gradio as gr
from fastapi import FastAPI
from fastapi.responses import RedirectResponse

from ui.api.routes import add_api
from ui.api.security import AccessGuard
from ui.chat.app import build_app, gradio_environment, mount_options
from ui.core import discovery
from ui.core.local import LocalPortal

API_TITLE = "prp research service"


def create_app(portal: LocalPortal, token: str | None = None, *, url: str | None = None, chat: bool = True) -> FastAPI:
    """``token``: required on every request (else only loopback clients, by loopback names, are
    served). ``url``: where the app is served; given, the app publishes it for the CLI
    (``ui.core.discovery``) while it runs. ``chat=False`` leaves the Gradio chat out."""

    @asynccontextmanager
    async def lifespan(_app: FastAPI):
        if url:
            discovery.publish(portal.settings, url, token)
        try:
            yield
        finally:
            if url:
                discovery.withdraw(portal.settings)
            portal.close()  # running jobs stop at their next step; research runs keep their checkpoints

    app = FastAPI(
        title=API_TITLE,
        version="1",
        summary="Cited research over your own documents: search, ask, report, threads, exports.",
        docs_url="/api/docs",
        redoc_url=None,
        openapi_url="/api/openapi.json",
        lifespan=lifespan,
    )
    add_api(app, portal)

    @app.get("/", include_in_schema=False)
    def home() -> RedirectResponse:
        return RedirectResponse("/chat/" if chat else "/api/docs")

    if chat:
        gradio_environment(portal.settings)
        app = gr.mount_gradio_app(app, build_app(portal), path="/chat", **mount_options(portal.settings))
    app.add_middleware(AccessGuard, token=token)
    return app
