"""Scoring functions shared by the evaluators and the benchmarks."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

_WORD = re.compile(r"\w+", re.UNICODE)
# A retrieved chunk "hits" a gold paragraph if it contains it, or at least this share of its tokens
# (a gold paragraph longer than one chunk can never be contained whole).
EVIDENCE_TOKEN_SHARE = 0.8


def tokens(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def normalize(text: str) -> str:
    return " ".join(tokens(text))


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
    """1-based rank of the first chunk that hits any gold paragraph, or None."""
    for rank, text in enumerate(chunk_texts, start=1):
        if any(evidence_hit(text, g) for g in golds):
            return rank
    return None


def hit_at(rank: int | None, k: int) -> float:
    return 1.0 if rank is not None and rank <= k else 0.0


def reciprocal_rank(rank: int | None) -> float:
    return 1.0 / rank if rank else 0.0
