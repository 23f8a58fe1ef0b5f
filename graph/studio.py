"""The graph as LangGraph's server loads it (``prp serve``, or ``langgraph dev`` on ``langgraph.json``)
for its LangGraph API: LangGraph Studio and ``langgraph_sdk`` clients run it there.

The server checkpoints into the library's own ``checkpoints.sqlite``, or ``PRP_DATABASE_URL``'s
PostgreSQL (``checkpointer``), and passes run options (k, retries, search mode, filters) as
JSON context, which LangGraph validates into ``StudioContext``. The server process opens its library
and strategy once, from the environment's ``Settings`` (``served``), and everything it serves shares
them — these runs, and the REST API and chat of ``ui.service.served``: the embedded index allows one
opener at a time, and the embedding model is loaded once.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from functools import cache

from config import Settings
from corpus.library import Library
from graph.build import build_graph
from graph.checkpoints import AsyncCheckpointer, open_async_checkpointer
from graph.server_notes import quiet_development_notes
from research.options import ResearchOptions
from research.strategy import ResearchStrategy
from strategies.select import select_strategy

# Loaded by LangGraph's server before it checks the checkpointer and starts its queue.
quiet_development_notes()


@cache
def served() -> tuple[Library, ResearchStrategy]:
    """Opened whole, index included: an index another process holds fails here, before anything is served."""
    library = Library(Settings())
    try:
        _ = library.store
        return library, select_strategy(library.settings, library)
    except BaseException:
        library.close()
        raise


def checkpointer() -> AbstractAsyncContextManager[AsyncCheckpointer]:
    """The server's checkpointer (``checkpointer.path`` in ``langgraph.json``): the library's own
    ``checkpoints.sqlite`` or PostgreSQL database, so runs made through the LangGraph API are threads
    like any other — listed in the chat and ``/api/threads``, exportable, resumable from the CLI."""
    return open_async_checkpointer(served()[0].settings)


class StudioContext(ResearchOptions):
    """A ``research.context.ResearchContext`` made from Studio's JSON options."""

    @property
    def library(self) -> Library:
        return served()[0]

    @property
    def strategy(self) -> ResearchStrategy:
        return served()[1]

    @property
    def options(self) -> ResearchOptions:
        return self


graph = build_graph(context_schema=StudioContext)
