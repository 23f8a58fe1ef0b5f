"""Retrieval quality and latency on QASPER dev, all 281 papers pooled in one collection.

Each answerable question is prefixed with its paper's title (questions say "they" about their own
paper). A hit is a retrieved chunk that contains a gold evidence paragraph or at least 80% of its
tokens. Prints hit@1/5/10 and MRR for dense, sparse and hybrid, and hybrid latency p50/p95, twice:
as the tool runs by default (the title names the paper, so that paper is searched for the question)
and with title scoping off (the whole query string searched across all papers).

    python benchmarks/retrieval_qasper.py [--limit N] [--scoping on|off|both]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from itertools import product

from common import WORK, save, shared_path

from config import EmbeddingSettings, Settings, StorageSettings
from corpus.ingest import Outcome
from corpus.library import Library
from corpus.retrieval import SearchFilters, SearchMode
from evals.metrics import first_hit_rank, hit_at, reciprocal_rank
from tools.hybrid_search import hybrid_search

K = 10


def load_questions(limit: int | None) -> list[dict]:
    rows = json.loads(shared_path("qasper-dev", "questions.json").read_text())
    out = []
    for row in rows:
        golds = [e for a in row["answers"] if not a["unanswerable"] for e in a["evidence"]]
        # Evidence that names a table or figure ("FLOAT SELECTED: ...") is not body text.
        golds = [g for g in golds if not g.startswith("FLOAT SELECTED")]
        if golds:
            out.append({"query": f"{row['paper_title']}: {row['question']}", "golds": golds})
    return out[:limit]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit", type=int, help="only the first N questions")
    parser.add_argument("--scoping", choices=["on", "off", "both"], default="both", help="title scoping (default both)")
    args = parser.parse_args()
    scopings = [True, False] if args.scoping == "both" else [args.scoping == "on"]
    settings = Settings(
        storage=StorageSettings(data_dir=WORK / "qasper"), embeddings=EmbeddingSettings(models_path=WORK / "models")
    )
    with Library(settings) as library:
        summary = library.ingest([shared_path("qasper-dev", "papers")])
        print(f"index: {library.registry.counts()} (ingest {summary.seconds:.0f} s, {summary.count(Outcome.OK)} new)")
        questions = load_questions(args.limit)
        figures: dict = {"questions": len(questions), "chunks": library.store.count()}
        for scoped, mode in product(scopings, SearchMode):
            filters = SearchFilters(scope_to_named_documents=scoped)
            ranks, latencies = [], []
            for q in questions:
                start = time.perf_counter()
                results = hybrid_search(library, q["query"], k=K, filters=filters, mode=mode)
                latencies.append(time.perf_counter() - start)
                ranks.append(first_hit_rank([r.text for r in results], q["golds"]))
            n = len(ranks)
            name = f"{mode.value}{'' if scoped else '-unscoped'}"
            figures[name] = {
                "hit@1": round(sum(hit_at(r, 1) for r in ranks) / n, 3),
                "hit@5": round(sum(hit_at(r, 5) for r in ranks) / n, 3),
                "hit@10": round(sum(hit_at(r, 10) for r in ranks) / n, 3),
                "mrr@10": round(sum(reciprocal_rank(r) for r in ranks) / n, 3),
                "latency_p50_ms": round(1000 * statistics.median(latencies), 1),
                "latency_p95_ms": round(1000 * statistics.quantiles(latencies, n=20)[18], 1),
            }
            f = figures[name]
            print(
                f"{name:16} hit@1 {f['hit@1']:.3f}  hit@5 {f['hit@5']:.3f}  hit@10 {f['hit@10']:.3f}  "
                f"MRR {f['mrr@10']:.3f}  latency p50 {f['latency_p50_ms']} ms  p95 {f['latency_p95_ms']} ms"
            )
    print(f"saved {save('retrieval_qasper', figures)}")


if __name__ == "__main__":
    main()
