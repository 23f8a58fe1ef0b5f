"""How well a question's evidence answers it, measured: the eight ``Signals`` of an ``Analysis``.

The offline strategy's calibrated confidence reads them (its ``assessment`` module, whose
docstring says what each weighs); ``covered`` is their coverage floor, the check that the question's
specific terms are not missing from the evidence, which also decides whether a question no answer
stood out for is checked for documents answering it differently (``document_answers``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from strategies.reading.tuning import TUNING

from .extractive import Analysis, ScoredSentence, select
from .text import stem


@dataclass(frozen=True)
class Signals:
    """How well the evidence answers a question, each in [0, 1] (see the module docstring)."""

    pool: float  # share of the focus terms found anywhere in the evidence
    best: float  # largest share of focus terms one of the top sentences covers
    dense: float  # best question-sentence cosine
    margin: float  # best cosine above the median cosine: the answer standing out from the background
    lexical: float  # the top sentence's idf-weighted overlap with the question
    agreement: float  # 1 when the best sentence by meaning is among the best by words, or the reverse
    lead: float  # a short answer of the asked-for type was found (1) or not (0); 0.5 for descriptions
    joint: float  # share of the focus-term weight the chosen sentences cover together


def signals(analysis: Analysis, led: bool | None, chosen: list[ScoredSentence] | None = None) -> Signals:
    """``led``: whether a top sentence gave a short answer (None: the question wants a description);
    ``chosen``: the sentences the answer quotes (``select``'s, unless the caller has them already)."""
    scored = analysis.scored
    # The asked-for noun ("what *sport*") names the answer's kind, not a word the answer contains.
    noun = {stem(w) for w in analysis.asked.type.noun.split()}
    # When the noun was the only specific term ("who is the *artist* of the album VII"), the question's
    # other terms are what the evidence must cover.
    focus = (
        [t for t in analysis.focus_terms if t not in noun]
        or [t for t in analysis.terms if t not in noun]
        or analysis.focus_terms
    )
    pool, best = _shares(analysis, focus)
    dense = sorted(s.dense for s in scored)
    by_dense = sorted(range(len(scored)), key=lambda i: -scored[i].dense)
    by_words = sorted(range(len(scored)), key=lambda i: -scored[i].lexical)
    agreement = float(
        by_dense[0] in by_words[: TUNING.evidence.agreement_ranks]
        or by_words[0] in by_dense[: TUNING.evidence.agreement_ranks]
    )
    return Signals(
        pool=pool,
        best=best,
        dense=dense[-1],
        margin=dense[-1] - dense[len(dense) // 2],
        lexical=scored[0].lexical,
        agreement=agreement,
        lead=TUNING.evidence.account_lead if led is None else float(led),
        joint=joint_coverage(analysis, select(analysis) if chosen is None else chosen),
    )


def _shares(analysis: Analysis, terms: list[str]) -> tuple[float, float]:
    """(pool, best): the share of ``terms`` anywhere in the evidence's sentences, and the largest share
    one of the top sentences covers."""
    scored = analysis.scored
    if not terms:
        return 1.0, 1.0
    pool = sum(1 for t in terms if any(s.sentence.covers(t) for s in scored)) / len(terms)
    best = max(
        sum(1 for t in terms if s.sentence.covers(t)) / len(terms) for s in scored[: TUNING.evidence.top_sentences]
    )
    return pool, best


def read_terms(analysis: Analysis) -> list[str]:
    """The terms a question is read by when its sentences are judged: its focus terms when they are
    most of it; when the evidence's subject took most of its words (one page whose every chunk names
    its topic, leaving "given" or "part" of "how does X differ when given a role"), none: the question
    is read whole."""
    return analysis.focus_terms if 2 * len(analysis.focus_terms) >= len(analysis.terms) else []


def read_coverage(analysis: Analysis, found: Signals) -> float:
    """``coverage`` over the terms the question is read by (``read_terms``): over all its terms but
    the asked-for noun when it is read whole, since a few words the evidence's subject left over do
    not stand for it."""
    if read_terms(analysis):
        return coverage(found)
    noun = {stem(w) for w in analysis.asked.type.noun.split()}
    pool, best = _shares(analysis, [t for t in analysis.terms if t not in noun] or analysis.terms)
    return coverage(dataclasses.replace(found, pool=pool, best=best))


def joint_coverage(analysis: Analysis, chosen: list[ScoredSentence]) -> float:
    """The share of the question's focus-term weight that ``chosen`` cover together: a question in two
    parts is answered by two sentences, neither of which covers it alone."""
    covered: set[str] = set()
    for item in chosen:
        covered |= {t for t in analysis.focus_terms if item.sentence.covers(t)}
    total = sum(analysis.weights.get(t, 0.0) for t in analysis.focus_terms)
    # Summed in the question's order, not the set's (which follows the process's hash seed): float
    # sums in another order differ in their last bits, and the report shows this confidence.
    found = sum(analysis.weights.get(t, 0.0) for t in analysis.focus_terms if t in covered)
    return found / total if total else 0.0


def coverage(found: Signals) -> float:
    """How much of the question the evidence's own words and best cosine cover (0-1)."""
    pool, best, dense = TUNING.evidence.coverage_weights
    return pool * found.pool + best * found.best + dense * found.dense


def covered(analysis: Analysis) -> bool:
    """The question's specific terms are not missing from the evidence (the floor of ``sufficient``)."""
    return bool(analysis.scored) and coverage(signals(analysis, None)) >= TUNING.evidence.min_coverage
