"""Results of an eval run on disk: per-example JSONL, summary JSON, a Markdown report with per-category
tables, PNG charts and a failure analysis of the worst examples (what was retrieved and cited).

    evals/results/<run-id>/
        summary.json              every configuration's summary (also printed by --json)
        examples-<config>.jsonl   one record per example and configuration
        report.md                 tables, charts, comparison, failure analysis
        *.png                     charts
"""

from __future__ import annotations

import json
import re
import statistics
from collections import Counter, defaultdict
from pathlib import Path

from evals.evaluators import citation_valid, sides_correct
from evals.grounded_report import grounded_markdown, grounded_summary
from evals.grounded_verdicts import verdict_of as grounded_verdict_of
from evals.metrics import overlaps
from evals.runner import EvalRun, ExampleResult
from evals.value_report import value_markdown, value_summary
from evals.value_verdicts import verdict_of

# Metrics in reading order, with the labels tables use.
METRICS = {
    "hit@1": "hit@1",
    "hit@5": "hit@5",
    "hit@10": "hit@10",
    "mrr": "MRR",
    "evidence_found": "gold in evidence",
    "citation_validity": "citation validity",
    "citation_support": "citation support",
    "answer_f1": "answer F1",
    "answer_recall": "answer recall",
    "answered": "answered (answerable)",
    "abstention": "abstention (unanswerable)",
    "value_right": "right by value (answerable)",
    "value_wrong": "wrong by value (answerable)",
    "value_missed": "missed by value (answerable)",
    "value_abstained": "abstained by value (unanswerable)",
    "gold_page_cited": "cited a gold page (answered)",
    "grounded_right": "grounded-right (answers shown)",
    "grounded_cited": "lead cites gold (answered answerable)",
    "fragments": "fragments among short answers",
    "conflict_flagged": "conflict flagged",
    "conflict_sides": "conflict sides right",
    "avoids_wrong_answer": "avoids wrong answer",
    "groundedness": "groundedness (LLM judge)",
    "relevance": "relevance (LLM judge)",
    "latency_s": "latency (s)",
    "llm_calls": "LLM calls",
    "llm_tokens": "LLM tokens",
    "llm_retries": "LLM retries (malformed replies)",
    "evidence_hit@1": "evidence hit@1 (the graph's ranking)",
    "gold_shown": "gold sentence shown to the model",
}
# What the comparison table and charts show.
HEADLINE = [
    "hit@1",
    "hit@10",
    "mrr",
    "citation_validity",
    "citation_support",
    "answer_f1",
    "answer_recall",
    "answered",
    "abstention",
    "value_right",
    "value_wrong",
    "gold_page_cited",
    "grounded_right",
    "conflict_flagged",
]
# An example's quality for ranking the worst: the mean of those of these it has.
QUALITY = [
    "hit@10",
    "evidence_found",
    "citation_support",
    "answer_recall",
    "answered",
    "abstention",
    "value_right",
    "value_abstained",
    "grounded_right",
    "conflict_sides",
    "avoids_wrong_answer",
]
WORST = 8
CLIP = 300


def _mean(values: list[float]) -> float | None:
    return round(statistics.fmean(values), 4) if values else None


def _percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 4)


def _clip(text: str, limit: int = CLIP) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def summarize(run: EvalRun) -> dict:
    ok = [r for r in run.results if not r.outputs.get("error")]
    scores, by_category = _scores(run.results)
    categories = Counter(r.example.category for r in run.results)
    by_value = value_summary(run.results)
    grounded = grounded_summary(run.results)
    return {
        "dataset": run.dataset.name,
        "kind": run.dataset.kind.value,
        "source": str(run.dataset.source),
        "config": run.config.model_dump(mode="json"),
        "config_description": run.config.describe(),
        "mode": run.mode,
        "experiment": run.experiment,
        "uploaded": run.uploaded,
        "url": run.url,
        "examples": len(run.results),
        "examples_in_dataset": run.dataset.total,
        "failed": len(run.results) - len(ok),
        "seconds": round(run.seconds, 1),
        "notes": run.dataset.notes + run.notes,
        "metrics": {k: {"mean": _mean(v), "n": len(v)} for k, v in _ordered(scores).items()},
        "by_category": {
            cat: {"n": categories[cat], **{k: _mean(v) for k, v in _ordered(by_category[cat]).items()}}
            for cat in sorted(categories)
        },
        "summary_scores": {k: round(v, 4) for k, v in run.summary_scores.items()},
        "latency": _latency(ok),
        "llm": _llm_use(ok),
        "diagnosis": diagnose(run.results),
        # A set with page gold: right / wrong / missed / abstained counts and the reliability table.
        "by_value": by_value.model_dump() if by_value else None,
        # A set with gold evidence but no page gold: answers shown grounded-right and the reliability table.
        "grounded": grounded.model_dump() if grounded else None,
    }


def _scores(results: list[ExampleResult]) -> tuple[dict[str, list[float]], dict[str, dict[str, list[float]]]]:
    """Each metric's scores over the examples, and over each category's."""
    scores: dict[str, list[float]] = defaultdict(list)
    by_category: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for r in results:
        for key, value in r.scores.items():
            scores[key].append(value)
            by_category[r.example.category][key].append(value)
    return scores, by_category


def _latency(ok: list[ExampleResult]) -> dict:
    """Seconds per question of the runs that finished: percentiles, means, and each graph step's mean."""
    node_seconds: dict[str, list[float]] = defaultdict(list)
    for r in ok:
        for node, seconds in r.outputs["cost"]["node_seconds"].items():
            node_seconds[node].append(seconds)
    latencies = [r.outputs["cost"]["seconds"] for r in ok]
    return {
        "p50_s": _percentile(latencies, 0.5),
        "p95_s": _percentile(latencies, 0.95),
        "mean_s": _mean(latencies),
        "setup_mean_s": _mean([r.outputs.get("setup_s", 0.0) for r in ok]),
        "node_mean_s": {n: _mean(v) for n, v in sorted(node_seconds.items(), key=lambda kv: -sum(kv[1]))},
    }


def _llm_use(ok: list[ExampleResult]) -> dict:
    """The model's calls by structured-output path, and its tokens per question by step."""
    structured: Counter[str] = Counter()
    step_tokens: dict[str, list[float]] = defaultdict(list)
    for r in ok:
        structured.update(r.outputs["cost"].get("structured", {}))
        for step, tokens in r.outputs["cost"].get("step_tokens", {}).items():
            step_tokens[step].append(tokens)
    return {
        "structured_calls": dict(structured),
        # Per question: a step a question did not take counts 0 for it.
        "step_tokens_mean": {k: round(sum(v) / len(ok), 1) for k, v in step_tokens.items()} if ok else {},
    }


def _ordered(scores: dict[str, list[float]]) -> dict[str, list[float]]:
    known = [k for k in METRICS if k in scores]
    return {k: scores[k] for k in known + sorted(set(scores) - set(known))}


DIAGNOSES = [
    "run failed",
    "answered an unanswerable question",
    "abstained on an answerable question",
    "  of which: no gold evidence in the top 10",
    "answered with a wrong value",
    "answered without gold evidence retrieved",
    "gold retrieved but none of it cited",
    "conflict not flagged",
    "conflict flagged with the wrong sides",
    "conflict flagged where sources agree",
    "stated the wrong answer as fact",
]


def diagnose(results: list[ExampleResult]) -> dict[str, int]:
    """How the examples failed, counted by the first point where each went wrong (in DIAGNOSES order)."""
    counts: Counter[str] = Counter()
    for r in results:
        if r.outputs.get("error"):
            counts["run failed"] += 1
        else:
            counts.update([*_answer_failures(r.scores), *_conflict_failures(r.scores, r.example.expected.conflict)])
    return {what: counts[what] for what in DIAGNOSES if counts[what]}


def _answer_failures(s: dict[str, float]) -> list[str]:
    """Where an example's answer went wrong, by its scores (DIAGNOSES' headings)."""
    failures = []
    if s.get("abstention") == 0:
        failures.append("answered an unanswerable question")
    if s.get("value_wrong") == 1:
        failures.append("answered with a wrong value")
    if s.get("answered") == 0:
        failures.append("abstained on an answerable question")
        if s.get("hit@10") == 0:
            failures.append("  of which: no gold evidence in the top 10")
    elif s.get("hit@10") == 0 and s.get("evidence_found") == 0:
        failures.append("answered without gold evidence retrieved")
    elif s.get("citation_support") == 0:
        failures.append("gold retrieved but none of it cited")
    if s.get("avoids_wrong_answer") == 0:
        failures.append("stated the wrong answer as fact")
    return failures


def _conflict_failures(s: dict[str, float], conflict: bool | None) -> list[str]:
    """Where an example's disagreements went wrong, by its scores and whether its sources conflict."""
    failures = []
    if s.get("conflict_flagged") == 0 and conflict:
        failures.append("conflict not flagged")
    elif s.get("conflict_sides") == 0:
        failures.append("conflict flagged with the wrong sides")
    if s.get("conflict_flagged") == 1 and conflict is False:
        failures.append("conflict flagged where sources agree")
    return failures


def quality(result: ExampleResult) -> float:
    if result.outputs.get("error"):
        return -1.0
    values = [result.scores[k] for k in QUALITY if k in result.scores]
    return statistics.fmean(values) if values else 1.0


def record(result: ExampleResult, config_name: str) -> dict:
    """One example's JSONL record: scores, and what was asked, expected, answered, retrieved and cited."""
    e, out = result.example, result.outputs
    golds = e.expected.evidence
    base = {
        "id": e.id,
        "category": e.category,
        "config": config_name,
        "question": e.question,
        "asked": e.prompt,
        "report": e.report,
        "expected": {
            "answerable": e.expected.answerable,
            "answers": e.expected.answers,
            "evidence": [_clip(g) for g in golds],
            "conflict": e.expected.conflict,
            "wrong_answers": e.expected.wrong_answers,
        },
        "scores": result.scores,
        "verdict": verdict.value if (verdict := verdict_of(result.scores)) else None,
        "grounded": grounded.value if (grounded := grounded_verdict_of(result.scores)) else None,
        "comments": result.comments,
        "error": out.get("error"),
    }
    if out.get("error"):
        return base
    return base | {
        "answer": out["answer"],
        "abstained": out["abstained"],
        "confidence": out.get("confidence"),
        "lead": out.get("lead"),
        "claims": out.get("claims", []),
        "queries": out["queries"],
        "citations": _cited_records(out["citations"], golds),
        "retrieved": _retrieved_records(out["retrieved"], golds),
        "disagreements": _disagreement_records(out["disagreements"], e.expected.model_dump()),
        "unverified_claims": out["unverified_claims"],
        "cost": out["cost"],
        "setup_s": out.get("setup_s"),
    }


def _cited_records(citations: list[dict], golds: list[str]) -> list[dict]:
    """The answer's citations: whether each is valid and, with gold evidence, whether it supports it."""
    return [
        {
            "number": c["number"],
            "title": c["title"],
            "file": c.get("file", ""),
            "label": c["label"],
            "block_ids": c["block_ids"],
            "page": c["page"],
            "quote": _clip(c["quote"]),
            "valid": citation_valid(c),
            "supports_gold": any(overlaps(b["text"], g) for b in c["blocks"] for g in golds) if golds else None,
        }
        for c in citations
    ]


def _retrieved_records(retrieved: list[dict], golds: list[str]) -> list[dict]:
    """The probe's chunks, each marked gold or not when there is gold evidence."""
    return [
        {
            "rank": c["rank"],
            "title": c["title"],
            "label": c["label"],
            "score": c["score"],
            "gold": any(overlaps(c["text"], g) for g in golds) if golds else None,
            "text": _clip(c["text"]),
        }
        for c in retrieved
    ]


def _disagreement_records(disagreements: list[dict], expected: dict) -> list[dict]:
    """The disagreements shown, each with whether its sides are the expected ones."""
    return [
        {
            "subject": d["subject"],
            "kind": d["kind"],
            "sides_right": sides_correct(d, expected),
            "sides": [{"title": s["title"], "label": s["label"], "quote": _clip(s["quote"])} for s in d["sides"]],
        }
        for d in disagreements
    ]


# --- writing ----------------------------------------------------------------------------------------


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def write_results(out_dir: Path, runs: list[EvalRun], run_id: str) -> dict:
    """Write everything for ``runs`` (one, or several configurations compared) and return the summary."""
    out_dir.mkdir(parents=True, exist_ok=True)
    summaries = {run.config.name: summarize(run) for run in runs}
    summary = {"run_id": run_id, "dataset": runs[0].dataset.name, "configs": summaries}
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=2))
    for run in runs:
        with (out_dir / f"examples-{slug(run.config.name)}.jsonl").open("w") as handle:
            for result in run.results:
                handle.write(json.dumps(record(result, run.config.name)) + "\n")
    from evals.charts import draw_charts

    charts = draw_charts(out_dir, runs, summaries)
    (out_dir / "report.md").write_text(markdown_report(runs, summaries, charts, run_id))
    return summary


def _fmt(value: float | None, key: str = "") -> str:
    if value is None:
        return "–"
    if key in ("latency_s",) or key.endswith("_s"):
        return f"{value:.2f}"
    if key in ("llm_calls", "llm_tokens", "llm_retries"):
        return f"{value:.0f}" if value >= 10 else f"{value:.1f}"
    return f"{value:.3f}"


def comparison_table(summaries: dict[str, dict]) -> str:
    """Configurations side by side: one row each, the headline metrics, latency and failures."""
    keys = [k for k in HEADLINE if any(s["metrics"].get(k, {}).get("mean") is not None for s in summaries.values())]
    pooled = [
        (key, label)
        for key, label in (("conflict_f1", "conflict F1"), ("fragment_rate", "fragment rate"))
        if any(key in s["summary_scores"] for s in summaries.values())
    ]
    # In LLM mode: the graph's own hit@1 (re-ranked), what a question cost, and how replies were held
    # to their schema (answered calls per path).
    llm = any(s["metrics"].get("llm_calls") for s in summaries.values())
    keys += ["evidence_hit@1", "gold_shown", "llm_calls", "llm_tokens", "llm_retries"] if llm else []
    paths = ["structured output"] if llm else []
    header = ["config", "n", *(METRICS[k] for k in keys), *(label for _, label in pooled), *paths, "p50 s", "failed"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for name, s in summaries.items():
        lines.append("| " + " | ".join(_comparison_row(name, s, keys, [key for key, _ in pooled], llm)) + " |")
    return "\n".join(lines)


def _comparison_row(name: str, s: dict, keys: list[str], pooled: list[str], llm: bool) -> list[str]:
    """One configuration's cells in the comparison table."""
    cells = [name, str(s["examples"])] + [_fmt(s["metrics"].get(k, {}).get("mean"), k) for k in keys]
    cells += [_fmt(s["summary_scores"].get(key)) for key in pooled]
    structured = s.get("llm", {}).get("structured_calls", {})
    cells += [", ".join(f"{p} {n}" for p, n in sorted(structured.items())) or "–"] if llm else []
    return cells + [_fmt(s["latency"]["p50_s"], "latency_s"), str(s["failed"])]


def markdown_report(runs: list[EvalRun], summaries: dict[str, dict], charts: dict[str, str], run_id: str) -> str:
    main = runs[0]
    s = summaries[main.config.name]
    lines = [
        f"# prp eval: {main.dataset.name} ({main.dataset.kind.value})",
        "",
        f"- Run `{run_id}`; dataset `{main.dataset.kind.value}:{main.dataset.source}`: "
        f"{s['examples']} of {s['examples_in_dataset']} examples, {s['failed']} failed.",
        f"- prp in **{s['mode']}** mode: {s['config_description']}.",
        f"- Through `langsmith.evaluate` as experiment `{s['experiment']}`"
        + (f", uploaded: {s['url']}" if s["uploaded"] else " (offline: nothing uploaded)")
        + ".",
        *(f"- {note}" for note in s["notes"]),
        "- Retrieval metrics score a probe: the question searched once as the graph's first search does, "
        "to depth 10; a hit is a chunk holding a gold passage (or 80% of its tokens) or lying within one "
        '(80% of the chunk\'s tokens in it). "gold in evidence" '
        "is whether any chunk the graph gathered (all searches, retries included) is a hit.",
        "",
        "## Overall",
        "",
        "| metric | mean | n |",
        "|---|---|---|",
        *(f"| {METRICS.get(k, k)} | {_fmt(v['mean'], k)} | {v['n']} |" for k, v in s["metrics"].items()),
    ]
    for key, value in s["summary_scores"].items():
        lines.append(f"| {key.replace('_', ' ')} | {_fmt(value)} | |")
    lines += ["", "## By category", "", _category_table(s), ""]
    if "by_category" in charts:
        lines += [f"![metrics by category]({charts['by_category']})", ""]
    if s["by_value"]:
        lines += value_markdown(s["by_value"])
        lines += [f"![{name}]({charts[name]})" for name in ("verdicts", "reliability") if name in charts] + [""]
    if s.get("grounded"):
        lines += grounded_markdown(s["grounded"])
        lines += [f"![reliability]({charts['reliability']})", ""] if "reliability" in charts else []
    lines += _cost_section(s, charts)
    if len(runs) > 1:
        lines += ["## Comparison", "", comparison_table(summaries), ""]
        lines += [f"- **{n}**: {summ['config_description']}" for n, summ in summaries.items()] + [""]
        if "compare" in charts:
            lines += [f"![comparison]({charts['compare']})", ""]
    lines += _failure_section(main, s)
    return "\n".join(lines).rstrip() + "\n"


def _category_table(s: dict) -> str:
    keys = [k for k in METRICS if any(k in c for c in s["by_category"].values())]
    lines = ["| category | n | " + " | ".join(METRICS[k] for k in keys) + " |", "|" + "---|" * (len(keys) + 2)]
    for cat, values in s["by_category"].items():
        lines.append(f"| {cat} | {values['n']} | " + " | ".join(_fmt(values.get(k), k) for k in keys) + " |")
    return "\n".join(lines)


def _cost_section(s: dict, charts: dict[str, str]) -> list[str]:
    lat = s["latency"]
    lines = [
        "## Cost",
        "",
        f"Research run (graph only): p50 {_fmt(lat['p50_s'], 'latency_s')} s, p95 {_fmt(lat['p95_s'], 'latency_s')} s, "
        f"mean {_fmt(lat['mean_s'], 'latency_s')} s; setup per example (library, ingest) {_fmt(lat['setup_mean_s'], 'latency_s')} s.",
    ]
    if s["metrics"].get("llm_calls"):
        lines.append(
            f"LLM calls per question: {_fmt(s['metrics']['llm_calls']['mean'], 'llm_calls')}, "
            f"tokens: {_fmt(s['metrics']['llm_tokens']['mean'], 'llm_tokens')}, "
            f"retries after a malformed reply: {_fmt(s['metrics'].get('llm_retries', {}).get('mean'), 'llm_retries')}."
        )
        shown = s["metrics"].get("gold_shown")
        if shown and shown.get("mean") is not None:
            lines.append(
                f"A gold evidence sentence among those shown to the model: {round(shown['mean'] * shown['n'])} of "
                f"{shown['n']} questions with gold evidence ({shown['mean']:.0%})."
            )
        llm = s.get("llm", {})
        if llm.get("structured_calls"):
            paths = ", ".join(f"{path} {n}" for path, n in sorted(llm["structured_calls"].items()))
            lines.append(f"Structured output (calls per path): {paths}.")
        if llm.get("step_tokens_mean"):
            steps = ", ".join(f"{step} {_fmt(v, 'llm_tokens')}" for step, v in llm["step_tokens_mean"].items())
            lines.append(f"Tokens per question by step: {steps}.")
    lines += ["", "| graph step | mean s per question |", "|---|---|"]
    lines += [f"| {node} | {_fmt(v, 'latency_s')} |" for node, v in lat["node_mean_s"].items()]
    lines.append("")
    if "latency" in charts:
        lines += [f"![seconds per graph step]({charts['latency']})", ""]
    return lines


def _failure_section(run: EvalRun, s: dict) -> list[str]:
    lines = ["## Failure analysis", ""]
    if s["diagnosis"]:
        lines += ["Where examples went wrong (an example may count under several headings):", ""]
        lines += [f"- {what}: {n}" for what, n in s["diagnosis"].items()] + [""]
    worst = sorted(run.results, key=lambda r: (quality(r), r.example.id))[:WORST]
    worst = [r for r in worst if quality(r) < 1.0]
    if not worst:
        return lines + ["Every example scored full marks on the quality metrics.", ""]
    lines += [f"The {len(worst)} weakest examples (lowest mean of {', '.join(QUALITY)}):", ""]
    for r in worst:
        lines += _example_lines(r, record(r, run.config.name))
    return lines


def _example_lines(r: ExampleResult, rec: dict) -> list[str]:
    """One weak example in the failure analysis: what was expected, answered, retrieved and cited."""
    lines = [f"### {r.example.id} ({r.example.category}): {_clip(r.example.prompt, 200)}", ""]
    if rec["error"]:
        return lines + [f"Run failed: `{rec['error']}`", ""]
    expected = "; ".join(_clip(a, 120) for a in r.example.expected.answers[:3]) or "–"
    lines += [
        "- Scores: " + ", ".join(f"{k} {v:.2f}" for k, v in r.scores.items() if k in QUALITY or k == "answer_f1"),
        f"- Expected: {expected}" + ("" if r.example.expected.answerable else " (the corpus does not answer it)"),
        f"- prp answered: {'*abstained (reported a gap)*' if rec['abstained'] else _clip(rec['answer'], 400)}",
        f"- Queries tried: {'; '.join(_clip(q, 100) for q in rec['queries'][:4])}",
        "- Retrieved (probe, top 5):",
    ]
    for c in rec["retrieved"][:5]:
        mark = " **[gold]**" if c["gold"] else ""
        lines.append(f"  {c['rank']}. {_clip(c['title'], 80)}{_label(c)}{mark}: {_clip(c['text'], 160)}")
    lines += _cited_lines(rec["citations"])
    for d in rec["disagreements"]:
        sides = " vs ".join(f"{_clip(x['title'], 50)}{_label(x)}" for x in d["sides"])
        lines.append(f"- Disagreement shown: {d['subject']} ({sides}; sides right: {d['sides_right']})")
    return lines + [""]


def _cited_lines(citations: list[dict]) -> list[str]:
    if not citations:
        return ["- Cited: nothing"]
    lines = ["- Cited:"]
    for c in citations[:5]:
        mark = " **[supports gold]**" if c["supports_gold"] else ""
        lines.append(
            f"  [{c['number']}] {_clip(c['title'], 80)}{_label(c)}{mark}: \u201c{_clip(c['quote'], 160)}\u201d"
        )
    return lines


def _label(source: dict) -> str:
    """A retrieved, cited or disputing source's label as the failure analysis shows it: " [Table 2]"."""
    return f" [{source['label']}]" if source["label"] else ""
