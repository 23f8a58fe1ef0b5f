"""The embedded engine (qdrant-edge) against qdrant-client's local mode, on synthetic libraries.

Each library has realistic vectors: 384-d unit dense vectors clustered by document (a chunk is its
document's direction plus noise, as MiniLM places a paper's chunks), BM25-like sparse vectors with
~60 terms drawn from a Zipf vocabulary, and the payload of a real chunk. Both engines get the same
points, through prp's own schema and query builder (``corpus.index``). Each library is built in one
process and served from another, as a service opens it, so RSS is the serving process's. Printed per
size and engine: build time and points/s (optimize included), disk, RSS, hybrid p50/p95 (prp's
default filter, no reference sections), filtered p50 (5 documents; a year range), dense recall@10
against exact search, reopen time (open + first query), and the time to take ten more documents
(upsert + optimize) once built.

    python benchmarks/index_engines.py [--sizes 10000,100000,300000,1000000] [--engines edge,local]
                                       [--local-max 100000] [--queries 200] [--local-queries 60]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from common import WORK, save

from corpus.index import schema
from corpus.index.client import ClientIndex
from corpus.index.edge import EdgeIndex
from corpus.retrieval import SearchFilters

DIM = 384
CHUNKS_PER_DOC = 35
VOCABULARY = 30_000
TERMS = 60
BATCH = 1_000
RECALL_QUERIES = 50
TEXT = (
    "Green roofs reduced peak surface temperatures by up to 30 °C compared with conventional roofs, "
    "while the air temperature one metre above the roof fell by 0.3 to 2 °C depending on substrate depth, "
    "irrigation and plant cover. Over the monitoring period the extensive sedum roof retained 52% of "
    "annual rainfall, and the intensive roof 71%, with retention falling in consecutive storm events. "
) * 3


def _documents(n_points: int) -> int:
    return -(-n_points // CHUNKS_PER_DOC)


def _centres(n_docs: int) -> np.ndarray:
    rng = np.random.default_rng(7)
    centres = rng.standard_normal((n_docs, DIM)).astype(np.float32)
    return centres / np.linalg.norm(centres, axis=1, keepdims=True)


def _batch(start: int, stop: int, centres: np.ndarray) -> tuple[np.ndarray, list]:
    """Points start..stop-1: the same for every engine (seeded by position)."""
    from qdrant_client import models

    rng = np.random.default_rng(1_000 + start)
    n = stop - start
    docs = np.arange(start, stop) // CHUNKS_PER_DOC
    dense = centres[docs] + 0.9 * rng.standard_normal((n, DIM)).astype(np.float32) / np.sqrt(DIM)
    dense /= np.linalg.norm(dense, axis=1, keepdims=True)
    points = []
    for i in range(n):
        terms = np.unique(rng.zipf(1.3, TERMS) % VOCABULARY)
        values = 1.0 + rng.random(len(terms))  # BM25 term-frequency saturation lies in [1, 2.2)
        doc = int(docs[i])
        points.append(
            models.PointStruct(
                id=schema.point_id(f"c{start + i}"),
                vector={
                    schema.DENSE: dense[i].tolist(),
                    schema.SPARSE: models.SparseVector(indices=terms.tolist(), values=values.tolist()),
                },
                payload={
                    "chunk_id": f"c{start + i}",
                    "doc_id": f"d{doc}",
                    "text": TEXT,
                    "block_ids": [f"d{doc}:p1:b{i % 40}", f"d{doc}:p1:b{i % 40 + 1}"],
                    "section": "Results",
                    "pages": [1 + i % 12],
                    "year": 1990 + doc % 36,
                    "type": "pdf",
                    "title": f"A study of green roofs, number {doc}",
                    "is_reference": int(i % 10 == 9),
                },
            )
        )
    return dense, points


def _queries(n: int, centres: np.ndarray) -> list[tuple[np.ndarray, object]]:
    from qdrant_client import models

    rng = np.random.default_rng(99)
    out = []
    for _ in range(n):
        doc = int(rng.integers(len(centres)))
        q = centres[doc] + 1.2 * rng.standard_normal(DIM).astype(np.float32) / np.sqrt(DIM)
        terms = np.unique(rng.zipf(1.3, 6) % VOCABULARY)
        out.append((q / np.linalg.norm(q), models.SparseVector(indices=terms.tolist(), values=[1.0] * len(terms))))
    return out


def _open(engine: str, path: Path, dim: int):
    if engine == "edge":
        return EdgeIndex(path, schema.CollectionSchema(dim))
    from qdrant_client import QdrantClient

    index = ClientIndex(QdrantClient(path=str(path)), "bench")
    index.ensure(schema.CollectionSchema(dim))
    return index


def _rss_mb(field: str = "VmRSS") -> float:
    """Resident set size; ``RssAnon`` leaves out the index files the engine maps (page cache the
    kernel can take back)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _disk_mb(path: Path) -> float:
    """Apparent size: the embedded engine preallocates its WAL and storage files (du shows less)."""
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) / 2**20


def _p(latencies: list[float], q: float) -> float:
    return round(1000 * float(np.quantile(latencies, q)), 1)


def _path(engine: str, size: int) -> Path:
    return WORK / "index-engines" / f"{engine}-{size}"


def build(engine: str, size: int) -> dict:
    """Write ``size`` points and optimize; keeps the exact dense top-10 of the recall queries beside
    the index for ``serve``."""
    import warnings

    warnings.filterwarnings("ignore", message="Payload indexes have no effect")
    path = _path(engine, size)
    shutil.rmtree(path, ignore_errors=True)
    centres = _centres(_documents(size))
    recall_q = np.stack([q for q, _ in _queries(RECALL_QUERIES, centres)])
    exact_scores = np.full((RECALL_QUERIES, 10), -2.0, dtype=np.float32)
    exact_ids = np.full((RECALL_QUERIES, 10), -1, dtype=np.int64)
    index = _open(engine, path, DIM)
    started, write = time.perf_counter(), 0.0
    for start in range(0, size, BATCH):
        stop = min(size, start + BATCH)
        dense, points = _batch(start, stop, centres)
        # Exact top-10 kept incrementally, so no library-sized matrix is ever held.
        sims = recall_q @ dense.T
        scores = np.concatenate([exact_scores, sims], axis=1)
        ids = np.concatenate([exact_ids, np.broadcast_to(np.arange(start, stop), sims.shape)], axis=1)
        top = np.argsort(-scores, axis=1)[:, :10]
        exact_scores, exact_ids = np.take_along_axis(scores, top, 1), np.take_along_axis(ids, top, 1)
        t0 = time.perf_counter()
        index.upsert(points)
        write += time.perf_counter() - t0
    t0 = time.perf_counter()
    index.optimize()
    optimize = time.perf_counter() - t0
    index.close()
    np.save(path.with_suffix(".exact.npy"), exact_ids)
    return {
        "engine": engine,
        "points": size,
        "upsert_s": round(write, 1),
        "optimize_s": round(optimize, 1),
        "build_s": round(write + optimize, 1),
        "points_per_s": round(size / (write + optimize)),
        "wall_s_with_generation": round(time.perf_counter() - started, 1),
        "disk_mb": round(_disk_mb(path)),
    }


def serve(engine: str, size: int, n_queries: int) -> dict:
    """Open the built index in a fresh process, as a service would, and query it."""
    import warnings

    warnings.filterwarnings("ignore", message="Payload indexes have no effect")
    path = _path(engine, size)
    centres = _centres(_documents(size))
    queries = _queries(n_queries, centres)
    exact_ids = np.load(path.with_suffix(".exact.npy"))
    t0 = time.perf_counter()
    index = _open(engine, path, DIM)
    index.query(schema.hybrid_query(queries[0][0].tolist(), queries[0][1], 10, 40, None))
    figures: dict = {"reopen_s": round(time.perf_counter() - t0, 2)}

    def run(filters: SearchFilters, dense_only: bool = False) -> tuple[list[float], list[list[str]]]:
        latencies, results = [], []
        for q, sparse in queries:
            query_filter = filters.to_qdrant()
            if dense_only:
                request = schema.dense_query(q.tolist(), 10, query_filter)
            else:
                request = schema.hybrid_query(q.tolist(), sparse, 10, 40, query_filter)
            t0 = time.perf_counter()
            hits = index.query(request)
            latencies.append(time.perf_counter() - t0)
            results.append([h.payload["chunk_id"] for h in hits])
        return latencies, results

    run(SearchFilters())  # warm caches, as a serving process is
    hybrid, _ = run(SearchFilters())
    figures["hybrid_p50_ms"], figures["hybrid_p95_ms"] = _p(hybrid, 0.5), _p(hybrid, 0.95)
    five = SearchFilters(doc_ids=[f"d{d}" for d in range(0, _documents(size), max(1, _documents(size) // 5))][:5])
    figures["filtered_5docs_p50_ms"] = _p(run(five)[0], 0.5)
    figures["filtered_years_p50_ms"] = _p(run(SearchFilters(year_min=2000, year_max=2004))[0], 0.5)
    _, dense_results = run(SearchFilters(include_references=True), dense_only=True)
    recall = [
        len({f"c{i}" for i in exact_ids[j]} & set(dense_results[j][:10])) / 10
        for j in range(min(RECALL_QUERIES, n_queries))
    ]
    figures["dense_recall@10"] = round(statistics.mean(recall), 3)
    figures["rss_mb"] = round(_rss_mb())
    figures["rss_anon_mb"] = round(_rss_mb("RssAnon"))
    # An ingest into the grown library: ten more documents, then the optimize every ingest ends with.
    _, points = _batch(size, size + 10 * CHUNKS_PER_DOC, _centres(_documents(size) + 10))
    t0 = time.perf_counter()
    index.upsert(points)
    index.optimize()
    figures["add_10_docs_s"] = round(time.perf_counter() - t0, 2)
    index.close()
    return figures


def _child(*args: str) -> dict | None:
    proc = subprocess.run([sys.executable, __file__, "--child", *args], capture_output=True, text=True)
    if proc.returncode != 0:
        print(proc.stderr[-3000:], file=sys.stderr)
        return None
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="10000,100000,300000,1000000")
    parser.add_argument("--local-max", type=int, default=100_000, help="largest size run on local mode")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--local-queries", type=int, default=60, help="queries on local mode (seconds each)")
    parser.add_argument("--engines", default="edge,local")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        step, engine, size, *rest = args.child
        result = build(engine, int(size)) if step == "build" else serve(engine, int(size), int(rest[0]))
        print(json.dumps(result))
        return
    rows = []
    for size in (int(s) for s in args.sizes.split(",")):
        for engine in args.engines.split(","):
            if engine == "local" and size > args.local_max:
                continue
            n = args.queries if engine == "edge" else min(args.queries, args.local_queries)
            print(f"[{engine} {size:,}] building and querying ({n} queries)...", file=sys.stderr, flush=True)
            built = _child("build", engine, str(size))
            served = built and _child("serve", engine, str(size), str(n))
            shutil.rmtree(_path(engine, size), ignore_errors=True)
            _path(engine, size).with_suffix(".exact.npy").unlink(missing_ok=True)
            if not served:
                continue
            row = {**built, **served}
            rows.append(row)
            print(
                f"{engine:5} {size:>9,}  build {row['build_s']:>7} s ({row['points_per_s']:>6}/s, optimize "
                f"{row['optimize_s']} s)  disk {row['disk_mb']:>6} MB  RSS {row['rss_mb']:>6} MB  hybrid p50 "
                f"{row['hybrid_p50_ms']} / p95 {row['hybrid_p95_ms']} ms  filtered p50 {row['filtered_5docs_p50_ms']}"
                f" (5 docs) / {row['filtered_years_p50_ms']} (years) ms  recall@10 {row['dense_recall@10']}  "
                f"reopen {row['reopen_s']} s  +10 docs {row['add_10_docs_s']} s",
                flush=True,
            )
    print(f"saved {save('index_engines', {'rows': rows})}")


if __name__ == "__main__":
    main()
