"""retry_gaps: reformulate each gap's question and search again (one round per visit)."""

from __future__ import annotations

from langgraph.runtime import Runtime

from nodes.assess import retryable
from nodes.search import merge_evidence, search
from research.context import ResearchContext
from research.evidence import FindingStatus
from research.state import ResearchState


def retry_gaps(state: ResearchState, runtime: Runtime[ResearchContext]) -> dict:
    context = runtime.context
    max_retries = context.options.max_retries
    updated, notes = [], []
    for finding in state.get("findings", []):
        if not retryable(finding, max_retries):
            continue
        new_queries = [q for q in finding.next_queries if q not in finding.queries]
        evidence = merge_evidence(finding.evidence, *(search(context, q) for q in new_queries))
        queries = finding.queries + new_queries
        read = frozenset(c.chunk_id for c in finding.evidence)
        answer = context.strategy.answer(finding.sub_question, evidence, queries, read)
        status = FindingStatus.ANSWERED_AFTER_RETRY if answer.sufficient else FindingStatus.GAP
        updated.append(
            finding.model_copy(
                update={
                    "queries": queries,
                    "evidence": answer.evidence or evidence,
                    "claims": answer.claims,
                    "status": status,
                    "confidence": answer.confidence,
                    "retries": finding.retries + 1,
                    "next_queries": answer.next_queries,
                    "extractive": answer.extractive,
                    "unstated": answer.unstated,
                }
            )
        )
        notes.append(f"retry {finding.sub_question.id}: {'; '.join(new_queries)} -> {status.value}")
    return {"findings": updated, "retry_round": state.get("retry_round", 0) + 1, "progress": notes}
