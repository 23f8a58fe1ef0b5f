"""Render a resolved draft as the final report structure (``research.report.FinalReport``).

This is the one place citations are numbered (by first appearance), the one place a claim whose
markers all failed to resolve is flagged "unverified" or dropped per the run's policy, and the one
place the rule for showing a disagreement is applied: both sides verified, from two documents. A claim
whose citations resolve but whose cited blocks do not state it (``tools.citations.support``) is shown
with its citations and flagged unsupported.
"""

from __future__ import annotations

from research.evidence import Claim, Contradiction, DraftReport, DraftSection, marker_key
from research.options import UnresolvedPolicy
from research.report import (
    ClaimStatus,
    Disagreement,
    FinalReport,
    NumberedCitation,
    ReportClaim,
    ReportSection,
)
from tools.citations.resolve import Resolution
from tools.citations.support import supports


class _Renderer:
    def __init__(self, draft: DraftReport, resolved: dict[str, Resolution | None], policy: UnresolvedPolicy):
        self.resolved = resolved
        self.policy = policy
        self.numbers: dict[tuple, int] = {}
        self.citations: list[NumberedCitation] = []
        self.unverified = 0
        self.dropped = 0
        self.unsupported = 0
        # Summary and disagreement claims reuse section evidence; they inherit that confidence.
        self.confidence_by_marker: dict[str, float] = {}
        for section in draft.sections:
            for claim in section.claims:
                for marker in claim.citations:
                    self.confidence_by_marker.setdefault(marker_key(marker), section.confidence)

    def resolutions(self, claim: Claim) -> list[Resolution]:
        found = (self.resolved.get(marker_key(m)) for m in claim.citations)
        return [r for r in found if r is not None]

    def number(self, resolution: Resolution) -> int:
        key = (tuple(resolution.block_ids), resolution.quote)
        if key not in self.numbers:
            self.numbers[key] = len(self.numbers) + 1
            self.citations.append(NumberedCitation(number=self.numbers[key], resolution=resolution))
        return self.numbers[key]

    def inherited_confidence(self, claim: Claim) -> float | None:
        return next(
            (c for m in claim.citations if (c := self.confidence_by_marker.get(marker_key(m))) is not None), None
        )

    def claim(self, claim: Claim, confidence: float | None) -> ReportClaim | None:
        resolutions = self.resolutions(claim)
        text = claim.text.strip()
        if resolutions:
            numbers = [self.number(r) for r in resolutions]
            supported = supports(" ".join(filter(None, [claim.answer, text])), [r.matched_text for r in resolutions])
            self.unsupported += not supported
            status = ClaimStatus.VERIFIED if supported else ClaimStatus.UNSUPPORTED
            return ReportClaim(text=text, status=status, citations=numbers, confidence=confidence, answer=claim.answer)
        if self.policy is UnresolvedPolicy.DROP:
            self.dropped += 1
            return None
        self.unverified += 1
        return ReportClaim(text=text, status=ClaimStatus.UNVERIFIED, confidence=confidence, answer=claim.answer)

    def claims(self, claims: list[Claim], confidence: float | None = None) -> list[ReportClaim]:
        """``confidence``: the section's; claims outside a section inherit their evidence's."""
        rendered = (self.claim(c, self.inherited_confidence(c) if confidence is None else confidence) for c in claims)
        return [c for c in rendered if c is not None]

    def section(self, number: int, section: DraftSection) -> ReportSection:
        return ReportSection(
            number=number,
            sub_question=section.sub_question,
            status=section.status,
            confidence=section.confidence,
            claims=self.claims(section.claims, section.confidence),
            disputed=section.disputed,
        )

    def disagreement(self, item: Contradiction) -> Disagreement | None:
        a, b = self.resolutions(item.side_a), self.resolutions(item.side_b)
        # A disagreement is only shown with both sides verified, from two different documents.
        if not a or not b or a[0].doc_id == b[0].doc_id:
            return None
        sides = tuple(
            ReportClaim(
                text=side.text.strip(),
                status=ClaimStatus.VERIFIED,
                citations=[self.number(resolution)],
                confidence=self.inherited_confidence(side),
                answer=side.answer,
            )
            for side, resolution in ((item.side_a, a[0]), (item.side_b, b[0]))
        )
        return Disagreement(subject=item.subject, kind=item.kind, explanation=item.explanation, sides=sides)


def render_report(
    draft: DraftReport,
    resolved: dict[str, Resolution | None],
    mode: str,
    policy: UnresolvedPolicy,
) -> FinalReport:
    renderer = _Renderer(draft, resolved, policy)
    # Numbers are given in reading order: summary, sections, then disagreements.
    summary = renderer.claims(draft.summary)
    sections = [renderer.section(i, s) for i, s in enumerate(draft.sections, start=1)]
    candidates = [renderer.disagreement(item) for item in draft.disagreements]
    disagreements = [d for d in candidates if d is not None]
    return FinalReport(
        title=draft.title,
        mode=mode,
        policy=policy,
        summary=summary,
        sections=sections,
        disagreements=disagreements,
        omitted_disagreements=len(candidates) - len(disagreements),
        gaps=draft.gaps,
        citations=renderer.citations,
        unverified_claims=renderer.unverified,
        unsupported_claims=renderer.unsupported,
        dropped_claims=renderer.dropped,
    )
