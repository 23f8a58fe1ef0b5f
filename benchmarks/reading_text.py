"""How PDFs' sentences read: footnote marks leading a sentence, marks fused into a number, hyphens
left with a space inside a word, each counted as a reader reads the sentences (``pieces_of``), once
without the superscript marks the loader records (the text as the page printed it) and once with.

- a sentence "led by a mark": it opens with one or two digits or a footnote symbol before a
  capitalised word ("3 Besides granularity, …"), in any block a reader reads;
- a "fused number": a recorded mark right after a digit, in a sentence read ("163.13" + a raised
  "1" reads "163.131" when the mark is read);
- a "hyphen gap": a letter or digit, a hyphen, a space and a letter or digit ("F1- score"), the trace
  of a hyphenated line end not joined.

    python benchmarks/reading_text.py [FOLDER ...] [--show N]   # default: the shared papers
"""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path

from common import SHARED, save

from corpus.errors import LoadError
from corpus.loaders.pdf import load_pdf
from corpus.models import BlockKind, RawBlock
from strategies.reading.extractive import SKIPPED_KINDS
from strategies.reading.passages import pieces_of

_LED_BY_MARK = re.compile(r"^(?:\d{1,2}|[*∗†‡§¶])\s+[A-Z][a-z]")
_HYPHEN_GAP = re.compile(r"[^\W_][-\u2010] [^\W_]")


def _counts(block: RawBlock, with_marks: bool, examples: list[str]) -> tuple[int, int, int]:
    marks = block.marks if with_marks else []
    pieces = pieces_of(block.text, prose=block.kind is BlockKind.PARAGRAPH, marks=marks)
    led = sum(1 for p in pieces if _LED_BY_MARK.match(p.text))
    gaps = sum(len(_HYPHEN_GAP.findall(p.text)) for p in pieces)
    fused = 0
    for mark in block.marks:
        after_mark = any(other.end == mark.start for other in block.marks)
        if mark.start and block.text[mark.start - 1].isdigit() and not after_mark:
            read = next((p for p in pieces if p.start <= mark.start < p.end), None)
            if read is not None and block.text[mark.start - 1 : mark.end] in read.text:
                fused += 1
                examples.append(f"p{block.page}: …{block.text[max(mark.start - 40, 0) : mark.end + 10]!r}")
    return led, fused, gaps


def scan(paths: list[Path], show: int) -> dict:
    started = time.perf_counter()
    figures = {"before": [0, 0, 0], "after": [0, 0, 0]}
    examples: list[str] = []
    marks = documents = 0
    for path in paths:
        try:
            loaded = load_pdf(path)
        except LoadError as exc:
            print(f"  skipped {path.name}: {exc}")
            continue
        documents += 1
        for block in loaded.blocks:
            if block.kind in SKIPPED_KINDS:
                continue
            marks += len(block.marks)
            for name, with_marks in (("before", False), ("after", True)):
                counts = _counts(block, with_marks, examples if not with_marks else [])
                figures[name] = [a + b for a, b in zip(figures[name], counts, strict=True)]
    print(f"{documents} PDFs, {marks} superscript marks recorded in the blocks a reader reads")
    for name in ("before", "after"):
        led, fused, gaps = figures[name]
        print(
            f"  {name:6} (marks {'left out' if name == 'after' else 'read'}): {led} sentences led by a mark, "
            f"{fused} numbers fused with a mark, {gaps} hyphen gaps"
        )
    for line in examples[:show]:
        print("   ", line)
    return {
        "documents": documents,
        "marks": marks,
        **{
            f"{name}_{key}": value
            for name in figures
            for key, value in zip(("led", "fused", "gaps"), figures[name], strict=True)
        },
        "seconds": round(time.perf_counter() - started, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path)
    parser.add_argument("--show", type=int, default=10, help="how many fused numbers to print")
    args = parser.parse_args()
    folders = args.folders or [SHARED / "data" / "pdfs"]
    paths = [p for folder in folders for p in sorted(folder.glob("*.pdf"))]
    print(f"saved {save('reading_text', scan(paths, args.show))}")


if __name__ == "__main__":
    main()
