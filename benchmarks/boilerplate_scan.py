"""What boilerplate detection would mark in a folder of documents, without ingesting it.

Parses every file, fingerprints its blocks and runs ``corpus.boilerplate.detect`` against the
folder as one collection (what an ingest of the folder into an empty library would mark), then
prints the marked texts, most frequent first. No embedding, so a few seconds for QASPER's papers.

    python benchmarks/boilerplate_scan.py [FOLDER ...]   # default: sample corpus, shared PDFs, QASPER papers
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

from common import ROOT, SHARED

from corpus import boilerplate
from corpus.errors import LoadError
from corpus.parsing import parse_file


def scan(folder: Path, show: int) -> dict:
    started = time.perf_counter()
    docs = []
    for path in sorted(p for p in folder.iterdir() if p.is_file()):
        try:
            docs.append(parse_file(path))
        except LoadError as exc:
            print(f"  skipped {path.name}: {exc}")
    fps = [boilerplate.fingerprints(d.blocks, d.document.title) for d in docs]
    nfps = [boilerplate.number_fingerprints(d.blocks, d.document.title) for d in docs]
    counts = Counter(fp for doc_fps in [*fps, *nfps] for fp in set(doc_fps) if fp)
    marked: Counter[str] = Counter()  # fingerprint -> marked blocks
    example: dict[str, str] = {}
    blocks = 0
    for doc, doc_fps, doc_nfps in zip(docs, fps, nfps, strict=True):
        blocks += len(doc.blocks)
        flags = boilerplate.detect(doc.blocks, doc_fps, counts, doc_nfps)
        for block, fp, is_marked in zip(doc.blocks, doc_fps, flags, strict=True):
            if is_marked:
                marked[fp] += 1
                example.setdefault(fp, f"{block.kind.value}: {' '.join(block.text.split())[:100]!r}")
    print(f"{folder}: {len(docs)} documents, {blocks} blocks, {sum(marked.values())} marked")
    for fp, n in marked.most_common(show):
        print(f"  {n:4d} blocks in {counts[fp]:3d} docs, e.g. {example[fp]}")
    return {
        "documents": len(docs),
        "blocks": blocks,
        "marked": sum(marked.values()),
        "seconds": time.perf_counter() - started,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path)
    parser.add_argument("--show", type=int, default=25, help="how many distinct marked texts to list")
    args = parser.parse_args()
    folders = args.folders or [
        ROOT / "sample_corpus" / "docs",
        SHARED / "data" / "pdfs",
        SHARED / "data" / "qasper-dev" / "papers",
    ]
    for folder in folders:
        if folder.is_dir():
            scan(folder, args.show)


if __name__ == "__main__":
    main()
