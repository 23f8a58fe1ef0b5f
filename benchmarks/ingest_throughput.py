"""Ingestion throughput on real papers, and how close it gets to pure embedding throughput.

Ingests ../shared/data/pdfs and ../shared/data/qasper-dev/papers into fresh data directories, then
re-embeds exactly the same chunk texts with nothing else running. The ratio end-to-end / embedding-only
shows whether parsing (process pool) and indexing hide behind embedding (target >= 0.9); the index's
own share (upserts, deletes and the optimize after the ingest) is timed separately.

    python benchmarks/ingest_throughput.py [--limit N] [--only pdfs|qasper_papers]
"""

from __future__ import annotations

import argparse
import shutil
import time

from common import WORK, save, shared_path

from config import EmbeddingSettings, Settings, StorageSettings
from corpus.chunking import chunk_document
from corpus.embeddings import Embedder
from corpus.library import Library


def measure(name: str, folder, embedder: Embedder, limit: int | None) -> dict:
    data_dir = WORK / name  # retrieval_qasper.py reuses the qasper index
    shutil.rmtree(data_dir, ignore_errors=True)
    files = sorted(p for p in folder.iterdir() if p.is_file())[:limit]
    settings = Settings(
        storage=StorageSettings(data_dir=data_dir), embeddings=EmbeddingSettings(models_path=WORK / "models")
    )
    with Library(settings, embedder=embedder) as library:
        store = library.store  # open the index outside the timed region, as a warm service would
        index_seconds = _time_calls(store, ("upsert", "optimize", "delete_chunks", "delete_document"))
        summary = library.ingest(files)
        texts = []
        for doc in library.registry.documents():
            blocks = library.registry.blocks_of(doc.doc_id)
            texts += [
                c.embed_text for c in chunk_document(doc, blocks, embedder.max_tokens, embedder.count_tokens_batch)
            ]
    start = time.perf_counter()
    embedder.embed_passages(texts)
    embedder.embed_sparse_passages(texts)
    embed_only = time.perf_counter() - start
    failed = [(f.path, f.reason) for f in summary.files if f.outcome.value == "failed"]
    e2e_rate = summary.chunks / summary.seconds
    embed_rate = len(texts) / embed_only
    return {
        "documents": len(files),
        "failed": failed,
        "pages": summary.pages,
        "blocks": summary.blocks,
        "chunks": summary.chunks,
        "seconds": round(summary.seconds, 1),
        "pages_per_s": round(summary.pages / summary.seconds, 2),
        "chunks_per_s": round(e2e_rate, 2),
        "embedding_only_chunks_per_s": round(embed_rate, 2),
        "ratio_to_embedding": round(e2e_rate / embed_rate, 3),
        "index_writes_s": round(sum(index_seconds.values()), 2),
        "index_writes_share": round(sum(index_seconds.values()) / summary.seconds, 4),
        "index_writes_by_call_s": {k: round(v, 2) for k, v in index_seconds.items()},
    }


def _time_calls(store, names: tuple[str, ...]) -> dict[str, float]:
    """Wrap the store's write methods to add up the seconds spent in each (the index's share)."""
    seconds = dict.fromkeys(names, 0.0)
    for name in names:
        method = getattr(store, name)

        def timed(*args, _method=method, _name=name, **kwargs):
            t0 = time.perf_counter()
            try:
                return _method(*args, **kwargs)
            finally:
                seconds[_name] += time.perf_counter() - t0

        setattr(store, name, timed)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit", type=int, help="only the first N files of each set")
    parser.add_argument("--only", choices=["pdfs", "qasper_papers"], help="measure one set")
    args = parser.parse_args()
    embedder = Embedder(
        Settings(
            storage=StorageSettings(data_dir=WORK / "unused"), embeddings=EmbeddingSettings(models_path=WORK / "models")
        )
    )
    sets = {"pdfs": ("pdfs", shared_path("pdfs")), "qasper_papers": ("qasper", shared_path("qasper-dev", "papers"))}
    figures = {
        name: measure(data_dir, folder, embedder, args.limit)
        for name, (data_dir, folder) in sets.items()
        if args.only in (None, name)
    }
    for name, f in figures.items():
        print(
            f"{name}: {f['documents']} docs, {f['pages']} pages, {f['blocks']} blocks, {f['chunks']} chunks "
            f"in {f['seconds']} s -> {f['pages_per_s']} pages/s, {f['chunks_per_s']} chunks/s; "
            f"embedding alone {f['embedding_only_chunks_per_s']} chunks/s; ratio {f['ratio_to_embedding']}; "
            f"index writes {f['index_writes_s']} s ({100 * f['index_writes_share']:.1f}% of the ingest)"
        )
        for path, reason in f["failed"]:
            print(f"  failed: {path}: {reason}")
    print(f"saved {save('ingest_throughput', figures)}")


if __name__ == "__main__":
    main()
