"""The report as JSON — what ``prp report --json`` writes and what the service's API returns: the
report's structure, and every citation resolved to its document, pages, blocks (with bounding boxes
on the page for PDFs and character offsets always), the quote as given, the matched and the stored text."""

from __future__ import annotations

from pydantic import BaseModel, Field

from research.evidence import GapNote
from research.report import Disagreement, FinalReport, ReportClaim, ReportSection
from tools.citations.resolve import CitedBlock


class JsonCitation(BaseModel):
    """A citation resolved to its blocks: document, pages, block ids, and where the quote sits —
    a bounding box on the page for PDFs, character offsets in the block (and in the document) always."""

    number: int
    doc_id: str
    title: str
    page: int
    pages: list[int]
    where: str = Field(
        default="",
        description='Where it is in the document\'s own units: "p. 3" (PDF), "slide 4 § Results", "ch. 2 § Rivers", '
        '"§ Methods > Sampling" (a text without pages); "" in a text without pages or sections.',
    )
    block_ids: list[str]
    blocks: list[CitedBlock]
    quote: str
    matched_text: str
    block_text: str
    score: float


class JsonReport(BaseModel):
    thread_id: str
    topic: str = Field(description="The question or topic researched: for a follow-up, the standalone question.")
    asked: str | None = Field(
        default=None, description="A follow-up as the researcher typed it, when it was read as another question."
    )
    single_question: bool
    title: str
    mode: str
    summary: list[ReportClaim]
    sections: list[ReportSection]
    disagreements: list[Disagreement]
    gaps: list[GapNote]
    citations: list[JsonCitation]
    unverified_claims: int
    unsupported_claims: int
    contradicted_claims: int
    dropped_claims: int
    markdown: str

    @classmethod
    def of(
        cls, thread_id: str, topic: str, single_question: bool, report: FinalReport, asked: str | None = None
    ) -> JsonReport:
        return cls(
            thread_id=thread_id,
            topic=topic,
            asked=asked,
            single_question=single_question,
            title=report.title,
            mode=report.mode,
            summary=report.summary,
            sections=report.sections,
            disagreements=report.disagreements,
            gaps=report.gaps,
            citations=[
                JsonCitation(
                    number=c.number,
                    doc_id=c.resolution.doc_id,
                    title=c.resolution.title,
                    page=c.resolution.page,
                    pages=c.resolution.pages,
                    where=c.resolution.where,
                    block_ids=c.resolution.block_ids,
                    blocks=c.resolution.bboxes,
                    quote=c.resolution.quote,
                    matched_text=c.resolution.matched_text,
                    block_text=c.resolution.block_text,
                    score=round(c.resolution.score, 1),
                )
                for c in report.citations
            ],
            unverified_claims=report.unverified_claims,
            unsupported_claims=report.unsupported_claims,
            contradicted_claims=report.contradicted_claims,
            dropped_claims=report.dropped_claims,
            markdown=report.markdown,
        )
