"""The quote's own words boxed on the page (``tools.citations.word_boxes``), through the public
interface: a PDF written here with fpdf2 is parsed as an ingest parses it, the quote is resolved
(``resolve_citation``) and shown as the evidence view shows it (``ui.core.citation_view``)."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
from fpdf import FPDF

from corpus.models import BBox
from corpus.parsing import parse_file
from corpus.registry import Registry
from tools.citations.index import BlockIndex
from tools.citations.resolve import resolve_citation
from tools.citations.word_boxes import quoted_words
from ui.core.citation_view import citation_view

TOP, LEFT, LEADING = 140.0, 72.0, 14.0
# One paragraph; "dou-/ble" is hyphenated at a line end, and a phrase comes twice.
LINES = (
    "Sedum mats on the test roofs held water for three days after each storm, and the",
    "drainage felt under them kept the substrate moist well into the following week; a dou-",
    "ble layer of felt did no better than a single one, and the felt held water for three",
    "days after each storm on the shaded roofs only.",
)
MARKDOWN = "# Felt notes\n\nA single layer of felt dried out within a day on the north roofs.\n"


def _write(path: Path) -> Path:
    pdf = FPDF(unit="pt", format="letter")
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 16)
    pdf.text(LEFT, 96, "Drainage Felt on Test Roofs")
    pdf.set_font("Helvetica", size=11)
    for i, line in enumerate(LINES):
        pdf.text(LEFT, TOP + i * LEADING, line)
    pdf.output(str(path))
    return path


@pytest.fixture(scope="module")
def library(tmp_path_factory) -> tuple[Registry, BlockIndex, Path]:
    folder = tmp_path_factory.mktemp("word-boxes")
    registry = Registry(folder / "registry.sqlite")
    (folder / "notes.md").write_text(MARKDOWN)
    for path in (_write(folder / "felt.pdf"), folder / "notes.md"):
        parsed = parse_file(path)
        registry.add_pending(parsed.document, parsed.blocks, [])
        registry.mark_ready(parsed.document.doc_id)
    return registry, BlockIndex.from_registry(registry), folder / "felt.pdf"


def _page_words(pdf_path: Path) -> list[dict]:
    with pdfplumber.open(pdf_path) as pdf:
        return pdf.pages[0].extract_words()


def _inside(word: dict, box: BBox) -> bool:
    return box.x0 <= word["x0"] and word["x1"] <= box.x1 and box.top <= word["top"] and word["bottom"] <= box.bottom


def test_the_quotes_words_are_boxed_one_box_a_line_across_a_hyphenated_line_end(library):
    registry, index, pdf_path = library
    quote = "a double layer of felt did no better than a single one"
    resolution = resolve_citation(quote, None, index)
    assert resolution is not None and resolution.page == 1
    view = citation_view(registry, 1, resolution, images=False)
    assert [w.text for w in view.words] == ["a dou-", "ble layer of felt did no better than a single one,"]
    assert {w.block_id for w in view.words} == set(resolution.block_ids) and {w.page for w in view.words} == {1}
    words = _page_words(pdf_path)
    second = [w for w in words if abs(w["top"] - words[0]["top"]) > 1]  # below the heading
    line_2 = [w for w in second if abs(w["bottom"] - (TOP + LEADING)) < 3]
    line_3 = [w for w in second if abs(w["bottom"] - (TOP + 2 * LEADING)) < 3]
    quoted = line_2[-2:] + line_3[:11]
    assert " ".join(w["text"] for w in quoted) == "a dou- ble layer of felt did no better than a single one,"
    # Every quoted word is inside a box, and the boxes hold nothing else: they start at "a", not
    # at the line's start, and end at "one,".
    assert all(any(_inside(w, box.bbox) for box in view.words) for w in quoted)
    first, last = view.words
    assert first.bbox.x0 == pytest.approx(line_2[-2]["x0"]) and first.bbox.x1 == pytest.approx(line_2[-1]["x1"])
    assert last.bbox.x0 == pytest.approx(line_3[0]["x0"]) and last.bbox.x1 == pytest.approx(line_3[10]["x1"])
    block = resolution.bboxes[0].bbox
    assert all(block.x0 <= b.bbox.x0 and b.bbox.x1 <= block.x1 for b in view.words)


def test_a_quote_with_a_word_left_out_boxes_the_source_words_it_matched(library):
    """As the passage highlights them: the match runs over the left-out word."""
    registry, index, _ = library
    quote = "the drainage felt under them kept the substrate moist into the following week"  # "well" left out
    resolution = resolve_citation(quote, None, index)
    assert resolution is not None and resolution.score < 100
    view = citation_view(registry, 1, resolution, images=False)
    assert [w.text for w in view.words] == [
        "the",
        "drainage felt under them kept the substrate moist well into the following week;",
    ]


def test_stored_text_unlike_the_page_is_aligned_word_by_word_or_not_boxed(library):
    _, index, pdf_path = library
    (block,) = [b for b in (index.block(i) for i in index.position) if "Sedum" in b.text]
    with pdfplumber.open(pdf_path) as pdf:
        page = pdf.pages[0]
        changed = quoted_words(
            page, block.block_id, block.bbox, "felt under them kept the substrate wet well into the following week"
        )
        unrelated = quoted_words(page, block.block_id, block.bbox, "street trees shade the pavement along the canal")
    assert [w.text for w in changed] == ["felt under them kept the substrate", "well into the following week;"]
    assert unrelated == []


def test_a_repeated_phrase_is_boxed_where_the_match_is(library):
    _, index, pdf_path = library
    (block,) = [b for b in (index.block(i) for i in index.position) if "Sedum" in b.text]
    phrase = "held water for three days after each storm"
    second = block.text.index(phrase, block.text.index(phrase) + 1)
    with pdfplumber.open(pdf_path) as pdf:
        page = pdf.pages[0]
        first_boxes = quoted_words(page, block.block_id, block.bbox, phrase)
        second_boxes = quoted_words(page, block.block_id, block.bbox, phrase, before=block.text[:second])
    assert [w.text for w in first_boxes] == ["held water for three days after each storm,"]
    assert [w.text for w in second_boxes] == ["held water for three", "days after each storm"]


def test_a_text_document_and_a_changed_pdf_have_no_word_boxes(library, tmp_path):
    registry, index, pdf_path = library
    resolution = resolve_citation("a single layer of felt dried out within a day on the north roofs", None, index)
    on_pdf = resolve_citation(LINES[0], None, index)
    assert resolution is not None and resolution.doc_id != on_pdf.doc_id
    assert citation_view(registry, 1, resolution).words == []
    assert citation_view(registry, 1, on_pdf, images=False).words
    original = pdf_path.read_bytes()
    pdf_path.write_bytes(original + b"\n% edited")
    try:
        assert citation_view(registry, 1, on_pdf, images=False).words == []
    finally:
        pdf_path.write_bytes(original)
