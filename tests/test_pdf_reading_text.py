"""A PDF's sentences as a reader reads them: superscript marks printed in the block's text but not
read, hyphens at line ends next to a figure kept, two columns never run into one block. The PDFs are
drawn with fpdf2 and read by the real loader (pdfplumber).

A line is written as in tests/test_author_lines.py: "{…}" is set raised in small type (a mark)."""

from __future__ import annotations

import re
from pathlib import Path

from fpdf import FPDF

from corpus.loaders.pdf import load_pdf
from corpus.models import BlockKind, RawBlock
from strategies.reading.passages import pieces_of

SIZE = 10.0
PROSE = "Green roofs hold back part of the rain that falls on them over the next days."


def _write(pdf: FPDF, x: float, y: float, line: str, size: float = SIZE) -> None:
    for part in re.split(r"(\{[^}]*\})", line):
        if not part:
            continue
        raised = part.startswith("{")
        text = part[1:-1] if raised else part
        pdf.set_font("Times", "", size * 0.6 if raised else size)
        width = pdf.get_string_width(text)
        pdf.set_xy(x, y - (size * 0.35 if raised else 0))
        pdf.cell(width, size + 2, text)
        x += width


def _page(path: Path, paragraph: list[str], footnote: str) -> Path:
    pdf = FPDF(format="letter", unit="pt")
    pdf.set_auto_page_break(False)
    pdf.add_page()
    for i in range(6):
        _write(pdf, 72, 72 + 12 * i, PROSE)
    for i, line in enumerate(paragraph):
        _write(pdf, 72 + (18 if i == 0 else 0), 160 + 12 * i, line)
    for i in range(6):
        _write(pdf, 90 if i == 0 else 72, 260 + 12 * i, PROSE)
    _write(pdf, 72, 700, footnote, size=8)
    pdf.output(str(path))
    return path


def _read(block: RawBlock) -> list[str]:
    return [p.text for p in pieces_of(block.text, prose=block.kind is BlockKind.PARAGRAPH, marks=block.marks)]


def _block(blocks: list[RawBlock], words: str) -> RawBlock:
    return next(b for b in blocks if words in b.text)


def test_superscript_marks_are_printed_but_not_read(tmp_path: Path) -> None:
    paragraph = [
        "Sedum roofs lowered the peak runoff to 163.13{1} litres per hour in the first summer. The",
        "meadow roofs{2} held more of each storm than the sedum roofs did in the same months.",
    ]
    footnote = "{3}Besides granularity, we also observe the roofs over a second summer."
    doc = load_pdf(_page(tmp_path / "marks.pdf", paragraph, footnote))
    body = _block(doc.blocks, "Sedum roofs")
    # The text is what the page printed, each mark recorded where it stands.
    assert [body.text[m.start : m.end] for m in body.marks] == ["1", "2"]
    assert re.search(r"163\.13 ?1 litres", body.text)
    assert _read(body) == [
        "Sedum roofs lowered the peak runoff to 163.13 litres per hour in the first summer.",
        "The meadow roofs held more of each storm than the sedum roofs did in the same months.",
    ]
    note = _block(doc.blocks, "Besides granularity")
    assert note.kind is BlockKind.FOOTNOTE and note.text.startswith("3")
    assert _read(note) == ["Besides granularity, we also observe the roofs over a second summer."]
    # The sentence's quote still starts and ends inside the printed text.
    first = pieces_of(body.text, prose=True, marks=body.marks)[0]
    assert body.text[first.start : first.end].startswith("Sedum roofs lowered")


def test_an_exponent_is_read(tmp_path: Path) -> None:
    paragraph = ["The roofs were watered with 10{5} litres in all, and the meadow took x{2} of it, 2{k} in k days."]
    doc = load_pdf(_page(tmp_path / "exponent.pdf", paragraph, "{1}A note at the foot of the page about the water."))
    body = _block(doc.blocks, "watered")
    assert body.marks == []


def test_a_hyphen_next_to_a_figure_at_a_line_end_is_kept_without_a_space(tmp_path: Path) -> None:
    paragraph = [
        "We ran the planting model on phi-",
        "3-mini and scored the roofs by F1-",
        "score, on plots 3-",
        "5 only, after quantiza-",
        "tion of the weights.",
    ]
    doc = load_pdf(_page(tmp_path / "hyphens.pdf", paragraph, "{1}A note at the foot of the page."))
    body = _block(doc.blocks, "planting model")
    assert "phi-3-mini" in body.text
    assert "F1-score" in body.text
    assert "plots 3-5 only" in body.text
    assert "quantization of the weights" in body.text


def test_two_columns_are_never_read_into_one_block(tmp_path: Path) -> None:
    pdf = FPDF(format="letter", unit="pt")
    pdf.set_auto_page_break(False)
    pdf.add_page()
    for i in range(30):
        _write(pdf, 72, 72 + 12 * i, f"Left roofs {i} hold the rain back for days.")
        _write(pdf, 320, 72 + 12 * i, f"Right roofs {i} cool the street below them.")
    path = tmp_path / "columns.pdf"
    pdf.output(str(path))
    doc = load_pdf(path)
    assert doc.blocks
    for b in doc.blocks:
        assert not ("Left roofs" in b.text and "Right roofs" in b.text), b.text
