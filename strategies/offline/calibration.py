"""The figures offline mode's sufficiency judgement was fitted to, as data: named presets, each with the
dev-set fit that produced it (issue 47.3; like PaperQA2's ``Settings.from_name``).

``PRP_CALIBRATION`` picks one. A refit (``python -m evals.calibration``) is a change of these figures
with its before → after on every dev set (docs/evaluation.md#calibration), not of the code reading them.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from strategies.reading.tuning import TUNING

PresetName = Literal["fitted", "abstain-more", "answer-more"]


class Calibration(BaseModel):
    """A logistic model over ``Signals``, the probability an answer needs, and the confidence shown at
    most for the kinds of answer it over-rates."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    weights: dict[str, float] = Field(description="logistic weight of each of the eight Signals")
    intercept: float
    typed: float = Field(description="probability a question asking for a typed value needs")
    account: float = Field(description="probability a question asking for an account needs")
    coverage: float = Field(
        default=TUNING.evidence.min_coverage, description="floor on the coverage of the question's terms"
    )
    name_ceiling: float = Field(default=1.0, description="confidence shown at most for a name answer")
    account_ceiling: float = Field(default=1.0, description="confidence shown at most for an account")
    fit: str = Field(default="", description="where these figures come from, and what they gave")


# Weights fitted 2026-11-25 (``python -m evals.calibration``) by class- and set-balanced logistic
# regression on the first-round evidence of every dev set: the 33 sample questions, all 1,005 QASPER
# dev questions, the 150 RAMDocs and the 100 docs-dev questions, each set weighing the same.
_FITTED_WEIGHTS = {
    "pool": 0.065,
    "best": 0.764,
    "dense": 0.241,
    "margin": 0.072,
    "lexical": 0.618,
    "agreement": 0.228,
    "lead": 1.331,
    "joint": 1.338,
}
_FITTED_INTERCEPT = -2.389
# The model says whether the evidence answers, not whether the name or sentence quoted is the right
# one: measured by the answers shown (2026-12-07, a 60-paper QASPER dev slice, papers-dev and
# docs-dev), names shown at >= 0.8 were right 9 of 36 times, accounts 8 of 26, figures, dates and
# yes/no 23 of 27.
_CEILINGS = {"name_ceiling": 0.75, "account_ceiling": 0.75}


def _fitted_with(typed: float, account: float, fit: str) -> Calibration:
    """The fitted weights and ceilings with the thresholds of one point of the fit's grid."""
    return Calibration(
        weights=_FITTED_WEIGHTS, intercept=_FITTED_INTERCEPT, typed=typed, account=account, **_CEILINGS, fit=fit
    )


PRESETS: dict[PresetName, Calibration] = {
    "fitted": _fitted_with(
        0.55,
        0.35,
        "2026-11-25 grid over all four dev sets: QASPER answered 0.81 / abstention 0.39, docs-dev "
        "answered 0.70, RAMDocs 0.79, sample 1.00 / 1.00",
    ),
    "abstain-more": _fitted_with(
        0.5,
        0.5,
        "2026-11-25 grid, one threshold of 0.5: QASPER answered 0.78 / abstention 0.43, docs-dev answered 0.47",
    ),
    "answer-more": _fitted_with(
        0.3, 0.3, "2026-11-25 grid, one threshold of 0.3: docs-dev answered 0.81, QASPER abstention 0.19"
    ),
}
FITTED = PRESETS["fitted"]
