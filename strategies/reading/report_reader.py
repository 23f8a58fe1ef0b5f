"""``ReportReader``: the reading core as the graph's nodes ask for it (``research.strategy.ReportReading``).

Both modes hand one out over their embeddings (``ResearchStrategy.reading``), so the nodes reach the
document answers, the judge and the closest passages through the strategy, never by module.
"""

from __future__ import annotations

from corpus.retrieval import RetrievedChunk
from research.evidence import CitationMarker, Claim, Contradiction, Finding
from research.verdict import Label, Verdict
from strategies.reading.about_the_topic import about_its_document
from strategies.reading.answerhood import answer_verdict
from strategies.reading.closest import closest_passages
from strategies.reading.document_answers import answer_disputes
from strategies.reading.judge import judge, read_again
from strategies.reading.vectors import Meaning, Vectors


class ReportReader:
    def __init__(self, vectors: Vectors, quoted: bool = False, unasked: frozenset[str] = frozenset()):
        """``quoted``: the strategy's claims are its documents' own sentences, so a topic section's lead
        is read for an answer here (the render node's judge confirms a quote as its own words, answering
        or not); ``unasked``: stems of the words the strategy frames its sub-questions with, which no
        answer needs to repeat."""
        self.vectors = vectors
        self.meaning = Meaning(vectors)
        self.quoted = quoted
        self.unasked = unasked

    def disputes(self, findings: list[Finding]) -> list[Contradiction]:
        return answer_disputes(findings, self.vectors)

    def about_its_document(self, sentence: str) -> bool:
        return about_its_document(sentence)

    def lead_answers(self, finding: Finding, lead: Claim) -> bool:
        if not self.quoted:
            return True
        titles = sorted({c.title for c in finding.evidence})
        return answer_verdict(finding.sub_question.question, [lead.first_line], titles, unasked=self.unasked).states

    def closest(self, question: str, evidence: list[RetrievedChunk]) -> list[CitationMarker]:
        return closest_passages(question, evidence, self.vectors)

    def judge(
        self, claim: str, quotes: list[str], question: str, titles: list[str], reading: Label | None = None
    ) -> Verdict:
        return read_again(judge(claim, quotes, question, titles, self.meaning), reading)
