"""The research graph's state: what each node reads and writes, and how concurrent writes merge."""

from __future__ import annotations

import operator
from typing import Annotated

from typing_extensions import TypedDict  # pydantic (hence Studio's input schema) needs it before Python 3.12

from research.evidence import Contradiction, DraftReport, Finding, SubQuestion
from research.report import FinalReport
from tools.citations.resolve import Resolution


def merge_findings(current: list[Finding], update: list[Finding]) -> list[Finding]:
    """Concurrent research branches each add one finding; a retry replaces the finding it redoes."""
    merged = {f.sub_question.id: f for f in current}
    for finding in update:
        merged[finding.sub_question.id] = finding
    return sorted(merged.values(), key=lambda f: _plan_order(f.sub_question.id))


def _plan_order(sub_question_id: str) -> tuple[int, str]:
    digits = "".join(ch for ch in sub_question_id if ch.isdigit())
    return (int(digits) if digits else 0, sub_question_id)


class ResearchState(TypedDict, total=False):
    topic: str
    # A follow-up as the researcher typed it ("and what does it cost?"); ``topic`` is then the
    # standalone question the strategy read it as, and the one researched.
    asked: str
    single_question: bool
    plan: list[SubQuestion]
    findings: Annotated[list[Finding], merge_findings]
    retry_round: int
    # Documents answering a sub-question differently (the ``answer_disputes`` step); the first of
    # ``contradictions``, which adds what the strategy finds.
    disputes: list[Contradiction]
    contradictions: list[Contradiction]
    draft: DraftReport
    citations: dict[str, Resolution | None]
    progress: Annotated[list[str], operator.add]
    report: FinalReport
