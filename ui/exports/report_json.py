"""The report as JSON (``prp report --json``): the report structure, and every citation with its
document, blocks, pages, bounding boxes, the quote as given, the matched and the stored text."""

from __future__ import annotations

from research.report import FinalReport


def report_json(report: FinalReport, thread_id: str | None = None) -> dict:
    return {
        "title": report.title,
        "mode": report.mode,
        "thread_id": thread_id,
        "unverified_claims": report.unverified_claims,
        "unsupported_claims": report.unsupported_claims,
        "dropped_claims": report.dropped_claims,
        "summary": [c.model_dump(mode="json") for c in report.summary],
        "sections": [s.model_dump(mode="json") for s in report.sections],
        "disagreements": [d.model_dump(mode="json") for d in report.disagreements],
        "gaps": [g.model_dump(mode="json") for g in report.gaps],
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
