"""PNG charts for the eval report (matplotlib, drawn off-screen)."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only: no display, no GUI toolkit
import matplotlib.pyplot as plt  # noqa: E402

from evals.runner import EvalRun  # noqa: E402

CATEGORY_METRICS = [
    "hit@10",
    "citation_support",
    "answer_recall",
    "answered",
    "abstention",
    "value_right",
    "gold_page_cited",
    "grounded_right",
    "conflict_sides",
]
COMPARE_METRICS = [
    "hit@1",
    "hit@10",
    "mrr",
    "citation_support",
    "answer_f1",
    "answer_recall",
    "answered",
    "abstention",
    "value_right",
    "value_wrong",
    "gold_page_cited",
    "grounded_right",
]
# The verdicts by value, in stacking order, with their colours.
VERDICTS = {
    "right": "tab:green",
    "wrong": "tab:red",
    "missed": "tab:gray",
    "abstained": "tab:blue",
    "false_answer": "tab:orange",
}


def _grouped_bars(ax, groups: list[str], series: dict[str, list[float | None]]) -> None:
    width = 0.8 / max(1, len(series))
    for i, (name, values) in enumerate(series.items()):
        xs = [g + (i - (len(series) - 1) / 2) * width for g in range(len(groups))]
        ax.bar(xs, [v or 0.0 for v in values], width, label=name)
    ax.set_xticks(range(len(groups)), groups, rotation=15, ha="right")
    # Headroom above 1.0 keeps the legend off the bars.
    ax.set_ylim(0, 1.3)
    ax.set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8, ncols=min(len(series), 4), loc="upper center")


def draw_charts(out_dir: Path, runs: list[EvalRun], summaries: dict[str, dict]) -> dict[str, str]:
    """Draw what applies; returns {chart: file name} for the report to link."""
    drawn: dict[str, str] = {}
    main = summaries[runs[0].config.name]
    if by_category := _category_chart(out_dir, main):
        drawn["by_category"] = by_category
    if main["latency"]["node_mean_s"]:
        drawn["latency"] = _latency_chart(out_dir, main["latency"])
    if main["by_value"]:
        drawn |= _value_charts(out_dir, main)
    if main.get("grounded"):
        drawn["reliability"] = _reliability_chart(out_dir, main, main["grounded"]["reliability"], "grounded-right")
    if len(summaries) > 1:
        drawn["compare"] = _compare_chart(out_dir, main["dataset"], summaries)
    return drawn


def _save(fig, path: Path) -> str:
    """Write a finished chart; its file name."""
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path.name


def _category_chart(out_dir: Path, summary: dict) -> str | None:
    """The metrics that have values, grouped by category; None when there are none."""
    by_category = summary["by_category"]
    categories = list(by_category)
    metrics = [m for m in CATEGORY_METRICS if any(by_category[c].get(m) is not None for c in categories)]
    if not (categories and metrics):
        return None
    fig, ax = plt.subplots(figsize=(max(6, 1.6 * len(categories) + 3), 4))
    _grouped_bars(ax, categories, {m: [by_category[c].get(m) for c in categories] for m in metrics})
    ax.set_title(f"{summary['dataset']}: metrics by category ({summary['mode']})")
    return _save(fig, out_dir / "metrics_by_category.png")


def _latency_chart(out_dir: Path, latency: dict) -> str:
    """Mean seconds per question in each graph step, with the p50 and p95 per question."""
    nodes = latency["node_mean_s"]
    fig, ax = plt.subplots(figsize=(6, 0.4 * len(nodes) + 1.5))
    names = list(nodes)[::-1]
    ax.barh(names, [nodes[n] or 0.0 for n in names], color="tab:orange")
    ax.set_xlabel("mean seconds per question (concurrent branches summed)")
    ax.set_title(f"graph steps: p50 {latency['p50_s'] or 0:.2f} s, p95 {latency['p95_s'] or 0:.2f} s per question")
    return _save(fig, out_dir / "latency_by_node.png")


def _compare_chart(out_dir: Path, dataset: str, summaries: dict[str, dict]) -> str:
    """Each configuration's mean of every metric one of them has."""
    metrics = [m for m in COMPARE_METRICS if any(s["metrics"].get(m) for s in summaries.values())]
    fig, ax = plt.subplots(figsize=(max(7, 1.2 * len(metrics) + 3), 4))
    _grouped_bars(
        ax, metrics, {n: [s["metrics"].get(m, {}).get("mean") for m in metrics] for n, s in summaries.items()}
    )
    ax.set_title(f"{dataset}: configurations compared")
    return _save(fig, out_dir / "compare.png")


def _value_charts(out_dir: Path, summary: dict) -> dict[str, str]:
    """Verdicts by value per category (stacked counts), and the reliability diagram."""
    by_value = summary["by_value"]
    categories = list(by_value["by_category"])
    fig, ax = plt.subplots(figsize=(7, 0.45 * len(categories) + 1.8))
    left = [0] * len(categories)
    for verdict, colour in VERDICTS.items():
        counts = [by_value["by_category"][c][verdict] for c in categories]
        ax.barh(categories[::-1], counts[::-1], left=left[::-1], color=colour, label=verdict.replace("_", " "))
        left = [a + b for a, b in zip(left, counts, strict=True)]
    ax.set_xlabel("questions")
    ax.legend(fontsize=8, ncols=len(VERDICTS), loc="upper center", bbox_to_anchor=(0.5, -0.18))
    ax.set_title(f"{summary['dataset']}: verdicts by value ({summary['mode']})")
    verdicts = _save(fig, out_dir / "verdicts_by_value.png")
    reliability = _reliability_chart(out_dir, summary, by_value["reliability"], "right")
    return {"verdicts": verdicts, "reliability": reliability}


def _reliability_chart(out_dir: Path, summary: dict, rows: list[dict], right: str) -> str:
    """The reliability diagram: per confidence bucket, the share of answers shown that are ``right``."""
    fig, ax = plt.subplots(figsize=(6, 4))
    middles = [(r["low"] + r["high"]) / 2 for r in rows]
    ax.bar(middles, [r["share_right"] or 0.0 for r in rows], width=0.18, color="tab:green", label=f"share {right}")
    ax.plot([0, 1], [0, 1], linestyle="--", color="gray", label="calibrated")
    for x, r in zip(middles, rows, strict=True):
        ax.annotate(f"n={r['answers']}", (x, (r["share_right"] or 0.0) + 0.02), ha="center", fontsize=8)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.1)
    ax.set_xlabel("confidence shown")
    ax.set_ylabel(f"share of answers {right}")
    ax.legend(fontsize=8, loc="upper left")
    ax.set_title(f"{summary['dataset']}: reliability ({summary['mode']})")
    return _save(fig, out_dir / "reliability.png")
