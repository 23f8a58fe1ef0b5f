"""Figures in PDFs (corpus.loaders.pdf.figures): the text a chart draws (tick values, axis labels,
a legend) is a block of kind ``figure``, kept with the document but in no chunk, while the caption
and the prose around the chart are read, chunked and searched as before. A page with only a chart
keeps its text in the figure block and the ingest says so; a file of nothing but a chart keeps its
text as prose."""

from __future__ import annotations

from pathlib import Path

from fpdf import FPDF

from corpus.chunking import chunk_document
from corpus.ingest import Outcome
from corpus.loaders.pdf import load_pdf
from corpus.models import BlockKind
from ui.cli.output import format_summary

INTRO = (
    "Green roofs in Lindenport were monitored for three summers. The classifier that counts pollinators "
    "in the camera images was retrained every month, and its accuracy rose steadily as more labelled "
    "images arrived from the rooftop meadows."
)
AFTER = (
    "The accuracy stopped rising after eighty thousand steps, so later models were trained for that long "
    "only. Retraining took under an hour on the shared workstation of the monitoring team."
)
CAPTION = "Figure 1: Accuracy of the pollinator classifier over training steps."
X_TICKS = ["0", "20", "40", "60", "80", "100"]
Y_TICKS = ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"]


def _chart(pdf: FPDF, top: float, x_label: str, legend: tuple[str, str]) -> None:
    """A bar chart drawn as a plotting library draws one: axes, ticks, bars, tick values, an axis
    label and a legend, in 8-point type. The plot area spans ``top`` to ``top + 160`` pt."""
    left, width, height = 110.0, 300.0, 160.0
    bottom = top + height
    pdf.set_draw_color(0)
    pdf.set_line_width(0.8)
    pdf.line(left, bottom, left + width, bottom)  # x axis
    pdf.line(left, top, left, bottom)  # y axis
    pdf.set_font("Helvetica", size=8)
    for i, tick in enumerate(X_TICKS):
        x = left + i * width / (len(X_TICKS) - 1)
        pdf.line(x, bottom, x, bottom + 4)
        pdf.text(x - pdf.get_string_width(tick) / 2, bottom + 13, tick)
    for i, tick in enumerate(Y_TICKS):
        y = bottom - i * height / (len(Y_TICKS) - 1)
        pdf.line(left - 4, y, left, y)
        pdf.text(left - 7 - pdf.get_string_width(tick), y + 3, tick)
    pdf.set_fill_color(90, 120, 200)
    for i, share in enumerate((0.35, 0.55, 0.7, 0.8, 0.82)):
        pdf.rect(left + 20 + i * 55, bottom - share * height, 30, share * height, style="F")
    pdf.text(left + width / 2 - pdf.get_string_width(x_label) / 2, bottom + 26, x_label)
    pdf.text(left - 30, top - 8, "Accuracy")
    for i, name in enumerate(legend):  # a legend inside the plot, top right
        pdf.set_fill_color(90 + 100 * i, 120, 200)
        pdf.rect(left + width - 80, top + 8 + 14 * i, 10, 8, style="F")
        pdf.text(left + width - 64, top + 15 + 14 * i, name)


def _paragraph(pdf: FPDF, text: str) -> None:
    pdf.set_font("Helvetica", size=11)
    pdf.multi_cell(0, 14, text, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(8)


def write_chart_pdf(path: Path, chart_only_page: bool = True) -> Path:
    """Page 1: a title, a paragraph, a chart, its caption and another paragraph. Page 2 (when
    ``chart_only_page``): a second chart, with nothing else on the page."""
    pdf = FPDF(unit="pt", format="A4")
    pdf.set_margins(72, 72)
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 16)
    pdf.multi_cell(0, 20, "Pollinator Counts on Green Roofs", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(10)
    _paragraph(pdf, INTRO)
    top = pdf.get_y() + 30
    _chart(pdf, top, "Training steps (thousands)", ("baseline", "refit"))
    pdf.set_xy(72, top + 210)
    pdf.set_font("Helvetica", size=10)
    pdf.multi_cell(0, 12, CAPTION, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(12)
    _paragraph(pdf, AFTER)
    if chart_only_page:
        pdf.add_page()
        _chart(pdf, 150, "Rainfall per storm (mm)", ("sedum", "meadow"))
    pdf.output(str(path))
    return path


def write_chart_only_pdf(path: Path) -> Path:
    pdf = FPDF(unit="pt", format="A4")
    pdf.add_page()
    _chart(pdf, 150, "Rainfall per storm (mm)", ("sedum", "meadow"))
    pdf.output(str(path))
    return path


def test_a_charts_ticks_and_labels_are_a_figure_block_and_its_caption_stays_prose(tmp_path: Path):
    doc = load_pdf(write_chart_pdf(tmp_path / "chart.pdf"))
    figures = [b for b in doc.blocks if b.kind is BlockKind.FIGURE]
    assert [b.page for b in figures] == [1, 2]
    page1 = figures[0].text
    for text in ("0.2", "0.8", "100", "Training steps (thousands)", "baseline", "refit", "Accuracy"):
        assert text in page1, (text, page1)
    others = " ".join(b.text for b in doc.blocks if b.kind is not BlockKind.FIGURE)
    for text in ("0.2", "Training steps", "baseline", "refit", "Rainfall"):
        assert text not in others, text
    captions = [b.text for b in doc.blocks if b.kind is BlockKind.CAPTION]
    assert captions == [CAPTION]
    paragraphs = [" ".join(b.text.split()) for b in doc.blocks if b.kind is BlockKind.PARAGRAPH]
    assert paragraphs == [INTRO, AFTER]
    assert doc.title == "Pollinator Counts on Green Roofs"


def test_figure_text_is_in_no_chunk_and_a_chart_only_page_is_reported(make_library, tmp_path: Path):
    library = make_library()
    summary = library.ingest([write_chart_pdf(tmp_path / "chart.pdf")])
    (result,) = summary.files
    assert result.outcome is Outcome.OK, result
    assert result.figure_pages == [2]
    assert "page(s) 2" in format_summary(summary)
    (doc,) = library.registry.documents()
    blocks = library.registry.blocks_of(doc.doc_id)
    chunks = library.registry.chunks_of(doc.doc_id)
    text = "\n".join(c.text for c in chunks)
    assert CAPTION in text and "eighty thousand steps" in text
    for label in ("0.2", "0.4", "Training steps", "baseline", "Rainfall", "sedum"):
        assert label not in text, label
    # The chart-only page's text is kept, with its figure: a citation of it resolves.
    page2 = [b for b in blocks if b.page == 2]
    assert [b.kind for b in page2] == [BlockKind.FIGURE] and "Rainfall per storm (mm)" in page2[0].text
    figure_ids = {b.block_id for b in blocks if b.kind is BlockKind.FIGURE}
    assert not figure_ids & {i for c in chunks for i in c.block_ids}
    embedder = library.embedder
    again = chunk_document(doc, blocks, embedder.max_tokens, embedder.count_tokens_batch)
    assert [c.chunk.text for c in again] == [c.text for c in chunks]


def test_a_file_of_nothing_but_a_chart_keeps_its_text_as_prose(make_library, tmp_path: Path):
    path = write_chart_only_pdf(tmp_path / "rainfall.pdf")
    doc = load_pdf(path)
    assert doc.blocks and all(b.kind is not BlockKind.FIGURE for b in doc.blocks)
    assert "Rainfall per storm (mm)" in " ".join(b.text for b in doc.blocks)
    library = make_library()
    (result,) = library.ingest([path]).files
    assert result.outcome is Outcome.OK and result.figure_pages == []
    assert any("Rainfall" in c.text for c in library.registry.chunks_of(result.doc_id or ""))
