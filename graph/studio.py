"""The graph as LangGraph's server loads it (``prp serve``, or ``langgraph dev`` on ``langgraph.json``)
for its LangGraph API: LangGraph Studio and ``langgraph_sdk`` clients run it there.

The server brings its own checkpointer and passes run options (k, retries, search mode, filters) as
JSON context, which LangGraph validates into ``StudioContext``. The server process opens its library
and strategy once, from the environment's ``Settings`` (``served``), and everything it serves shares
them — these runs, and the REST API and chat of ``ui.service.served``: the embedded index allows one
opener at a time, and the embedding model is loaded once.
"""

from __future__ import annotations

from functools import cache

from corpus.config import Settings
from corpus.library import Library
from graph.build import build_graph
from research.options import ResearchOptions
from research.strategy import ResearchStrategy
from strategies.select import select_strategy


@cache
def served() -> tuple[Library, ResearchStrategy]:
    library = Library(Settings())
    return library, select_strategy(library.settings, library)


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
