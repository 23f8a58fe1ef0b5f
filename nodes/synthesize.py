"""synthesize: the cited draft — title, summary, one section per sub-question, disagreements, gaps."""

from __future__ import annotations

from langgraph.runtime import Runtime

from research.context import ResearchContext
from research.evidence import DraftReport, DraftSection, FindingStatus, GapNote
from research.state import ResearchState


def synthesize(state: ResearchState, runtime: Runtime[ResearchContext]) -> dict:
    strategy = runtime.context.strategy
    findings = state.get("findings", [])
    contradictions = state.get("contradictions", [])
    title, summary = strategy.summarize(state["topic"], findings, contradictions)
    sections = [
        DraftSection(
            sub_question=f.sub_question,
            status=f.status,
            confidence=f.confidence,
            claims=f.claims if f.status is not FindingStatus.GAP else [],
        )
        for f in findings
    ]
    gaps = [
        GapNote(sub_question=f.sub_question, queries_tried=f.queries, suggestions=strategy.suggest(f))
        for f in findings
        if f.status is FindingStatus.GAP
    ]
    draft = DraftReport(title=title, summary=summary, sections=sections, disagreements=contradictions, gaps=gaps)
    markers = sum(len(c.citations) for c in draft.claims())
    return {"draft": draft, "progress": [f"synthesize: draft with {markers} citation marker(s)"]}
