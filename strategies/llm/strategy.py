"""LLM mode: planning, answering, contradiction finding and summarising through a chat model.

LLM calls per report: 1 (plan) + 1 per sub-question (answer and assessment together) + 1 per gap
retry + 1 (contradictions) + 1 (summary). Everything the model says about sources is a *marker* (block
hint + quote) that the citation node verifies against the store.
"""

from __future__ import annotations

import json

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel, Field, field_validator
from rapidfuzz import fuzz, utils

from corpus.embeddings import Embedder
from corpus.retrieval import RetrievedChunk
from prompts.answer import ANSWER
from prompts.common import SYSTEM
from prompts.contradictions import CONTRADICTIONS
from prompts.plan import PLAN, SINGLE
from prompts.summary import SUMMARY
from research.conversation import FollowUp, Turn
from research.evidence import CitationMarker, Claim, Contradiction, Finding, FindingStatus, SubQuestion
from research.strategy import Answer
from strategies.llm.evidence import pack_evidence
from strategies.llm.follow_up import condense as condense_follow_up
from strategies.llm.leaks import leaks_instructions
from strategies.llm.structured import SchemaFormat, structured_call
from strategies.offline.document_answers import answer_disputes
from strategies.offline.vectors import Vectors

MIN_QUESTIONS, MAX_QUESTIONS = 3, 6
# Two sub-questions this similar (token-set ratio, ignoring case and punctuation) ask the same
# thing; small models often repeat themselves.
DUPLICATE_SIMILARITY = 88


class PlannedQuestion(BaseModel):
    question: str
    rationale: str


class PlanOutput(BaseModel):
    sub_questions: list[PlannedQuestion]


class CitationOutput(BaseModel):
    block_id: str
    quote: str


class ClaimOutput(BaseModel):
    text: str
    citations: list[CitationOutput] = Field(default_factory=list)


class AnswerOutput(BaseModel):
    claims: list[ClaimOutput] = Field(default_factory=list)
    sufficient: bool
    confidence: float = Field(ge=0.0, le=1.0)
    next_queries: list[str] = Field(default_factory=list)

    @field_validator("confidence", mode="before")
    @classmethod
    def _percent_to_fraction(cls, value: object) -> object:
        # Small models often answer a percentage ("confidence": 85): a grammar cannot bound numbers.
        if isinstance(value, int | float) and 1 < value <= 100:
            return value / 100
        return value


class SideOutput(BaseModel):
    claim: str
    block_id: str
    quote: str


class ContradictionOutput(BaseModel):
    subject: str
    explanation: str
    side_a: SideOutput
    side_b: SideOutput


class ContradictionsOutput(BaseModel):
    contradictions: list[ContradictionOutput] = Field(default_factory=list)


class SummaryOutput(BaseModel):
    title: str
    summary: list[ClaimOutput] = Field(default_factory=list)


class LLMStrategy:
    def __init__(
        self,
        llm: BaseChatModel,
        model_name: str,
        schema_format: SchemaFormat = "json_schema",
        embedder: Embedder | None = None,
    ):
        """``embedder``: for the deterministic check of what each document answers (see contradictions)."""
        self.llm = llm
        self.mode = f"llm ({model_name})"
        self.schema_format = schema_format
        self.vectors = Vectors(embedder) if embedder is not None else None

    def _call(self, schema: type[BaseModel], prompt: str, step: str, **fields) -> BaseModel:
        text = prompt.format(schema=json.dumps(schema.model_json_schema()), **fields)
        messages = [SystemMessage(content=SYSTEM), HumanMessage(content=text)]
        return structured_call(self.llm, schema, messages, step, self.schema_format)

    def plan(self, topic: str, single_question: bool, scout: list[RetrievedChunk]) -> list[SubQuestion]:
        # Only the researcher's topic goes into the planning prompt: document text never steers the plan.
        if single_question:
            out = self._call(PlanOutput, SINGLE, "plan", topic=topic)
            first = next(
                iter(_distinct(out.sub_questions)), PlannedQuestion(question=topic, rationale="The question asked.")
            )
            return [SubQuestion(id="q1", question=first.question.strip(), rationale=first.rationale.strip())]
        out = self._call(
            PlanOutput, PLAN, "plan", topic=topic, min_questions=MIN_QUESTIONS, max_questions=MAX_QUESTIONS
        )
        kept = _distinct(out.sub_questions)[:MAX_QUESTIONS] or [
            PlannedQuestion(question=topic, rationale="The topic as asked.")
        ]
        return [
            SubQuestion(id=f"q{i}", question=q.question.strip(), rationale=q.rationale.strip())
            for i, q in enumerate(kept, 1)
        ]

    def condense(self, question: str, history: list[Turn]) -> FollowUp:
        return condense_follow_up(self._call, question, history)

    def answer(self, sub_question: SubQuestion, evidence: list[RetrievedChunk], queries: list[str]) -> Answer:
        if not evidence:
            return Answer(claims=[], confidence=0.0, sufficient=False, next_queries=[])
        out = self._call(
            AnswerOutput,
            ANSWER,
            f"answer {sub_question.id}",
            question=sub_question.question,
            queries="; ".join(queries),
            evidence=pack_evidence(evidence),
        )
        tried = {q.lower() for q in queries}
        next_queries = [q for q in dict.fromkeys(q.strip() for q in out.next_queries) if q and q.lower() not in tried]
        claims = _claims(out.claims)
        return Answer(
            claims=claims,
            confidence=out.confidence,
            sufficient=out.sufficient and bool(claims),
            next_queries=next_queries[:2],
        )

    def suggest(self, finding: Finding) -> list[str]:
        terms = [q for q in finding.next_queries if q not in finding.queries]
        steps = [f"try other wording: {'; '.join(terms)}"] if terms else []
        steps.append(f"add documents that address: {finding.sub_question.question}")
        return steps

    def contradictions(self, findings: list[Finding]) -> list[Contradiction]:
        """The documents' answers compared deterministically (as in offline mode: a model may miss that
        two sources answer a question differently, or state one side as fact), then the model's."""
        disputes = answer_disputes(findings, self.vectors) if self.vectors is not None else []
        return [*disputes, *self._model_contradictions(findings)]

    def _model_contradictions(self, findings: list[Finding]) -> list[Contradiction]:
        evidence = [c for f in findings for c in f.evidence]
        if len({c.doc_id for c in evidence}) < 2:
            return []
        topic = "; ".join(f.sub_question.question for f in findings)
        out = self._call(
            ContradictionsOutput, CONTRADICTIONS, "detect_contradictions", topic=topic, evidence=pack_evidence(evidence)
        )
        return [
            Contradiction(
                subject=c.subject,
                kind="claim",
                explanation=c.explanation,
                side_a=Claim(
                    text=c.side_a.claim, citations=[CitationMarker(block_id=c.side_a.block_id, quote=c.side_a.quote)]
                ),
                side_b=Claim(
                    text=c.side_b.claim, citations=[CitationMarker(block_id=c.side_b.block_id, quote=c.side_b.quote)]
                ),
            )
            for c in out.contradictions
            if not any(leaks_instructions(t) for t in (c.subject, c.explanation, c.side_a.claim, c.side_b.claim))
        ]

    def summarize(
        self, topic: str, findings: list[Finding], contradictions: list[Contradiction]
    ) -> tuple[str, list[Claim]]:
        answered = [f for f in findings if f.status is not FindingStatus.GAP]
        if not answered:
            return topic, []  # nothing to summarise from: no call, and nothing cited
        lines = []
        for f in findings:
            lines.append(f"- {f.sub_question.question} [{f.status.value}]")
            lines += [f"  * {c.text} (quotes: {' | '.join(m.quote for m in c.citations)})" for c in f.claims]
        disagreements = "; ".join(c.subject for c in contradictions) or "none"
        out = self._call(
            SummaryOutput,
            SUMMARY,
            "synthesize",
            topic=topic,
            findings="\n".join(lines),
            disagreements=disagreements,
            evidence=pack_evidence(c for f in answered for c in f.evidence),
        )
        title = out.title.strip()
        return (title if title and not leaks_instructions(title) else topic), _claims(out.summary)


def _distinct(questions: list[PlannedQuestion]) -> list[PlannedQuestion]:
    kept: list[PlannedQuestion] = []
    for q in questions:
        if utils.default_process(q.question) and all(
            fuzz.token_set_ratio(q.question, k.question, processor=utils.default_process) < DUPLICATE_SIMILARITY
            for k in kept
        ):
            kept.append(q)
    return kept


def _claims(outputs: list[ClaimOutput]) -> list[Claim]:
    """The model's claims, without empty ones and without any that repeat prp's own instructions."""
    return [_claim(c) for c in outputs if c.text.strip() and not leaks_instructions(c.text)]


def _claim(c: ClaimOutput) -> Claim:
    return Claim(
        text=c.text.strip(),
        citations=[CitationMarker(block_id=m.block_id or None, quote=m.quote) for m in c.citations if m.quote.strip()],
    )
