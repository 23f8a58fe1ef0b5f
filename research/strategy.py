"""What a research strategy must do. The graph is the same in both modes; only the strategy differs.

``OfflineStrategy`` (deterministic: templates, keyphrases, extractive answers, lexical/numeric checks)
and ``LLMStrategy`` (structured output through langchain-openai) implement this protocol. Nodes call
the strategy from ``runtime.context``; they never know which mode they run in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from pydantic import BaseModel, Field

from corpus.retrieval import RetrievedChunk
from research.conversation import FollowUp, Turn
from research.evidence import CitationMarker, Claim, Contradiction, Finding, SubQuestion
from research.verdict import Label, Verdict

if TYPE_CHECKING:  # a type only: importing the embedder loads fastembed, a second to who needs the vocabulary
    from corpus.embeddings import Embedder


class Answer(BaseModel):
    """A strategy's answer to one sub-question, with its own judgement of the evidence."""

    claims: list[Claim]
    confidence: float = Field(ge=0.0, le=1.0)
    sufficient: bool
    next_queries: list[str] = Field(default_factory=list, description="Reformulations if insufficient.")
    evidence: list[RetrievedChunk] | None = Field(
        default=None, description="The evidence re-ranked by the strategy, best first; None: as retrieved."
    )
    extractive: bool = Field(
        default=False,
        description="LLM mode: the claims are the documents' own sentences, chosen without the model, "
        "because none of the model's claims was stated by the evidence it was shown, or they quoted text "
        "much less relevant than the sentence offline mode leads with.",
    )
    unstated: list[Claim] = Field(
        default_factory=list,
        description="LLM mode: the model's claims its cited sentences do not state. When the sub-question "
        "is not answered they are still shown, flagged beside the passage they cite, never silently dropped.",
    )


class ReportReading(Protocol):
    """The reading every report gets whichever mode wrote its claims, as the graph's nodes ask for it:
    the nodes know this, never the reading core (an import contract keeps it so)."""

    def disputes(self, findings: list[Finding]) -> list[Contradiction]:
        """Sub-questions whose documents answer differently, each side cited (without the model: a
        model may miss that two sources disagree, or state one side as fact)."""

    def about_its_document(self, sentence: str) -> bool:
        """``sentence`` is about its own document (its layout, its authors' plans) or says nothing of its own."""

    def lead_answers(self, finding: Finding, lead: Claim) -> bool:
        """Whether a topic section's ``lead`` states an answer to its sub-question, where the strategy's
        claims are quoted sentences (which the render node's judge confirms as their own words);
        True where they are a writer's, which that judge reads against their cited text."""

    def closest(self, question: str, evidence: list[RetrievedChunk]) -> list[CitationMarker]:
        """For a question the library does not answer: the evidence's sentences nearest to it, as markers."""

    def judge(
        self, claim: str, quotes: list[str], question: str, titles: list[str], reading: Label | None = None
    ) -> Verdict:
        """Whether the cited ``quotes`` (read with their documents' ``titles`` and the ``question``)
        state ``claim``, with a second reader's ``reading`` (LLM mode's model) beside the judge's."""


class ResearchStrategy(Protocol):
    mode: str
    """'offline' or 'llm (<model>)': shown in every report header."""

    def condense(self, question: str, history: list[Turn]) -> FollowUp:
        """``question`` as a standalone one, read against the conversation's earlier ``history``
        (oldest first): unchanged unless it leans on them ("and what does it cost?")."""

    def plan(self, topic: str, single_question: bool, scout: list[RetrievedChunk]) -> list[SubQuestion]:
        """Decompose the topic; ``scout`` is a first retrieval on the topic itself (empty for a single
        question, which is researched as asked)."""

    def answer(
        self,
        sub_question: SubQuestion,
        evidence: list[RetrievedChunk],
        queries: list[str],
        read: frozenset[str] = frozenset(),
    ) -> Answer:
        """Answer from the evidence only, judge whether it suffices, and propose reformulations. ``read``:
        on a retry, the ids of the chunks an earlier round answered from (the rest is what the
        reformulated searches added)."""

    def suggest(self, finding: Finding) -> list[str]:
        """For a gap: next steps a researcher could take (other terms, documents to add)."""

    def contradictions(self, findings: list[Finding], disputes: list[Contradiction]) -> list[Contradiction]:
        """The report's disagreements: ``disputes`` (documents answering a sub-question differently,
        the graph's ``answer_disputes`` step) with the pairs of claims from different documents the
        strategy finds disagreeing, each side cited."""

    def summarize(
        self, topic: str, findings: list[Finding], contradictions: list[Contradiction]
    ) -> tuple[str, list[Claim]]:
        """The report's title and summary claims (cited)."""

    def reading(self, embedder: Embedder) -> ReportReading:
        """The reading the graph gives every report, by meaning with the strategy's own embeddings
        where it keeps them (what it read is embedded once), else with ``embedder``'s."""
