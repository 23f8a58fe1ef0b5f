"""``prp eval DATASET``: evaluate prp on a dataset, write the results, print the summary.

Heavy imports (langsmith's evaluate, matplotlib) wait until the command runs, so ``prp`` starts fast.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import datetime
from pathlib import Path

from corpus.library import Library
from research.options import ResearchOptions
from ui.option_flags import add_option_flags

DEFAULT_OUT = Path("evals/results")


def add_eval_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "eval",
        help="evaluate prp on a dataset (prp:FILE, qasper:DIR, ramdocs:FILE)",
        description="Runs every example through the research graph via langsmith.evaluate, scores "
        "retrieval, citations, answers, abstention, contradictions and cost, and writes "
        "evals/results/<run-id>/ (JSONL, summary JSON, Markdown report with charts). Nothing is "
        "uploaded unless LANGSMITH_API_KEY is set.",
    )
    parser.add_argument("dataset", help="prp:FILE (JSONL), qasper:DIR or ramdocs:FILE")
    parser.add_argument(
        "--limit", type=int, help="only N examples (the first N, or a random sample with --sample-seed)"
    )
    parser.add_argument("--sample-seed", type=int, help="seed for a reproducible random sample of --limit examples")
    parser.add_argument(
        "--compare",
        action="store_true",
        help="also run dense, sparse, no retries (and offline vs LLM when an LLM is configured); one table",
    )
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument(
        "--corpus",
        type=Path,
        action="append",
        help="for prp: datasets, ask a cached eval collection of these documents instead of the library",
    )
    add_option_flags(parser, ResearchOptions)
    parser.add_argument(
        "--no-judge",
        dest="judge",
        action="store_false",
        help="in LLM mode, skip the LLM-judged groundedness and relevance scores",
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"results folder (default {DEFAULT_OUT})")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")


def cmd_eval(library: Library, args: argparse.Namespace) -> int:
    from evals.datasets import DatasetKind, load_dataset
    from evals.report import comparison_table, slug, write_results
    from evals.runner import compare_configs, default_config, libraries_for, run_eval

    dataset = load_dataset(args.dataset, args.limit, args.sample_seed)
    if args.corpus:
        if dataset.kind is not DatasetKind.PRP:
            print("prp eval: --corpus applies to prp: datasets only", file=sys.stderr)
            return 2
        dataset = dataset.model_copy(update={"corpus": args.corpus})
    base = default_config(library.settings, args.options)
    configs = compare_configs(base, library.settings) if args.compare else [base]
    upload = bool(os.environ.get("LANGSMITH_API_KEY"))
    run_id = f"{datetime.now():%Y%m%d-%H%M%S}-{slug(dataset.name)}" + ("-compare" if args.compare else "")
    print(
        f"prp eval: {dataset.kind.value}:{dataset.source}, {len(dataset.examples)} of {dataset.total} examples, "
        f"{len(configs)} configuration(s); " + ("uploading to LangSmith" if upload else "offline, nothing uploaded"),
        file=sys.stderr,
    )
    runs = []
    with libraries_for(dataset, library, quiet=args.quiet) as (library_for, notes):
        if args.limit is not None:
            how = f"a random sample (seed {args.sample_seed})" if args.sample_seed is not None else "the first ones"
            notes = [f"--limit {args.limit}: {how}.", *notes]
        for config in configs:
            run = run_eval(dataset, config, library, library_for, upload=upload, quiet=args.quiet, judge=args.judge)
            run.notes += notes
            runs.append(run)
    out_dir = args.out / run_id
    summary = write_results(out_dir, runs, run_id)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(comparison_table(summary["configs"]))
        print(f"\nreport: {out_dir / 'report.md'}")
    return 1 if all(s["failed"] == s["examples"] for s in summary["configs"].values()) else 0
