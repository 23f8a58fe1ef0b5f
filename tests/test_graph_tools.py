"""The graph's search and citation steps call the LangChain tools in tools/, as tool calls: a run's
callbacks (what LangSmith and Studio show) see each one, and the steps get exactly what the functions
return. Real library, offline strategy, no LLM."""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import BaseCallbackHandler
from langgraph.checkpoint.memory import InMemorySaver

from corpus.retrieval import MAX_K, SearchFilters, SearchMode
from graph.build import build_graph
from nodes.tool_calls import call_tool
from research.context import RunContext
from strategies.offline.strategy import OfflineStrategy
from tools.citations.index import BlockIndex
from tools.citations.resolve import resolve_citation
from tools.citations.tool import make_resolve_citation_tool
from tools.hybrid_search import hybrid_search, make_hybrid_search_tool

DOCUMENTS = {
    "roofs.txt": (
        "Green roofs and rain\n\nA green roof retains between 40 and 60 percent of the rain that falls on it. "
        "The retained water evaporates over the following days. "
        "Extensive green roofs weigh less than intensive ones."
    ),
    "streets.txt": (
        "Street trees\n\nStreet trees cool the pavement below them by several degrees in summer. "
        "Their roots need room under the footpath."
    ),
}
QUESTION = "How much rain does a green roof retain?"


class ToolCalls(BaseCallbackHandler):
    """The tool runs of a graph run: (tool name, graph node it ran in, tool call id)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, str | None]] = []

    def on_tool_start(self, serialized: dict[str, Any], input_str: str, **kwargs: Any) -> None:
        node = (kwargs.get("metadata") or {}).get("langgraph_node", "")
        self.calls.append((serialized.get("name", ""), node, (kwargs.get("inputs") or {}).get("query")))


def test_the_graph_searches_and_resolves_citations_through_the_tools(library_of, embedder):
    library = library_of(DOCUMENTS)
    seen = ToolCalls()
    graph = build_graph(InMemorySaver())
    config = {"configurable": {"thread_id": "tools"}, "callbacks": [seen], "recursion_limit": 100}
    context = RunContext(library=library, strategy=OfflineStrategy(embedder))
    state = graph.invoke({"topic": QUESTION, "single_question": True}, config, context=context)
    searches = [c for c in seen.calls if c[0] == "hybrid_search"]
    lookups = [c for c in seen.calls if c[0] == "resolve_citation"]
    assert searches and all(node in {"plan", "research", "retry_gaps"} for _, node, _ in searches)
    assert ("hybrid_search", "research", QUESTION) in searches
    assert lookups and {node for _, node, _ in lookups} == {"resolve_citations"}
    assert len(lookups) == len(state["citations"]) and all(state["citations"].values())


def test_a_tool_call_gives_the_step_exactly_what_the_function_returns(library_of):
    library = library_of(DOCUMENTS)
    streets = [d.doc_id for d in library.registry.documents() if d.path.endswith("streets.txt")]
    one_document = SearchFilters(doc_ids=streets)
    for query, k, mode, filters in [
        (QUESTION, 4, SearchMode.HYBRID, SearchFilters()),
        ("street trees", 2 * MAX_K, SearchMode.SPARSE, one_document),
    ]:
        direct = hybrid_search(library, query, k, filters, mode)
        through_tool = call_tool(make_hybrid_search_tool(library), query=query, k=k, filters=filters, search_mode=mode)
        assert through_tool == direct and direct
    index = BlockIndex.from_registry(library.registry)
    quote = "The retained water evaporates over the following days."
    for hint, retrieved in [(None, []), ("no-such-block", [b for b in index.position][:2])]:
        direct = resolve_citation(quote, hint, index, retrieved)
        through_tool = call_tool(
            make_resolve_citation_tool(index), cited_text=quote, block_id=hint, retrieved_block_ids=retrieved
        )
        assert through_tool == direct and direct is not None
    assert call_tool(make_resolve_citation_tool(index), cited_text="words found in no document at all here") is None
