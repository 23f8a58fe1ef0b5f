"""The judge's verdict on whether a text states a claim (``strategies.reading.judge``), as the render
node reads it through the strategy's ``ReportReading`` without knowing the reading core."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Label(StrEnum):
    STATES = "states"
    CONTRADICTS = "contradicts"
    NEITHER = "neither"


@dataclass(frozen=True)
class Verdict:
    label: Label
    score: float  # how well the sentences state the claim, 0-1 (0 when they contradict it)
    reason: str
    # Decided by the text itself (a verbatim quote, a failed hard check), which no second reader overrules.
    firm: bool = False

    @property
    def states(self) -> bool:
        return self.label is Label.STATES

    @property
    def contradicts(self) -> bool:
        return self.label is Label.CONTRADICTS
