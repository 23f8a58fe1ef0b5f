"""LLM mode's condense step: one small call turns a follow-up into a standalone question.

The fallback strategy's reading (offline mode's rules) decides whether the turn leans on the
conversation at all (a standalone turn costs no call) and which documents it names by their place
("the second paper": the run's scope); the model writes the question. If the call fails (the server,
or a reply that will not parse), the fallback's rewrite stands: a follow-up never stops a run.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel

from prompts.condense import CONDENSE, TURN
from research.ai_address import for_model, title_for_model
from research.conversation import FollowUp, Turn
from strategies.llm.structured import LLMOutputError, LLMServiceError


class CondenseOutput(BaseModel):
    question: str


def condense(call: Callable[..., BaseModel], question: str, history: list[Turn], offline: FollowUp) -> FollowUp:
    """``call``: the strategy's structured call, ``(schema, prompt, step, **fields)``; ``offline``: the
    fallback strategy's reading of the same turn."""
    if not offline.follow_up:
        return offline
    try:
        out = call(CondenseOutput, CONDENSE, "condense", history=history_text(history), question=question)
    except (LLMOutputError, LLMServiceError):
        return offline
    standalone = " ".join(out.question.split())
    return offline.model_copy(update={"question": standalone}) if standalone else offline


def history_text(history: list[Turn]) -> str:
    return "\n\n".join(
        TURN.format(
            number=number,
            question=turn.question,
            answer=for_model(turn.answer) if turn.answer else "(no answer)",
            documents="; ".join(f"{i}. {title_for_model(d.title)}" for i, d in enumerate(turn.cited, start=1))
            or "none",
        )
        for number, turn in enumerate(history, start=1)
    )
