"""synthesize: the cited draft — title, summary, one section per sub-question, disagreements, gaps."""

from __future__ import annotations

from langgraph.runtime import Runtime

from research.context import ResearchContext
from research.evidence import Contradiction, DraftReport, DraftSection, Finding, FindingStatus, GapNote
from research.state import ResearchState
from research.strategy import ReportReading


def synthesize(state: ResearchState, runtime: Runtime[ResearchContext]) -> dict:
    strategy = runtime.context.strategy
    reading = strategy.reading(runtime.context.library.embedder)
    findings = state.get("findings", [])
    if not state.get("single_question"):
        findings = [_on_topic(f, reading) for f in findings]
    contradictions = state.get("contradictions", [])
    title, summary = strategy.summarize(state["topic"], findings, contradictions)
    sections = [_with_closest(_section(f, contradictions), f, reading) for f in findings]
    gaps = [
        GapNote(sub_question=s.sub_question, queries_tried=f.queries, suggestions=strategy.suggest(f))
        for f, s in zip(findings, sections, strict=True)
        if s.status is FindingStatus.GAP
    ]
    draft = DraftReport(title=title, summary=summary, sections=sections, disagreements=contradictions, gaps=gaps)
    markers = sum(len(c.citations) for c in draft.claims())
    return {"draft": draft, "progress": [f"synthesize: draft with {markers} citation marker(s)"]}


def _on_topic(finding: Finding, reading: ReportReading) -> Finding:
    """A topic report's finding without its sentences about their own document (its layout, its
    authors' plans, its release: ``about_its_document``); with none left, or with a lead the
    strategy's reading does not find answering the sub-question (``lead_answers``), it is not
    answered. A question about the document itself, asked alone, keeps them."""
    if finding.status is FindingStatus.GAP:
        return finding
    claims = [c for c in finding.claims if not reading.about_its_document(c.first_line)]
    if claims and reading.lead_answers(finding, claims[0]):
        return finding if len(claims) == len(finding.claims) else finding.model_copy(update={"claims": claims})
    return finding.model_copy(update={"claims": [], "status": FindingStatus.GAP, "confidence": 0.0})


def _with_closest(section: DraftSection, finding: Finding, reading: ReportReading) -> DraftSection:
    """A section the library does not answer, with the passages nearest to it: the same in both modes,
    read from the evidence the research gathered, whoever wrote the answer."""
    if section.status is not FindingStatus.GAP:
        return section
    closest = reading.closest(finding.sub_question.question, finding.evidence)
    return section.model_copy(update={"closest": closest})


# The confidence a disputed section shows at most: its documents give two answers and the report
# states neither as fact, so none is more likely than a coin's toss (RAMDocs dev: 7 of the 15 answers
# shown at 0.8 or more that led with a wrong value were disputed sections).
DISPUTED_CONFIDENCE = 0.5


def _section(finding: Finding, contradictions: list[Contradiction]) -> DraftSection:
    """A finding as a section; when its documents answer it differently, the sides are its claims, so
    no side is stated as the answer. A gap whose documents answer differently is disputed, not
    unanswered: the disagreement may be why no answer stood out."""
    disputes = [c for c in contradictions if c.sub_question_id == finding.sub_question.id]
    if disputes:
        sides = {s.text: s for c in disputes for s in (c.side_a, c.side_b)}
        return DraftSection(
            sub_question=finding.sub_question,
            status=FindingStatus.DISPUTED if finding.status is FindingStatus.GAP else finding.status,
            confidence=min(finding.confidence, DISPUTED_CONFIDENCE),
            claims=list(sides.values()),
            disputed=True,
        )
    # A gap shows none of its sentences, only what a model claimed that they do not state: flagged
    # beside the passage it cites (the section then reads "not answered"), never silently dropped.
    return DraftSection(
        sub_question=finding.sub_question,
        status=finding.status,
        confidence=finding.confidence,
        claims=finding.claims if finding.status is not FindingStatus.GAP else finding.unstated,
        extractive=finding.extractive and finding.status is not FindingStatus.GAP,
    )
