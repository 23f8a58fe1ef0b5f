"""A whole conversation (every finished turn of a chat, or of ``prp ask --thread``) as one record the
exports read: the turns' reports joined, citations numbered through the conversation (turn 2's
first citation follows turn 1's last), so the evidence table, the bibliographies, the contradiction
map and the report all number a citation alike.

The report is each turn's own report in turn order, under "Turn n: <question>", its headings one
level down and its citations renumbered, each turn with its references.
"""

from __future__ import annotations

import re

from research.evidence import SubQuestion
from research.report import Disagreement, FinalReport, ReportClaim, ReportSection, markdown_text
from ui.core.exports.record import ReportRecord


def _shifted(report: FinalReport, offset: int) -> FinalReport:
    """``report`` with every citation number raised by ``offset``."""

    def claim(c: ReportClaim) -> ReportClaim:
        return c.model_copy(update={"citations": [n + offset for n in c.citations]})

    def disagreement(d: Disagreement) -> Disagreement:
        return d.model_copy(update={"sides": tuple(claim(side) for side in d.sides)})

    return report.model_copy(
        update={
            "summary": [claim(c) for c in report.summary],
            "sections": [
                s.model_copy(
                    update={"claims": [claim(c) for c in s.claims], "closest": [n + offset for n in s.closest]}
                )
                for s in report.sections
            ],
            "disagreements": [disagreement(d) for d in report.disagreements],
            "citations": [c.model_copy(update={"number": c.number + offset}) for c in report.citations],
        }
    )


def _turn_reports(records: list[ReportRecord]) -> list[FinalReport]:
    reports, offset = [], 0
    for record in records:
        reports.append(_shifted(record.report, offset))
        offset += len(record.report.citations)
    return reports


def _asked(record: ReportRecord) -> str:
    return record.asked or record.topic


def conversation_record(conversation: str, records: list[ReportRecord]) -> ReportRecord:
    """The finished turns ``records`` (in turn order) as one record, citations numbered throughout."""
    if not records:
        raise ValueError("a conversation export needs at least one finished turn")
    reports = _turn_reports(records)
    merged = _merged(records[0].report, reports, _sections(records, reports))
    return ReportRecord(
        thread_id=conversation,
        topic=records[0].topic,
        single_question=False,
        report=merged,
        findings=[f for r in records for f in r.findings],
    )


def _sections(records: list[ReportRecord], reports: list[FinalReport]) -> list[ReportSection]:
    """Every turn's sections in turn order, numbered through the conversation."""
    sections: list[ReportSection] = []
    for record, report in zip(records, reports, strict=True):
        for section in report.sections:
            # A one-question turn's section is the question as the researcher typed it.
            question = _asked(record) if report.single_question else section.sub_question.question
            sub = SubQuestion(id=f"t{len(sections) + 1}", question=question, rationale=section.sub_question.rationale)
            sections.append(section.model_copy(update={"number": len(sections) + 1, "sub_question": sub}))
    return sections


def _merged(first: FinalReport, reports: list[FinalReport], sections: list[ReportSection]) -> FinalReport:
    """The turns' ``reports`` (citations already numbered through) as one, titled after the ``first``."""
    cautions = {c.doc_id: c for r in reports for c in r.cautions}
    return FinalReport(
        title=f"Conversation: {first.title}",
        mode=first.mode,
        policy=first.policy,
        summary=[c for r in reports for c in r.summary],
        sections=sections,
        disagreements=[d for r in reports for d in r.disagreements],
        gaps=[g for r in reports for g in r.gaps],
        citations=[c for r in reports for c in r.citations],
        cautions=list(cautions.values()),
        **_summed(reports),
    )


def _summed(reports: list[FinalReport]) -> dict[str, int]:
    """The counts a report keeps of its claims and disagreements: the conversation's are the turns' added."""
    return {
        "omitted_disagreements": sum(r.omitted_disagreements for r in reports),
        "unverified_claims": sum(r.unverified_claims for r in reports),
        "dropped_claims": sum(r.dropped_claims for r in reports),
        "unsupported_claims": sum(r.unsupported_claims for r in reports),
        "addressed_claims": sum(r.addressed_claims for r in reports),
    }


def conversation_markdown(conversation: str, records: list[ReportRecord]) -> str:
    """Every turn's report in order, headings one level down, citations numbered through."""
    n = len(records)
    lines = [
        f"# Conversation: {markdown_text(records[0].report.title)}",
        "",
        f"> {n} turn{'s' if n != 1 else ''} (conversation `{conversation}`); citations are numbered through the "
        "conversation, as in its evidence table and bibliography.",
        "",
    ]
    for i, (record, report) in enumerate(zip(records, _turn_reports(records), strict=True), start=1):
        body = report.markdown
        title, _, rest = body.partition("\n")
        lines.append(f"## Turn {i}: {markdown_text(_asked(record))}")
        if title.removeprefix("# ") != markdown_text(_asked(record)):
            lines += ["", f"*Researched as: {title.removeprefix('# ')}*"]
        lines.append(re.sub(r"^(#+) ", r"\1# ", rest, flags=re.MULTILINE).rstrip())
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
