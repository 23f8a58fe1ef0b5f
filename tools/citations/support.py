"""Does a cited quote support the claim it is cited for? A deterministic floor, not entailment.

A citation resolves when its *quote* is found in a stored block; the claim beside it may still say
something the quote does not (a paraphrase that changes a figure, a model's claim pinned to an unrelated
sentence). A claim is supported when every figure it states occurs in its quoted text and at least
``MIN_SHARED_WORDS`` of its content words (compared on their first ``PREFIX`` letters, so "retains"
meets "retained") do. Offline claims are their quotes verbatim and always pass.
"""

from __future__ import annotations

from collections.abc import Sequence

from corpus.text import figures, stopwords, word_tokens

MIN_SHARED_WORDS = 0.5
PREFIX = 5


def _content(text: str) -> set[str]:
    stops = stopwords()
    return {t[:PREFIX] for t in word_tokens(text) if t not in stops and not t.isdigit() and len(t) > 2}


def supports(claim: str, quotes: Sequence[str]) -> bool:
    return support_share(claim, quotes) >= MIN_SHARED_WORDS


def support_share(claim: str, quotes: Sequence[str]) -> float:
    """The share of the claim's content words the quotes hold; 0 when a figure it states is not in them."""
    quoted = " ".join(quotes)
    if not set(figures(claim)) <= set(figures(quoted)):
        return 0.0
    words = _content(claim)
    return len(words & _content(quoted)) / len(words) if words else 1.0
