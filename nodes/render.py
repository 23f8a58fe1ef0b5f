"""Render a resolved draft as the final Markdown report.

Citations are numbered here by first appearance; numbering is the only thing that happens to them.
A claim whose markers all failed to resolve is flagged "unverified" or dropped, per the run's policy.
"""

from __future__ import annotations

from collections.abc import Callable

from graph.context import UnresolvedPolicy
from graph.state import (
    Claim,
    Contradiction,
    DraftReport,
    FinalReport,
    FindingStatus,
    NumberedCitation,
    marker_key,
)
from tools.resolve_citation import Resolution

UNVERIFIED = "⚠ *unverified: the quoted text was not found in the library*"


class Numbering:
    """Assigns citation numbers in order of first appearance."""

    def __init__(self, resolved: dict[str, Resolution | None]):
        self._resolved = resolved
        self._numbers: dict[tuple, int] = {}
        self.citations: list[NumberedCitation] = []

    def resolutions(self, claim: Claim) -> list[Resolution]:
        found = (self._resolved.get(marker_key(m)) for m in claim.citations)
        return [r for r in found if r is not None]

    def number(self, resolution: Resolution) -> int:
        key = (tuple(resolution.block_ids), resolution.quote)
        if key not in self._numbers:
            self._numbers[key] = len(self._numbers) + 1
            self.citations.append(NumberedCitation(number=self._numbers[key], resolution=resolution))
        return self._numbers[key]


def render_report(
    draft: DraftReport,
    resolved: dict[str, Resolution | None],
    mode: str,
    policy: UnresolvedPolicy,
) -> FinalReport:
    numbering = Numbering(resolved)
    counts = {"unverified": 0, "dropped": 0}

    def cite(claim: Claim) -> str | None:
        resolutions = numbering.resolutions(claim)
        if resolutions:
            marks = "".join(f"[{numbering.number(r)}]" for r in resolutions)
            return f"{claim.text.strip()} {marks}"
        if policy is UnresolvedPolicy.DROP:
            counts["dropped"] += 1
            return None
        counts["unverified"] += 1
        return f"{claim.text.strip()} {UNVERIFIED}"

    body: list[str] = []
    body += _summary(draft, cite)
    for i, section in enumerate(draft.sections, start=1):
        body += _section(i, section, cite)
    body += _disagreements(draft.disagreements, numbering)
    body += _gaps(draft)
    references = _references(numbering.citations)
    header = _header(draft, mode, len(numbering.citations), counts, policy)
    markdown = "\n".join([f"# {draft.title}", "", *header, "", *body, *references]).rstrip() + "\n"
    return FinalReport(
        title=draft.title,
        mode=mode,
        markdown=markdown,
        citations=numbering.citations,
        unverified_claims=counts["unverified"],
        dropped_claims=counts["dropped"],
    )


def _header(draft: DraftReport, mode: str, n_citations: int, counts: dict, policy: UnresolvedPolicy) -> list[str]:
    answered = sum(1 for s in draft.sections if s.status is not FindingStatus.GAP)
    if mode == "offline":
        written = "Written in **offline mode**: deterministic extractive research, no language model."
    else:
        written = f"Written in **LLM mode** ({mode.removeprefix('llm ').strip('()')})."
    lines = [
        f"> {written}",
        f"> {len(draft.sections)} sub-questions: {answered} answered, {len(draft.sections) - answered} "
        f"not answered by the corpus. {n_citations} citations, each resolved to the block it quotes.",
    ]
    if policy is UnresolvedPolicy.MARK and counts["unverified"]:
        lines.append(f"> {counts['unverified']} claim(s) marked unverified: their quotes match no stored block.")
    if policy is UnresolvedPolicy.DROP and counts["dropped"]:
        lines.append(f"> {counts['dropped']} claim(s) dropped: their quotes match no stored block.")
    return lines


def _summary(draft: DraftReport, cite: Callable[[Claim], str | None]) -> list[str]:
    lines = [cite(c) for c in draft.summary]
    kept = [line for line in lines if line]
    if not kept:
        return ["## Summary", "", "The library holds no evidence that answers this topic.", ""]
    return ["## Summary", "", " ".join(kept), ""]


def _section(index: int, section, cite: Callable[[Claim], str | None]) -> list[str]:
    q = section.sub_question
    status = {
        FindingStatus.ANSWERED: "answered",
        FindingStatus.ANSWERED_AFTER_RETRY: "answered after retrying the search",
        FindingStatus.GAP: "not answered by the corpus",
    }[section.status]
    lines = [f"## {index}. {q.question}", "", f"*Why it matters: {q.rationale}* ({status}; confidence {section.confidence:.2f})", ""]
    claims = [line for line in (cite(c) for c in section.claims) if line]
    if claims:
        lines += [f"- {line}" for line in claims]
    else:
        lines.append('The corpus does not answer this; see "What the corpus does not answer".')
    return lines + [""]


def _disagreements(items: list[Contradiction], numbering: Numbering) -> list[str]:
    lines = ["## Where sources disagree", ""]
    shown = 0
    omitted = 0
    for item in items:
        a, b = numbering.resolutions(item.side_a), numbering.resolutions(item.side_b)
        # A disagreement is only shown with both sides verified, from two different documents.
        if not a or not b or a[0].doc_id == b[0].doc_id:
            omitted += 1
            continue
        shown += 1
        lines += [
            f"### {item.subject}",
            "",
            f"- **{a[0].title}**: \u201c{a[0].matched_text}\u201d [{numbering.number(a[0])}]",
            f"- **{b[0].title}**: \u201c{b[0].matched_text}\u201d [{numbering.number(b[0])}]",
            "",
            item.explanation,
            "",
        ]
    if not shown:
        lines += ["No disagreement between sources was found in the evidence gathered.", ""]
    if omitted:
        lines += [f"({omitted} candidate disagreement(s) omitted: a side could not be verified in the library.)", ""]
    return lines


def _gaps(draft: DraftReport) -> list[str]:
    lines = ["## What the corpus does not answer", ""]
    if not draft.gaps:
        return lines + ["Every sub-question found supporting evidence in the library.", ""]
    for gap in draft.gaps:
        tried = "; ".join(f"\u201c{q}\u201d" for q in gap.queries_tried)
        lines += [f"### {gap.sub_question.question}", "", f"- Searches tried: {tried}"]
        lines += [f"- Next step: {s}" for s in gap.suggestions]
        lines.append("")
    return lines


def _references(citations: list[NumberedCitation]) -> list[str]:
    if not citations:
        return []
    lines = ["## References", ""]
    for c in citations:
        r = c.resolution
        pages = f"p. {r.page}" if len(set(r.pages)) <= 1 else f"pp. {min(r.pages)}-{max(r.pages)}"
        blocks = ", ".join(r.block_ids)
        lines.append(f"[{c.number}] {r.title}, {pages}, block {blocks}: \u201c{_clip(r.matched_text)}\u201d")
    return lines + [""]


def _clip(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "\u2026"


def report_record(report: FinalReport, thread_id: str | None = None) -> dict:
    """The report as JSON: every citation with its document, blocks, page, bbox, quote and block text."""
    return {
        "title": report.title,
        "mode": report.mode,
        "thread_id": thread_id,
        "unverified_claims": report.unverified_claims,
        "dropped_claims": report.dropped_claims,
        "citations": [
            {
                "number": c.number,
                "doc_id": c.resolution.doc_id,
                "title": c.resolution.title,
                "block_ids": c.resolution.block_ids,
                "page": c.resolution.page,
                "pages": c.resolution.pages,
                "bbox": [b.bbox.model_dump() if b.bbox else None for b in c.resolution.bboxes],
                "quote": c.resolution.quote,
                "matched_text": c.resolution.matched_text,
                "block_text": c.resolution.block_text,
                "score": round(c.resolution.score, 1),
            }
            for c in report.citations
        ],
        "markdown": report.markdown,
    }
