"""assess: is the evidence sufficient? Routes gaps to another retry round while the budget lasts."""

from __future__ import annotations

from typing import Literal

from langgraph.runtime import Runtime

from research.context import ResearchContext
from research.evidence import Finding, FindingStatus
from research.state import ResearchState


def retryable(finding: Finding, max_retries: int) -> bool:
    # A gap with nothing new to try is final: re-running the same queries cannot help.
    return finding.status is FindingStatus.GAP and finding.retries < max_retries and bool(finding.next_queries)


def assess(state: ResearchState, runtime: Runtime[ResearchContext]) -> dict:
    findings = state.get("findings", [])
    gaps = [f.sub_question.id for f in findings if f.status is FindingStatus.GAP]
    answered = len(findings) - len(gaps)
    note = f"assess (round {state.get('retry_round', 0)}): {answered} answered, {len(gaps)} gap(s)"
    return {"progress": [note + (f": {', '.join(gaps)}" if gaps else "")]}


def route_after_assess(
    state: ResearchState, runtime: Runtime[ResearchContext]
) -> Literal["retry_gaps", "answer_disputes"]:
    max_retries = runtime.context.options.max_retries
    if state.get("retry_round", 0) < max_retries and any(retryable(f, max_retries) for f in state.get("findings", [])):
        return "retry_gaps"
    return "answer_disputes"
