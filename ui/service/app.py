"""The service's web app: the REST API under ``/api``, the research chat under ``/chat`` (built once
the app has started: ``ui.service.chat_mount``), the MCP server at ``/mcp`` (streamable HTTP), a
sign-in page when a token is set, all behind one ``AccessGuard``, over one ``LocalPortal``. LangGraph's server adds its own API (the ``research``
graph, for Studio and ``langgraph_sdk``) to this app when it loads it (``ui.service.served``); tests
use it alone with FastAPI's test client."""

from __future__ import annotations

import sys
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext

from fastapi import FastAPI
from fastapi.responses import RedirectResponse, Response
from starlette.routing import Route

from ui.api.routes import API_PATH, add_api
from ui.api.security import LOGIN_PATH, STORE_PATH, AccessGuard
from ui.chat.assets import FAVICON_SVG
from ui.core import discovery
from ui.core.folder_watch import FolderWatch
from ui.core.local import LocalPortal
from ui.service.body_limit import BodyLimit
from ui.service.chat_mount import PATH as CHAT_PATH
from ui.service.chat_mount import ChatMount
from ui.service.mcp_mount import PATH as MCP_PATH
from ui.service.mcp_mount import McpMount
from ui.service.run_bounds import RunBounds
from ui.service.store_quota import StoreQuota

API_TITLE = "prp research service"


def create_app(
    portal: LocalPortal, token: str | None = None, *, url: str | None = None, chat: bool = True, watch: bool = False
) -> FastAPI:
    """``token``: required on every request (else only loopback clients, by loopback names, are
    served). ``url``: where the app is served; given, the app publishes it for the CLI
    (``ui.core.discovery``) while it runs. ``chat=False`` leaves the Gradio chat out.

    As it starts, the app ingests the uploads a killed service left unindexed (an ingest job like
    any other, in the jobs list and the chat's banner). ``watch``: while it runs, the folders the
    library was ingested from are watched and what changes in them synced (``FolderWatch``)."""

    chat_mount = ChatMount(portal) if chat else None
    mcp_mount = McpMount(portal)
    app = FastAPI(
        title=API_TITLE,
        version="1",
        summary="Cited research over your own documents: search, ask, report, threads, exports.",
        docs_url="/api/docs",
        redoc_url=None,
        openapi_url="/api/openapi.json",
        lifespan=_lifespan(portal, token, url, watch, chat_mount, mcp_mount),
    )
    add_api(app, portal)
    _add_site_routes(app, chat_mount, mcp_mount)
    _add_middleware(app, portal, token)
    return app


def _lifespan(
    portal: LocalPortal,
    token: str | None,
    url: str | None,
    watch: bool,
    chat_mount: ChatMount | None,
    mcp_mount: McpMount,
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """What the app does as it starts (publishes its address, ingests stray uploads, watches the
    folders) and as it stops (undoes those, closes the portal), serving the chat and MCP between."""

    @asynccontextmanager
    async def lifespan(_app: FastAPI):
        if url:
            discovery.publish(portal.settings, url, token)
        stray = portal.ingest_stray_uploads()
        if stray is not None:
            print(f"prp serve: {stray.title} (job {stray.id})", file=sys.stderr, flush=True)
        watcher = FolderWatch(portal) if watch else None
        if watcher:
            watcher.start()
            roots = len(portal.library.roots.all())
            print(f"prp serve: watching the library's {roots} folder(s) and file(s)", file=sys.stderr, flush=True)
        try:
            async with mcp_mount.serving(), chat_mount.serving() if chat_mount else nullcontext():
                yield
        finally:
            if watcher:
                watcher.stop()  # before the portal closes: no sync is started on a closing library
            if url:
                discovery.withdraw(portal.settings)
            portal.close()  # running jobs stop at their next step; research runs keep their checkpoints

    return lifespan


def _add_site_routes(app: FastAPI, chat_mount: ChatMount | None, mcp_mount: McpMount) -> None:
    """The site's own routes beside the API: the home page, the icon, MCP and the chat."""

    @app.get("/", include_in_schema=False)
    def home() -> RedirectResponse:
        return RedirectResponse(f"{CHAT_PATH}/" if chat_mount else "/api/docs")

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        return Response(FAVICON_SVG, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})

    # One endpoint for the protocol's POST, GET and DELETE, as the SDK's own app has it.
    app.router.routes.append(Route(MCP_PATH, endpoint=mcp_mount))
    if chat_mount:
        # Gradio links its manifest at the site's root even when mounted under a path.
        @app.get("/manifest.json", include_in_schema=False)
        def manifest() -> RedirectResponse:
            return RedirectResponse(f"{CHAT_PATH}/manifest.json")

        app.mount(CHAT_PATH, chat_mount)


def _add_middleware(app: FastAPI, portal: LocalPortal, token: str | None) -> None:
    limits = portal.settings.service
    # Inside the guard (the last added is the outermost): an unknown caller's body is not read.
    app.add_middleware(StoreQuota, max_items=limits.store_max_items, max_mb=limits.store_max_mb)
    # The LangGraph API's runs within /api's limits; a goto only on a thread with a research under way.
    app.add_middleware(RunBounds, thread_started=lambda thread_id: bool(portal.runs.state(thread_id).get("topic")))
    # Uploads have their own limit (PRP_UPLOAD_MAX_MB), the chat's included.
    app.add_middleware(
        BodyLimit, limit_kb=limits.request_max_kb, paths=(API_PATH, MCP_PATH), exempt=(f"{API_PATH}/uploads",)
    )
    # Studio's origin is allowed on the LangGraph API only, never on these routes of the service's own,
    # and there it may read the store but not write to it.
    app.add_middleware(
        AccessGuard,
        token=token,
        own_paths=(API_PATH, CHAT_PATH, LOGIN_PATH, MCP_PATH),
        origin_read_only=(STORE_PATH,),
    )
