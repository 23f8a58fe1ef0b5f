"""The contradiction map: every disagreement the report shows, one row each, both sides cited."""

from __future__ import annotations

from research.report import inert_html
from tools.citations.resolve import Resolution
from ui.core.exports.csv_text import csv_text
from ui.core.exports.record import ReportRecord

COLUMNS = ["claim", "kind", "side_a", "side_a_citation", "side_b", "side_b_citation", "explanation"]


def contradiction_rows(record: ReportRecord) -> list[dict[str, str]]:
    return [
        {
            "claim": item.subject,
            "kind": item.kind,
            "side_a": _side(a),
            "side_a_citation": _citation(na, a),
            "side_b": _side(b),
            "side_b_citation": _citation(nb, b),
            "explanation": " ".join(item.explanation.split()),
        }
        for item, (na, a), (nb, b) in record.shown_disagreements()
    ]


def _side(r: Resolution) -> str:
    return f"{r.title}: \u201c{' '.join(r.matched_text.split())}\u201d"


def _citation(number: int, r: Resolution) -> str:
    return f"[{number}] {r.where + ', ' if r.where else ''}block {', '.join(r.block_ids)}"


def contradictions_csv(record: ReportRecord) -> str:
    return csv_text(COLUMNS, contradiction_rows(record))


def contradictions_markdown(record: ReportRecord) -> str:
    rows = contradiction_rows(record)
    lines = [f"# Contradiction map: {record.report.title}", ""]
    if not rows:
        lines += ["No disagreement between sources was found in the evidence gathered.", ""]
    else:
        lines += ["| Claim | Side A | Side B |", "|---|---|---|"]
        for row in rows:
            a = f"{row['side_a']} {row['side_a_citation']}"
            b = f"{row['side_b']} {row['side_b_citation']}"
            lines.append(f"| {_cell(row['claim'])} | {_cell(a)} | {_cell(b)} |")
        lines += ["", *(f"- **{_cell(r['claim'])}**: {r['explanation']}" for r in rows), ""]
    return inert_html("\n".join(lines))


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
