"""Answering an alternative question ("Which scores higher: A or B?") by comparing its alternatives' values.

A figure or a sentence is no answer to it: a reader asking which of two things is larger wants the
thing. Each alternative's value is read by the readers like any other answer, from the question
asking it (``Alternative.question``); the answer names the alternative the comparative picks and
quotes both values' passages. When a value is missing, when the two are in different units, when
both come from one figure (one cell read for both), when they are equal, or when the question's
direction is unknown ("better" perplexity), the question is not answered.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from corpus.text import figures
from research.evidence import Claim
from strategies.reading.alternatives import Alternative, Alternatives, Direction
from strategies.reading.numbers import quantities
from strategies.reading.tuning import TUNING

# A word as a table's cell or a question writes it, hyphens kept ("ncbi-disease").
_WORD = re.compile(r"[a-z][\w-]*[a-z0-9]|[a-z]")


@dataclass(frozen=True)
class Valued:
    """One alternative's value, as the claim the readers led with it."""

    option: Alternative
    claim: Claim  # led by the value (its ``answer``)
    value: float
    unit: str  # "" for a bare number
    confidence: float


def valued(option: Alternative, claims: list[Claim], confidence: float) -> Valued | None:
    """The value the claims found for ``option`` lead with; None without a figure leading them, or
    when it is a table row's that names nothing its question names (a row answers for its label:
    another dataset's row is no value of this one)."""
    lead = claims[0] if claims else None
    found = figures(lead.answer) if lead and lead.answer else []
    if lead is None or not found or not _row_of(option, lead.first_line):
        return None
    units = quantities(lead.answer)
    return Valued(option, lead, found[0], units[0].unit if units else "", confidence)


def compared(alternatives: Alternatives, values: list[Valued | None]) -> tuple[list[Claim], bool, float]:
    """(claims, sufficient, confidence): the claim naming the alternative the comparative picks, with
    both values and both passages; no claim when the two values cannot be set against each other."""
    first, second = values
    if first is None or second is None or alternatives.direction is None or not _comparable(first, second):
        return [], False, 0.0
    larger, smaller = (first, second) if first.value > second.value else (second, first)
    winner, loser = (larger, smaller) if alternatives.direction is Direction.MAX else (smaller, larger)
    markers = list({(m.block_id, m.quote): m for m in [*winner.claim.citations, *loser.claim.citations]}.values())
    # The two values in one line citing both passages, shown after the winner's name in bold ("**A**:
    # 84.59 against 83.64 for B"): the passages, quoted together, would be read as one statement (a
    # year of one row taken for a value of the other).
    line = f"{winner.claim.answer} against {loser.claim.answer} for {loser.option.name}."
    claim = Claim(text=line, citations=markers, answer=winner.option.name)
    return [claim], True, min(first.confidence, second.confidence)


def not_compared(alternatives: Alternatives, values: list[Valued | None]) -> str:
    """Why the question is not answered, with each value found and the passage it was read from."""
    first, second = values
    if first is None or second is None:
        why = "the documents do not state both values"
    elif _same_figure(first, second):
        why = "the documents do not state both values: one figure was read for both"
    elif alternatives.direction is None:
        why = f"'{alternatives.comparative}' does not say whether the higher or the lower value wins"
    else:
        why = "the two values found cannot be set against each other (other units, or equal)"
    found = "; ".join(
        f"{option.name}: {value.claim.answer} in \u201c{_clipped(value.claim.first_line)}\u201d"
        if value
        else f"{option.name}: no value found"
        for option, value in zip(alternatives.options, values, strict=True)
    )
    return f"Compare the values by hand: {why} ({found})."


def _clipped(text: str) -> str:
    return (
        text
        if len(text) <= TUNING.report.max_quote_chars
        else text[: TUNING.report.max_quote_chars].rsplit(" ", 1)[0] + "\u2026"
    )


def _row_of(option: Alternative, line: str) -> bool:
    """``line`` is no table row (cells joined by " | "), or a word of its cells is a word of the
    alternative's question (whole words: "MultiNews" is not "Multi-LexSum")."""
    cells = line.split(" | ")
    asked = set(_WORD.findall(option.question.lower()))
    return len(cells) < 2 or any(w in asked for cell in cells for w in _WORD.findall(cell.lower()))


def _comparable(first: Valued, second: Valued) -> bool:
    """Two values of one measure, read from two figures: the same unit, not one figure read for both
    (one cell answering both alternatives says nothing of either), and not equal."""
    return first.unit == second.unit and not _same_figure(first, second) and first.value != second.value


def _same_figure(first: Valued, second: Valued) -> bool:
    """One figure of one passage read for both: the same value, from a block both claims cite."""
    blocks = {m.block_id for m in first.claim.citations} & {m.block_id for m in second.claim.citations}
    return first.claim.answer == second.claim.answer and bool(blocks)
