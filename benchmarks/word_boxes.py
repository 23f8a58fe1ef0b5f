"""Word boxes: how much of a quote's own words the evidence view boxes on the page.

The PDFs (default: the sample corpus's) are parsed as an ingest parses them into a registry in a
temporary folder. Quotes are made from the page itself, so their true words are known: in every
quotable block, runs of consecutive words as pdfplumber reads them inside the block's box (6-30 words,
a few per block, seeded), joined with spaces ("de- coupled" stays as printed, as a quote copied from
the page would have it). Each is resolved with its block as the hint (``resolve_citation``) and shown
as the evidence view shows it (``ui.core.citation_view``, no images); coverage is the share of the
true words' area inside the view's word boxes, precision the share of the boxes' area on the true
words' lines (a box wider than the quote's words lowers it). A quote resolved to another block (the
same words elsewhere) counts with what the view boxed.

    python benchmarks/word_boxes.py [--per-block 3] [--seed 7] [PDF ...]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

import pdfplumber
from common import ROOT, save

from corpus.loaders.pdf.elements import WORD_GAP_RATIO
from corpus.models import BBox, Block, BlockKind
from corpus.parsing import parse_file
from corpus.registry import Registry
from tools.citations.index import BlockIndex
from tools.citations.resolve import resolve_citation
from ui.core.citation_view import citation_view

QUOTABLE = {BlockKind.PARAGRAPH, BlockKind.LIST, BlockKind.CAPTION, BlockKind.FOOTNOTE}
MIN_WORDS, MAX_WORDS = 6, 30
TARGET = 0.95

Box = tuple[float, float, float, float]


def area(b: Box) -> float:
    return max(0.0, b[2] - b[0]) * max(0.0, b[3] - b[1])


def overlap(a: Box, b: Box) -> float:
    return area((max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])))


def lines(words: list[dict]) -> list[Box]:
    """The true words' line runs: one box per line."""
    runs: list[list[dict]] = []
    for w in words:
        if runs and abs(runs[-1][-1]["top"] - w["top"]) < 0.5 * (w["bottom"] - w["top"]):
            runs[-1].append(w)
        else:
            runs.append([w])
    return [
        (min(w["x0"] for w in r), min(w["top"] for w in r), max(w["x1"] for w in r), max(w["bottom"] for w in r))
        for r in runs
    ]


def quotes(pdf, block: Block, rng: random.Random, per_block: int) -> list[list[dict]]:
    """Runs of the page's words inside the block's box."""
    b: BBox = block.bbox
    page = pdf.pages[block.page - 1]
    x0, top, x1, bottom = (float(v) for v in page.bbox)
    crop = (max(x0, b.x0), max(top, b.top), min(x1, b.x1), min(bottom, b.bottom))
    if crop[0] >= crop[2] or crop[1] >= crop[3]:
        return []
    # Words split as the loader splits them, so a quote reads like the stored text a writer quotes.
    words = page.within_bbox(crop).extract_words(x_tolerance_ratio=WORD_GAP_RATIO, y_tolerance=3)
    if len(words) < MIN_WORDS:
        return []
    runs = []
    for _ in range(per_block):
        n = rng.randint(MIN_WORDS, min(MAX_WORDS, len(words)))
        start = rng.randint(0, len(words) - n)
        runs.append(words[start : start + n])
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pdfs", nargs="*", type=Path)
    parser.add_argument("--per-block", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    pdfs = args.pdfs or sorted((ROOT / "sample_corpus" / "docs").glob("*.pdf"))
    rng = random.Random(args.seed)
    registry = Registry(Path(tempfile.mkdtemp(prefix="word-boxes-")) / "registry.sqlite")
    parsed = {}
    for path in pdfs:
        doc = parse_file(path)
        registry.add_pending(doc.document, doc.blocks, [])
        registry.mark_ready(doc.document.doc_id)
        parsed[path] = doc
    index = BlockIndex.from_registry(registry)

    coverages, precisions, seconds = [], [], []
    unresolved = elsewhere = 0
    worst: list[tuple[float, str]] = []
    for path, doc in parsed.items():
        with pdfplumber.open(path) as pdf:
            for block in doc.blocks:
                if block.kind not in QUOTABLE or block.bbox is None:
                    continue
                for truth in quotes(pdf, block, rng, args.per_block):
                    quote = " ".join(w["text"] for w in truth)
                    resolution = resolve_citation(quote, block.block_id, index)
                    if resolution is None:
                        unresolved += 1
                        continue
                    elsewhere += block.block_id not in resolution.block_ids
                    started = time.perf_counter()
                    view = citation_view(registry, None, resolution, images=False)
                    seconds.append(time.perf_counter() - started)
                    boxes = [
                        (w.bbox.x0, w.bbox.top, w.bbox.x1, w.bbox.bottom) for w in view.words if w.page == block.page
                    ]
                    true_boxes = [(w["x0"], w["top"], w["x1"], w["bottom"]) for w in truth]
                    covered = sum(min(area(t), sum(overlap(t, b) for b in boxes)) for t in true_boxes)
                    coverage = covered / sum(area(t) for t in true_boxes)
                    boxed = sum(area(b) for b in boxes)
                    on_lines = sum(min(area(b), sum(overlap(b, t) for t in lines(truth))) for b in boxes)
                    coverages.append(coverage)
                    precisions.append(on_lines / boxed if boxed else 0.0)
                    worst.append((coverage, f"{path.name} p{block.page}: {quote[:90]}"))

    figures = {
        "pdfs": [p.name for p in pdfs],
        "quotes": len(coverages) + unresolved,
        "unresolved": unresolved,
        "resolved_to_another_block": elsewhere,
        "coverage_mean": round(statistics.fmean(coverages), 4),
        "coverage_min": round(min(coverages), 4),
        "coverage_at_target": round(sum(c >= TARGET for c in coverages) / len(coverages), 4),
        "precision_mean": round(statistics.fmean(precisions), 4),
        "precision_min": round(min(precisions), 4),
        "view_ms_median": round(1000 * statistics.median(seconds), 1),
    }
    for key, value in figures.items():
        print(f"{key}: {value}")
    for coverage, what in sorted(worst)[:5]:
        print(f"  {coverage:.3f}  {what}")
    print(f"mean coverage {figures['coverage_mean']:.4f} (target >= {TARGET}); saved to {save('word_boxes', figures)}")


if __name__ == "__main__":
    main()
