"""How much of a folder of PDFs' chunked text looks like figure internals (tick values, axis labels,
legends), and what the loader kept out of the chunks as figures' text (blocks of kind ``figure``).

A block "looks like figure internals" when it has at least four tokens and most of them are numbers
or fragments of one or two letters ("0.0 0.2 0.4", "th he ar ko"): a test independent of the
loader's, so it counts what the loader misses as well as what it catches. Equations score on it too,
so read the examples printed rather than trusting the count alone.

    python benchmarks/figure_scan.py [FOLDER ...] [--limit N] [--show N]   # default: titles-dev and shared PDFs
"""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path

from common import SHARED, save

from corpus.errors import LoadError
from corpus.loaders.pdf import load_pdf
from corpus.models import BlockKind

_NUMBER = re.compile(r"^[-+−–]?\d+(?:[.,]\d+)*%?[kKMB]?$")


def looks_like_figure_internals(text: str) -> bool:
    tokens = [t.strip(".,;:()[]") for t in text.split()]
    tokens = [t for t in tokens if t]
    if len(tokens) < 4:
        return False
    scattered = sum(1 for t in tokens if _NUMBER.match(t) or (len(t) <= 2 and t.isalpha()))
    return scattered >= 0.6 * len(tokens)


def scan(paths: list[Path], show: int) -> dict:
    started = time.perf_counter()
    prose_like = figures = figure_words = prose_blocks = documents = 0
    examples: list[str] = []
    figure_examples: list[str] = []
    for path in paths:
        try:
            loaded = load_pdf(path)
        except LoadError as exc:
            print(f"  skipped {path.name}: {exc}")
            continue
        documents += 1
        for b in loaded.blocks:
            one_line = " ".join(b.text.split())
            if b.kind is BlockKind.FIGURE:
                figures += 1
                figure_words += len(b.text.split())
                figure_examples.append(f"{path.name} p{b.page}: {one_line[:140]!r}")
            elif b.kind in (BlockKind.PARAGRAPH, BlockKind.LIST, BlockKind.FOOTNOTE):
                prose_blocks += 1
                if looks_like_figure_internals(b.text):
                    prose_like += 1
                    examples.append(f"{path.name} p{b.page}: {one_line[:140]!r}")
    print(f"{documents} PDFs: {prose_blocks} prose blocks, {prose_like} look like figure internals")
    for line in examples[:show]:
        print("   ", line)
    print(f"{figures} figure blocks ({figure_words} words) kept out of the chunks")
    for line in figure_examples[:: max(1, len(figure_examples) // show)][:show]:
        print("   ", line)
    return {
        "documents": documents,
        "prose_blocks": prose_blocks,
        "prose_blocks_like_figure_internals": prose_like,
        "figure_blocks": figures,
        "figure_words": figure_words,
        "seconds": round(time.perf_counter() - started, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path)
    parser.add_argument("--limit", type=int, help="only the first N PDFs of each folder")
    parser.add_argument("--show", type=int, default=20, help="how many examples of each to print")
    args = parser.parse_args()
    folders = args.folders or [SHARED / "data" / "titles-dev" / "docs", SHARED / "data" / "pdfs"]
    paths = [p for folder in folders for p in sorted(folder.glob("*.pdf"))[: args.limit]]
    figures = scan(paths, args.show)
    print(f"saved {save('figure_scan', figures)}")


if __name__ == "__main__":
    main()
