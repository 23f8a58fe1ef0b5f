"""The reading core's tuning is data: one frozen model, every figure described with its fit, every
preset valid (issue 47.3)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import get_args

import pytest
from pydantic import BaseModel, ValidationError

from strategies.reading.tuning import PRESETS, TUNING, PresetName, Tuning

ROOT = Path(__file__).resolve().parents[1]


def _sections(tuning: Tuning) -> list[BaseModel]:
    return [getattr(tuning, name) for name in type(tuning).model_fields]


def test_every_figure_says_what_it_decides_and_where_its_value_came_from() -> None:
    for section in _sections(TUNING):
        assert type(section).__doc__
        for name, field in type(section).model_fields.items():
            assert field.description and "Fit: " in field.description, f"{type(section).__name__}.{name}"


def test_every_preset_validates_and_the_default_is_the_figures_the_readers_use() -> None:
    assert set(get_args(PresetName)) == set(PRESETS) and "default" in PRESETS
    for name in PRESETS:
        assert isinstance(Tuning.from_name(name), Tuning)
    assert Tuning.from_name("default") == TUNING == Tuning()


def test_the_tuning_cannot_be_changed_in_place() -> None:
    with pytest.raises(ValidationError):
        TUNING.evidence = TUNING.evidence  # type: ignore[misc]
    with pytest.raises(ValidationError):
        TUNING.evidence.min_coverage = 0.9  # type: ignore[misc]


def test_a_preset_overrides_a_figure_and_an_unknown_or_mistyped_one_fails() -> None:
    assert Tuning.model_validate({"evidence": {"min_coverage": 0.5}}).evidence.min_coverage == 0.5
    with pytest.raises(ValidationError):
        Tuning.model_validate({"evidence": {"min_coverag": 0.5}})
    with pytest.raises(ValidationError):
        Tuning.model_validate({"judge": {"negation_reach": "three"}})


def test_few_thresholds_are_left_in_the_reading_core_code() -> None:
    spec = importlib.util.spec_from_file_location("thresholds_in_code", ROOT / "benchmarks" / "thresholds_in_code.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert sum(map(len, module.count().values())) <= 20
