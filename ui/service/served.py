"""The service as LangGraph's server loads it: ``prp serve`` (and ``langgraph dev`` on
``langgraph.json``) import ``app`` from here as the server's custom HTTP app, and the ``research``
graph from ``graph.studio``. Both use the library and strategy ``graph.studio.served`` opens once for
the process, so the chat, the REST API and the LangGraph API all work on the same library.

This module is the process's entry point: importing it opens the library.
"""

from __future__ import annotations

import os

from graph.studio import served
from ui.core.local import LocalPortal
from ui.service.app import create_app

_library, _strategy = served()
app = create_app(
    LocalPortal(_library, _strategy),
    token=_library.settings.service.api_token,
    # LangGraph's server sets the URL it listens on before it loads this app.
    url=os.environ.get("LANGGRAPH_API_URL") or None,
    watch=_library.settings.service.watch_folders,
)
