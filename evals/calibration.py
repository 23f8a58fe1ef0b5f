"""Fitting offline mode's sufficiency judgement on every dev set together.

    python -m evals.calibration prp:evals/datasets/sample.jsonl=sample_corpus/docs \
        qasper:../shared/data/qasper-dev ramdocs:../shared/data/ramdocs-dev/ramdocs_dev.jsonl \
        prp:../shared/data/docs-dev/questions.jsonl=../shared/data/docs-dev/docs

Each question is searched once, as the graph's first round does, and judged by the offline strategy;
its ``Signals`` (``strategies.reading.signals``) are recorded with whether the question is
answerable. A logistic model is fitted by gradient descent with every set weighing the same and, within the pooled data, answerable and
unanswerable questions weighing the same (the sets differ in size by 30x and only two hold
unanswerable questions). Then a grid of probability thresholds — one for questions asking for a typed
value, one for those asking for an account (``TUNING.evidence.account_lead``) — and coverage floors is scored per
set (answered on answerable questions, abstention on unanswerable ones), and the printed weights and
the chosen setting go into ``strategies.offline.assessment`` (the coverage floor into
``strategies.reading.signals``). The graph's retries answer some questions the first round does
not, so the eval's figures run a little higher than these.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from config import Settings
from corpus.library import Library
from evals.datasets import load_dataset
from evals.runner import libraries_for
from research.options import ResearchOptions
from strategies.offline import assessment
from strategies.offline.calibration import Calibration
from strategies.offline.strategy import OfflineStrategy
from strategies.reading.signals import Signals
from tools.hybrid_search import hybrid_search

FEATURES = [f.name for f in dataclasses.fields(Signals)]
THRESHOLDS = [round(0.2 + 0.05 * i, 2) for i in range(11)]
FLOORS = [round(0.3 + 0.05 * i, 2) for i in range(9)]
L2 = 0.01
STEPS = 4000
LEARNING_RATE = 0.5


@dataclass(frozen=True)
class Row:
    dataset: str
    answerable: bool
    signals: dict[str, float]


def collect(spec: str, library: Library, options: ResearchOptions) -> Iterator[Row]:
    """Signals of the first round of every question of ``spec`` ("KIND:PATH[=CORPUS]")."""
    location, _, corpus = spec.partition("=")
    dataset = load_dataset(location)
    if corpus:
        dataset = dataset.model_copy(update={"corpus": [Path(corpus)]})
    strategy = OfflineStrategy(library.embedder)
    with libraries_for(dataset, library, quiet=True) as (library_for, _):
        for example in dataset.examples:
            if example.report:
                continue
            with library_for(example) as (lib, _labels):
                evidence = hybrid_search(lib, example.prompt, options.k, options.filters, options.search_mode)
            judged = strategy.judge(example.prompt, evidence)
            found = judged.signals or Signals(*(0.0 for _ in FEATURES))
            yield Row(dataset.name, example.expected.answerable, dataclasses.asdict(found))


def fit(rows: list[Row]) -> tuple[dict[str, float], float]:
    """Set- and class-balanced logistic regression (see the module docstring)."""
    x = np.array([[r.signals[f] for f in FEATURES] for r in rows])
    y = np.array([float(r.answerable) for r in rows])
    sets = sorted({r.dataset for r in rows})
    w = np.array([1.0 / sum(1 for q in rows if q.dataset == r.dataset) for r in rows]) / len(sets)
    for label in (0.0, 1.0):
        mask = y == label
        if mask.any():
            w[mask] *= 0.5 / w[mask].sum()
    coef, intercept = np.zeros(len(FEATURES)), 0.0
    for _ in range(STEPS):
        p = 1.0 / (1.0 + np.exp(-(x @ coef + intercept)))
        error = (p - y) * w
        coef -= LEARNING_RATE * (x.T @ error + L2 * coef)
        intercept -= LEARNING_RATE * error.sum()
    return {f: round(float(c), 3) for f, c in zip(FEATURES, coef, strict=True)}, round(intercept, 3)


def per_set(
    rows: list[Row], weights: dict[str, float], intercept: float, thresholds: tuple[float, float], floor: float
) -> dict:
    """Per set: answered (answerable questions) and abstention (unanswerable ones) at one setting;
    ``thresholds``: (typed value, account)."""
    out: dict[str, dict[str, float]] = {}
    typed, account = thresholds
    calibration = Calibration(weights=weights, intercept=intercept, typed=typed, account=account, coverage=floor)
    for name in sorted({r.dataset for r in rows}):
        answered, abstained = [], []
        for r in (r for r in rows if r.dataset == name):
            found = Signals(**r.signals)
            says = assessment.sufficient(found, assessment.probability(found, calibration), calibration)
            (answered if r.answerable else abstained).append(says if r.answerable else not says)
        out[name] = {"answered": _share(answered), "abstention": _share(abstained)}
    return out


def _share(flags: list[bool]) -> float | None:
    return round(sum(flags) / len(flags), 3) if flags else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("datasets", nargs="+", help="KIND:PATH[=CORPUS], as prp eval takes them")
    parser.add_argument("--rows", type=Path, help="cache of the collected rows (JSONL): read if present")
    args = parser.parse_args(argv)
    if args.rows and args.rows.exists():
        rows = [Row(**json.loads(line)) for line in args.rows.read_text().splitlines()]
    else:
        with Library(Settings()) as library:
            rows = [row for spec in args.datasets for row in collect(spec, library, ResearchOptions())]
        if args.rows:
            args.rows.write_text("\n".join(json.dumps(dataclasses.asdict(r)) for r in rows))
    weights, intercept = fit(rows)
    print(json.dumps({"weights": weights, "intercept": intercept}, indent=1))
    for typed in THRESHOLDS:
        for account in THRESHOLDS:
            for floor in FLOORS:
                print(typed, account, floor, json.dumps(per_set(rows, weights, intercept, (typed, account), floor)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
