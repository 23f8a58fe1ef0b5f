"""Scoring functions shared by the evaluators and the benchmarks."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from corpus.text import word_tokens

# A retrieved chunk "hits" a gold paragraph if it contains it, or at least this share of its tokens
# (a gold paragraph longer than one chunk can never be contained whole).
EVIDENCE_TOKEN_SHARE = 0.8


def normalize(text: str) -> str:
    return " ".join(word_tokens(text))


def evidence_hit(chunk_text: str, gold: str) -> bool:
    gold_norm = normalize(gold)
    if not gold_norm:
        return False
    chunk_norm = normalize(chunk_text)
    if gold_norm in chunk_norm:
        return True
    gold_tokens = Counter(gold_norm.split())
    chunk_tokens = Counter(chunk_norm.split())
    overlap = sum((gold_tokens & chunk_tokens).values())
    return overlap / sum(gold_tokens.values()) >= EVIDENCE_TOKEN_SHARE


def first_hit_rank(chunk_texts: Sequence[str], golds: Sequence[str]) -> int | None:
    """1-based rank of the first chunk that overlaps any gold passage (``overlaps``), or None."""
    for rank, text in enumerate(chunk_texts, start=1):
        if any(overlaps(text, g) for g in golds):
            return rank
    return None


def hit_at(rank: int | None, k: int) -> float:
    return 1.0 if rank is not None and rank <= k else 0.0


def reciprocal_rank(rank: int | None) -> float:
    return 1.0 / rank if rank else 0.0


def overlaps(block_text: str, gold: str) -> bool:
    """A block or chunk holds gold evidence if either holds (most of) the other: it may be a whole
    gold paragraph or a part of one (a documentation section is often longer than a chunk), and a
    gold snippet may be one sentence of it."""
    return evidence_hit(block_text, gold) or evidence_hit(gold, block_text)


# QASPER's answer normalisation (SQuAD's): lower case, no punctuation, no articles.
_ARTICLES = frozenset({"a", "an", "the"})
UNANSWERABLE = "Unanswerable"
"""The answer string of an abstention, as in QASPER's references."""


def answer_tokens(text: str) -> list[str]:
    return [t for t in word_tokens(text) if t not in _ARTICLES]


def _overlap(prediction: str, reference: str) -> tuple[int, int, int]:
    pred, ref = answer_tokens(prediction), answer_tokens(reference)
    return sum((Counter(pred) & Counter(ref)).values()), len(pred), len(ref)


def token_f1(prediction: str, reference: str) -> float:
    """QASPER's token-level answer F1 between one prediction and one reference."""
    common, n_pred, n_ref = _overlap(prediction, reference)
    if not n_pred or not n_ref:
        return float(n_pred == n_ref)
    if not common:
        return 0.0
    precision, recall = common / n_pred, common / n_ref
    return 2 * precision * recall / (precision + recall)


def token_recall(prediction: str, reference: str) -> float:
    """Share of the reference's tokens the prediction contains: does a long answer hold the reference?"""
    common, _, n_ref = _overlap(prediction, reference)
    return common / n_ref if n_ref else 0.0


def best_over_references(score, prediction: str, references: Sequence[str]) -> float | None:
    """QASPER scores an answer against every annotator's reference and keeps the best."""
    return max((score(prediction, r) for r in references), default=None)


def precision_recall_f1(true_positive: int, false_positive: int, false_negative: int) -> dict[str, float | None]:
    flagged, expected = true_positive + false_positive, true_positive + false_negative
    precision = true_positive / flagged if flagged else None
    recall = true_positive / expected if expected else None
    f1 = (
        2 * precision * recall / (precision + recall)
        if precision is not None and recall is not None and precision + recall
        else (0.0 if precision is not None and recall is not None else None)
    )
    return {"precision": precision, "recall": recall, "f1": f1}
