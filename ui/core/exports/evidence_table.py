"""The evidence table: one row per (claim, citation) the report shows, as CSV.

The quote is the stored text the citation resolved to (cited text is the source of truth), not the
words the writer gave; confidence is the finding's confidence for the sub-question the claim
answers, ``location`` is where the quote is in its document's units ("p. 3", "slide 4 § Results",
"§ Methods"; ``page`` is the number alone), and ``match`` is how closely the writer's quote matched
the stored block (0-100).
"""

from __future__ import annotations

from corpus.text import page_range
from ui.core.exports.csv_text import csv_text
from ui.core.exports.record import ReportRecord

COLUMNS = [
    "claim",
    "quote",
    "document",
    "page",
    "location",
    "confidence",
    "citation",
    "part",
    "doc_id",
    "block_ids",
    "match",
]


def evidence_rows(record: ReportRecord) -> list[dict[str, str | int | float]]:
    rows: list[dict[str, str | int | float]] = []
    for claim in record.cited_claims():
        for number, r in claim.citations:
            rows.append(
                {
                    "claim": claim.text,
                    "quote": " ".join(r.matched_text.split()),
                    "document": r.title,
                    "page": page_range(r.pages),
                    "location": r.where,
                    "confidence": "" if claim.confidence is None else round(claim.confidence, 2),
                    "citation": number,
                    "part": claim.part,
                    "doc_id": r.doc_id,
                    "block_ids": " ".join(r.block_ids),
                    "match": round(r.score, 1),
                }
            )
    return rows


def evidence_csv(record: ReportRecord) -> str:
    return csv_text(COLUMNS, evidence_rows(record))
