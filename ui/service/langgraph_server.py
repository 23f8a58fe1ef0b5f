"""LangGraph's API server, run in this process: the one place prp reaches into ``langgraph_api``.

``prp serve`` runs the server the way ``langgraph dev`` does, through its Python entry point, and the
store quota reads the server's store. Neither is a public API: they move and change their keywords
between minor releases, so pyproject bounds langgraph-api to one minor line, and
tests/test_langgraph_server.py fails naming this module when the installed release is outside that
line, or an upgrade moves a function or drops a keyword ``run`` passes.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from corpus.errors import ConfigError

if TYPE_CHECKING:
    from langgraph.store.base import BaseStore

#: Where langgraph-api 0.16 keeps the function ``langgraph dev`` runs.
ENTRY_POINT = "langgraph_api.cli:run_server"
#: The keywords ``run`` passes: each must be a named parameter of the entry point, not swallowed by
#: its ``**kwargs`` (where a renamed one would be ignored without a word).
KEYWORDS = ("host", "port", "graphs", "http", "checkpointer", "open_browser", "allow_blocking", "server_level")


def entry_point() -> Callable[..., Any]:
    """The server's entry point, checked to take every keyword ``run`` passes."""
    module_name, _, name = ENTRY_POINT.partition(":")
    try:
        function = getattr(importlib.import_module(module_name), name)
    except (ImportError, AttributeError):
        raise ConfigError(
            f"langgraph-api {_installed()} has no {ENTRY_POINT} (it moves between releases): "
            f"update ui/service/langgraph_server.py for this release, or install the version pyproject.toml names"
        ) from None
    parameters = inspect.signature(function).parameters
    missing = [k for k in KEYWORDS if k not in parameters]
    if missing:
        raise ConfigError(
            f"langgraph-api {_installed()}'s {ENTRY_POINT} no longer takes {', '.join(missing)}: "
            "update ui/service/langgraph_server.py for this release, or install the version pyproject.toml names"
        )
    return function


def run(host: str, port: int, graphs: dict[str, str], http: dict[str, Any], checkpointer: dict[str, str]) -> None:
    """Serve ``graphs`` and the ``http`` app until interrupted: no browser opened, warnings and errors logged."""
    entry_point()(
        host=host,
        port=port,
        graphs=graphs,
        http=http,
        checkpointer=checkpointer,
        open_browser=False,
        allow_blocking=True,  # the chat and the API's thread-pool routes block by design
        server_level="WARNING",
    )


async def store() -> BaseStore:
    """The running server's store (the one ``/store`` serves)."""
    # Imported here: the store exists only inside LangGraph's server, which the app's tests run without.
    from langgraph_api.store import get_store

    return await get_store()


def _installed() -> str:
    try:
        return importlib.metadata.version("langgraph-api")
    except importlib.metadata.PackageNotFoundError:
        return "(not installed)"
