"""A research run's options: the one place their defaults, bounds and help live (the retrieval
part, ``RetrievalOptions``, in the retrieval vocabulary ``corpus.retrieval``, which the tools take too).

The CLI flags of ``prp report``/``ask``/``search``/``eval``, the chat's settings controls and the
LangGraph Studio context form are all generated from these fields (``ui.core.option_fields``).
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field

from corpus.retrieval import RetrievalOptions


class UnresolvedPolicy(StrEnum):
    MARK = "mark"  # keep the claim, flagged "unverified", with no citation shown
    DROP = "drop"  # remove the claim from the report


class ResearchOptions(RetrievalOptions):
    max_retries: int = Field(
        default=2,
        ge=0,
        le=5,
        title="Max gap retries",
        description="How many more rounds a sub-question the corpus did not answer is searched, with reformulated queries.",
    )
    unresolved: UnresolvedPolicy = Field(
        default=UnresolvedPolicy.MARK,
        title="Claims whose quote matches no stored block",
        description="mark: keep the claim, flagged unverified and shown without a citation; drop: leave it out of the report.",
    )
