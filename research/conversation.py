"""A conversation's earlier turns, as a follow-up question is read against them.

A chat turn, ``prp ask --thread`` or an API run may lean on the turn before ("and what does it
cost?", "compare that with the second paper"). Before research, the strategy rewrites such a turn
into a standalone question (``ResearchStrategy.condense``) from the turns below; the documents the
previous answer cited can become the run's document scope.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

#: How many earlier turns a follow-up is read against: the one before it matters most, and a small
#: model's prompt stays short.
MAX_HISTORY_TURNS = 3
#: How much of an earlier answer the condense step is shown: enough to name what it found.
MAX_ANSWER_CHARS = 400


class CitedDocument(BaseModel):
    doc_id: str
    title: str


class Turn(BaseModel):
    """One earlier, finished turn of the conversation."""

    asked: str = Field(description="The question as the researcher typed it.")
    question: str = Field(description="The standalone question that was researched (the asked one if it stood alone).")
    answer: str = Field(default="", description=f"The start of its answer, at most {MAX_ANSWER_CHARS} characters.")
    cited: list[CitedDocument] = Field(default_factory=list, description="The documents its answer cited, in order.")


class FollowUp(BaseModel):
    """How a question reads in its conversation."""

    question: str = Field(description="The standalone question to research.")
    follow_up: bool = Field(default=False, description="Whether the asked question leaned on an earlier turn.")
    doc_ids: list[str] = Field(
        default_factory=list, description="Documents the question refers to ('the second paper'): the run's scope."
    )
