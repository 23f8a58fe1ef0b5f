"""Run-scoped dependencies and options of the research graph (LangGraph's runtime context).

The state holds only data; what a run *uses* — the library, the strategy, the citation index — travels
in this context, so checkpoints stay small and serialisable and nodes stay pure functions of both.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any

from pydantic import BaseModel, Field

from corpus.config import Settings
from corpus.library import Library
from nodes.strategy import ResearchStrategy
from tools.hybrid_search import SearchFilters, SearchMode
from tools.resolve_citation import BlockIndex


class UnresolvedPolicy(StrEnum):
    MARK = "mark"  # keep the claim, flagged "unverified", with no citation shown
    DROP = "drop"  # remove the claim from the report


class ResearchOptions(BaseModel):
    k: int = Field(default=8, ge=1, le=50, description="Chunks retrieved per query.")
    max_retries: int = Field(default=2, ge=0, le=5, description="Rounds of gap retries.")
    search_mode: SearchMode = SearchMode.HYBRID
    filters: SearchFilters = Field(default_factory=SearchFilters)
    unresolved: UnresolvedPolicy = UnresolvedPolicy.MARK


@dataclass
class ResearchContext:
    library: Library
    strategy: ResearchStrategy
    options: ResearchOptions

    @property
    def block_index(self) -> BlockIndex:
        """The citation index of the library's ready documents (built once, rebuilt when they change)."""
        return self.library.derived("citation_index", BlockIndex.from_registry)


def research_context(runtime: Any) -> ResearchContext:
    """The run's context. Under ``langgraph dev``/Studio the server can only pass JSON options, so
    the served process opens its library and strategy once and reuses them (Qdrant local mode allows
    one opener per process); every other entry point passes a full ``ResearchContext``."""
    context = runtime.context
    if isinstance(context, ResearchContext):
        return context
    options = context if isinstance(context, ResearchOptions) else ResearchOptions.model_validate(context or {})
    library, strategy = _served_library_and_strategy()
    return ResearchContext(library=library, strategy=strategy, options=options)


@cache
def _served_library_and_strategy() -> tuple[Library, ResearchStrategy]:
    from graph.run import select_strategy

    library = Library(Settings())
    return library, select_strategy(library.settings, library)
