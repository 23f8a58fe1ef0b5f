"""The graph as ``langgraph dev`` / LangGraph Studio loads it (see ``langgraph.json``).

The server brings its own checkpointer and passes run options (k, retries, search mode, filters) as
JSON context; the library and strategy are opened from the environment's ``Settings``.
"""

from graph.build import build_graph
from graph.context import ResearchOptions

graph = build_graph(context_schema=ResearchOptions)
