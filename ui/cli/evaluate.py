"""``prp eval DATASET``: evaluate prp on a dataset, write the results, print the summary."""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import datetime

from config import Settings
from corpus.library import Library
from evals.datasets import DatasetKind, load_dataset
from evals.grounded_report import grounded_line
from evals.report import comparison_table, slug, write_results
from evals.runner import compare_configs, default_config, libraries_for, run_eval
from evals.value_report import value_line


def run(settings: Settings, args: argparse.Namespace) -> int:
    with Library(settings) as library:
        return evaluate(library, args)


def evaluate(library: Library, args: argparse.Namespace) -> int:
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
        for name, config in summary["configs"].items():
            if config["by_value"]:
                print(f"{name}: {value_line(config['by_value'])}")
            if config.get("grounded"):
                print(f"{name}: {grounded_line(config['grounded'])}")
        print(f"\nreport: {out_dir / 'report.md'}")
    return 1 if all(s["failed"] == s["examples"] for s in summary["configs"].values()) else 0
