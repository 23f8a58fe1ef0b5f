"""Answering an alternative question ("Which scores higher: A or B?") with one of its alternatives.

A figure or a sentence is no answer to it: a reader asking which of two things is larger wants the
thing. The claims stand only when their lead names an alternative; otherwise the question is not
answered (the documents do not state both values).
"""

from __future__ import annotations

from research.evidence import Claim
from strategies.reading.alternatives import Alternatives


def names_an_alternative(alternatives: Alternatives, answer: str | None) -> bool:
    """``answer`` names one of the alternatives (as an answer names it, or as the question gives it)."""
    said = (answer or "").lower()
    return bool(said) and any(
        form.lower() in said for option in alternatives.options for form in (option.name, option.asked)
    )


def alternative_answer(
    alternatives: Alternatives, claims: list[Claim], sufficient: bool, conf: float
) -> tuple[list[Claim], bool, float]:
    """(claims, sufficient, confidence) answering only with an alternative: claims led by anything
    else answer nothing."""
    if claims and names_an_alternative(alternatives, claims[0].answer):
        return claims, sufficient, conf
    return [], False, 0.0
