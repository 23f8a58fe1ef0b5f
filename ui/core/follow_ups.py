"""What a follow-up is read against: a conversation's finished runs as ``Turn``s, and the document
scope a follow-up that names "the second paper" puts on its run."""

from __future__ import annotations

from research.conversation import MAX_ANSWER_CHARS, CitedDocument, Turn
from research.options import ResearchOptions
from ui.core.exports.record import ReportRecord


def conversation_turn(record: ReportRecord) -> Turn:
    """A finished run as an earlier turn: its questions, the start of its answer, its cited documents."""
    report = record.report
    claims = report.summary or [c for s in report.answered_sections() for c in s.claims]
    answer = " ".join(c.text for c in claims)
    if len(answer) > MAX_ANSWER_CHARS:
        answer = answer[:MAX_ANSWER_CHARS].rsplit(" ", 1)[0] + " \u2026"
    cited: dict[str, CitedDocument] = {}
    for citation in report.answer_citations():  # by number: the order the answer cites them in
        resolution = citation.resolution
        cited.setdefault(resolution.doc_id, CitedDocument(doc_id=resolution.doc_id, title=resolution.title))
    return Turn(asked=record.asked or record.topic, question=record.topic, answer=answer, cited=list(cited.values()))


def scoped(options: ResearchOptions, doc_ids: list[str]) -> ResearchOptions:
    """``options`` searching only ``doc_ids``."""
    return options.model_copy(update={"filters": options.filters.model_copy(update={"doc_ids": doc_ids})})
