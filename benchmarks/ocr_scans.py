"""OCR of scanned copies of the shared PDFs: how many of the born-digital words come back, and the CPU
time a page takes.

Each PDF's pages are rendered at 200 dpi (greyscale, as a scanner gives them) into an image-only PDF
in a temporary folder, which is parsed as an ingest parses it (``parse_file``: the scanned pages read
by OCR). Words recovered: the born-digital parse's words (lower case, punctuation stripped, counted
with repeats) found in the OCR parse's. CPU time: this process's, one thread (OCR runs one thread
per parse worker), divided by the pages.

    python benchmarks/ocr_scans.py [--pages N] [PDF ...]   # default: every PDF in shared/data/pdfs
"""

from __future__ import annotations

import os

# One thread, as in a parse worker (set before onnxruntime and numpy load).
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from pathlib import Path  # noqa: E402

import pypdfium2 as pdfium  # noqa: E402
from common import SHARED  # noqa: E402

from corpus.models import OcrOptions  # noqa: E402
from corpus.parsing import parse_file  # noqa: E402

SCAN_DPI = 200
BENCH_PAGE_SECONDS = 600.0
PUNCT = ".,;:()[]{}\"'“”‘’!?*†‡§|"


def words(text: str) -> Counter[str]:
    # A curly apostrophe and a straight one spell the same word (OCR reads both as straight).
    text = text.replace("\u2019", "'")
    return Counter(t for t in (w.strip(PUNCT).lower() for w in text.split()) if t)


def scanned_copy(pdf: Path, folder: Path, pages: int | None) -> tuple[Path, Path]:
    """An image-only copy of ``pdf``'s first ``pages`` pages, and a born-digital copy of the same pages."""
    doc = pdfium.PdfDocument(str(pdf))
    count = min(len(doc), pages or len(doc))
    images = [doc[i].render(scale=SCAN_DPI / 72).to_pil().convert("L") for i in range(count)]
    scan = folder / f"{pdf.stem}.scan.pdf"
    images[0].save(scan, "PDF", resolution=SCAN_DPI, save_all=True, append_images=images[1:])
    born = pdfium.PdfDocument.new()
    born.import_pages(doc, list(range(count)))
    born_path = folder / f"{pdf.stem}.born.pdf"
    born.save(str(born_path))
    return scan, born_path


def measure(pdf: Path, folder: Path, pages: int | None) -> tuple[int, float, float, list[str]]:
    scan, born = scanned_copy(pdf, folder, pages)
    expected = words(" ".join(b.text for b in parse_file(born, OcrOptions(enabled=False)).blocks))
    started = time.process_time()
    # CPU time is measured: the wall-clock limit of a page is lifted, the machine being shared.
    parsed = parse_file(scan, OcrOptions(page_seconds=BENCH_PAGE_SECONDS))
    cpu = time.process_time() - started
    got = words(" ".join(b.text for b in parsed.blocks))
    recovered = sum((expected & got).values()) / max(1, sum(expected.values()))
    ocr = parsed.document.ocr
    return parsed.document.page_count, recovered, cpu, ocr.unread if ocr else []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pdfs", nargs="*", type=Path)
    parser.add_argument("--pages", type=int, default=None, help="only each PDF's first N pages")
    args = parser.parse_args()
    pdfs = args.pdfs or sorted((SHARED / "data" / "pdfs").glob("*.pdf"))
    total_pages, total_cpu, total_words = 0, 0.0, 0.0
    print(f"{'pdf':40} {'pages':>5} {'words':>7} {'cpu s/page':>10}")
    with tempfile.TemporaryDirectory(prefix="prp-ocr-") as tmp:
        for pdf in pdfs:
            pages, recovered, cpu, unread = measure(pdf, Path(tmp), args.pages)
            total_pages += pages
            total_cpu += cpu
            total_words += recovered * pages
            note = f"  unread: {'; '.join(unread)}" if unread else ""
            print(f"{pdf.name[:40]:40} {pages:5} {recovered:7.1%} {cpu / pages:10.2f}{note}", flush=True)
    if total_pages:
        print(
            f"{'all (page-weighted)':40} {total_pages:5} {total_words / total_pages:7.1%} {total_cpu / total_pages:10.2f}"
        )


if __name__ == "__main__":
    main()
