"""research: one branch per sub-question (fanned out with ``Send``), searching and answering it."""

from __future__ import annotations

from langgraph.runtime import Runtime
from langgraph.types import Send
from typing_extensions import TypedDict  # pydantic needs it before Python 3.12 (Studio schemas)

from nodes.search import search
from research.context import ResearchContext
from research.evidence import Finding, FindingStatus, SubQuestion
from research.state import ResearchState


class ResearchBranch(TypedDict):
    sub_question: SubQuestion


def fan_out(state: ResearchState) -> list[Send]:
    """One concurrent research branch per planned sub-question."""
    return [Send("research", ResearchBranch(sub_question=q)) for q in state["plan"]]


def research(branch: ResearchBranch, runtime: Runtime[ResearchContext]) -> dict:
    context = runtime.context
    question = branch["sub_question"]
    evidence = search(context, question.question)
    answer = context.strategy.answer(question, evidence, [question.question])
    finding = Finding(
        sub_question=question,
        queries=[question.question],
        evidence=answer.evidence or evidence,
        claims=answer.claims,
        status=FindingStatus.ANSWERED if answer.sufficient else FindingStatus.GAP,
        confidence=answer.confidence,
        next_queries=answer.next_queries,
        extractive=answer.extractive,
        unstated=answer.unstated,
    )
    note = f"research {question.id}: {len(evidence)} chunks, confidence {answer.confidence:.2f}"
    return {"findings": [finding], "progress": [note]}
