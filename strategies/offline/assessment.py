"""Is the evidence enough, and what to try next: confidence, reformulations and gap suggestions.

Confidence is a logistic model over eight ``Signals`` of an ``Analysis`` (``strategies.reading.signals``):
how many of the question's focus terms the evidence and its top sentences hold, a sentence read in its
context (its document's title and section: "Click Add Test Case" on the page "Eval tool" is about the
evaluation tool), and how many the chosen sentences hold together (a question in two parts is
answered by two sentences); the asked-for noun of a "what sport" question is excluded (it names the
answer's kind, not a word the answer contains); the best question-sentence cosine and its margin
over the median cosine; the top sentence's BM25 overlap; whether the best sentence by meaning and
the best by words agree; and whether a short answer of the asked-for type was found. Word presence
alone decides nothing: a question phrased in other words than its source is answered when its
answer ranks first by meaning, and one shared word does not make a question answerable.

Calibration (2026-11-25, ``python -m evals.calibration``; the figures are data, named presets in
``strategies.offline.calibration`` that ``PRP_CALIBRATION`` picks): weights fitted by class- and set-balanced
logistic regression on the first-round evidence of every dev set — the 33 sample questions (6
unanswerable), all 1,005 QASPER dev questions (95 unanswerable), the 150 RAMDocs dev questions and
the 100 docs-dev questions (all answerable) —, each set weighing the same. The decision then differs
by what the question asks: a question asking for a typed value is answered when a value of its type
stands out (``lead`` weighs most), an account when the evidence covers it, so each kind has its own
probability threshold; and both need a floor of word coverage (without it, near-topic questions a
small corpus does not cover, such as the demo topic's "installation costs" of green roofs, are
answered with a sentence about installing them). On that first-round evidence, typed >= 0.55,
account >= 0.35 and coverage >= 0.45 give QASPER answered 0.81 / abstention 0.39, docs-dev answered
0.70, RAMDocs 0.79, sample 1.00 / 1.00 (the graph's retries answer more); one threshold for both kinds
could not (at 0.5: QASPER 0.78 / 0.43 but docs-dev 0.47; at 0.3: docs-dev 0.81, but QASPER abstention
0.19 and a sample question on property values answered with a sentence on street cooling). The signals
separate a paper's unanswerable questions poorly (a question about what a paper does not do shares
its words and topic with what it does): no setting reaches QASPER answered 0.75 with abstention 0.55
and keeps documentation questions answered.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from corpus.retrieval import RetrievedChunk
from strategies.offline.calibration import Calibration
from strategies.reading.answerhood import answer_verdict, unheld
from strategies.reading.binding import subject_unheld
from strategies.reading.claim_checks import Meaning, technical
from strategies.reading.extractive import Analysis, ScoredSentence, prose
from strategies.reading.keyphrases import extract_keyphrases
from strategies.reading.lexicon.function_words import COMPLEX_PREPOSITIONS
from strategies.reading.lexicon.quantities import COUNTED
from strategies.reading.lexicon.question_words import FRAMING_PHRASES, FRAMING_WORDS
from strategies.reading.question_types import AnswerType
from strategies.reading.related_terms import related_terms
from strategies.reading.signals import Signals, coverage, read_coverage, read_terms
from strategies.reading.text import (
    content_stems,
    content_words,
    has_injection_word,
    matched,
    normalise_space,
    question_terms,
    stem,
    strip_question,
    words,
)
from strategies.reading.tuning import TUNING
from strategies.reading.vectors import Vectors


def probability(found: Signals, calibration: Calibration) -> float:
    """The calibrated probability that the evidence answers the question (logistic over ``Signals``)."""
    z = calibration.intercept + sum(weight * getattr(found, name) for name, weight in calibration.weights.items())
    return round(1.0 / (1.0 + math.exp(-z)), 4)


def sufficient(found: Signals, conf: float, calibration: Calibration) -> bool:
    """Confident enough for the kind of answer asked, and the question's specific terms not missing
    from the evidence (the coverage floor; see above)."""
    threshold = calibration.account if found.lead == TUNING.evidence.account_lead else calibration.typed
    return conf >= threshold and coverage(found) >= calibration.coverage


def read(
    analysis: Analysis,
    chosen: list[ScoredSentence],
    evidence: Sequence[RetrievedChunk],
    found: Signals,
    conf: float,
    sufficient: bool,
    calibration: Calibration,
    meaning: Meaning | None = None,
    lead: str | None = None,
) -> tuple[bool, float]:
    """The judge's reading over the calibrated model's judgement: (sufficient, confidence).

    - An acronym or identifier the question asks about (not the evidence's general subject) that
      nothing in the evidence holds — no sentence, heading, title or section — is not answered, however
      confident the signals are ("what is the IPv6 range" over pages that never say IPv6).
    - A question asking for a count or a date that no sentence gives one of (``found.lead`` 0) is not
      answered, however many of its words the sentences share ("how many GPUs" over a sentence on
      the efficiency of GPUs).
    - Otherwise, a question the model finds short of its threshold, each of whose focus terms is
      somewhere in the evidence, is answered when the chosen sentences state what it asks (``answerhood.answer_verdict``: the judge's hard checks, then most
      of the question's words in the sentences and their context, or the same in other words), its
      words are not missing from the evidence (the coverage floor) and, when it asks for a typed value,
      a sentence gives one; the confidence shown is then the judge's score. A question the evidence's
      subject took most of the words of is read whole (``signals.read_terms``): the floor is measured
      over all its terms and the judge reads them against the sentences alone.

    ``lead``: the document of the sentence leading the answer (a value's, when one chose it)."""
    held = " ".join(f"{c.title} {c.text} {' '.join(b.section for b in c.blocks)}" for c in evidence)
    if _unnamed(analysis, chosen, evidence, lead, held):
        return False, min(conf, TUNING.evidence.unnamed_confidence)
    # A question asking for a figure or a date is not answered by sentences giving none of the asked
    # kind, however many of its words they share: "How many GPUs are used?" by "an advantage of
    # transformer networks is the computational efficiency on GPUs".
    # A count ("how many") or a date only: "How much carbon do green roofs store?" over a library whose
    # discussion of carbon storage ranks above the results' figure is still answered by that discussion
    # (searching further down for a figure found the wrong one elsewhere: a sample's "1,000 tweets" for a
    # dataset of 10,000).
    asked = analysis.asked.type
    if found.lead == 0.0 and (asked.kind is AnswerType.DATE or (asked.kind is AnswerType.QUANTITY and asked.counted)):
        return False, conf
    # A question asking for a typed value is answered only by a sentence giving one (``found.lead``): a
    # sentence sharing the words of "what is the average length of the titles" without a figure does not.
    # The coverage floor is measured over the terms the question is read by (``read_terms``).
    if sufficient or read_coverage(analysis, found) < calibration.coverage or found.lead == 0.0:
        return sufficient, conf
    return _judge_reading(analysis, chosen, held, conf, meaning)


def _unnamed(
    analysis: Analysis, chosen: list[ScoredSentence], evidence: Sequence[RetrievedChunk], lead: str | None, held: str
) -> bool:
    """The evidence never names an acronym or identifier the question asks about (its focus, not the
    evidence's general subject), or the answering documents never name the thing asked of."""
    focus = set(analysis.focus_terms)
    asked = [n for n in analysis.asked.names if technical(n) and any(stem(w) in focus for w in content_words(n))]
    if unheld(asked, [held]) is not None:
        return True
    # Nor is a question on a thing the answering documents never name (``subject_unheld``).
    return subject_unheld(analysis, chosen, evidence, lead) is not None


def _judge_reading(
    analysis: Analysis, chosen: list[ScoredSentence], held: str, conf: float, meaning: Meaning | None
) -> tuple[bool, float]:
    """The judge's verdict on a question the model found short: (answered, confidence)."""
    question = analysis.question
    context = [" ".join(sorted(item.sentence.context)) for item in chosen]
    focus_read = read_terms(analysis)
    # The judge answers a question the model found short only when each term it asks about is somewhere
    # in the evidence: "What grants are available to building owners who install green roofs?" over pages
    # that never say grants shares most of its words with a council's list of green-roof measures. So
    # with a question read whole: the words its evidence's subject left over are what it asks about
    # ("installation *costs*" over a policy brief that says "install green roofs" and never a cost).
    # A lead-in's list answering it says what the question frames its ask with in its own words ("This
    # guide assumes that you have:" for "what does it recommend you have in place"): those words are
    # neither held nor read (``_framing_stems``); the things it asks about still are.
    framing = _framing_stems(question) if chosen[0].sentence.items else set()
    held_stems = set(content_stems(held))
    excused = _connective_stems(question) | framing
    if not all(matched(t, held_stems) for t in analysis.focus_terms if t not in excused):
        return False, conf
    # Read whole, the question's subject words are its evidence's titles and sections: the sentences must
    # state it themselves, not lean on the page they stand on; but a lead-in stands for its heading
    # ("A stream response is comprised of:" under "Raw HTTP Stream response").
    read_in = context if focus_read or framing else []
    sentences = [item.sentence.read for item in chosen]
    verdict = answer_verdict(question, sentences, read_in, focus_read, meaning, unasked=framing)
    if verdict.states:
        return True, max(conf, verdict.score)
    return False, conf


def shown(asked: AnswerType, answer: str | None, conf: float, calibration: Calibration) -> float:
    """The confidence shown for an answer whose leading claim gives ``answer`` to a question asking for
    ``asked``: at most the calibration's ceiling for a name, or for an account."""
    if asked in (AnswerType.NAME, AnswerType.PLACE, AnswerType.THING) and answer:
        return min(conf, calibration.name_ceiling)
    if asked is AnswerType.DESCRIPTION:
        return min(conf, calibration.account_ceiling)
    return conf


def _connective_stems(question: str) -> set[str]:
    """Stems of the question's words that only stand in a complex preposition ("in *terms* of", "when
    it *comes* to", "*instead* of"): no term a sentence must hold."""
    rest = question.lower()
    phrases = [p for p in COMPLEX_PREPOSITIONS if re.search(rf"\b{p}\b", rest)]
    for phrase in phrases:
        rest = re.sub(rf"\b{phrase}\b", " ", rest)
    return {stem(w) for p in phrases for w in content_words(p)} - set(content_stems(rest))


def _framing_stems(question: str) -> set[str]:
    """Stems of the words ``question`` frames its ask with (``FRAMING_WORDS``, ``FRAMING_PHRASES``, the
    count it asks for: "one key advantage", "the two main steps") and nowhere else in it."""
    rest = question.lower()
    phrases = [p for p in FRAMING_PHRASES if re.search(rf"\b{p}\b", rest)]
    for phrase in phrases:
        rest = re.sub(rf"\b{phrase}\b", " ", rest)
    framing = [w for w in words(rest) if w in FRAMING_WORDS or COUNTED.fullmatch(w)]
    kept = " ".join(w for w in words(rest) if w not in framing)
    stems = {stem(w) for w in framing} | {stem(w) for p in phrases for w in content_words(p)}
    return stems - set(content_stems(kept))


def feedback_phrases(question: str, evidence: Sequence[RetrievedChunk], k: int) -> list[str]:
    """Keyphrases of the top evidence chunks the question does not already contain."""
    if not evidence:
        return []
    texts = [prose(c) for c in evidence]
    phrases = extract_keyphrases(
        texts[: TUNING.evidence.prf_chunks],
        collection=texts,
        k=k + 4,
        exclude_stems=[stem(w) for w in question_terms(question)],
    )
    return [p.text for p in phrases if not has_injection_word(p.text)][:k]


def next_queries(
    question: str, evidence: Sequence[RetrievedChunk], tried: Sequence[str], vectors: Vectors
) -> list[str]:
    """Two new queries: pseudo-relevance feedback and a reformulation without question words.

    Fallbacks (the question in the evidence's own words, ``related_terms``; bare content words) keep
    the list at two when the first candidates were already tried in an earlier round.
    """
    terms = question_terms(question)
    stripped = strip_question(question)
    prf = feedback_phrases(question, evidence, TUNING.evidence.prf_phrases)
    synonyms = related_terms(question, evidence, vectors, TUNING.evidence.max_related_terms)
    candidates = [
        " ".join(terms + prf),
        stripped,
        " ".join([stripped, *synonyms[:3]]),
        " ".join(terms + synonyms[3:6]),
        " ".join(terms),
    ]
    seen = {_key(q) for q in tried}
    out: list[str] = []
    for query in candidates:
        query = normalise_space(query)
        if not query or _key(query) in seen:
            continue
        seen.add(_key(query))
        out.append(query)
        if len(out) == TUNING.evidence.max_next_queries:
            break
    return out


def _key(query: str) -> str:
    return " ".join(words(query))


def suggestions(question: str, evidence: Sequence[RetrievedChunk], tried: Sequence[str], vectors: Vectors) -> list[str]:
    """What a researcher could do about a gap: the documents' own words for it, what the near misses
    discuss, what to add."""
    tried_words = {w for q in tried for w in words(q)}
    out: list[str] = []
    terms = [
        t for t in related_terms(question, evidence, vectors, TUNING.evidence.max_related_terms) if t not in tried_words
    ][:4]
    if terms:
        out.append("Try the documents' own terms: " + ", ".join(f"'{t}'" for t in terms) + ".")
    near = feedback_phrases(question, evidence, 3)
    if near:
        out.append(
            "The closest passages discuss "
            + ", ".join(f"'{p}'" for p in near)
            + " rather than this question; a narrower question on one of them may be answerable."
        )
    topic = strip_question(question)
    # "On ACL-ARC, which scores higher…" keeps its own preposition: never "Add sources on On ACL-ARC".
    own = re.match(r"(?:on|about)\s", topic, re.I)
    out.append(f"Add sources {topic[0].lower()}{topic[1:]}." if own else f"Add sources on {topic}.")
    return out
