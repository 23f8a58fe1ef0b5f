"""``prp serve``: one process that owns the library and serves the research chat, the REST API and
the LangGraph API (``ui.service``), on LangGraph's own server so Studio attaches to it as to
``langgraph dev``. ``prp ui`` is the same command.

The server is LangGraph's in-memory API server (``langgraph_api``, reached through
``ui.service.langgraph_server``), run in this process: it loads the
``research`` graph (``graph.studio``) and the service's app (``ui.service.served``) as modules, so
both share the one library ``graph.studio.served`` opens. What the server would otherwise reach out
for is switched off: no browser opened, no version check, no tunnel.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from config import STEPS, LLMSettings, Settings
from graph.studio import served
from strategies.llm.local_server import LocalLLMServer
from ui.api.security import STUDIO_ORIGINS, is_loopback_host
from ui.core import discovery
from ui.service import langgraph_server
from ui.service.http_protocol import bounded_protocol, serving_with

GRAPHS = {"research": "graph.studio:graph"}
CHECKPOINTER = {"path": "graph.studio.checkpointer"}
HTTP = {
    "app": "ui.service.served:app",
    # Browsers may call the API cross-origin from LangGraph Studio only (the guard refuses the rest).
    "cors": {"allow_origins": list(STUDIO_ORIGINS), "allow_methods": ["*"], "allow_headers": ["*"]},
    # /mcp is prp's MCP server (``ui.service.app``): LangGraph's own, the graph as one tool, is off.
    "disable_mcp": True,
}
#: Settings holding paths: made absolute before the server changes into the data directory.
PATH_VARIABLES = ("PRP_MODELS_DIR", "PRP_PDF_FONT", "PRP_LOCAL_MODEL", "PRP_SHARED_DIR")
#: The steps' own models (``PRP_LLM_PLANNING_MODEL``, ...): unset in local LLM mode, one model answers all.
STEP_MODEL_VARIABLES = tuple(str(LLMSettings.model_fields[f"{step}_model"].validation_alias) for step in STEPS)


def run(settings: Settings, args: argparse.Namespace) -> int:
    settings = settings.updated(
        storage={"data_dir": settings.storage.data_dir.resolve()},
        llm={"mode": args.llm} if args.llm else {},
        service={"watch_folders": True} if args.watch else {},
    )
    if not is_loopback_host(args.host) and not settings.service.api_token:
        print(
            f"prp serve: listening on {args.host} needs an API token: set PRP_API_TOKEN (a long random string; "
            "clients send it as 'Authorization: Bearer <token>', browsers sign in at /login)",
            file=sys.stderr,
        )
        return 2
    langgraph_server.entry_point()  # a langgraph-api that moved it fails here, before the library is opened
    existing = discovery.running(settings)
    if existing is not None:
        print(f"prp serve: {existing.url} (pid {existing.pid}) already serves {existing.data_dir}", file=sys.stderr)
        return 2
    if not _port_free(args.host, args.port):
        print(f"prp serve: port {args.port} on {args.host} is in use; choose another with --port", file=sys.stderr)
        return 2
    with ExitStack() as stack:
        env = _server_environment(settings, stack)
        local = settings.llm.mode == "local"
        stack.enter_context(_environment(env, without=["OPENAI_API_KEY", *STEP_MODEL_VARIABLES] if local else []))
        # What the server serves, opened here first (its app and its graph take it from ``served``):
        # an index another process holds, or a local-mode index to move, is dealt with in words and
        # with a progress bar before the server starts.
        served()
        # LangGraph's in-memory runtime keeps its threads in ./.langgraph_api: the data directory's.
        os.chdir(env["PRP_DATA_DIR"])
        token_note = "; token required" if settings.service.api_token else ""
        print(
            f"prp serve: {settings.describe_store()}; chat http://{_url_host(args.host)}:{args.port}/chat/, "
            f"API docs /api/docs, LangGraph API for Studio at the same address{token_note} (Ctrl-C stops it)",
            file=sys.stderr,
            flush=True,
        )
        service = settings.service
        with serving_with(bounded_protocol(service.header_max_kb, service.header_timeout)):
            langgraph_server.run(args.host, args.port, graphs=GRAPHS, http=HTTP, checkpointer=CHECKPOINTER)
    return 0


@contextmanager
def _environment(values: dict[str, str], without: list[str]) -> Iterator[None]:
    """The environment the server's modules read their ``Settings()`` from, while the server runs;
    the caller's is back afterwards (and if the server could not start)."""
    saved = dict(os.environ)
    os.environ.update(values)
    for name in without:  # the local model server takes no OpenAI key, and answers every step itself
        os.environ.pop(name, None)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def _server_environment(settings: Settings, stack: ExitStack) -> dict[str, str]:
    """What the server's modules read through ``Settings()``: this command's settings, paths made
    absolute, and in local LLM mode the local model server this command keeps running."""
    env = {
        "PRP_DATA_DIR": str(settings.storage.data_dir.resolve()),
        "PRP_WATCH": "true" if settings.service.watch_folders else "false",
        "GRADIO_ANALYTICS_ENABLED": "False",
        "LANGGRAPH_NO_VERSION_CHECK": "true",  # else the server asks PyPI for a newer langgraph-api
        # LangGraph's server logs every request and worker tick at INFO; warnings and errors are what matter here.
        "LOG_LEVEL": os.environ.get("LOG_LEVEL", "WARNING"),
    }
    for name in PATH_VARIABLES:
        if os.environ.get(name):
            env[name] = str(Path(os.environ[name]).expanduser().resolve())
    if settings.llm.mode == "local":
        server = stack.enter_context(
            LocalLLMServer.from_settings(
                settings,
                log_path=settings.storage.data_dir / "llm-server.log",
                on_status=lambda line: print(f"[llm] {line}", file=sys.stderr, flush=True),
            )
        )
        local = server.client_settings(settings)
        env |= {
            "PRP_LLM": "auto",
            "OPENAI_BASE_URL": local.llm.base_url or "",
            "PRP_LLM_MODEL": local.llm.model,
            "PRP_LLM_SCHEMA_FORMAT": local.llm.schema_format,
            "PRP_LLM_TIMEOUT": str(local.llm.timeout),
            "PRP_LLM_MAX_TOKENS": str(local.llm.max_tokens),
        }
    return env


def _port_free(host: str, port: int) -> bool:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as probe:
        # As the server binds (uvicorn sets it too): a port whose last connections linger in
        # TIME_WAIT after a restart is free; one with a listener is still refused.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def _url_host(host: str) -> str:
    if host in ("0.0.0.0", "::"):
        return "127.0.0.1"
    return f"[{host}]" if ":" in host else host
