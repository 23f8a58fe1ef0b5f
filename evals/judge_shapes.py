"""The judge on made-up pairs of the shapes a word-level reader gets wrong, scored per shape.

``evals/datasets/judge_shapes.jsonl`` holds made-up (claim, cited sentences, question, context, label)
pairs, true and false variants of each shape: a negation flipped in one clause while another clause
keeps a "not" (**negation**), a modal or a bound changed (**modal**, **bound**), a figure taken from
another clause (**figure_clause**), another currency (**currency**), a name of the question or the
title swapped in (**background_name**); and truths a reader must keep: a common synonym
(**synonym**), a capitalised common word opening the claim (**opening_capital**), a number spelled
out or printed (**number_word**), "49%" / "49 percent" (**percent_word**); words of opposite sense read as
polarity (**antonym**: "forbidden" / "not allowed"; **prefix**: "unsigned" / "not signed"), words and
idioms a naive negation rule misreads ("unlike", "under", "none the less", "not uncommon":
**not_a_negation**), and a term put in another's slot between the same words (**term_slot**). One
pair in three (by a hash of its text) is held back. Printed per shape: the true pairs stated (recall), the false pairs
stated (lies passed) and the precision of "states".

    python -m evals.judge_shapes [--meaning] [--split all|tuning|held-back]
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from strategies.reading.claim_checks import Meaning
from strategies.reading.judge import judge

SHAPES_FILE = Path(__file__).parent / "datasets" / "judge_shapes.jsonl"
HELD_BACK_EVERY = 3


@dataclass(frozen=True)
class ShapePair:
    shape: str
    claim: str
    sentences: tuple[str, ...]
    question: str
    context: tuple[str, ...]
    positive: bool

    @property
    def held_back(self) -> bool:
        digest = hashlib.sha1(f"{self.claim}|{'|'.join(self.sentences)}".encode()).hexdigest()
        return int(digest, 16) % HELD_BACK_EVERY == 0


def load(path: Path = SHAPES_FILE) -> list[ShapePair]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            out.append(
                ShapePair(
                    shape=row["shape"],
                    claim=row["claim"],
                    sentences=tuple(row["sentences"]),
                    question=row.get("question", ""),
                    context=tuple(row.get("context", ())),
                    positive=row["label"] == "states",
                )
            )
    return out


@dataclass(frozen=True)
class ShapeScore:
    shape: str
    true_stated: int
    true_total: int
    false_stated: int
    false_total: int

    @property
    def recall(self) -> float:
        return self.true_stated / self.true_total if self.true_total else 1.0

    @property
    def lies_passed(self) -> float:
        return self.false_stated / self.false_total if self.false_total else 0.0

    @property
    def precision(self) -> float:
        said = self.true_stated + self.false_stated
        return self.true_stated / said if said else 1.0


def score(pairs: Sequence[ShapePair], meaning: Meaning | None = None) -> list[ShapeScore]:
    """Per shape (file order), then "all"."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for p in pairs:
        states = judge(p.claim, p.sentences, p.question, p.context, meaning).states
        for key in (p.shape, "all"):
            row = counts[key]
            row[0 if p.positive else 2] += int(states)
            row[1 if p.positive else 3] += 1
    order = [*dict.fromkeys(p.shape for p in pairs), "all"]
    return [ShapeScore(k, *counts[k]) for k in order if k in counts]


def table(scores: Sequence[ShapeScore]) -> str:
    lines = [f"{'shape':<16} {'true stated':>12} {'recall':>7} {'lies stated':>12} {'passed':>7} {'precision':>9}"]
    for s in scores:
        lines.append(
            f"{s.shape:<16} {f'{s.true_stated}/{s.true_total}':>12} {s.recall:>7.2f} "
            f"{f'{s.false_stated}/{s.false_total}':>12} {s.lies_passed:>7.2f} {s.precision:>9.2f}"
        )
    return "\n".join(lines)


def errors(pairs: Sequence[ShapePair], meaning: Meaning | None = None) -> list[str]:
    out = []
    for p in pairs:
        verdict = judge(p.claim, p.sentences, p.question, p.context, meaning)
        if verdict.states != p.positive:
            out.append(
                f"[{p.shape} {'T' if p.positive else 'F'}] {verdict.label} ({verdict.reason})\n  {p.claim}\n  {p.sentences}"
            )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--meaning", action="store_true", help="with the embedder's meaning rescue")
    parser.add_argument("--split", choices=["all", "tuning", "held-back"], default="all")
    parser.add_argument("--errors", action="store_true", help="print the pairs the judge gets wrong")
    args = parser.parse_args()
    pairs = [p for p in load() if args.split == "all" or p.held_back == (args.split == "held-back")]
    meaning = None
    if args.meaning:
        from config import Settings
        from corpus.embeddings import Embedder
        from strategies.reading.vectors import Meaning as Vectored
        from strategies.reading.vectors import Vectors

        meaning = Vectored(Vectors(Embedder(Settings())))
    if args.errors:
        print("\n".join(errors(pairs, meaning)))
    print(table(score(pairs, meaning)))


if __name__ == "__main__":
    main()
