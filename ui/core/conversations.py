"""Research runs grouped into conversations.

The chat names its runs ``<conversation>.<turn>`` so a conversation (several questions in one chat)
can be reopened whole; a run started elsewhere (``prp ask``/``prp report``, the API, LangGraph
Studio), whose thread id has no dot, is a conversation of one run.
"""

from __future__ import annotations

import uuid

from pydantic import BaseModel, computed_field

from research.runs import RunSummary

TURN_SEPARATOR = "."


def new_conversation_id() -> str:
    return uuid.uuid4().hex[:10]


def run_thread_id(conversation: str, turn: int) -> str:
    return f"{conversation}{TURN_SEPARATOR}{turn}"


def conversation_of(thread_id: str) -> str:
    return thread_id.split(TURN_SEPARATOR, 1)[0]


def turn_of(thread_id: str) -> int:
    _, _, turn = thread_id.partition(TURN_SEPARATOR)
    return int(turn) if turn.isdigit() else 1


class Conversation(BaseModel):
    conversation: str
    runs: list[RunSummary]  # in turn order

    @computed_field
    @property
    def title(self) -> str:
        return self.runs[0].topic

    @computed_field
    @property
    def started(self) -> str:
        return self.runs[0].started


def conversations(threads: list[RunSummary]) -> list[Conversation]:
    """``threads`` (most recently active first) as conversations in that order, runs in turn order."""
    grouped: dict[str, list[RunSummary]] = {}
    for summary in threads:
        grouped.setdefault(conversation_of(summary.thread_id), []).append(summary)
    return [
        Conversation(conversation=conversation, runs=sorted(runs, key=lambda r: turn_of(r.thread_id)))
        for conversation, runs in grouped.items()
    ]
