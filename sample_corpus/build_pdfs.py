"""Render the sample-corpus PDFs from their plain-text sources.

Usage (from the repository root, with the venv active)::

    python sample_corpus/build_pdfs.py           # writes sample_corpus/docs/*.pdf
    python sample_corpus/build_pdfs.py --verify  # also renders twice and compares sha256

Each file in ``sample_corpus/pdf_sources/*.txt`` becomes ``sample_corpus/docs/<stem>.pdf``.

Source format
-------------
A header of ``key: value`` lines, then a line ``---``, then the body::

    title: ...            (title block, also PDF /Title)
    authors: ...          (authors line, also PDF /Author; '*' marks are dropped there)
    affiliation: ...
    year: 2019
    date: 2019-07-15      (fixed creation date -> deterministic output)
    header: ...           (running header printed on every page)
    short_authors: ...    (right-hand side of the running header)
    columns: 1 | 2        (body layout)
    keywords: ...
    footnote: ...         (small print at the foot of page 1)
    ---
    == 1. Introduction    (section heading; "== 3.1 ..." is a sub-heading)
    A paragraph, on one line or several; blank lines separate paragraphs.

    !table Table 1: caption text
    Head A | Head B | Head C
    a | b | c
    !end

    !note footnote-sized line

    == References
    [1] Reference text ...

The first section, if it is called "Abstract" or "Summary", is set full width above the
body. ``{-}`` inside a word is a soft hyphen (a hyphen is printed only if the line breaks
there). The text must be latin-1 because only the PDF core fonts are used.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from fpdf import FPDF
from fpdf.fonts import FontFace

HERE = Path(__file__).resolve().parent
SRC_DIR = HERE / "pdf_sources"
OUT_DIR = HERE / "docs"

BODY_FONT = "Times"
HEAD_FONT = "Helvetica"
SOFT_HYPHEN = "\u00ad"


# --------------------------------------------------------------------------- parsing


@dataclass
class Block:
    kind: str  # heading | para | table | note | ref
    text: str = ""
    level: int = 1
    rows: list[list[str]] = field(default_factory=list)


@dataclass
class Source:
    meta: dict[str, str]
    blocks: list[Block]


def parse_source(path: Path) -> Source:
    raw = path.read_text(encoding="utf-8")
    head, sep, body = raw.partition("\n---\n")
    if not sep:
        raise ValueError(f"{path.name}: missing '---' separator")
    meta: dict[str, str] = {}
    for line in head.splitlines():
        if line.strip():
            key, _, value = line.partition(":")
            meta[key.strip()] = value.strip()
    for required in ("title", "authors", "year", "date", "header", "columns"):
        if required not in meta:
            raise ValueError(f"{path.name}: missing header field {required!r}")

    blocks: list[Block] = []
    lines = body.splitlines()
    i = 0
    para: list[str] = []

    def flush() -> None:
        if para:
            blocks.append(Block("para", " ".join(para)))
            para.clear()

    while i < len(lines):
        line = lines[i].rstrip()
        if not line.strip():
            flush()
        elif line.startswith("== "):
            flush()
            text = line[3:].strip()
            level = 2 if re.match(r"^\d+\.\d+", text) else 1
            blocks.append(Block("heading", text, level=level))
        elif line.startswith("!table "):
            flush()
            caption = line[len("!table ") :].strip()
            rows: list[list[str]] = []
            i += 1
            while lines[i].strip() != "!end":
                rows.append([c.strip() for c in lines[i].split("|")])
                i += 1
            blocks.append(Block("table", caption, rows=rows))
        elif line.startswith("!note "):
            flush()
            blocks.append(Block("note", line[len("!note ") :].strip()))
        elif re.match(r"^\[\d+\] ", line):
            flush()
            blocks.append(Block("ref", line.strip()))
        else:
            para.append(line.strip())
        i += 1
    flush()
    return Source(meta, blocks)


def pdf_text(text: str) -> str:
    """Source text -> text for the core fonts (soft hyphens, latin-1 check)."""
    text = text.replace("{-}", SOFT_HYPHEN)
    try:
        text.encode("latin-1")
    except UnicodeEncodeError as exc:
        raise ValueError(f"non latin-1 character in {text[:60]!r}...") from exc
    return text


# --------------------------------------------------------------------------- rendering


class PaperPDF(FPDF):
    def __init__(self, meta: dict[str, str]):
        super().__init__(orientation="P", unit="mm", format="A4")
        self.meta = meta
        self.two_col = meta["columns"].strip() == "2"
        self.body_size = 10 if self.two_col else 11
        self.set_margins(20, 22, 20)
        self.set_auto_page_break(auto=True, margin=24)
        self.alias_nb_pages()

    # Running header on every page (journal / series name + short author list).
    def header(self) -> None:
        self.set_y(10)
        self.set_font(BODY_FONT, "I", 8.5)
        self.set_text_color(60, 60, 60)
        self.cell(0, 5, pdf_text(self.meta["header"]), align="L")
        self.set_x(self.l_margin)
        self.cell(0, 5, pdf_text(self.meta.get("short_authors", "")), align="R")
        self.set_draw_color(120, 120, 120)
        self.set_line_width(0.2)
        self.line(self.l_margin, 16, self.w - self.r_margin, 16)
        self.set_text_color(0, 0, 0)
        self.set_y(self.t_margin)

    # Page numbers in the footer; the corresponding-author note on page 1.
    def footer(self) -> None:
        if self.page_no() == 1 and self.meta.get("footnote"):
            self.set_y(-22)
            self.set_draw_color(0, 0, 0)
            self.set_line_width(0.2)
            self.line(self.l_margin, self.get_y(), self.l_margin + 50, self.get_y())
            self.set_y(self.get_y() + 0.8)
            self.set_font(BODY_FONT, "", 7.5)
            self.multi_cell(0, 3.4, pdf_text(self.meta["footnote"]), align="L")
        self.set_y(-12)
        self.set_font(BODY_FONT, "", 8.5)
        self.cell(0, 5, f"Page {self.page_no()} of {{nb}}", align="C")


def title_block(pdf: PaperPDF, meta: dict[str, str]) -> None:
    pdf.set_font(HEAD_FONT, "B", 16)
    pdf.multi_cell(0, 7.5, pdf_text(meta["title"]), align="C", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(3)
    pdf.set_font(HEAD_FONT, "", 11)
    pdf.multi_cell(0, 5.5, pdf_text(meta["authors"]), align="C", new_x="LMARGIN", new_y="NEXT")
    if meta.get("affiliation"):
        pdf.set_font(BODY_FONT, "I", 10)
        pdf.multi_cell(0, 5, pdf_text(meta["affiliation"]), align="C", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)


def abstract_block(pdf: PaperPDF, heading: str, paras: list[Block], keywords: str | None) -> None:
    indent = 8
    width = pdf.w - pdf.l_margin - pdf.r_margin - 2 * indent
    pdf.set_font(HEAD_FONT, "B", 10)
    pdf.set_x(pdf.l_margin + indent)
    pdf.cell(width, 5, pdf_text(heading), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(1)
    pdf.set_font(BODY_FONT, "", 9.5)
    for p in paras:
        pdf.set_x(pdf.l_margin + indent)
        pdf.multi_cell(width, 4.4, pdf_text(p.text), align="J", new_x="LMARGIN", new_y="NEXT")
        pdf.ln(1)
    if keywords:
        pdf.set_x(pdf.l_margin + indent)
        pdf.set_font(BODY_FONT, "I", 9)
        pdf.multi_cell(width, 4.4, pdf_text("Keywords: " + keywords), align="L", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    pdf.set_draw_color(0, 0, 0)
    pdf.set_line_width(0.3)
    pdf.line(pdf.l_margin, pdf.get_y(), pdf.w - pdf.r_margin, pdf.get_y())
    pdf.ln(4)


def render_table(pdf: PaperPDF, block: Block) -> None:
    if pdf.will_page_break(12 + 6 * len(block.rows)):
        pdf.add_page()
    pdf.ln(1)
    pdf.set_font(HEAD_FONT, "B", 9)
    pdf.multi_cell(0, 4.5, pdf_text(block.text), align="L", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(1.5)
    ncols = len(block.rows[0])
    first = max(len(r[0]) for r in block.rows)
    col_widths = (2.2 if first > 20 else 1.3,) + (1,) * (ncols - 1)
    pdf.set_font(BODY_FONT, "", 9)
    pdf.set_draw_color(90, 90, 90)
    pdf.set_line_width(0.2)
    with pdf.table(
        col_widths=col_widths,
        text_align=("LEFT",) + ("CENTER",) * (ncols - 1),
        line_height=4.6,
        headings_style=FontFace(emphasis="BOLD", fill_color=(225, 225, 225)),
        borders_layout="HORIZONTAL_LINES",
        padding=1,
    ) as table:
        for row in block.rows:
            r = table.row()
            for cell in row:
                r.cell(pdf_text(cell))
    pdf.ln(4)


def render_single_column(pdf: PaperPDF, blocks: list[Block]) -> None:
    lh = 5.3
    in_refs = False
    for i, b in enumerate(blocks):
        if b.kind == "heading":
            # keep a heading (and a directly following sub-heading) with some body text
            stacked = i + 1 < len(blocks) and blocks[i + 1].kind == "heading"
            if pdf.will_page_break(32 if stacked else 22):
                pdf.add_page()
            in_refs = b.text.lower() == "references"
            pdf.ln(2 if b.level == 1 else 1)
            pdf.set_font(HEAD_FONT, "B" if b.level == 1 else "BI", 11.5 if b.level == 1 else 10.5)
            pdf.multi_cell(0, 6, pdf_text(b.text), align="L", new_x="LMARGIN", new_y="NEXT")
            pdf.ln(1)
        elif b.kind == "para":
            pdf.set_font(BODY_FONT, "", pdf.body_size)
            pdf.multi_cell(0, lh, pdf_text(b.text), align="J", new_x="LMARGIN", new_y="NEXT")
            pdf.ln(2)
        elif b.kind == "note":
            pdf.set_font(BODY_FONT, "I", 7.5)
            pdf.multi_cell(0, 3.5, pdf_text(b.text), align="L", new_x="LMARGIN", new_y="NEXT")
            pdf.ln(2)
        elif b.kind == "ref":
            pdf.set_font(BODY_FONT, "", 9 if in_refs else pdf.body_size)
            pdf.multi_cell(0, 4.3, pdf_text(b.text), align="L", new_x="LMARGIN", new_y="NEXT")
            pdf.ln(1)
        elif b.kind == "table":
            render_table(pdf, b)


def render_two_columns(pdf: PaperPDF, blocks: list[Block]) -> None:
    """Body in two columns; tables interrupt the columns and are set full width."""
    runs: list[list[Block] | Block] = []
    current: list[Block] = []
    for b in blocks:
        if b.kind == "table":
            if current:
                runs.append(current)
                current = []
            runs.append(b)
        else:
            current.append(b)
    if current:
        runs.append(current)

    for run in runs:
        if isinstance(run, Block):
            render_table(pdf, run)
            continue
        with pdf.text_columns(ncols=2, gutter=7, balance=True, text_align="J", line_height=1.15) as cols:
            for b in run:
                if b.kind == "heading":
                    size = 10.5 if b.level == 1 else 10
                    pdf.set_font(HEAD_FONT, "B" if b.level == 1 else "BI", size)
                    with cols.paragraph(
                        text_align="L", top_margin=2.5 if b.level == 1 else 1.5, bottom_margin=1
                    ) as par:
                        par.write(pdf_text(b.text))
                elif b.kind == "para":
                    pdf.set_font(BODY_FONT, "", pdf.body_size)
                    with cols.paragraph(text_align="J", bottom_margin=1.8) as par:
                        par.write(pdf_text(b.text))
                elif b.kind == "note":
                    pdf.set_font(BODY_FONT, "I", 7.5)
                    with cols.paragraph(text_align="L", bottom_margin=1.8) as par:
                        par.write(pdf_text(b.text))
                elif b.kind == "ref":
                    pdf.set_font(BODY_FONT, "", 8.5)
                    with cols.paragraph(text_align="L", bottom_margin=1.2) as par:
                        par.write(pdf_text(b.text))
        pdf.ln(3)


def render(src: Source) -> bytes:
    meta = src.meta
    pdf = PaperPDF(meta)
    y, m, d = (int(x) for x in meta["date"].split("-"))
    pdf.set_creation_date(datetime(y, m, d, 9, 0, 0, tzinfo=UTC))
    pdf.set_title(pdf_text(meta["title"]))
    pdf.set_author(pdf_text(meta["authors"].replace("*", "")))
    pdf.set_subject(pdf_text(meta["header"]))
    if meta.get("keywords"):
        pdf.set_keywords(pdf_text(meta["keywords"]))
    pdf.set_creator("prp sample_corpus/build_pdfs.py")
    pdf.set_producer("fpdf2")
    pdf.set_lang("en")
    pdf.add_page()
    title_block(pdf, meta)

    blocks = list(src.blocks)
    if blocks and blocks[0].kind == "heading" and blocks[0].text in ("Abstract", "Summary"):
        heading = blocks.pop(0).text
        paras: list[Block] = []
        while blocks and blocks[0].kind == "para":
            paras.append(blocks.pop(0))
        abstract_block(pdf, heading, paras, meta.get("keywords"))

    if pdf.two_col:
        render_two_columns(pdf, blocks)
    else:
        render_single_column(pdf, blocks)
    return bytes(pdf.output())


def build_all(out_dir: Path) -> dict[str, str]:
    out_dir.mkdir(parents=True, exist_ok=True)
    hashes: dict[str, str] = {}
    for path in sorted(SRC_DIR.glob("*.txt")):
        data = render(parse_source(path))
        out = out_dir / f"{path.stem}.pdf"
        out.write_bytes(data)
        hashes[out.name] = hashlib.sha256(data).hexdigest()
    return hashes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--verify", action="store_true", help="render twice and compare sha256")
    args = ap.parse_args(argv)
    hashes = build_all(OUT_DIR)
    for name, digest in hashes.items():
        print(f"{digest}  docs/{name}")
    if args.verify:
        again = {
            p.stem + ".pdf": hashlib.sha256(render(parse_source(p))).hexdigest() for p in sorted(SRC_DIR.glob("*.txt"))
        }
        if again != hashes:
            print("NOT deterministic: second render differs", file=sys.stderr)
            return 1
        print("deterministic: second render identical")
    return 0


if __name__ == "__main__":
    sys.exit(main())
