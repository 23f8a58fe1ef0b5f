"""The 1,000-document benchmark library, built from ../shared/data into one folder of files.

Each QASPER dev paper appears once: the even-numbered ones as their Markdown, the odd-numbered ones as
a PDF rendered from that Markdown with fpdf2 (so the library's papers go through pdfplumber as well).
Beside them: the 8 shared research PDFs, the 39 titles-dev documents (PDFs, HTML, Markdown), the 45
docs-dev pages, 6 sample-corpus documents and RAMDocs' 621 short source texts, 1,000 files in all.

The files are numbered in a fixed shuffled order (``0001-qasper-…``), so any prefix of the ingest (the
first 100, the first 300) is a mix of every kind rather than one kind after another.
"""

from __future__ import annotations

import json
import random
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from common import ROOT, shared_path
from fpdf import FPDF

from ui.core.exports.report_pdf import find_font

SIZE = 1000
SEED = 1000


@dataclass(frozen=True)
class Source:
    kind: str
    name: str  # the file name it gets, before its number
    origin: Path | None = None  # copied as is
    text: str | None = None  # written as text
    pdf_from: Path | None = None  # rendered from this Markdown


def sources() -> list[Source]:
    papers = sorted(shared_path("qasper-dev", "papers").glob("*.txt"))
    out = [
        Source("qasper", f"{p.stem}.md", origin=p) if i % 2 == 0 else Source("qasper", f"{p.stem}.pdf", pdf_from=p)
        for i, p in enumerate(papers)
    ]
    out += [Source("paper", p.name, origin=p) for p in sorted(shared_path("pdfs").glob("*.pdf"))]
    out += [Source("titles", p.name, origin=p) for p in sorted(shared_path("titles-dev", "docs").iterdir())]
    out += [Source("docs", p.name, origin=p) for p in sorted(shared_path("docs-dev", "docs").glob("*.md"))]
    out += [Source("sample", p.name, origin=p) for p in sorted((ROOT / "sample_corpus" / "docs").iterdir())[:6]]
    rows = [json.loads(line) for line in shared_path("ramdocs-dev", "ramdocs_dev.jsonl").read_text().splitlines()]
    out += [
        Source("ramdocs", f"row{r:03d}-{d:02d}.txt", text=doc["text"])
        for r, row in enumerate(rows)
        for d, doc in enumerate(row["documents"])
    ]
    return out[:SIZE]


def build(folder: Path) -> list[Path]:
    """The library's files in ``folder`` (kept between runs: rebuilt only when a file is missing)."""
    chosen = sources()
    random.Random(SEED).shuffle(chosen)
    folder.mkdir(parents=True, exist_ok=True)
    files = []
    for number, source in enumerate(chosen, 1):
        path = folder / f"{number:04d}-{source.kind}-{source.name}"
        if not path.exists():
            _write(source, path)
        files.append(path)
    if len(files) != SIZE:
        raise SystemExit(f"only {len(files)} documents in ../shared/data, {SIZE} wanted")
    return files


def _write(source: Source, path: Path) -> None:
    if source.origin is not None:
        shutil.copyfile(source.origin, path)
    elif source.text is not None:
        path.write_text(source.text + "\n", encoding="utf-8")
    else:
        render_pdf(source.pdf_from.read_text(encoding="utf-8"), path)


def render_pdf(markdown: str, path: Path) -> None:
    """A plain one-column paper: ``#`` title, ``##`` section headings in bold, paragraphs as text
    (Markdown's ``**`` dropped: a PDF shows bold, it does not spell it)."""
    font = find_font(None)
    if font is None:
        raise SystemExit("rendering the PDFs needs DejaVu Sans (fonts-dejavu-core) or matplotlib's copy")
    pdf = FPDF(format="A4")
    pdf.add_font("body", "", str(font))
    pdf.add_font("body", "B", str(font.with_name("DejaVuSans-Bold.ttf")))
    pdf.set_margins(22, 20)
    pdf.add_page()
    for paragraph in re.split(r"\n\s*\n", markdown):
        text = " ".join(paragraph.replace("**", "").split())
        if not text:
            continue
        heading = re.match(r"(#+)\s+(.*)", text)
        if heading:
            size = 15 if len(heading.group(1)) == 1 else 12
            pdf.set_font("body", "B", size)
            pdf.multi_cell(0, size * 0.55, heading.group(2), new_x="LMARGIN", new_y="NEXT")
        else:
            pdf.set_font("body", "", 10)
            pdf.multi_cell(0, 5, text, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(2)
    pdf.output(str(path))
