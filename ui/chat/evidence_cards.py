"""Evidence cards: every chunk the run retrieved, per sub-question, with its score and document.

A card whose blocks a citation resolved to carries that citation's number; the card of the
citation open in the evidence panel is outlined, so the reader sees which retrieved passage a
quote came from and what else was retrieved beside it.
"""

from __future__ import annotations

import html

from corpus.locations import unit
from corpus.retrieval import RetrievedChunk
from corpus.text import counted
from research.ai_address import shown_title
from research.evidence import Finding, FindingStatus
from ui.core.exports.record import ReportRecord

SNIPPET_CHARS = 420
STATUS_LABELS = {
    FindingStatus.ANSWERED: "answered",
    FindingStatus.ANSWERED_AFTER_RETRY: "answered after retry",
    FindingStatus.GAP: "gap: not answered by the corpus",
    FindingStatus.DISPUTED: "disputed: the documents answer it differently",
    FindingStatus.UNVERIFIED: "unverified: no claim could be verified in the library",
}


def evidence_cards(record: ReportRecord, active: int | None = None) -> str:
    cited_by_block: dict[str, list[int]] = {}
    for c in record.report.citations:
        for block_id in c.resolution.block_ids:
            cited_by_block.setdefault(block_id, []).append(c.number)
    active_blocks = set()
    if active is not None:
        active_blocks = {b for c in record.report.citations if c.number == active for b in c.resolution.block_ids}
    total = sum(len(f.evidence) for f in record.findings)
    parts = [
        f'<div class="prp-cards"><p class="prp-note">{counted(total, "retrieved chunk")} across '
        f"{counted(len(record.findings), 'sub-question')}. Scores are the retriever's: RRF fusion in hybrid mode, cosine "
        "in dense, BM25 in sparse; higher is better.</p>"
    ]
    # A section's status and confidence, as in the report: a gap whose documents answer differently is
    # disputed, and an answer whose claims all failed to resolve is unverified, at confidence 0.
    shown = {s.sub_question.id: (s.status, s.confidence) for s in record.report.sections}
    for finding in record.findings:
        status, confidence = shown.get(finding.sub_question.id, (finding.status, finding.confidence))
        parts.append(_finding_head(finding, status, confidence))
        parts += [_card(chunk, cited_by_block, active_blocks) for chunk in finding.evidence]
        parts.append("</details>")
    parts.append("</div>")
    return "".join(parts)


def _finding_head(finding: Finding, status: FindingStatus, confidence: float) -> str:
    """A sub-question's opening: its id, question, status and confidence, and what it searched for."""
    q = finding.sub_question
    queries = "; ".join(f"\u201c{html.escape(x)}\u201d" for x in finding.queries)
    return (
        f'<details class="prp-finding" open><summary><b>{html.escape(q.id)}</b> {html.escape(q.question)} '
        f'<span class="prp-status prp-{status.value}">{STATUS_LABELS[status]}, '
        f"confidence {confidence:.2f}</span></summary>"
        f'<div class="prp-queries">searched: {queries}</div>'
    )


def _card(chunk: RetrievedChunk, cited_by_block: dict[str, list[int]], active_blocks: set[str]) -> str:
    """One retrieved chunk: rank, score, document and place, the citation numbers it carries, a snippet."""
    block_ids = [b.block_id for b in chunk.blocks]
    numbers = sorted({n for b in block_ids for n in cited_by_block.get(b, [])})
    classes = "prp-card" + (" prp-card-active" if active_blocks & set(block_ids) else "")
    where = " \u00b7 ".join(
        x for x in (chunk.doc_type.value, unit(chunk.doc_type, chunk.pages), html.escape(chunk.section)) if x
    )
    year = f" ({chunk.year})" if chunk.year else ""
    badge = "".join(f'<span class="prp-badge">[{n}]</span>' for n in numbers)
    text = " ".join(chunk.text.split())
    snippet = text if len(text) <= SNIPPET_CHARS else text[: SNIPPET_CHARS - 1] + "\u2026"
    return (
        f'<div class="{classes}"><div class="prp-card-head"><span class="prp-rank">#{chunk.rank}</span>'
        f'<span class="prp-score">score {chunk.score:.4f}</span>'
        f'<span class="prp-doc">{html.escape(shown_title(chunk.title))}{year}</span>'
        f'<span class="prp-where">{where}</span>{badge}</div>'
        f'<div class="prp-snippet">{html.escape(snippet)}</div></div>'
    )
