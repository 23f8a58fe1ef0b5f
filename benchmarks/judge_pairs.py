"""The judge of what a sentence states, on labelled pairs built from the dev sets (evals/judge_pairs.py).

For each kind of pair, on the tuning split and the held-back split, with the judge reading words only
and with the meaning rescue (MiniLM): the share it gets right, i.e. paraphrase positives kept ("states")
and, for every kind of negative, the share caught (not "states"); the overall precision and recall of
"states". ``--errors KIND`` prints a few pairs of that kind the judge gets wrong, to read.

    python benchmarks/judge_pairs.py [--source qasper|docs-dev|ramdocs] [--errors KIND] [--no-meaning]
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict

from common import SHARED, WORK, save

from config import EmbeddingSettings, Settings, StorageSettings
from corpus.embeddings import Embedder
from evals.judge_pairs import KINDS, Pair, build
from strategies.reading.judge import judge
from strategies.reading.vectors import Meaning, Vectors


def verdicts(pairs: list[Pair], meaning: Meaning | None) -> list[bool]:
    """Whether the judge says "states" for each pair."""
    return [judge(p.claim, p.sentences, p.question, p.context, meaning).states for p in pairs]


def figures(pairs: list[Pair], said: list[bool]) -> dict:
    right: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for p, states in zip(pairs, said, strict=True):
        right[p.kind][0] += int(states == p.positive)
        right[p.kind][1] += 1
    true_pos = sum(1 for p, s in zip(pairs, said, strict=True) if s and p.positive)
    said_pos = sum(said)
    positives = sum(1 for p in pairs if p.positive)
    perturbed = [k for k in ("figure", "entity", "negation", "sweep", "term") if k in right]
    caught = sum(right[k][0] for k in perturbed)
    total = sum(right[k][1] for k in perturbed)
    return {
        "by_kind": {k: {"right": right[k][0], "of": right[k][1]} for k in KINDS if k in right},
        "precision": round(true_pos / said_pos, 3) if said_pos else None,
        "recall": round(true_pos / positives, 3) if positives else None,
        "perturbed_caught": round(caught / total, 3) if total else None,
        "perturbed_caught_but_term": round(
            sum(right[k][0] for k in perturbed if k != "term")
            / max(1, sum(right[k][1] for k in perturbed if k != "term")),
            3,
        ),
    }


def table(results: dict) -> str:
    runs = list(results)
    lines = [f"{'kind':<34}" + "".join(f"{r:>22}" for r in runs)]
    for kind in KINDS:
        cells = []
        for r in runs:
            k = results[r]["by_kind"].get(kind)
            cells.append(f"{k['right']:>5}/{k['of']:<5} {k['right'] / k['of']:.3f}" if k else "–")
        label = "paraphrase kept" if kind == "paraphrase" else f"{kind} caught"
        lines.append(f"{label:<34}" + "".join(f"{c:>22}" for c in cells))
    for key in ("perturbed_caught", "perturbed_caught_but_term", "precision", "recall"):
        lines.append(f"{key:<34}" + "".join(f"{str(results[r][key]):>22}" for r in runs))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--source", choices=["qasper", "docs-dev", "ramdocs"], help="only pairs from this dev set")
    parser.add_argument("--errors", choices=KINDS, help="print pairs of this kind the judge gets wrong (tuning split)")
    parser.add_argument("--no-meaning", action="store_true", help="words only (no embedder)")
    args = parser.parse_args()
    if not (SHARED / "data").exists():
        raise SystemExit(f"{SHARED / 'data'} not found: the benchmark needs ../shared/data (or PRP_SHARED_DIR)")
    started = time.perf_counter()
    pairs = [p for p in build(SHARED) if args.source in (None, p.source)]
    print(f"{len(pairs)} pairs built in {time.perf_counter() - started:.1f} s")
    meaning = None
    if not args.no_meaning:
        settings = Settings(
            storage=StorageSettings(data_dir=WORK / "judge"), embeddings=EmbeddingSettings(models_path=WORK / "models")
        )
        meaning = Meaning(Vectors(Embedder(settings)))
    results: dict[str, dict] = {}
    for split, back in (("tuning", False), ("held-back", True)):
        chosen = [p for p in pairs if p.held_back == back]
        for name, m in (("words", None), ("meaning", meaning)):
            if name == "meaning" and m is None:
                continue
            started = time.perf_counter()
            said = verdicts(chosen, m)
            results[f"{split}, {name}"] = figures(chosen, said)
            results[f"{split}, {name}"]["seconds"] = round(time.perf_counter() - started, 1)
    if args.errors:
        tuning = [p for p in pairs if not p.held_back and p.kind == args.errors]
        wrong = [
            (p, v)
            for p in tuning
            if (v := judge(p.claim, p.sentences, p.question, p.context, meaning)).states != p.positive
        ]
        for p, v in wrong[:30]:
            print(f"\n[{p.source} {p.id}] {v.label} ({v.reason})\n  Q: {p.question}\n  CLAIM: {p.claim}")
            for s in p.sentences:
                print(f"  SENT: {s[:400]}")
    print(table(results))
    print(f"saved to {save('judge_pairs' + (f'_{args.source}' if args.source else ''), results)}")


if __name__ == "__main__":
    main()
