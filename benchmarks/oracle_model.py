"""What a strong model's answers become after grounding: ``prp eval`` in LLM mode against the oracle.

The oracle (``testing_support/oracle_model.py``) answers each question with the dataset's reference
answer in the annotators' words, citing the gold sentences it was shown; ``--lie`` gets one word of
every claim wrong (a figure, else a name, else a term) and adds a sweeping claim. This runs
``prp eval`` (a subprocess, as a user would, ``OPENAI_BASE_URL`` pointing at the oracle served here)
and counts, for the questions where a gold sentence was shown to the model, what the report did with
each claim: shown verified (in an answered section, cited, not flagged), shown flagged (unsupported
or unverified), or not shown (replaced by the documents' sentences, dropped, or under "not answered").

    python benchmarks/oracle_model.py prp:../shared/data/docs-dev/questions.jsonl \
        --corpus ../shared/data/docs-dev/docs --limit 30 --sample-seed 1 [--lie]
    python benchmarks/oracle_model.py qasper:../shared/data/qasper-dev --limit 30 --sample-seed 1 --subset
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

from common import ROOT, save

sys.path.insert(0, str(ROOT))
from evals.datasets import load_dataset  # noqa: E402
from testing_support.llm_fakes import OpenAIStub  # noqa: E402
from testing_support.oracle_model import Oracle, Said, fate  # noqa: E402


def tally(said: list[Said], records: list[dict]) -> dict:
    by_question: dict[str, list[Said]] = defaultdict(list)
    for s in said:
        by_question[s.question].append(s)
    claims: dict[str, Counter] = defaultdict(Counter)
    questions: dict[str, Counter] = defaultdict(Counter)
    shown_gold = no_gold = no_statement = 0
    examples: dict[str, list[str]] = defaultdict(list)
    for record in records:
        entries = by_question.get(record["asked"], [])
        if not entries:
            continue
        last = max(s.call for s in entries)
        final = [s for s in entries if s.call == last and s.kind != "none"]
        if not final:
            no_gold += not any(s.gold_shown for s in entries if s.call == last)
            no_statement += any(s.gold_shown for s in entries if s.call == last)
            continue
        shown_gold += 1
        kinds_verified: Counter = Counter()
        for s in final:
            what = fate(s, record.get("claims", []))
            claims[s.kind][what] += 1
            kinds_verified[s.kind] += what == "verified"
            if len(examples[f"{s.kind} {what}"]) < 3:
                examples[f"{s.kind} {what}"].append(f"{record['id']}: {s.claim}")
        for kind in {s.kind for s in final}:
            questions[kind]["verified" if kinds_verified[kind] else "not verified"] += 1
    return {
        "questions": len(records),
        "gold_shown": shown_gold,
        "no_gold_shown": no_gold,
        "gold_shown_but_no_reference_statement": no_statement,  # a yes/no answer, or none
        "claims": {k: dict(v) for k, v in claims.items()},
        "questions_with_a_verified_claim": {k: dict(v) for k, v in questions.items()},
        "examples": dict(examples),
    }


def percentiles(values: list[int]) -> dict:
    """p50 and max over questions (of the evidence tokens its prompts showed, or of all its tokens)."""
    return {"p50": statistics.median(values), "max": max(values), "n": len(values)} if values else {}


def tokens_per_question(records: list[dict]) -> dict:
    """Every model call's prompt and completion tokens for a question (plan, re-rank, answer, retries…),
    as the server reported them; with the mean by step."""
    spent = [r["cost"] for r in records if r.get("cost")]
    steps: Counter = Counter()
    for cost in spent:
        steps.update(cost.get("step_tokens", {}))
    return {
        **percentiles([c["input_tokens"] + c["output_tokens"] for c in spent]),
        "mean_by_step": {k: round(v / len(spent)) for k, v in steps.items()} if spent else {},
    }


def table_rows(oracle: Oracle, said: list[Said], records: list[dict]) -> dict:
    """Table questions: how their gold row reached the answer prompt (read under its columns' names, as
    bare cells, or not at all), and how many of those shown it as a row got a correct claim verified."""
    claims = {r["asked"]: r.get("claims", []) for r in records}
    verified = {s.question for s in said if s.kind == "correct" and fate(s, claims.get(s.question, [])) == "verified"}
    tables = [r["asked"] for r in records if r.get("category") == "table"]
    shown = Counter(oracle.table_rows.get(q, "not shown") for q in tables)
    answered = sum(1 for q in tables if oracle.table_rows.get(q) == "as a row" and q in verified)
    return {"questions": len(tables), **shown, "as a row, a correct claim verified": answered}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dataset")
    parser.add_argument("--corpus", action="append", default=[])
    parser.add_argument("--limit", type=int, default=30)
    parser.add_argument("--sample-seed", type=int, default=1)
    parser.add_argument("--lie", action="store_true")
    parser.add_argument("--out", type=Path, help="keep prp eval's results here (default: a temporary folder)")
    parser.add_argument(
        "--subset",
        action="store_true",
        help="qasper: ingest only the sampled questions' papers (a temporary dataset), not all 281",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="prp-oracle-qasper-") as scratch:
        if args.subset:
            args.dataset = qasper_subset(args.dataset, args.limit, args.sample_seed, Path(scratch))
        run(args)


def qasper_subset(spec: str, limit: int, seed: int, folder: Path) -> str:
    """The sampled QASPER questions and their papers in ``folder`` (the same sample prp eval draws)."""
    source = Path(spec.split(":", 1)[1])
    chosen = {e.id for e in load_dataset(spec, limit, seed).examples}
    rows = [r for r in json.loads((source / "questions.json").read_text()) if r["question_id"] in chosen]
    (folder / "papers").mkdir()
    for paper in {r["paper_id"] for r in rows}:
        shutil.copy(source / "papers" / f"{paper}.txt", folder / "papers" / f"{paper}.txt")
    (folder / "questions.json").write_text(json.dumps(rows))
    return f"qasper:{folder}"


def run(args: argparse.Namespace) -> None:
    oracle = Oracle.of(args.dataset, lie=args.lie, limit=args.limit, sample_seed=args.sample_seed)
    env = {
        **os.environ,
        "OPENAI_API_KEY": "oracle",
        "LANGSMITH_TRACING": "false",
        "LANGSMITH_TEST_TRACKING": "false",
        "HF_HUB_OFFLINE": "1",
    }
    env.pop("LANGSMITH_API_KEY", None)
    with OpenAIStub(oracle) as stub, tempfile.TemporaryDirectory(prefix="prp-oracle-") as scratch:
        out = str(args.out or scratch)
        env["OPENAI_BASE_URL"] = stub.base_url
        command = [sys.executable, "-m", "ui.cli", "eval", args.dataset, "--limit", str(args.limit)]
        command += ["--sample-seed", str(args.sample_seed), "--no-judge", "--quiet", "--out", out, "--json"]
        command += [x for c in args.corpus for x in ("--corpus", c)]
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0 and not list(Path(out).glob("*/examples-*.jsonl")):
            sys.exit(f"prp eval failed:\n{done.stderr[-3000:]}")
        summary = json.loads(done.stdout)
        records = [json.loads(line) for f in Path(out).glob("*/examples-*.jsonl") for line in f.open()]
    figures = tally(oracle.said, records)
    figures["tokens_per_question"] = tokens_per_question(records)
    figures["table_rows"] = table_rows(oracle, oracle.said, records)
    calls = Counter(len({s.call for s in oracle.said if s.question == r["asked"]}) for r in records)
    figures["answer_calls_per_question"] = dict(sorted(calls.items()))
    figures["evidence_tokens_per_question"] = {
        step: percentiles([c[step] for c in oracle.evidence_tokens.values()]) for step in ("answer", "rerank")
    }
    metrics = next(iter(summary["configs"].values()))["metrics"]
    figures["eval"] = {
        k: metrics[k] for k in ("gold_shown", "answered", "citation_support", "llm_tokens") if k in metrics
    }
    name = "qasper" if args.dataset.startswith("qasper:") else Path(args.dataset.split(":", 1)[1]).parent.name
    print(json.dumps({k: v for k, v in figures.items() if k != "examples"}, indent=2))
    for key, texts in figures["examples"].items():
        print(f"\n{key}:" + "".join(f"\n  - {t[:200]}" for t in texts))
    print(f"saved to {save(f'oracle_{name}' + ('_lie' if args.lie else ''), figures)}")


if __name__ == "__main__":
    main()
