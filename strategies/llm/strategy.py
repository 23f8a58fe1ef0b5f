"""LLM mode: planning, answering, contradiction finding and summarising through a chat model.

LLM calls per report: 1 (plan; none for a single question worded as one) + 2 per sub-question
(re-ranking its candidate sentences, then one call that answers, judges sufficiency and proposes
searches; 1 with re-ranking off; +1 where the model reads its claims again, ``reader``) + 2 per gap retry + 1 (contradictions, when the evidence spans two
documents) + 1 (summary; none for a one-question report). The model reads evidence as numbered
sentences and cites their ids (``strategies/llm/evidence.py``); its claims are grounded in the
sentences that state them (``strategies/llm/grounding.py``), and every cited sentence becomes a
*marker* (block hint + the stored sentence as quote) that the citation node verifies.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from typing import Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel, Field, field_validator
from rapidfuzz import fuzz, utils

from config import Step
from config.settings import SERVED_EVIDENCE_TOKENS
from corpus.chunking import split_sentences
from corpus.embeddings import Embedder
from corpus.retrieval import RetrievedChunk
from prompts.answer import ANSWER
from prompts.common import SYSTEM
from prompts.contradictions import CONTRADICTIONS
from prompts.plan import PLAN, SINGLE
from prompts.read import READ
from prompts.rerank import RERANK
from prompts.summary import SUMMARY
from research.ai_address import for_model
from research.conversation import FollowUp, Turn
from research.evidence import CitationMarker, Claim, Contradiction, Finding, FindingStatus, SubQuestion
from research.strategy import Answer, ReportReading, ResearchStrategy
from research.verdict import Label
from strategies.llm.evidence import EvidenceSheet, Sentence, render
from strategies.llm.follow_up import condense as condense_follow_up
from strategies.llm.grounding import Grounded, grounded, stated
from strategies.llm.leaks import leaks_instructions
from strategies.llm.rerank import RerankOutput, chunks_in_order, reorder
from strategies.llm.selection import ranked, relevance, within_budget
from strategies.llm.structured import SchemaFormat, structured_call
from strategies.reading.claim_checks import content_stems, covered
from strategies.reading.judge import read_again
from strategies.reading.report_reader import ReportReader
from strategies.reading.text import question_terms
from strategies.reading.tuning import TUNING
from strategies.reading.vectors import Meaning, Vectors
from strategies.reading.wording import opens_as_question

SINGLE_RATIONALE = "The researcher's question (single-question mode), as the model restated it."


class PlannedQuestion(BaseModel):
    question: str
    rationale: str


class PlanOutput(BaseModel):
    sub_questions: list[PlannedQuestion]


class ClaimOutput(BaseModel):
    text: str
    sentence_ids: list[str] = Field(default_factory=list)


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


class ReadingOutput(BaseModel):
    claim: int
    verdict: Literal["states", "contradicts", "neither"]


class ReadOutput(BaseModel):
    verdicts: list[ReadingOutput] = Field(default_factory=list)


class SideOutput(BaseModel):
    claim: str
    sentence_ids: list[str] = Field(default_factory=list)


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
        schema_format: SchemaFormat = "auto",
        embedder: Embedder | None = None,
        *,
        fallback: ResearchStrategy,
        rerank: bool = True,
        rerank_candidates: int = 10,
        evidence_tokens: int = SERVED_EVIDENCE_TOKENS,
        reader: bool = False,
        step_llms: Mapping[Step, BaseChatModel] | None = None,
    ):
        """``embedder``: ranks sentences for the prompts by meaning and lets the ``fallback`` answer
        where the model's claims do not (see ``answer``); without it sentences are ranked by the
        question's words. ``fallback``: the strategy (offline mode's) that reads a follow-up before the
        model rewrites it, plans a single question worded as one, and answers a sub-question none of
        whose claims the evidence states. ``rerank``: let the
        model re-score the best ``rerank_candidates`` sentences first. ``evidence_tokens``: the
        evidence budget of an answer's prompt. ``reader``: ask the model, in one call per answer,
        whether each claim's cited sentences state it (``strategies.reading.judge.read_again``).
        ``step_llms``: the chat model of a step (planning, reranking, condensing) that is not ``llm``'s;
        ``model_name`` then names them all."""
        self.llm = llm
        self.step_llms = dict(step_llms or {})
        self.model_name = model_name
        # The models the server named in its replies (``mode``).
        self.served_models: set[str] = set()
        self.schema_format = schema_format
        # Response formats the server refused (under `auto`): later calls do not ask for them again.
        self.refused_formats: set[str] = set()
        self.vectors = Vectors(embedder) if embedder is not None else None
        # The judge reads paraphrases by meaning where the embedder is at hand.
        self.meaning = Meaning(self.vectors) if self.vectors is not None else None
        self.fallback = fallback
        self.rerank = rerank
        self.rerank_candidates = rerank_candidates
        self.evidence_tokens = evidence_tokens
        self.reader = reader

    @property
    def mode(self) -> str:
        """ "llm (<model>)": the models the server named in its replies, which are the ones that answered
        (``PRP_LLM_MODEL`` and the steps' own name what was asked for; a local server answers with what it
        loaded); ``model_name`` when the replies agree with it or none has come yet."""
        reported = sorted(self.served_models)
        if not reported or ", ".join(reported) == self.model_name:
            return f"llm ({self.model_name})"
        return f"llm ({', '.join(reported)})"

    def _call(
        self, schema: type[BaseModel], prompt: str, step: str, *, kind: Step = "answering", **fields
    ) -> BaseModel:
        """``step`` names the call in errors and traces; ``kind`` chooses its chat model."""
        messages = [SystemMessage(content=SYSTEM), HumanMessage(content=prompt.format(**fields))]
        llm = self.step_llms.get(kind, self.llm)
        return structured_call(
            llm, schema, messages, step, self.schema_format, self.refused_formats, self.served_models
        )

    def plan(self, topic: str, single_question: bool, scout: list[RetrievedChunk]) -> list[SubQuestion]:
        # Only the researcher's topic goes into the planning prompt: document text never steers the plan.
        if single_question and opens_as_question(topic):
            # Researched as asked: a restatement costs a call, and a small model's rewording changes
            # what is asked ("How do green roofs affect property values?" became "What are the
            # benefits of green roofs for property values?", which the evidence then "answers").
            return self.fallback.plan(topic, True, scout)
        if single_question:
            out = self._call(PlanOutput, SINGLE, "plan", kind="planning", topic=topic)
            first = next(iter(_distinct(out.sub_questions)), PlannedQuestion(question=topic, rationale=""))
            # The model's "why it matters" for the researcher's own question is invented (a small
            # model's names places and facts no document gave): the report says what the question is.
            return [SubQuestion(id="q1", question=first.question.strip(), rationale=SINGLE_RATIONALE)]
        out = self._call(
            PlanOutput,
            PLAN,
            "plan",
            kind="planning",
            topic=topic,
            min_questions=TUNING.planning.min_questions,
            max_questions=TUNING.planning.max_questions,
        )
        kept = _distinct(out.sub_questions)[: TUNING.planning.max_questions] or [
            PlannedQuestion(question=topic, rationale="The topic as asked.")
        ]
        return [
            SubQuestion(id=f"q{i}", question=q.question.strip(), rationale=q.rationale.strip())
            for i, q in enumerate(kept, 1)
        ]

    def condense(self, question: str, history: list[Turn]) -> FollowUp:
        return condense_follow_up(
            partial(self._call, kind="condensing"), question, history, self.fallback.condense(question, history)
        )

    def answer(
        self,
        sub_question: SubQuestion,
        evidence: list[RetrievedChunk],
        queries: list[str],
        read: frozenset[str] = frozenset(),
    ) -> Answer:
        sheet = EvidenceSheet.of(evidence)
        if not sheet.sentences:
            return Answer(claims=[], confidence=0.0, sufficient=False, next_queries=[])
        best = unread(ranked(sub_question.question, sheet, self.vectors), evidence, read)
        if not best:
            return self._nothing_new(sub_question, evidence, queries)
        chosen, shown = self._shown(sub_question, sheet, best, read)
        out = self._call(
            AnswerOutput,
            ANSWER,
            f"answer {sub_question.id}",
            question=sub_question.question,
            queries="; ".join(queries),
            evidence=render(shown),
        )
        judged_claims = _claims(out.claims, sub_question.question, sheet, shown, self.meaning)
        if self.reader:
            judged_claims = self._read(sub_question, judged_claims, sheet)
        draft = _Draft(
            grounded=judged_claims,
            next_queries=_new_queries(out.next_queries, queries),
            evidence=chunks_in_order(evidence, chosen) if self.rerank else None,
        )
        if self.vectors is None:
            # Ranked by words only (no embedder): the model's answer stands as it is, without the
            # fallback's reading of the evidence to set against it. Unstated claims do not answer:
            # the citation node shows the section unverified.
            return draft.answer(sufficient=out.sufficient and bool(draft.claims))
        judged = self.fallback.answer(sub_question, evidence, queries)
        # Beside the point only next to a passage that answers: where offline mode finds the evidence
        # insufficient, its lead is no better answer, and a claim its text states is not hidden behind it.
        beside_the_point = judged.sufficient and self._beside_the_point(
            sub_question.question, [g.claim for g in draft.stated], judged.claims
        )
        if not draft.stated or beside_the_point:
            return _led_by_documents(draft, judged)
        # Stated claims answer when offline mode's judgement finds the evidence sufficient, or on the
        # model's word when they hold the question's own terms (a small model answers an unanswerable
        # question from stated sentences near its topic, and calls them sufficient).
        return draft.answer(
            sufficient=judged.sufficient or (out.sufficient and _addresses(sub_question.question, draft.stated, sheet))
        )

    def _shown(
        self, sub_question: SubQuestion, sheet: EvidenceSheet, best: list[Sentence], read: frozenset[str]
    ) -> tuple[list[Sentence], list[Sentence]]:
        """The sentences the re-ranker chose (``best`` when it is not asked) and those the answer's
        prompt shows."""
        # A retry reads what its searches added in half the budget: a gap's retries together cost at
        # most one first round (papers-dev, oracle model: 8 of 52 questions retried twice, at 2.5x the
        # tokens of a question answered at once).
        budget = self.evidence_tokens // 2 if read else self.evidence_tokens
        # Re-ranking chooses what fills the budget: where every sentence fits, there is no choice to make.
        fits = {s.sid for s in within_budget(best, sheet, budget)} >= {s.sid for s in best}
        chosen = self._rerank(sub_question, sheet, best[: self.rerank_candidates]) if self.rerank and not fits else best
        # The model's choice first, then the rest of the pre-ranked sentences while the budget lasts:
        # a re-ranker that scored few sentences, or missed the answer among its candidates, does not
        # leave the answer's prompt half empty.
        picked = {s.sid for s in chosen}
        return chosen, within_budget([*chosen, *(s for s in best if s.sid not in picked)], sheet, budget)

    def _nothing_new(self, sub_question: SubQuestion, evidence: list[RetrievedChunk], queries: list[str]) -> Answer:
        """A retry whose searches found no chunk the model has not read: the model is not asked again
        (it would be shown what it found insufficient); the documents' own sentences stand, as where
        its claims are not stated."""
        judged = self.fallback.answer(sub_question, evidence, queries)
        return judged.model_copy(update={"extractive": bool(judged.claims) and judged.sufficient})

    def _read(self, sub_question: SubQuestion, claims: list[Grounded], sheet: EvidenceSheet) -> list[Grounded]:
        """The claims with the model's second reading of their cited sentences (see ``read_again``);
        only claims the judge did not decide on the text itself are asked about. A sentence of a block
        addressing an AI is withheld here as in the evidence."""
        asked = [
            (i, g) for i, g in enumerate(claims, 1) if not g.verdict.firm and any(m.quote for m in g.claim.citations)
        ]
        if not asked:
            return claims
        pairs = "\n\n".join(
            f"Claim {i}: {html.escape(for_model(g.claim.text))}\nSentences: "
            + " ".join(html.escape(sheet.for_model(m)) for m in g.claim.citations if m.quote)
            for i, g in asked
        )
        out = self._call(ReadOutput, READ, f"read {sub_question.id}", pairs=f"<evidence>\n{pairs}\n</evidence>")
        readings = {v.claim: Label(v.verdict) for v in out.verdicts}
        return [
            Grounded(g.claim.model_copy(update={"reading": readings[i].value}), read_again(g.verdict, readings[i]))
            if i in readings
            else g
            for i, g in enumerate(claims, 1)
        ]

    def _beside_the_point(self, question: str, claims: list[Claim], extracted: list[Claim]) -> bool:
        """The model's best stated claim (of ``claims``, its stated ones) quotes text much less relevant to the question than the
        sentence offline mode's selection leads with (a 0.5B model answered "How should you evaluate
        a ticket routing classifier?" with "Use Claude to … categorize customer inquiries")."""
        if self.vectors is None or not claims or not extracted:
            return False
        return (
            max(self._relevance(question, claims))
            < self._relevance(question, extracted[:1])[0] - TUNING.llm.beside_the_point
        )

    def _relevance(self, question: str, claims: list[Claim]) -> list[float]:
        """Each claim's quotes' MiniLM cosine with the question."""
        return relevance(
            question, [" ".join(m.quote for m in c.citations if m.quote) or c.text for c in claims], self.vectors
        )

    def _rerank(self, sub_question: SubQuestion, sheet: EvidenceSheet, candidates: list[Sentence]) -> list[Sentence]:
        position = {s.sid: i for i, s in enumerate(sheet.sentences)}
        out = self._call(
            RerankOutput,
            RERANK,
            f"rerank {sub_question.id}",
            kind="reranking",
            question=sub_question.question,
            evidence=render(sorted(candidates, key=lambda s: position[s.sid])),
            limit=TUNING.llm.max_listed,
        )
        return reorder(candidates, out)

    def _best_of(self, findings: list[Finding], sheet: EvidenceSheet) -> list[Sentence]:
        """Each finding's best sentences and their neighbours, the findings sharing half an answer's
        budget (a quarter of it at least each: a report's sub-questions need a few sentences each);
        in sheet order. The documents' answers are compared without the model as well (see
        contradictions), so this call gets the fewest tokens."""
        budget = max(self.evidence_tokens // 4, self.evidence_tokens // (2 * max(1, len(findings))))
        chosen: dict[str, Sentence] = {}
        for f in findings:
            own = {b.block_id for c in f.evidence for b in c.blocks}
            best = [s for s in ranked(f.sub_question.question, sheet, self.vectors) if s.block_id in own]
            chosen.update((s.sid, s) for s in within_budget(best, sheet, budget))
        position = {s.sid: i for i, s in enumerate(sheet.sentences)}
        return sorted(chosen.values(), key=lambda s: position[s.sid])

    def _leading_claims(
        self, answered: list[Finding], contradictions: list[Contradiction], every: bool = False
    ) -> list[Claim]:
        """Each answered finding's first stated claim (``every``: all its stated claims); none of a
        disputed finding's: its section presents the sides, and so must the summary."""
        disputed = {c.sub_question_id for c in contradictions}
        return [
            c
            for f in answered
            if f.sub_question.id not in disputed
            for c in [c for c in f.claims if stated(c, f.sub_question.question, self.meaning)][: None if every else 1]
        ]

    def suggest(self, finding: Finding) -> list[str]:
        terms = [q for q in finding.next_queries if q not in finding.queries]
        steps = [f"try other wording: {'; '.join(terms)}"] if terms else []
        steps.append(f"add documents that address: {finding.sub_question.question}")
        return steps

    def contradictions(self, findings: list[Finding], disputes: list[Contradiction]) -> list[Contradiction]:
        """The documents' answer ``disputes``, then the model's."""
        return [*disputes, *self._model_contradictions(findings)]

    def _model_contradictions(self, findings: list[Finding]) -> list[Contradiction]:
        evidence = [c for f in findings for c in f.evidence]
        if len({c.doc_id for c in evidence}) < 2:
            return []
        sheet = EvidenceSheet.of(evidence)
        shown = self._best_of(findings, sheet)
        topic = "; ".join(f.sub_question.question for f in findings)
        out = self._call(
            ContradictionsOutput, CONTRADICTIONS, "detect_contradictions", topic=topic, evidence=render(shown)
        )
        return [
            Contradiction(
                subject=c.subject,
                kind="claim",
                explanation=c.explanation,
                side_a=Claim(text=c.side_a.claim, citations=sheet.markers(c.side_a.sentence_ids, shown)),
                side_b=Claim(text=c.side_b.claim, citations=sheet.markers(c.side_b.sentence_ids, shown)),
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
        if len(findings) == 1:
            # One sub-question's report is summarised by its own claims: a second wording of the
            # same answer costs a call and adds nothing the evidence states.
            return topic, self._leading_claims(answered, contradictions, every=True)
        sheet = EvidenceSheet.of(c for f in answered for c in f.evidence)
        shown = self._summary_evidence(findings, answered, sheet)
        disagreements = "; ".join(for_model(c.subject) for c in contradictions) or "none"
        out = self._call(
            SummaryOutput,
            SUMMARY,
            "synthesize",
            topic=topic,
            findings=_findings_for_summary(findings, shown),
            disagreements=disagreements,
            evidence=render(shown),
        )
        written = _claims(out.summary, topic, sheet, shown, self.meaning)
        summary = [g.claim for g in written]
        if not any(g.stated for g in written):
            # The model's summary states nothing its evidence does: the findings' leading claims instead.
            summary = self._leading_claims(answered, contradictions) or summary
        return _title(out.title, topic), summary

    def _summary_evidence(
        self, findings: list[Finding], answered: list[Finding], sheet: EvidenceSheet
    ) -> list[Sentence]:
        """The sentences the findings cite, under the summary prompt's ids; the best of each finding if none."""
        return [s for s in sheet.sentences if _cited(s, findings)] or self._best_of(answered, sheet)

    def reading(self, embedder: Embedder) -> ReportReading:
        """Its claims are a writer's, judged at render; without an embedder of its own, ``embedder``'s."""
        return ReportReader(self.vectors if self.vectors is not None else Vectors(embedder))


@dataclass(frozen=True)
class _Draft:
    """The model's answer to a sub-question, its claims judged against the sentences they cite."""

    grounded: list[Grounded]
    next_queries: list[str]
    evidence: list[RetrievedChunk] | None

    @property
    def claims(self) -> list[Claim]:
        return [g.claim for g in self.grounded]

    @property
    def stated(self) -> list[Grounded]:
        return [g for g in self.grounded if g.stated]

    @property
    def unstated(self) -> list[Claim]:
        return [g.claim for g in self.grounded if not g.stated]

    def answer(self, sufficient: bool) -> Answer:
        # The confidence shown is the judge's, never the model's own: how well the sentences state its claims.
        stated = self.stated
        confidence = round(sum(g.verdict.score for g in stated) / len(stated), 2) if stated else 0.0
        return Answer(
            claims=self.claims,
            confidence=confidence,
            sufficient=sufficient,
            next_queries=self.next_queries[:2],
            evidence=self.evidence,
            unstated=self.unstated,
        )


def _new_queries(proposed: list[str], tried: list[str]) -> list[str]:
    """The model's proposed searches, once each, without those already run."""
    done = {q.lower() for q in tried}
    return [q for q in dict.fromkeys(q.strip() for q in proposed) if q and q.lower() not in done]


def _led_by_documents(draft: _Draft, judged: Answer) -> Answer:
    """A small model often answers with the right words on the wrong sentences, from a sentence
    beside the point, or not at all while the evidence answers: the documents' own sentences lead
    then, chosen as offline mode chooses them (``judged``, which also decides whether they suffice),
    and the report says so. The model's claims stay beside them, never silently replaced: stated
    ones verified, the others flagged by the citation node (and one drawn from text addressing an AI
    left out and counted there)."""
    quoted = {m.quote for c in judged.claims for m in c.citations}
    beside = [g.claim for g in draft.grounded if not g.stated or not {m.quote for m in g.claim.citations} <= quoted]
    return Answer(
        claims=[*judged.claims, *beside],
        confidence=judged.confidence,
        sufficient=judged.sufficient,
        next_queries=draft.next_queries[:2] or judged.next_queries,
        evidence=draft.evidence,
        extractive=bool(judged.claims) and judged.sufficient,
        unstated=draft.unstated,
    )


def _findings_for_summary(findings: list[Finding], shown: list[Sentence]) -> str:
    """Each finding's question and status, and its claims with the ids of the shown sentences they quote."""
    lines = []
    for f in findings:
        lines.append(f"- {f.sub_question.question} [{f.status.value}]")
        for c in f.claims:
            ids = [s.sid for s in shown if any(_quotes(m, s) for m in c.citations)]
            lines.append(f"  * {for_model(c.text)} [{', '.join(ids)}]")
    return "\n".join(lines)


def _title(written: str, topic: str) -> str:
    """The model's title, unless it is empty or repeats prp's own instructions: the topic then."""
    title = written.strip()
    return title if title and not leaks_instructions(title) else topic


def _quotes(marker: CitationMarker, sentence: Sentence) -> bool:
    return marker.block_id == sentence.block_id and sentence.text in marker.quote


def _cited(sentence: Sentence, findings: list[Finding]) -> bool:
    return any(_quotes(m, sentence) for f in findings for c in f.claims for m in c.citations)


def _distinct(questions: list[PlannedQuestion]) -> list[PlannedQuestion]:
    kept: list[PlannedQuestion] = []
    for q in questions:
        if utils.default_process(q.question) and all(
            fuzz.token_set_ratio(q.question, k.question, processor=utils.default_process)
            < TUNING.llm.duplicate_similarity
            for k in kept
        ):
            kept.append(q)
    return kept


def _claims(
    outputs: list[ClaimOutput], question: str, sheet: EvidenceSheet, shown: list[Sentence], meaning: Meaning | None
) -> list[Grounded]:
    """The model's claims cited to the shown sentences that state them (``grounding``); without any
    that repeat prp's own instructions."""
    texts = ((whole_sentences(c.text), c.sentence_ids) for c in outputs if not leaks_instructions(c.text))
    return grounded(((t, ids) for t, ids in texts if t), question, sheet, shown, meaning)


def whole_sentences(text: str) -> str:
    """A claim as whole sentences: a string the grammar cut at its cap (``TUNING.llm.grammar_max_chars``) ends
    at its last full sentence, or is no claim at all ("… is only suggestive (and")."""
    text = text.strip()
    if len(text) < TUNING.llm.grammar_max_chars or text.endswith((".", "!", "?")):
        return text
    whole = split_sentences(text)[:-1]
    return " ".join(whole)


def _addresses(question: str, claims: list[Grounded], sheet: EvidenceSheet) -> bool:
    """The stated claims, with their quotes and the titles of the documents they quote, hold the
    question's own terms (see TUNING.llm.addressed_terms), a quoted table row read under its columns' names. The
    titles count because a page rarely repeats its
    subject in the sentence that answers: "Reviewing results … leads to more robust AI applications",
    on the page "Using the Evaluation Tool", answers how the Evaluation tool helps."""
    cited = {m.block_id for g in claims for m in g.claim.citations}
    titles = dict.fromkeys(s.title for s in sheet.sentences if s.block_id in cited)
    # A table's row quoted is read as the model was shown it, under its columns' and table's names: the
    # bare cells of "ACL-ARC | 67.9 | 70.1" say nothing of "the previous best result".
    quoted = {(m.block_id, m.quote) for g in claims for m in g.claim.citations}
    readings = [
        s.reading for s in sheet.sentences if s.reading and any(b == s.block_id and s.text in q for b, q in quoted)
    ]
    said = " ".join(
        [*(f"{g.claim.text} {' '.join(m.quote for m in g.claim.citations)}" for g in claims), *titles, *readings]
    )
    terms = content_stems(" ".join(question_terms(question)))
    return covered(terms, set(content_stems(said))) >= TUNING.llm.addressed_terms


def unread(best_first: list[Sentence], evidence: list[RetrievedChunk], read: frozenset[str]) -> list[Sentence]:
    """The sentences of blocks no chunk of ``read`` holds: on a retry, what the reformulated searches
    added (the model read the best of the rest, and found it insufficient; showing it again doubled a
    question's tokens); all of them on a first round."""
    if not read:
        return best_first
    old = {b.block_id for c in evidence if c.chunk_id in read for b in c.blocks}
    return [s for s in best_first if s.block_id not in old]
