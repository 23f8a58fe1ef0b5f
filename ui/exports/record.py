"""A finished research run as the exports (and the research chat) read it back from its checkpoint.

The final report only holds rendered Markdown and numbered citations; the evidence table and the
contradiction map also need the claims, the sub-question each claim answers and its confidence, so
the record carries the draft and the resolved markers too. Citation numbers are never recomputed:
they are looked up in the report's own numbering.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property

from langgraph.checkpoint.base import BaseCheckpointSaver

from corpus.errors import PrpError
from graph.state import Claim, Contradiction, DraftReport, FinalReport, Finding, marker_key
from tools.resolve_citation import Resolution


class ThreadNotFoundError(PrpError):
    """No finished research run has this thread id."""


@dataclass(frozen=True)
class CitedClaim:
    """One claim of the report with the citations it is shown with (numbers as in the report)."""

    text: str
    part: str  # "Summary", the sub-question, or "Where sources disagree"
    confidence: float | None
    citations: list[tuple[int, Resolution]]


@dataclass
class ReportRecord:
    thread_id: str
    topic: str
    single_question: bool
    report: FinalReport
    draft: DraftReport
    resolved: dict[str, Resolution | None]
    findings: list[Finding] = field(default_factory=list)

    @classmethod
    def from_state(cls, thread_id: str, state: dict) -> ReportRecord:
        if "report" not in state:
            raise ThreadNotFoundError(f"thread {thread_id} has no finished report (interrupted or still running)")
        return cls(
            thread_id=thread_id,
            topic=state.get("topic", ""),
            single_question=bool(state.get("single_question")),
            report=state["report"],
            draft=state["draft"],
            resolved=state.get("citations", {}),
            findings=list(state.get("findings", [])),
        )

    def number_of(self, resolution: Resolution) -> int | None:
        """The number the report shows for this resolution (the renderer's key: blocks and quote)."""
        return self._numbers.get((tuple(resolution.block_ids), resolution.quote))

    @cached_property
    def _numbers(self) -> dict[tuple, int]:
        return {(tuple(c.resolution.block_ids), c.resolution.quote): c.number for c in self.report.citations}

    def resolutions(self, claim: Claim) -> list[Resolution]:
        found = (self.resolved.get(marker_key(m)) for m in claim.citations)
        return [r for r in found if r is not None]

    def shown_disagreements(self) -> Iterator[tuple[Contradiction, tuple[int, Resolution], tuple[int, Resolution]]]:
        """Disagreements as the report shows them: both sides verified, from two documents."""
        for item in self.draft.disagreements:
            a, b = self.resolutions(item.side_a), self.resolutions(item.side_b)
            if not a or not b or a[0].doc_id == b[0].doc_id:
                continue
            na, nb = self.number_of(a[0]), self.number_of(b[0])
            if na is not None and nb is not None:
                yield item, (na, a[0]), (nb, b[0])

    def cited_claims(self) -> list[CitedClaim]:
        """Every claim the report shows with citations, in reading order."""
        confidence = self._confidence_by_marker()
        claims: list[CitedClaim] = []

        def add(claim: Claim, part: str, conf: float | None) -> None:
            numbered = [(n, r) for r in self.resolutions(claim) if (n := self.number_of(r)) is not None]
            if numbered:
                claims.append(CitedClaim(claim.text.strip(), part, conf, numbered))

        for claim in self.draft.summary:
            add(claim, "Summary", _first(confidence.get(marker_key(m)) for m in claim.citations))
        for section in self.draft.sections:
            for claim in section.claims:
                add(claim, section.sub_question.question, section.confidence)
        for item, (na, a), (nb, b) in self.shown_disagreements():
            for side, number, resolution in ((item.side_a, na, a), (item.side_b, nb, b)):
                conf = _first(confidence.get(marker_key(m)) for m in side.citations)
                claims.append(CitedClaim(side.text.strip(), "Where sources disagree", conf, [(number, resolution)]))
        return claims

    def _confidence_by_marker(self) -> dict[str, float]:
        """Summary and disagreement claims reuse section evidence; they inherit that confidence."""
        found: dict[str, float] = {}
        for section in self.draft.sections:
            for claim in section.claims:
                for marker in claim.citations:
                    found.setdefault(marker_key(marker), section.confidence)
        return found


def _first(values) -> float | None:
    return next((v for v in values if v is not None), None)


def load_record(checkpointer: BaseCheckpointSaver, thread_id: str) -> ReportRecord:
    """The finished run ``thread_id`` from the checkpointer, or ``ThreadNotFoundError``."""
    from graph.build import build_graph

    snapshot = build_graph(checkpointer).get_state({"configurable": {"thread_id": thread_id}})
    if not snapshot.values:
        raise ThreadNotFoundError(f"no research thread {thread_id!r} in the checkpoint store")
    return ReportRecord.from_state(thread_id, dict(snapshot.values))
