"""Render a resolved draft as the final report structure (``research.report.FinalReport``).

This is the one place citations are numbered (by first appearance), the one place a claim whose
markers all failed to resolve is flagged "unverified" or dropped per the run's policy, and the one
place the rule for showing a disagreement is applied: both sides verified, from two documents. A claim
whose citations resolve is judged on the text they resolved to (the strategy's ``ReportReading.judge``,
the one judge of what a sentence states): stated, it is verified; not stated, it is shown with its
citations and flagged unsupported, or contradicted where the text says otherwise, with the judge's
reason. A section is answered only by a verified claim, and its confidence is never above what the
judge gives its claims. A claim or a disagreement's side that cites only text addressed to an AI
(``research.ai_address``) is left out, and so is a writer's claim (or title) that repeats such text
without the library stating it; every evidence document holding such text gets a caution, and a title
that addresses an AI is shown marked (``shown_title``) in the references, sides and cautions. A section
whose claims all failed to resolve is not counted as answered, and a
writer's title stands only when some claim of the report resolved. A section not answered keeps the
resolved citations of its closest passages (``DraftSection.closest``), numbered last: never claims.
"""

from __future__ import annotations

from typing import NamedTuple

from corpus.models import DocType
from corpus.retrieval import RetrievedChunk
from research.ai_address import addresses_ai, echoes, shown_title
from research.evidence import Claim, Contradiction, DraftReport, DraftSection, FindingStatus, marker_key
from research.options import UnresolvedPolicy
from research.report import (
    Caution,
    ClaimStatus,
    Disagreement,
    FinalReport,
    NumberedCitation,
    ReportClaim,
    ReportSection,
)
from research.strategy import ReportReading
from research.verdict import Label, Verdict
from tools.citations.normalise import normalise
from tools.citations.resolve import Resolution

_FLAGS = {Label.NEITHER: ClaimStatus.UNSUPPORTED, Label.CONTRADICTS: ClaimStatus.CONTRADICTED}


class _Renderer:
    def __init__(
        self,
        draft: DraftReport,
        resolved: dict[str, Resolution | None],
        policy: UnresolvedPolicy,
        reading: ReportReading,
        addressed_texts: list[str],
    ):
        self.resolved = resolved
        self.policy = policy
        self.reading = reading
        self.addressed_texts = addressed_texts
        self.numbers: dict[tuple, int] = {}
        self.citations: list[NumberedCitation] = []
        self.unverified = 0
        self.dropped = 0
        self.unsupported = 0
        self.contradicted = 0
        self.addressed = 0
        # Summary and disagreement claims reuse section evidence; they inherit that confidence.
        self.confidence_by_marker: dict[str, float] = {}
        for section in draft.sections:
            for claim in section.claims:
                for marker in claim.citations:
                    self.confidence_by_marker.setdefault(marker_key(marker), section.confidence)

    def resolutions(self, claim: Claim) -> list[Resolution]:
        found = (self.resolved.get(marker_key(m)) for m in claim.citations)
        return [r for r in found if r is not None]

    def evidence(self, claim: Claim) -> list[Resolution] | None:
        """The claim's resolutions that may stand as evidence; None when every one it has quotes text
        addressed to an AI (a planted instruction obeyed is no answer, even when found verbatim)."""
        resolutions = self.resolutions(claim)
        usable = [r for r in resolutions if not addresses_ai(r.block_text)]
        return None if resolutions and not usable else usable

    def number(self, resolution: Resolution) -> int:
        key = (tuple(resolution.block_ids), resolution.quote)
        if key not in self.numbers:
            self.numbers[key] = len(self.numbers) + 1
            # The title as every surface and export shows it: marked when it addresses an AI.
            shown = resolution.model_copy(update={"title": shown_title(resolution.title)})
            self.citations.append(NumberedCitation(number=self.numbers[key], resolution=shown))
        return self.numbers[key]

    def inherited_confidence(self, claim: Claim) -> float | None:
        return next(
            (c for m in claim.citations if (c := self.confidence_by_marker.get(marker_key(m))) is not None), None
        )

    def verdict(self, claim: Claim, text: str, resolutions: list[Resolution], question: str) -> Verdict:
        """The judge's verdict on the text the claim's citations resolved to (and a second reader's)."""
        # Read as the page reads, without its footnote marks ("v0.5.5 10 (Lopez, 2009)" gives no "10").
        quotes = [r.read_text or r.matched_text for r in resolutions]
        titles = sorted({r.title for r in resolutions})
        second = Label(claim.reading) if claim.reading else None
        verdict = self.reading.judge(text, quotes, question, titles, second)
        # A short answer shown before the quote is judged too, unless it is the Yes/No the quote was
        # read as (the yes/no lead is decided on the quote's polarity where it is made).
        if verdict.states and claim.answer and claim.answer not in ("Yes", "No"):
            verdict = self.reading.judge(claim.answer, quotes, question, titles)
        return verdict

    def claim(self, claim: Claim, confidence: float | None, question: str = "") -> ReportClaim | None:
        resolutions = self.evidence(claim)
        if resolutions is None:
            self.addressed += 1
            return None
        text = claim.text.strip()
        verdict = self.verdict(claim, text, resolutions, question) if resolutions else None
        # A writer's words the library does not state, repeating a planted instruction: obeyed, not evidence.
        stated = verdict is not None and verdict.states
        if not stated and echoes(" ".join(filter(None, [claim.answer, text])), self.addressed_texts):
            self.addressed += 1
            return None
        if verdict is not None:
            numbers = [self.number(r) for r in resolutions]
            by_line = numbers if _quoted_line_by_line(text, resolutions) else []
            if verdict.states:
                return ReportClaim(
                    text=text,
                    status=ClaimStatus.VERIFIED,
                    citations=numbers,
                    confidence=None if confidence is None else min(confidence, verdict.score),
                    answer=claim.answer,
                    line_citations=by_line,
                )
            status = _FLAGS[verdict.label]
            self.unsupported += status is ClaimStatus.UNSUPPORTED
            self.contradicted += status is ClaimStatus.CONTRADICTED
            return ReportClaim(
                text=text,
                status=status,
                citations=numbers,
                answer=claim.answer,
                reason=verdict.reason,
                line_citations=by_line,
            )
        if self.policy is UnresolvedPolicy.DROP:
            self.dropped += 1
            return None
        self.unverified += 1
        return ReportClaim(text=text, status=ClaimStatus.UNVERIFIED, confidence=confidence, answer=claim.answer)

    def claims(self, claims: list[Claim], confidence: float | None = None, question: str = "") -> list[ReportClaim]:
        """``confidence``: the section's; claims outside a section inherit their evidence's."""
        rendered = (
            self.claim(c, self.inherited_confidence(c) if confidence is None else confidence, question) for c in claims
        )
        return [c for c in rendered if c is not None]

    def section(self, number: int, section: DraftSection) -> ReportSection:
        claims = self.claims(section.claims, section.confidence, section.sub_question.question)
        status, confidence = section.status, section.confidence
        # Claims none of which their text states answer nothing: the writer's confidence was in its own words.
        if section.claims and not any(c.status is ClaimStatus.VERIFIED for c in claims):
            status, confidence = FindingStatus.UNVERIFIED, 0.0
            claims = [c.model_copy(update={"confidence": None}) for c in claims]
        return ReportSection(
            number=number,
            sub_question=section.sub_question,
            status=status,
            confidence=confidence,
            claims=claims,
            disputed=section.disputed,
            extractive=section.extractive,
        )

    def disagreement(self, item: Contradiction) -> Disagreement | None:
        a, b = self.evidence(item.side_a) or [], self.evidence(item.side_b) or []
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

    def closest(self, section: ReportSection, draft: DraftSection) -> ReportSection:
        """A section still not answered, with the numbers of its closest passages that resolved (one
        that did not, or that quotes text addressed to an AI, is never shown): evidence, no claim."""
        if section.status is not FindingStatus.GAP:
            return section
        found = (self.resolved.get(marker_key(m)) for m in draft.closest)
        numbers = [self.number(r) for r in found if r is not None and not addresses_ai(r.block_text)]
        return section.model_copy(update={"closest": list(dict.fromkeys(numbers))})


def _quoted_line_by_line(text: str, resolutions: list[Resolution]) -> bool:
    """Whether each line of a claim quoting a list (its lead-in, then each item) is the text of the
    block cited in the same place, so each line can carry its own citation."""
    lines = text.split("\n")
    return (
        len(lines) > 1
        and len(lines) == len(resolutions)
        and all(normalise(line) in normalise(r.block_text) for line, r in zip(lines, resolutions, strict=True))
    )


class _Addressed(NamedTuple):
    """A block holding text addressed to an AI, with where it is."""

    doc_id: str
    title: str
    page: int
    text: str
    doc_type: DocType | None
    section: str
    parents: list[str]


def _addressed_blocks(evidence: list[RetrievedChunk], resolved: list[Resolution]) -> list[_Addressed]:
    """Each block of the evidence (or cited) holding text addressed to an AI."""
    blocks = [
        _Addressed(c.doc_id, c.title, b.page, b.text, c.doc_type, b.section, b.parents)
        for c in evidence
        for b in c.blocks
    ]
    blocks += [_Addressed(r.doc_id, r.title, r.page, r.block_text, r.doc_type, r.section, r.parents) for r in resolved]
    return [block for block in blocks if addresses_ai(block.text)]


def cautions(addressed: list[_Addressed]) -> list[Caution]:
    """Each document with ``addressed`` blocks, with the pages they are on and the first one's section."""
    found: dict[str, Caution] = {}
    for a in addressed:
        caution = found.setdefault(
            a.doc_id,
            Caution(
                doc_id=a.doc_id,
                title=shown_title(a.title),
                pages=[],
                text=a.text,
                doc_type=a.doc_type,
                section=a.section,
                parents=a.parents,
            ),
        )
        if a.page not in caution.pages:
            caution.pages = sorted([*caution.pages, a.page])
    return list(found.values())


def render_report(
    draft: DraftReport,
    resolved: dict[str, Resolution | None],
    mode: str,
    policy: UnresolvedPolicy,
    topic: str,
    evidence: list[RetrievedChunk],
    reading: ReportReading,
    single_question: bool = False,
) -> FinalReport:
    """``topic``: the title when the writer's claims all failed to resolve; ``evidence``: what the
    research read, for the cautions; ``reading``: the strategy's, whose judge reads each claim;
    ``single_question``: one question asked, whose report is its answer (a summary would only repeat it)."""
    addressed = _addressed_blocks(evidence, [r for r in resolved.values() if r is not None])
    renderer = _Renderer(draft, resolved, policy, reading, [a.text for a in addressed])
    answer_only = single_question and len(draft.sections) == 1
    # Numbers are given in reading order: summary, sections, disagreements, then closest passages.
    summary = [] if answer_only else renderer.claims(draft.summary)
    sections = [renderer.section(i, s) for i, s in enumerate(draft.sections, start=1)]
    candidates = [renderer.disagreement(item) for item in draft.disagreements]
    disagreements = [d for d in candidates if d is not None]
    sections = [renderer.closest(s, d) for s, d in zip(sections, draft.sections, strict=True)]
    shown = [*summary, *(c for s in sections for c in s.claims)]
    return FinalReport(
        title=_title(draft, shown, renderer.addressed_texts, topic),
        mode=mode,
        single_question=answer_only,
        policy=policy,
        summary=summary,
        sections=sections,
        disagreements=disagreements,
        omitted_disagreements=len(candidates) - len(disagreements),
        gaps=draft.gaps,
        citations=renderer.citations,
        unverified_claims=renderer.unverified,
        unsupported_claims=renderer.unsupported,
        contradicted_claims=renderer.contradicted,
        dropped_claims=renderer.dropped,
        addressed_claims=renderer.addressed,
        cautions=cautions(addressed),
    )


def _title(draft: DraftReport, shown: list[ReportClaim], addressed_texts: list[str], topic: str) -> str:
    """The writer's title, else the topic. A writer's title is its own words; it stands only beside a
    claim the library confirms, and never repeating a planted instruction."""
    vouched = not any(draft.claims()) or any(c.status is not ClaimStatus.UNVERIFIED for c in shown)
    return draft.title if vouched and not echoes(draft.title, addressed_texts) else topic
