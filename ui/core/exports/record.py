"""A finished research run as the exports (and the research chat) read it back from its checkpoint.

Everything about what the report shows comes from the report structure itself (claims with their
citation numbers, disagreements with their numbered sides); the record adds what the report does
not hold: the topic and the findings with their retrieved evidence (for the evidence cards).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from langgraph.checkpoint.base import BaseCheckpointSaver

from graph.checkpoints import StaleThreadError, finished_report
from graph.threads import thread_state
from research.evidence import Finding
from research.report import CLOSEST_HEADING, Disagreement, FinalReport
from tools.citations.resolve import Resolution
from ui.core.errors import ThreadNotFoundError
from ui.core.report_json import JsonReport


@dataclass(frozen=True)
class CitedClaim:
    """One claim of the report with the citations it is shown with (numbers as in the report)."""

    text: str  # "" for a closest passage: evidence, no claim
    part: str  # "Summary", the sub-question, "Where sources disagree", or the closest passages of a question
    confidence: float | None
    citations: list[tuple[int, Resolution]]


@dataclass
class ReportRecord:
    thread_id: str
    topic: str
    single_question: bool
    report: FinalReport
    findings: list[Finding] = field(default_factory=list)
    asked: str | None = None  # a follow-up as typed; ``topic`` is then the standalone question researched

    @classmethod
    def from_state(cls, thread_id: str, state: dict) -> ReportRecord:
        try:
            report = finished_report(thread_id, state)
        except StaleThreadError as exc:
            raise ThreadNotFoundError(str(exc)) from None
        if report is None:
            raise ThreadNotFoundError(f"thread {thread_id} has no finished report (interrupted or still running)")
        return cls(
            thread_id=thread_id,
            topic=state.get("topic", ""),
            single_question=bool(state.get("single_question")),
            report=report,
            findings=list(state.get("findings", [])),
            asked=state.get("asked"),
        )

    def json_report(self) -> JsonReport:
        return JsonReport.of(self.thread_id, self.topic, self.single_question, self.report, self.asked)

    def shown_disagreements(self) -> Iterator[tuple[Disagreement, tuple[int, Resolution], tuple[int, Resolution]]]:
        """Each disagreement the report shows, with its two numbered sides."""
        for item in self.report.disagreements:
            a, b = (side.citations[0] for side in item.sides)
            yield item, (a, self.report.citation(a)), (b, self.report.citation(b))

    def cited_claims(self) -> list[CitedClaim]:
        """Every claim the report shows with citations, in reading order, then each closest passage of
        a question not answered (no claim: its part says it is not an answer)."""
        claims = [
            CitedClaim(claim.text, part, claim.confidence, [(n, self.report.citation(n)) for n in claim.citations])
            for part, claim in self.report.parts()
            if claim.citations
        ]
        for section in self.report.closest_sections():
            part = CLOSEST_HEADING if self.report.answer_only else f"{CLOSEST_HEADING}: {section.sub_question.question}"
            claims += [CitedClaim("", part, None, [(n, self.report.citation(n))]) for n in section.closest]
        return claims


def load_record(checkpointer: BaseCheckpointSaver, thread_id: str) -> ReportRecord:
    """The finished run ``thread_id`` from the checkpointer, or ``ThreadNotFoundError``."""
    state = thread_state(checkpointer, thread_id)
    if not state:
        raise ThreadNotFoundError(f"no research thread {thread_id!r} in the checkpoint store")
    return ReportRecord.from_state(thread_id, state)
