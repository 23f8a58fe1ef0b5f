"""Eval smoke: ten sample-corpus rows through langsmith.evaluate, offline, with floors.

Floors sit just under what this configuration measured on these rows (offline, hybrid, k=8): citation
validity 1.0 (it must be), hit@10 1.0, abstention 1.0 on the three unanswerable rows.
"""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from evals.datasets import load_dataset
from evals.report import write_results
from evals.runner import default_config, run_eval
from evals.target import shared_library

from .paths import ROOT

SAMPLE = ROOT / "evals" / "datasets" / "sample.jsonl"
SMOKE_IDS = [
    "direct-spiders",
    "direct-membrane-temperature",
    "direct-saturated-weight",
    "direct-green-crown-target",
    "direct-postwar-roofs",
    "synthesis-stormwater",
    "contradiction-street-cooling",
    "unanswerable-install-cost",
    "unanswerable-subsidies",
    "unanswerable-property-values",
]
HIT_AT_10_FLOOR = 0.95
ABSTENTION_FLOOR = 0.95


def _no_network(*args, **kwargs):
    raise AssertionError(f"an offline eval tried to reach the network: {args[:2]}")


@pytest.fixture(scope="module")
def smoke_run(sample_library):
    dataset = load_dataset(f"prp:{SAMPLE}")
    dataset = dataset.model_copy(update={"examples": [e for e in dataset.examples if e.id in SMOKE_IDS]})
    assert len(dataset.examples) == len(SMOKE_IDS)
    with pytest.MonkeyPatch.context() as patch:
        # Nothing may try LangSmith (or anything else) when no API key is set.
        patch.setattr(socket.socket, "connect", _no_network)
        patch.setattr(socket, "getaddrinfo", _no_network)
        return run_eval(
            dataset,
            default_config(sample_library.settings),
            sample_library,
            shared_library(sample_library),
            upload=False,
            quiet=True,
        )


def mean(run, key: str) -> float:
    values = [r.scores[key] for r in run.results if key in r.scores]
    assert values, key
    return sum(values) / len(values)


def test_smoke_floors(smoke_run):
    assert not [r.outputs["error"] for r in smoke_run.results if r.outputs.get("error")]
    assert mean(smoke_run, "citation_validity") == 1.0
    assert mean(smoke_run, "hit@10") >= HIT_AT_10_FLOOR
    assert mean(smoke_run, "abstention") >= ABSTENTION_FLOOR
    assert not smoke_run.uploaded and smoke_run.url is None
    # Short answers are shown (the spider count, the membrane temperature ...) and none is a fragment.
    assert smoke_run.summary_scores["short_answers"] >= 1
    assert smoke_run.summary_scores["fragment_rate"] == 0.0


def test_every_scored_dimension_is_present(smoke_run):
    keys = {k for r in smoke_run.results for k in r.scores}
    assert {
        "hit@1",
        "hit@5",
        "hit@10",
        "mrr",
        "citation_validity",
        "citation_support",
        "answer_f1",
        "answer_recall",
        "answered",
        "abstention",
        "conflict_flagged",
        "conflict_sides",
        "latency_s",
    } <= keys
    assert {"conflict_precision", "conflict_recall", "conflict_f1"} <= set(smoke_run.summary_scores)
    # Offline mode spends no LLM calls, so none are scored.
    assert "llm_calls" not in keys


def test_planted_disagreement_is_scored_with_the_right_sides(smoke_run):
    row = next(r for r in smoke_run.results if r.example.id == "contradiction-street-cooling")
    assert row.scores["conflict_flagged"] == 1.0
    assert row.scores["conflict_sides"] == 1.0


def test_cost_times_every_graph_step(smoke_run):
    cost = smoke_run.results[0].outputs["cost"]
    assert {
        "plan",
        "research",
        "assess",
        "detect_contradictions",
        "synthesize",
        "resolve_citations",
        "finalize",
    } <= set(cost["node_seconds"])
    assert cost["llm_calls"] == 0
    assert sum(cost["node_seconds"].values()) <= cost["seconds"] * 1.5 + 0.5


def test_results_folder(smoke_run, tmp_path: Path):
    summary = write_results(tmp_path, [smoke_run], "smoke")
    assert {p.name for p in tmp_path.iterdir()} >= {
        "summary.json",
        "examples-offline.jsonl",
        "report.md",
        "metrics_by_category.png",
        "latency_by_node.png",
    }
    assert json.loads((tmp_path / "summary.json").read_text()) == json.loads(json.dumps(summary))
    records = [json.loads(line) for line in (tmp_path / "examples-offline.jsonl").read_text().splitlines()]
    assert [r["id"] for r in records] == [r.example.id for r in smoke_run.results]
    assert all(c["valid"] for r in records for c in r.get("citations", []))
    report = (tmp_path / "report.md").read_text()
    for heading in ("## Overall", "## By category", "## Cost", "## Failure analysis"):
        assert heading in report
    assert "| unanswerable | 3 |" in report
    assert (tmp_path / "metrics_by_category.png").read_bytes().startswith(b"\x89PNG")
