"""Offline mode's fitted figures are data: named presets, each with its fit, picked by PRP_CALIBRATION."""

from __future__ import annotations

from typing import get_args

from config import Settings
from config.settings import ReadingSettings
from strategies.offline import assessment
from strategies.offline.calibration import FITTED, PRESETS
from strategies.reading.signals import Signals
from strategies.reading.tuning import TUNING


def test_every_calibration_the_settings_offer_is_a_preset_with_the_fit_that_produced_it() -> None:
    assert set(get_args(ReadingSettings.model_fields["calibration"].annotation)) == set(PRESETS)
    assert all(preset.fit for preset in PRESETS.values())
    assert Settings().reading.calibration == "fitted" and PRESETS["fitted"] == FITTED


def test_a_preset_moves_where_an_account_counts_as_answered(monkeypatch) -> None:
    # An account whose evidence covers the question, at a probability between the presets' thresholds.
    found = Signals(
        pool=1.0,
        best=1.0,
        dense=0.6,
        margin=0.1,
        lexical=0.6,
        agreement=1.0,
        lead=TUNING.evidence.account_lead,
        joint=1.0,
    )
    assert [assessment.sufficient(found, 0.4, PRESETS[name]) for name in ("answer-more", "fitted", "abstain-more")] == [
        True,
        True,
        False,
    ]
    monkeypatch.setenv("PRP_CALIBRATION", "abstain-more")
    assert Settings().reading.calibration == "abstain-more"
