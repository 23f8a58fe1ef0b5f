"""A thousand documents through the whole product, on one machine (issue 50, item 1).

Builds the library (``thousand_library.py``), then:

1. ``prp ingest`` of the 1,000 files as a user runs it, its progress lines read as they come, the
   process tree's RSS and the data directory's disk use sampled; figures at 100, 300, 500 and 1,000
   documents done. At 500 the ingest is killed (``kill -9``) and run again, which must finish the rest.
2. The library checked: every document once, registry chunks = index points, nothing pending.
3. Embedding alone on a sample of the library's own chunk texts, for the ratio the ingest reaches.
4. QASPER dev retrieval (hybrid, hit@10) on this library, open to all 1,000 documents and restricted to
   the 281 QASPER papers (what a QASPER-only collection would search), scoped by title and not.
5. ``prp serve`` on it: search p50 over the API, an offline question (``/api/ask`` to its finished
   report) p50, and ``prp ask`` through the service, cold and warm.

    .venv/bin/python benchmarks/thousand_documents.py [--kill-at 500] [--questions 200]

Writes benchmarks/results/thousand_documents.json and docs/images/thousand-documents.png.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import time
from pathlib import Path

from common import ROOT, WORK, save
from retrieval_qasper import load_questions
from thousand_ingest import ingest_with_kill
from thousand_plot import plot
from thousand_service import serve_figures

from config import EmbeddingSettings, Settings, StorageSettings
from corpus.chunking import chunk_document
from corpus.library import Library
from corpus.retrieval import SearchFilters, SearchMode
from evals.metrics import first_hit_rank, hit_at
from tools.hybrid_search import hybrid_search

HERE = WORK / "thousand"
MODELS = WORK / "models"


def settings(data_dir: Path) -> Settings:
    return Settings(storage=StorageSettings(data_dir=data_dir), embeddings=EmbeddingSettings(models_path=MODELS))


def check_library(library: Library, files: list[Path]) -> dict:
    """Every file once, registry = index, nothing left half done."""
    registry = library.registry
    ready = registry.documents(status="ready")
    paths = [d.path for d in ready]
    registry_chunks = sum(len(registry.chunks_of(d.doc_id)) for d in ready)
    return {
        "files": len(files),
        "ready": len(ready),
        "pending": len(registry.documents(status="pending")),
        "duplicate_paths": len(paths) - len(set(paths)),
        "registry_chunks": registry_chunks,
        "index_points": library.store.count(),
        "not_ready": sorted({f.name for f in files} - {Path(p).name for p in paths}),
    }


def embedding_alone(library: Library, sample: int) -> dict:
    """Dense + sparse embedding of every n-th document's chunk texts, nothing else running."""
    docs = library.registry.documents()
    embedder = library.embedder
    texts: list[str] = []
    for doc in docs[:: max(1, len(docs) // 100)]:
        blocks = library.registry.blocks_of(doc.doc_id)
        texts += [c.embed_text for c in chunk_document(doc, blocks, embedder.max_tokens, embedder.count_tokens_batch)]
    texts = texts[:sample]
    start, cpu = time.perf_counter(), time.process_time()
    embedder.embed_passages(texts)
    embedder.embed_sparse_passages(texts)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    return {
        "chunks": len(texts),
        "seconds": round(seconds, 1),
        "chunks_per_s": round(len(texts) / seconds, 2),
        "chunks_per_cpu_s": round(len(texts) / cpu, 2),
    }


def ratios(figures: dict) -> dict:
    """The ingest's chunks per second against embedding's alone: by wall time, and by CPU time (the
    command and its parse workers), which other jobs on the machine do not stretch."""
    chunks, ingest, alone = figures["library"]["registry_chunks"], figures["ingest"], figures["embedding_alone"]
    return {
        "wall": round(chunks / ingest["wall_s"] / alone["chunks_per_s"], 3),
        "cpu": round(chunks / ingest["cpu_s"] / alone["chunks_per_cpu_s"], 3),
    }


def qasper_retrieval(library: Library, limit: int | None) -> dict:
    """hit@10 and p50 of hybrid search over QASPER dev questions, open to the library and QASPER-only."""
    qasper_ids = [d.doc_id for d in library.registry.documents() if "-qasper-" in Path(d.path).name]
    questions = load_questions(limit)
    figures: dict = {"questions": len(questions), "qasper_documents": len(qasper_ids)}
    for scoped in (True, False):
        for name, doc_ids in (("all_1000", None), ("qasper_only", qasper_ids)):
            filters = SearchFilters(scope_to_named_documents=scoped, doc_ids=doc_ids)
            ranks, latencies = [], []
            for q in questions:
                start = time.perf_counter()
                results = hybrid_search(library, q["query"], k=10, filters=filters, mode=SearchMode.HYBRID)
                latencies.append(time.perf_counter() - start)
                ranks.append(first_hit_rank([r.text for r in results], q["golds"]))
            key = f"{name}{'' if scoped else '_unscoped'}"
            figures[key] = {
                "hit@10": round(sum(hit_at(r, 10) for r in ranks) / len(ranks), 3),
                "p50_ms": round(1000 * statistics.median(latencies), 1),
            }
            print(f"  QASPER {key:22} hit@10 {figures[key]['hit@10']:.3f}  p50 {figures[key]['p50_ms']} ms")
    return figures


def trial_folder(files: list[Path]) -> Path:
    """The first N files alone, hard-linked into a folder of their own."""
    folder = HERE / f"first{len(files)}"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    for path in files:
        os.link(path, folder / path.name)
    return folder


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kill-at", type=int, default=500, help="documents done when the ingest is killed")
    parser.add_argument("--questions", type=int, default=None, help="QASPER questions to search (default all)")
    parser.add_argument("--fresh", action="store_true", help="start from an empty data directory")
    parser.add_argument("--size", type=int, default=1000, help="only the first N documents (a quick trial run)")
    args = parser.parse_args()
    from thousand_library import build

    print("building the library (rendered PDFs are kept between runs)...", flush=True)
    files = build(HERE / "docs")[: args.size]
    full = args.size == len(files) == 1000
    folder = HERE / "docs" if full else trial_folder(files)
    data_dir = HERE / ("data" if full else f"data-first{len(files)}")
    if args.fresh:
        shutil.rmtree(data_dir, ignore_errors=True)
    env = {
        **os.environ,
        "PRP_DATA_DIR": str(data_dir),
        "PRP_MODELS_DIR": str(MODELS),
        "PRP_PROGRESS_SECONDS": "2",
        "LANGSMITH_TRACING": "false",
        "HF_HUB_OFFLINE": "1",
    }
    env.pop("OPENAI_API_KEY", None), env.pop("OPENAI_BASE_URL", None)  # offline: no model server in the figures
    figures: dict = {"load_average_at_start": [round(x, 2) for x in os.getloadavg()]}
    figures["ingest"] = ingest_with_kill(folder, data_dir, env, args.kill_at)
    with Library(settings(data_dir)) as library:
        figures["library"] = check_library(library, files)
        print(f"library: {figures['library'] | {'not_ready': len(figures['library']['not_ready'])}}")
        figures["embedding_alone"] = embedding_alone(library, 2000)
        print(f"embedding alone: {figures['embedding_alone']}")
        figures["ratio_to_embedding"] = ratios(figures)
        print(f"end to end / embedding alone: {figures['ratio_to_embedding']}")
        figures["qasper"] = qasper_retrieval(library, args.questions)
    figures["service"] = serve_figures(env)
    figures["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    name = "thousand_documents" if full else f"thousand_documents_first{len(files)}"
    print(f"saved {save(name, figures)}")
    print(
        f"plot {plot(figures, ROOT / 'docs' / 'images' / 'thousand-documents.png' if full else WORK / f'{name}.png')}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
