"""The evidence and citation objects that flow through the research graph.

Evidence and citations are first-class: a ``Claim`` carries ``CitationMarker``s (a block-id hint
plus the quoted span), and only the citation node turns markers into ``Resolution``s of stored
blocks. Everything is a pydantic model so checkpoints serialise and resume exactly.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from enum import StrEnum

from pydantic import BaseModel, Field

from corpus.retrieval import RetrievedChunk


class SubQuestion(BaseModel):
    id: str = Field(description="Stable id within the plan, e.g. 'q1'.")
    question: str
    rationale: str = Field(description="Why answering it matters for the topic.")


class CitationMarker(BaseModel):
    """What a writer (model or extractive strategy) says supports a claim: a hint and a quote."""

    block_id: str | None = Field(default=None, description="Block id the quote came from (a hint only).")
    quote: str = Field(description="The exact words quoted from the source block.")


class Claim(BaseModel):
    text: str
    citations: list[CitationMarker] = Field(default_factory=list)
    answer: str | None = Field(
        default=None,
        description="The short answer the quote gives (a name, number, date, Yes/No), shown before it; "
        "None for a descriptive claim.",
    )
    reading: str | None = Field(
        default=None,
        description="LLM mode's second reader: whether the model, reading the cited text, finds it states the "
        "claim (states, contradicts, neither); None when not asked. See strategies.reading.judge.read_again.",
    )

    @property
    def first_line(self) -> str:
        """The claim's prose; lines after it are the items of a list it quotes."""
        return self.text.split("\n", 1)[0]


class FindingStatus(StrEnum):
    ANSWERED = "answered"
    ANSWERED_AFTER_RETRY = "answered_after_retry"
    GAP = "gap"
    # Not answered as one fact, but its documents give different answers: a report section only.
    DISPUTED = "disputed"
    # The writer answered it, but no claim's quote is in the library: a report section only, never
    # counted as answered (a model's word is no evidence).
    UNVERIFIED = "unverified"


class Finding(BaseModel):
    sub_question: SubQuestion
    queries: list[str] = Field(default_factory=list, description="Every query tried, in order.")
    evidence: list[RetrievedChunk] = Field(default_factory=list)
    claims: list[Claim] = Field(default_factory=list)
    status: FindingStatus = FindingStatus.GAP
    confidence: float = 0.0
    retries: int = 0
    next_queries: list[str] = Field(default_factory=list, description="Reformulations to try on retry.")
    suggestions: list[str] = Field(default_factory=list, description="For a gap: what might help.")
    extractive: bool = Field(default=False, description="See research.strategy.Answer.extractive.")
    unstated: list[Claim] = Field(default_factory=list, description="See research.strategy.Answer.unstated.")


class Contradiction(BaseModel):
    subject: str
    kind: str = Field(description="numeric | date | negation | claim")
    explanation: str
    side_a: Claim
    side_b: Claim
    sub_question_id: str | None = Field(
        default=None,
        description="Set when the documents give different answers to this sub-question: its section then "
        "presents the sides instead of stating one answer.",
    )


class GapNote(BaseModel):
    sub_question: SubQuestion
    queries_tried: list[str]
    suggestions: list[str]


class DraftSection(BaseModel):
    sub_question: SubQuestion
    status: FindingStatus
    confidence: float
    claims: list[Claim]
    disputed: bool = Field(default=False, description="The documents disagree: the claims are the sides.")
    extractive: bool = Field(default=False, description="See research.strategy.Answer.extractive.")
    closest: list[CitationMarker] = Field(
        default_factory=list,
        description="Not answered: the sentences nearest to it (``strategies.reading.closest``), shown as "
        "evidence, never as an answer.",
    )


class DraftReport(BaseModel):
    title: str
    summary: list[Claim]
    sections: list[DraftSection]
    disagreements: list[Contradiction]
    gaps: list[GapNote]

    def claims(self) -> Iterator[Claim]:
        """Every claim of the draft, in reading order."""
        yield from self.summary
        for section in self.sections:
            yield from section.claims
        for disagreement in self.disagreements:
            yield disagreement.side_a
            yield disagreement.side_b

    def markers(self) -> Iterator[CitationMarker]:
        """Every citation marker to resolve: the claims', then the closest passages'."""
        for claim in self.claims():
            yield from claim.citations
        for section in self.sections:
            yield from section.closest


def marker_key(marker: CitationMarker) -> str:
    """Identity of a marker: the same quote with the same hint resolves once."""
    return hashlib.sha1(f"{marker.block_id}\x00{marker.quote}".encode()).hexdigest()[:16]
