"""Word boxes on scanned pages: how much of a quote's own words the evidence view boxes where OCR read them.

Each PDF's first pages are scanned at 200 dpi into an image-only PDF (as ``ocr_scans.py`` does), which is
parsed as an ingest parses it (its pages read by OCR, each block keeping the words read, with their
boxes) into a registry in a temporary folder. Quotes are made from the born-digital copy of the same
pages, so their true words and places are known: runs of consecutive words its text layer has inside an
OCR'd block's box (``word_boxes.quotes``). Each is resolved with that block as the hint and shown as
the evidence view shows it (no images); coverage and precision are as in ``word_boxes.py``. A quote
OCR misread too much resolves to nothing and counts as unresolved.

    python benchmarks/ocr_word_boxes.py [--pages 2] [--per-block 3] [--seed 7] [PDF ...]

2304.02623v1, 2020.acl-main.447 and papermage, 2 pages each (int8 recognition, 2026-12-08): 204 quotes,
177 resolved; coverage mean 0.990 (98.9% of quotes >= 0.95, none unboxed), precision 0.83 (OCR's boxes are taller than the text
layer's lines). The registry keeps ~24 KB of words a scanned page (its text: ~4.7 KB).
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
from pathlib import Path

import pdfplumber
from common import SHARED, save
from ocr_scans import BENCH_PAGE_SECONDS, scanned_copy
from word_boxes import QUOTABLE, TARGET, area, lines, overlap, quotes

from corpus.models import OcrOptions, ParsedDocument
from corpus.parsing import parse_file
from corpus.registry import Registry
from tools.citations.index import BlockIndex
from tools.citations.resolve import resolve_citation
from ui.core.citation_view import citation_view


def scores(truth: list[dict], boxes: list[tuple[float, float, float, float]]) -> tuple[float, float]:
    """Coverage of the true words by the boxes, and the share of the boxes on the true words' lines."""
    true_boxes = [(w["x0"], w["top"], w["x1"], w["bottom"]) for w in truth]
    covered = sum(min(area(t), sum(overlap(t, b) for b in boxes)) for t in true_boxes)
    boxed = sum(area(b) for b in boxes)
    on_lines = sum(min(area(b), sum(overlap(b, t) for t in lines(truth))) for b in boxes)
    return covered / sum(area(t) for t in true_boxes), on_lines / boxed if boxed else 0.0


def measure(registry: Registry, scans: dict[Path, tuple[Path, ParsedDocument]], per_block: int, seed: int) -> dict:
    index = BlockIndex.from_registry(registry)
    rng = random.Random(seed)
    coverages, precisions, unresolved = [], [], 0
    for born, parsed in scans.values():
        with pdfplumber.open(born) as pdf:
            for block in (b for b in parsed.blocks if b.kind in QUOTABLE and b.bbox is not None and b.words):
                for truth in quotes(pdf, block, rng, per_block):
                    resolution = resolve_citation(" ".join(w["text"] for w in truth), block.block_id, index)
                    if resolution is None:
                        unresolved += 1
                        continue
                    view = citation_view(registry, None, resolution, images=False)
                    boxes = [
                        (w.bbox.x0, w.bbox.top, w.bbox.x1, w.bbox.bottom) for w in view.words if w.page == block.page
                    ]
                    coverage, precision = scores(truth, boxes)
                    coverages.append(coverage)
                    precisions.append(precision)
    return {
        "quotes": len(coverages) + unresolved,
        "unresolved": unresolved,
        "coverage_mean": round(statistics.fmean(coverages), 4),
        "coverage_median": round(statistics.median(coverages), 4),
        "coverage_at_target": round(sum(c >= TARGET for c in coverages) / len(coverages), 4),
        "unboxed": sum(c == 0 for c in coverages),
        "precision_mean": round(statistics.fmean(precisions), 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pdfs", nargs="*", type=Path)
    parser.add_argument("--pages", type=int, default=2, help="each PDF's first N pages")
    parser.add_argument("--per-block", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    pdfs = args.pdfs or sorted((SHARED / "data" / "pdfs").glob("*.pdf"))
    folder = Path(tempfile.mkdtemp(prefix="ocr-word-boxes-"))
    registry = Registry(folder / "registry.sqlite")
    scans = {}
    for pdf in pdfs:
        scan, born = scanned_copy(pdf, folder, args.pages)
        parsed = parse_file(scan, OcrOptions(page_seconds=BENCH_PAGE_SECONDS))
        registry.add_pending(parsed.document, parsed.blocks, [])
        registry.mark_ready(parsed.document.doc_id)
        scans[pdf] = (born, parsed)
    figures = {
        "pdfs": [p.name for p in pdfs],
        "pages": args.pages,
        **measure(registry, scans, args.per_block, args.seed),
    }
    for key, value in figures.items():
        print(f"{key}: {value}")
    print(
        f"mean coverage {figures['coverage_mean']:.4f} (target >= {TARGET}); saved to {save('ocr_word_boxes', figures)}"
    )


if __name__ == "__main__":
    main()
