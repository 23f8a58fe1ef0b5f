"""A sentence's clauses, and the clause of a text that a clause of a claim reads against.

The judge compares polarity, modality and figures clause by clause: "the day pass costs $20, and the
annual pass costs $30" does not state that the day pass costs $30, though it holds every word and
figure of that claim. Clause boundaries are general English ones: a semicolon, a comma before a
coordinating or contrasting conjunction (", and", ", but", ", while"), a contrast without a comma
("but", "whereas", "although") and a non-restrictive relative clause (", which", ", who").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from corpus.chunking import split_sentences
from strategies.reading.lexicon.stoplists import GENERIC_WORDS
from strategies.reading.text import content_words, stem, stems_match

# Source: standard English grammar: coordinating and contrasting conjunctions, relative pronouns.
_BOUNDARY = re.compile(
    r"\s*;\s*"
    r"|,\s+(?=(?:and|but|or|yet|so|while|whereas|although|though|which|who|whose|where)\b)"
    r"|\s+(?=(?:but|whereas|although|though)\b)",
    re.I,
)
# A clause of fewer content words than this is read with the one before it ("…, and so on").
MIN_CLAUSE_WORDS = 2


def clauses(text: str) -> list[str]:
    """The clauses of ``text``'s sentences, in order."""
    out: list[str] = []
    for sentence in split_sentences(text) or [text]:
        for part in _BOUNDARY.split(sentence):
            part = part.strip(" ,;")
            if not part:
                continue
            if out and len(content_words(part, GENERIC_WORDS)) < MIN_CLAUSE_WORDS:
                out[-1] = f"{out[-1]}, {part}"
            else:
                out.append(part)
    return out or [text]


def _stems(text: str) -> list[str]:
    return list(dict.fromkeys(stem(w) for w in content_words(text, GENERIC_WORDS)))


def closeness(claim: str, clause: str) -> float:
    """The share of the claim's content words the clause holds."""
    mine, theirs = _stems(claim), set(_stems(clause))
    if not mine:
        return 0.0
    return sum(1 for s in mine if s in theirs or any(stems_match(s, t) for t in theirs)) / len(mine)


def aligned(claim: str, texts: Iterable[str]) -> tuple[list[str], float]:
    """The clauses of ``texts`` that read most like ``claim`` (all those tied best), and how close."""
    scored = [(closeness(claim, c), c) for t in texts for c in clauses(t)]
    if not scored:
        return [], 0.0
    best = max(s for s, _ in scored)
    return [c for s, c in scored if s == best], best
