"""``OfflineStrategy``: the research strategy without a language model.

Offline mode is a real mode, not a stub: the same graph runs with deterministic planning
(templates + keyphrases), extractive answers (verbatim sentences, cited, led by the short answer they
give), a calibrated sufficiency judgement, query reformulation, and numeric/date/negation
contradiction checks beside the graph's own check of the documents' answers. Same input, same
output: every ranking has a tie-break and nothing depends on set order or randomness.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from corpus.embeddings import Embedder
from corpus.retrieval import RetrievedChunk
from research.conversation import FollowUp, Turn
from research.evidence import Claim, Contradiction, Finding, FindingStatus, SubQuestion
from research.strategy import Answer, ReportReading
from strategies.reading.alternatives import Alternatives
from strategies.reading.binding import Binding, said_of_asked, value_binding
from strategies.reading.document_answers import lead, things_answered
from strategies.reading.extractive import (
    Analysis,
    ScoredSentence,
    analyse,
    passage_date,
    preference,
    select,
    to_claims,
)
from strategies.reading.identifier_lines import identifier_lines
from strategies.reading.numbers import is_bound
from strategies.reading.question import parse_question
from strategies.reading.question_types import AnswerType, fits
from strategies.reading.report_reader import ReportReader
from strategies.reading.signals import Signals, signals
from strategies.reading.table_cells import own_row
from strategies.reading.text import matched, normalise_space, stem
from strategies.reading.tuning import TUNING
from strategies.reading.value_lines import value_lines
from strategies.reading.vectors import Meaning, Vectors
from tools.definitions import defines
from tools.identifiers import holds, holds_lookalike

from . import assessment
from .calibration import FITTED, Calibration
from .comparison import Valued, compared, not_compared, valued
from .contradictions import find_contradictions
from .follow_up import condense
from .planning import TEMPLATE_WORDS, plan_questions


@dataclass(frozen=True)
class Judgement:
    """One question set against its evidence: the claims, and the sufficiency judgement's inputs."""

    analysis: Analysis
    claims: list[Claim]
    signals: Signals | None  # what the confidence is read from (None: no evidence sentences)
    confidence: float
    sufficient: bool


class OfflineStrategy:
    mode = "offline"

    def __init__(self, embedder: Embedder, calibration: Calibration = FITTED):
        self.calibration = calibration
        self.vectors = Vectors(embedder)
        self.meaning = Meaning(self.vectors)
        # Its claims are quoted sentences, under sub-questions its templates word.
        self.report_reader = ReportReader(self.vectors, quoted=True, unasked=frozenset(map(stem, TEMPLATE_WORDS)))

    def condense(self, question: str, history: list[Turn]) -> FollowUp:
        return condense(question, history)

    def plan(self, topic: str, single_question: bool, scout: list[RetrievedChunk]) -> list[SubQuestion]:
        return plan_questions(topic, single_question, scout)

    def answer(
        self,
        sub_question: SubQuestion,
        evidence: list[RetrievedChunk],
        queries: list[str],
        read: frozenset[str] = frozenset(),
    ) -> Answer:
        # Offline mode reads all the evidence each round: reading costs no tokens (``read`` is for a model).
        judged = self.judge(sub_question.question, evidence)
        tried = [*queries, sub_question.question]
        next_queries = (
            []
            if judged.sufficient
            else _next_queries(sub_question.question, judged.analysis, evidence, tried, self.vectors)
        )
        return Answer(
            claims=judged.claims, confidence=judged.confidence, sufficient=judged.sufficient, next_queries=next_queries
        )

    def judge(self, question: str, evidence: list[RetrievedChunk]) -> Judgement:
        """The claims the evidence gives for ``question`` and whether they answer it (see ``assessment``)."""
        analysis = analyse(question, evidence, self.vectors)
        chosen = select(analysis)
        claims = self._with_things(analysis, self._led(analysis, chosen))
        found, conf, sufficient = self._assessed(analysis, chosen, claims, evidence)
        if found:
            claims, sufficient, conf = _valued(analysis, chosen, claims, found, sufficient, conf, self.calibration)
        claims, sufficient, conf = _identified(analysis, chosen, claims, found, sufficient, conf, self.calibration)
        if analysis.asked.alternatives:
            # Compared by the values its alternatives' own questions find (``comparison``): never
            # answered by what the question itself led with, a figure or a sentence.
            alternatives = analysis.asked.alternatives
            claims, sufficient, conf = compared(alternatives, self._values(alternatives, evidence))
        conf = assessment.shown(analysis.asked.type.kind, claims[0].answer if claims else None, conf, self.calibration)
        return Judgement(analysis, claims, found, conf, sufficient)

    def _with_things(self, analysis: Analysis, claims: list[Claim]) -> list[Claim]:
        """Documents answering for different things of one name: each answer shown with its thing,
        ahead of the other claims."""
        things = things_answered(analysis, self.vectors)
        if things:
            quoted = {c.text for c in things}
            claims = [*things, *(c for c in claims if c.text not in quoted)][: TUNING.evidence.max_claims]
        return claims

    def _assessed(
        self, analysis: Analysis, chosen: list[ScoredSentence], claims: list[Claim], evidence: list[RetrievedChunk]
    ) -> tuple[Signals | None, float, bool]:
        """The signals of ``claims``, the model's confidence in them and whether they answer, read over
        by the judge (``assessment.read``)."""
        led = bool(claims and claims[0].answer) if analysis.asked.type.typed else None
        found = signals(analysis, led, chosen) if analysis.scored else None
        conf = assessment.probability(found, self.calibration) if claims and found else 0.0
        sufficient = bool(found) and assessment.sufficient(found, conf, self.calibration)
        if found and claims:
            lead = _document_of(analysis, claims[0])
            sufficient, conf = assessment.read(
                analysis, chosen, evidence, found, conf, sufficient, self.calibration, self.meaning, lead
            )
        return found, conf, sufficient

    def _values(self, alternatives: Alternatives, evidence: list[RetrievedChunk]) -> list[Valued | None]:
        """Each alternative's value, as the readers answer the question asking it."""
        values = []
        for option in alternatives.options:
            judged = self.judge(option.question, evidence)
            values.append(valued(option, judged.claims, judged.confidence))
        return values

    def suggest(self, finding: Finding) -> list[str]:
        question = finding.sub_question.question
        found = assessment.suggestions(question, finding.evidence, finding.queries, self.vectors)
        alternatives = parse_question(question, finding.evidence).alternatives
        if alternatives is None:
            return found
        # What was found for each alternative is shown beside the gap, as evidence, not as an answer.
        return [not_compared(alternatives, self._values(alternatives, finding.evidence)), *found]

    def _led(self, analysis: Analysis, chosen: list[ScoredSentence]) -> list[Claim]:
        """Claims quoting the chosen sentences as passages; for a question asking for a typed value,
        led by the first that gives a short answer, with it; when none does, the best of the next
        TUNING.report.lead_search sentences (by ``preference``) that gives one leads."""
        if not chosen:
            return []
        if analysis.asked.type.typed:
            led = self._valued_lead(analysis, chosen)
            if led:
                return led
        defined = analysis.asked.defined
        defining = next((x for x in chosen if defined and defines(x.sentence.text, defined)), None)
        if defining is not None:
            # The sentence defining the term leads; a list's item ("(2) Section Gists – in-situ plain
            # language summaries …") is quoted alone, not after its list's lead-in.
            first = to_claims(analysis, [defining], alone=True)
            rest = to_claims(analysis, [x for x in chosen if x is not defining])
            return [*first, *(c for c in rest if defining.sentence.text not in c.text)]
        return to_claims(analysis, chosen)

    def _valued_lead(self, analysis: Analysis, chosen: list[ScoredSentence]) -> list[Claim]:
        """The claims led by the first sentence (chosen, then the next TUNING.report.lead_search by ``preference``)
        that gives the asked value of the asked thing; [] when none does. A bound ("at least 150
        words") leads only when no sentence states the value itself: "datasets with an average summary
        length of at least 150 words" is the survey's threshold, the table's 163 the dataset's length."""
        ranked = sorted(analysis.scored, key=lambda c: (-preference(c), c.sentence.chunk_index, c.sentence.order))
        # The next by preference, and the most relevant whatever their chunk's rank (a table's row in
        # a chunk of many rows, a study's size in a chunk on other things).
        others = [x for x in ranked if x not in chosen][: TUNING.report.lead_search]
        others += [x for x in analysis.scored[: TUNING.report.lead_search] if x not in chosen and x not in others]
        tried = [*chosen, *others]
        binding = value_binding(analysis, tried)
        bounded: list[Claim] = []
        for item in tried:
            answer = self._answer_of(analysis, item, binding)
            claims = _leading(analysis, item, answer, chosen) if answer else []
            if not claims:
                continue
            led = [
                claims[0].model_copy(update={"answer": answer}),
                *self._also_led(analysis, item, answer, claims[1:], chosen),
            ]
            if not is_bound(answer):
                return led
            bounded = bounded or led
        return bounded

    def _answer_of(self, analysis: Analysis, item: ScoredSentence, binding: Binding) -> str | None:
        """The value ``item`` gives as the answer, when it is said of what is asked."""
        if not said_of_asked(analysis, item, binding):
            return None
        return self._value_in(analysis, item)

    def _value_in(self, analysis: Analysis, item: ScoredSentence) -> str | None:
        """The short answer ``item`` gives, or for a date question the date of its passage."""
        answer = lead(analysis.asked, item, self.vectors, TUNING.disputes.min_phrase_score, analysis.kinds)
        if not answer and analysis.asked.type.kind is AnswerType.DATE:
            answer = passage_date(analysis, item)
        return answer

    def _also_led(
        self, analysis: Analysis, first: ScoredSentence, answer: str, claims: list[Claim], chosen: list[ScoredSentence]
    ) -> list[Claim]:
        """``claims`` after the led one, each led by its own value when it answers for another of the
        things the question asks about: "On what date did X and Y become available?" over one entry
        dating X and another dating Y is not answered by X's date in bold; each date leads its entry.
        A claim is led when a sentence it quotes names a thing of the question's "X and Y" the leading
        sentence does not (``ParsedQuestion.conjuncts``) and gives a value of the asked type other than the first."""
        missing = [t for t in analysis.asked.conjuncts if not matched(t, first.sentence.stems)]
        if not missing:
            return claims
        out: list[Claim] = []
        for claim in claims:
            value = self._own_value(analysis, (first, answer), claim, chosen, missing)
            out.append(claim.model_copy(update={"answer": value}) if value else claim)
        return out

    def _own_value(
        self,
        analysis: Analysis,
        led: tuple[ScoredSentence, str],
        claim: Claim,
        chosen: list[ScoredSentence],
        missing: list[str],
    ) -> str | None:
        """The value of the asked type a sentence ``claim`` quotes gives for a thing the leading sentence
        does not name (``missing``), other than the led answer; None when none does."""
        first, answer = led
        asked = analysis.asked.type
        for item in chosen:
            if item is first or item.sentence.text not in claim.text:
                continue
            if not any(matched(t, item.sentence.stems) for t in missing):
                continue
            value = self._value_in(analysis, item)
            if value and value != answer and value not in ("Yes", "No") and fits(asked, value, claim.first_line):
                return value
        return None

    def contradictions(self, findings: list[Finding], disputes: list[Contradiction]) -> list[Contradiction]:
        """The documents' answer ``disputes``, then figures, dates and negations that clash."""
        # A pair of sentences already set against each other as answers is not reported twice.
        paired = {_sides(c) for c in disputes}
        clashes = [c for c in find_contradictions(findings, self.vectors) if _sides(c) not in paired]
        return [*disputes, *clashes][: TUNING.report.max_disagreements]

    def summarize(
        self, topic: str, findings: list[Finding], contradictions: list[Contradiction]
    ) -> tuple[str, list[Claim]]:
        """The topic as title; the strongest (first-ranked) claim of each answered section.

        A section whose documents disagree gives no summary claim: its sides are not facts.
        With more answered sections than TUNING.report.max_summary_claims, the most confident sections win (ties:
        plan order); the claims keep plan order. A claim already in the summary is not repeated.
        """
        disputed = {c.sub_question_id for c in contradictions}
        answered = [
            (i, f)
            for i, f in enumerate(findings)
            if f.status is not FindingStatus.GAP and f.claims and f.sub_question.id not in disputed
        ]
        ranked = sorted(answered, key=lambda item: (-item[1].confidence, item[0]))
        chosen: list[tuple[int, Claim]] = []
        quotes: set[str] = set()
        for i, finding in ranked:
            for claim in finding.claims:
                key = normalise_space(claim.text).lower()
                if key not in quotes:
                    quotes.add(key)
                    chosen.append((i, claim))
                    break
            if len(chosen) == TUNING.report.max_summary_claims:
                break
        chosen.sort(key=lambda item: item[0])
        return title_from_topic(topic), [c for _, c in chosen]

    def reading(self, embedder: Embedder) -> ReportReading:
        """Over its own embeddings, made with the library's ``embedder``."""
        return self.report_reader


def _next_queries(
    question: str, analysis: Analysis, evidence: list[RetrievedChunk], tried: list[str], vectors: Vectors
) -> list[str]:
    """The searches to try next: an alternative question's alternatives' own questions first (their
    values may stand in documents the question's own search did not reach), then reformulations."""
    alternatives = analysis.asked.alternatives
    own = [o.question for o in alternatives.options if o.question not in tried] if alternatives else []
    return [*own, *assessment.next_queries(question, evidence, [*tried, *own], vectors)]


def _valued(
    analysis: Analysis,
    chosen: list[ScoredSentence],
    claims: list[Claim],
    found: Signals,
    sufficient: bool,
    conf: float,
    calibration: Calibration,
) -> tuple[list[Claim], bool, float]:
    """The lines setting the value the question asks for (``value_lines``) as its answer, when no
    chosen sentence names what it asks for (those answered a question on another thing of the
    page, or none): (claims, sufficient, confidence). A sentence naming it says more than an
    example's value ("uses max_tokens 1 to get one token" over a listing's ``"max_tokens": 1024``).
    The confidence is the model's with that value found and the question's terms covered."""
    values = value_lines(analysis.asked, analysis.layout)[: TUNING.report.max_value_lines]
    if not values:
        return claims, sufficient, conf
    said = " ".join(item.sentence.text.lower() for item in chosen)
    if any(v.name.lower() in said for v in values):
        return claims, sufficient, conf
    valued = assessment.probability(dataclasses.replace(found, lead=1.0, joint=1.0), calibration)
    return [v.claim() for v in values], True, max(conf, valued)


def _identified(
    analysis: Analysis,
    chosen: list[ScoredSentence],
    claims: list[Claim],
    found: Signals | None,
    sufficient: bool,
    conf: float,
    calibration: Calibration,
) -> tuple[list[Claim], bool, float]:
    """A lookup of an identifier the question holds (``tools.identifiers``), answered by the record
    holding it: (claims, sufficient, confidence). When a chosen sentence holds it, the claims quoting
    only a look-alike (another record's "2021-03-15" for "2021-03-14") go; when none does, the lines of
    a record holding it (``identifier_lines``) are the answer (a record is often no sentence at all,
    and then nothing was chosen), with the model's confidence for the asked-for value found and the
    question's words covered, as for a value line."""
    asked = list(analysis.asked.identifiers)
    if not asked:
        return claims, sufficient, conf
    if any(holds(item.sentence.text, identifier) for item in chosen for identifier in asked):
        kept = [c for c in claims if not _lookalike_only(c.text, asked)]
        return kept or claims, sufficient, conf
    lines = identifier_lines(analysis.asked, analysis.layout, TUNING.report.max_value_lines)
    if not lines:
        return claims, sufficient, conf
    base = found or Signals(pool=1.0, best=1.0, dense=0.0, margin=0.0, lexical=1.0, agreement=1.0, lead=1.0, joint=1.0)
    valued = assessment.probability(dataclasses.replace(base, lead=1.0, joint=1.0), calibration)
    return [line.claim() for line in lines], True, max(conf, valued)


def _document_of(analysis: Analysis, claim: Claim) -> str | None:
    """The document of the block ``claim`` quotes first."""
    block = claim.citations[0].block_id if claim.citations else None
    return next((x.sentence.doc_id for x in analysis.scored if x.sentence.block_id == block), None)


def _leading(analysis: Analysis, item: ScoredSentence, answer: str, chosen: list[ScoredSentence]) -> list[Claim]:
    """The claims ``item``'s value leads, [] when it cannot: the value must stand whole in the first
    line of the passage it leads (a passage joins sentences). A list's item giving the value is quoted
    alone when its list's lead-in would come first ("…key differences in its pretraining corpus:" above
    "• Our corpus … computer science (7.2%) papers"), and its list is not quoted again after it."""
    asked = analysis.asked.type
    claims = to_claims(
        analysis, [item, *(x for x in chosen if _beside(analysis, x, item))][: TUNING.evidence.max_claims]
    )
    if claims and fits(asked, answer, claims[0].first_line):
        return claims
    alone = to_claims(analysis, [item], alone=True)
    if alone and fits(asked, answer, alone[0].first_line):
        return [alone[0], *(c for c in claims if item.sentence.text not in c.text)]
    return []


def _lookalike_only(text: str, asked: list[str]) -> bool:
    """``text`` holds a look-alike of an asked identifier and none of them."""
    return not any(holds(text, i) for i in asked) and any(holds_lookalike(text, i) for i in asked)


def _sides(c: Contradiction) -> frozenset[str]:
    return frozenset(m.quote for side in (c.side_a, c.side_b) for m in side.citations)


def title_from_topic(topic: str) -> str:
    title = normalise_space(topic).rstrip(".;,")
    if len(title) > TUNING.report.max_title_chars:
        title = title[: TUNING.report.max_title_chars].rsplit(" ", 1)[0] + "…"
    return title[:1].upper() + title[1:] if title else "Research report"


def _beside(analysis: Analysis, other: ScoredSentence, lead: ScoredSentence) -> bool:
    """``other`` may be quoted after the sentence giving the answer: not the answer itself, nor another
    row of the table whose cell answers (a row is about its own thing: "JNLPBA | … | 77.70" after the
    ChemRel row answering "What F1 does Orbit-CorvidBERT obtain on ChemRel?"), nor a row of another
    table unless it is that table's row of the question's thing (a row of other things, out of its
    table, tells the reader nothing)."""
    if other is lead:
        return False
    row = other.sentence.row
    if lead.sentence.row is None or row is None:
        return True
    return other.sentence.block_id != lead.sentence.block_id and own_row(
        analysis.asked, row.label, other.sentence.rivals
    )
