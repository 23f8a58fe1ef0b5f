"""What each document answers to a question, and where documents answer it differently.

For every document in a question's evidence, its answer is the short answer phrase (see
``answer_phrase``) of its best-scoring sentence that gives one, among sentences at least
``DOC_RELEVANCE`` as relevant as the best sentence of all the evidence (a document that only
mentions the subject in passing has no answer). Two documents disagree when their answers differ:

- no content word in common ("Blitzen Trapper" vs "The Beatles"; "American football" and
  "football" agree); for measurements of one unit, ranges that do not overlap by the numeric rule of
  ``contradictions`` ("57%" agrees with "50 to 60 percent"); for other figures (dates, counts), no
  figure in common; and
- each document's evidence never mentions the other's answer: a document naming both the band and
  its label gives one answer whichever phrase was picked, and phrase extraction without a model
  picks imperfectly.

Documents are grouped by answer; the largest group (ties: the more relevant) is set against each
other group, each side quoted with its best sentence and led by its answer. When the answers do not
differ, two documents may still make the same relevant statement with one detail changed ("founded
in 1856" / "founded in 1900", "northwestern" / "northeastern"): that detail is the disagreement.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from corpus.retrieval import RetrievedChunk
from corpus.text import figures, word_tokens
from research.evidence import CitationMarker, Claim, Contradiction, Finding, FindingStatus, SubQuestion

from .answer_phrase import answer_phrase, polarity
from .assessment import covered
from .contradictions import MIN_CONFLICT_RATIO
from .extractive import Analysis, ScoredSentence, analyse
from .numbers import conflict_ratio, quantities
from .question_types import AnswerType, question_type
from .text import normalise_space, stopwords
from .vectors import Vectors

# A document's answer must come from a sentence at least this share as relevant as the best one.
DOC_RELEVANCE = 0.5
# How many of a document's best sentences are tried for an answer phrase.
SENTENCES_PER_DOCUMENT = 5
# A weakly placed phrase is no document's answer: a dispute needs answers it is sure of (on RAMDocs
# dev, half the phrases scoring below 0.4 were not an answer of either side).
MIN_PHRASE_SCORE = 0.4
# Two sentences are one statement when their words match this closely (difflib ratio), and they
# differ in at most MAX_CHANGES places of at most MAX_CHANGED_WORDS words each...
SAME_STATEMENT_SIMILARITY = 0.7
MAX_CHANGES = 2
MAX_CHANGED_WORDS = 4
# ...that are not spelling variants of each other ("chuch" / "church").
TYPO_SIMILARITY = 0.8
# A disputed question shows at most this many answers.
MAX_SIDES = 3


@dataclass(frozen=True)
class DocumentAnswer:
    doc_id: str
    answer: str
    sentence: ScoredSentence


def lead(question: str, item: ScoredSentence, vectors: Vectors, min_score: float = 0.0) -> str | None:
    """The short answer one sentence gives: the answer phrase, or Yes/No for a yes/no question."""
    said = polarity(question, item.sentence.text)
    if said is not None:
        return said
    phrase = answer_phrase(question, item.sentence.text, vectors)
    return phrase.text if phrase is not None and phrase.score >= min_score else None


def document_answers(analysis: Analysis, vectors: Vectors) -> list[DocumentAnswer]:
    """One answer per document that gives one, best document first."""
    if not analysis.scored or question_type(analysis.question).kind is AnswerType.DESCRIPTION:
        return []
    floor = DOC_RELEVANCE * analysis.scored[0].relevance
    tried: dict[str, int] = {}
    out: dict[str, DocumentAnswer] = {}
    for item in analysis.scored:
        doc = item.sentence.doc_id
        if item.relevance < floor or doc in out or tried.get(doc, 0) >= SENTENCES_PER_DOCUMENT:
            continue
        tried[doc] = tried.get(doc, 0) + 1
        answer = lead(analysis.question, item, vectors, MIN_PHRASE_SCORE)
        if answer:
            out[doc] = DocumentAnswer(doc, answer, item)
    return list(out.values())


def _content(text: str) -> set[str]:
    stops = stopwords()
    return {t for t in word_tokens(text) if t not in stops}


def same_answer(a: str, b: str) -> bool:
    qa, qb = quantities(a), quantities(b)
    if qa and qb:
        # Measurements agree when some pair of one unit overlaps ("57%" lies in "50 to 60 percent");
        # measurements of different things ("115 kg/m2", "50 to 150 mm") do not disagree at all.
        comparable = [(x, y) for x in qa for y in qb if x.unit == y.unit]
        return not comparable or any(conflict_ratio(x, y) < MIN_CONFLICT_RATIO for x, y in comparable)
    na, nb = figures(a), figures(b)
    if na and nb:
        return bool(set(na) & set(nb))  # dates and counts: 1932 and 1951 are two answers
    return bool(_content(a) & _content(b)) or normalise_space(a).lower() == normalise_space(b).lower()


def _mentions(text: str, answer: str) -> bool:
    """The document's text contains the answer (all its content words, or its figures)."""
    numbers = figures(answer)
    if numbers:
        found = figures(text)
        return set(numbers) <= set(found)
    words = _content(answer)
    return bool(words) and words <= _content(text)


def answer_conflicts(
    sub_question: SubQuestion, analysis: Analysis, evidence: list[RetrievedChunk], vectors: Vectors
) -> list[Contradiction]:
    """The disagreements between the documents' answers to ``sub_question``: the most widely given
    answer against each other answer (at most ``MAX_SIDES`` - 1 of them)."""
    answers = document_answers(analysis, vectors)
    if len(answers) < 2:
        return edited_statements(sub_question, analysis)
    text_of: dict[str, str] = {}
    for chunk in evidence:
        text_of[chunk.doc_id] = text_of.get(chunk.doc_id, "") + " " + chunk.text
    groups: list[list[DocumentAnswer]] = []
    for item in answers:
        group = next((g for g in groups if same_answer(g[0].answer, item.answer)), None)
        if group is None:
            groups.append([item])
        else:
            group.append(item)
    # Largest groups first; equal sizes keep evidence order (the more relevant first).
    first, *others = sorted(groups, key=lambda g: -len(g))
    # Yes and No are compared as they are: both words occur in any text.
    yes_no = question_type(analysis.question).kind is AnswerType.YES_NO
    found: list[Contradiction] = []
    for other in others:
        a, b = first[0], other[0]
        if not yes_no and (
            any(_mentions(text_of.get(x.doc_id, ""), b.answer) for x in first)
            or any(_mentions(text_of.get(y.doc_id, ""), a.answer) for y in other)
        ):
            continue
        found.append(
            _dispute(
                sub_question,
                a,
                b,
                f"The documents answer differently: \u201c{a.answer}\u201d ({_count(first)}) and "
                f"\u201c{b.answer}\u201d ({_count(other)}).",
            )
        )
        if len(found) == MAX_SIDES - 1:
            break
    return found or edited_statements(sub_question, analysis)


def _tokens(text: str) -> list[str]:
    return [t.strip(".,;:()[]\"'“”") for t in text.split()]


def detail_change(a: str, b: str) -> tuple[str, str] | None:
    """The detail two near-identical sentences state differently ("1856" / "1900"), or None: too
    different to be one statement, or differing only in words that carry nothing (a hedge, a typo)."""
    ta, tb = _tokens(a), _tokens(b)
    match = difflib.SequenceMatcher(a=[t.lower() for t in ta], b=[t.lower() for t in tb], autojunk=False)
    if match.ratio() < SAME_STATEMENT_SIMILARITY:
        return None
    changes = [op for op in match.get_opcodes() if op[0] != "equal"]
    if not changes or len(changes) > MAX_CHANGES or any(op[0] != "replace" for op in changes):
        return None
    if any(i2 - i1 > MAX_CHANGED_WORDS or j2 - j1 > MAX_CHANGED_WORDS for _, i1, i2, j1, j2 in changes):
        return None
    old = " ".join(" ".join(ta[i1:i2]) for _, i1, i2, _, _ in changes)
    new = " ".join(" ".join(tb[j1:j2]) for _, _, _, j1, j2 in changes)
    meaningful = all((_content(x) or figures(x)) for x in (old, new))
    similar_spelling = difflib.SequenceMatcher(a=old.lower(), b=new.lower()).ratio() >= TYPO_SIMILARITY
    return (old, new) if meaningful and not similar_spelling else None


def edited_statements(sub_question: SubQuestion, analysis: Analysis) -> list[Contradiction]:
    """Two documents making the same relevant statement with one detail changed: a disagreement on
    that detail whatever the question's type (the most direct sign that one source was altered)."""
    if not analysis.scored:
        return []
    floor = DOC_RELEVANCE * analysis.scored[0].relevance
    relevant = [s for s in analysis.scored if s.relevance >= floor]
    for i, x in enumerate(relevant):
        for y in relevant[i + 1 :]:
            if x.sentence.doc_id == y.sentence.doc_id:
                continue
            change = detail_change(x.sentence.text, y.sentence.text)
            if change is None:
                continue
            a, b = DocumentAnswer(x.sentence.doc_id, change[0], x), DocumentAnswer(y.sentence.doc_id, change[1], y)
            explanation = (
                f"The documents make the same statement with one detail changed: "
                f"\u201c{a.answer}\u201d and \u201c{b.answer}\u201d."
            )
            return [_dispute(sub_question, a, b, explanation)]
    return []


def answer_disputes(findings: list[Finding], vectors: Vectors) -> list[Contradiction]:
    """The answer disagreements of every finding: the check both modes run on their evidence.

    A gap is checked too when its evidence covers the question's words (``assessment.covered``):
    documents answering differently lower every sufficiency signal, so a disputed question often
    looks unanswered (on RAMDocs dev 14 of 77 disputes were gaps); evidence that never mentions what
    is asked is no dispute, only unrelated answers."""
    disputes: list[Contradiction] = []
    for finding in findings:
        if not finding.evidence:
            continue
        analysis = analyse(finding.sub_question.question, finding.evidence, vectors)
        if (finding.status is FindingStatus.GAP or not finding.claims) and not covered(analysis):
            continue
        disputes += answer_conflicts(finding.sub_question, analysis, finding.evidence, vectors)
    return disputes


def _dispute(sub_question: SubQuestion, a: DocumentAnswer, b: DocumentAnswer, explanation: str) -> Contradiction:
    return Contradiction(
        subject=sub_question.question,
        kind="answer",
        explanation=explanation,
        side_a=_side(a),
        side_b=_side(b),
        sub_question_id=sub_question.id,
    )


def _count(group: list[DocumentAnswer]) -> str:
    return "1 document" if len(group) == 1 else f"{len(group)} documents"


def _side(item: DocumentAnswer) -> Claim:
    s = item.sentence.sentence
    return Claim(
        text=normalise_space(s.text),
        citations=[CitationMarker(block_id=s.block_id, quote=s.text)],
        answer=item.answer,
    )
