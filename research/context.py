"""What a research run uses, as LangGraph's runtime context: the library, the strategy, the options.

The state holds only data; what a run *uses* travels in the context, so checkpoints stay small and
serialisable and nodes stay pure functions of both. Nodes read a ``ResearchContext``: every entry
point passes a ``RunContext``; LangGraph Studio passes its JSON options as ``graph.studio``'s
``StudioContext``, which opens the served process's library and strategy behind them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from corpus.library import Library
from research.options import ResearchOptions
from research.strategy import ResearchStrategy


class ResearchContext(Protocol):
    @property
    def library(self) -> Library: ...

    @property
    def strategy(self) -> ResearchStrategy: ...

    @property
    def options(self) -> ResearchOptions: ...


@dataclass(frozen=True)
class RunContext:
    library: Library
    strategy: ResearchStrategy
    options: ResearchOptions = field(default_factory=ResearchOptions)
