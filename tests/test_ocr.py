"""OCR of scanned PDF pages (corpus.ocr, corpus.loaders.pdf.ocr_page), through the real ingest path.

The scans are made here: a small page written with fpdf2, rendered by pypdfium2 and placed back in a
PDF as an image, so the page has no text layer. OCR takes a second or two a page: few, small pages.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pdfplumber
import pypdfium2 as pdfium
from fpdf import FPDF
from PIL import Image

from corpus.database import PostgresDatabase
from corpus.loaders.pdf import load_pdf
from corpus.loaders.pdf.ocr_page import render_scale
from corpus.model_files import RAPIDOCR
from corpus.models import BBox, Block, BlockKind, DocType, Document, OcrOptions, PageWord
from corpus.registry import Registry
from graph.run import run_research
from strategies.offline.strategy import OfflineStrategy
from ui.core.citation_view import citation_view

# A small page (mm): OCR's time grows with the page's pixels.
PAGE = (150, 80)
HEADING = "Rooftop Gardens"
BODY = (
    "Green roofs lowered the surface temperature of the Halden block by 4.2 degrees on summer "
    "afternoons, and the sedum mats retained most of the rain in each storm measured."
)
OTHER = "Street trees shade the pavement along the canal and cool the air under their crowns."


def _text_page(pdf: FPDF, heading: str, body: str) -> None:
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 14)
    pdf.cell(0, 8, heading, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", size=11)
    pdf.multi_cell(0, 6, body)


def _scan(heading: str, body: str, folder: Path) -> Image.Image:
    """The page as a scanner gives it: an image at 200 dpi."""
    pdf = FPDF(format=PAGE)
    _text_page(pdf, heading, body)
    pdf.output(str(folder / "born.pdf"))
    page = pdfium.PdfDocument(str(folder / "born.pdf"))[0]
    return page.render(scale=200 / 72).to_pil().convert("L")


def _image_page(pdf: FPDF, image: Image.Image) -> None:
    pdf.add_page()
    pdf.image(image, x=0, y=0, w=PAGE[0], h=PAGE[1])


def test_a_scanned_pdf_is_read_by_ocr_and_answers_cite_it(make_library, tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    _scan(HEADING, BODY, tmp_path).save(folder / "scan.pdf", "PDF", resolution=200)
    library = make_library()
    summary = library.ingest([folder])
    (result,) = summary.files
    assert result.outcome.value == "ok" and result.ocr_pages == [1] and not result.unread_pages
    (document,) = library.registry.documents()
    assert document.ocr is not None and document.ocr.engine.startswith(f"rapidocr {RAPIDOCR.version}")
    blocks = library.registry.blocks_of(document.doc_id)
    text = " ".join(b.text for b in blocks)
    words = set(f"{HEADING} {BODY}".replace(",", "").replace(".", "").split())
    read = set(text.replace(",", "").replace(".", "").split())
    assert len(words & read) >= 0.9 * len(words), read ^ words
    width, height = PAGE[0] * 72 / 25.4, PAGE[1] * 72 / 25.4
    for b in blocks:  # boxes in PDF points, on the page
        assert b.page == 1 and b.bbox is not None
        assert 0 <= b.bbox.x0 < b.bbox.x1 <= width + 0.5 and 0 <= b.bbox.top < b.bbox.bottom <= height + 0.5
    run = run_research(
        library,
        OfflineStrategy(library.embedder),
        "By how much did green roofs lower the surface temperature of the Halden block?",
        single_question=True,
    )
    citation = run.report.citations[0]
    assert citation.resolution.ocr and citation.resolution.block_ids[0] in {b.block_id for b in blocks}
    assert "4.2" in citation.resolution.matched_text
    assert "p. 1 (OCR)" in run.report.reference_label(citation)
    # The page has no text layer: the quoted words are boxed where OCR read them, as the block keeps them.
    assert all(b.words and _letters(" ".join(w.text for w in b.words)) == _letters(b.text) for b in blocks)
    view = citation_view(library.registry, citation.number, citation.resolution)
    assert view.words and view.zoom_png and "quoted words are boxed" in view.image_note
    assert {w.block_id for w in view.words} == {citation.resolution.block_ids[0]}
    # Each quoted word is inside the boxes: as OCR read it, and where the page the scan was made of
    # printed it (OCR's word boxes are the engine's estimate: a line's first word can start late).
    boxes = [b.bbox for b in view.words]
    (block,) = [b for b in blocks if b.block_id == citation.resolution.block_ids[0]]
    read_words = _words_of([w.model_dump() for w in block.words], citation.resolution.matched_text)
    assert min(_covered(w, boxes) for w in read_words) >= 0.95
    with pdfplumber.open(tmp_path / "born.pdf") as born:
        printed = _words_of(born.pages[0].extract_words(), citation.resolution.matched_text)
    covered = [_covered(w, boxes) for w in printed]
    assert sum(covered) / len(covered) >= 0.95 and min(covered) >= 0.8, covered  # 0.991, 0.889 measured


def _letters(text: str) -> str:
    return "".join(c for c in text.casefold() if c.isalnum())


def _words_of(words: list[dict], quote: str) -> list[dict]:
    """The run of ``words`` that spells ``quote``."""
    keys = [_letters(w["text"]) for w in words]
    for start in range(len(words)):
        for end in range(start + 1, len(words) + 1):
            if "".join(keys[start:end]) == _letters(quote):
                return words[start:end]
    raise AssertionError(f"{quote!r} is not among {keys}")


def _covered(word: dict, boxes: list[BBox]) -> float:
    """The share of ``word``'s box inside one of ``boxes`` (the quote's line runs do not overlap)."""
    area = (word["x1"] - word["x0"]) * (word["bottom"] - word["top"])
    best = 0.0
    for b in boxes:
        w = max(0.0, min(word["x1"], b.x1) - max(word["x0"], b.x0))
        h = max(0.0, min(word["bottom"], b.bottom) - max(word["top"], b.top))
        best = max(best, w * h / area)
    return best


def test_a_mixed_pdf_is_read_page_by_page_and_an_unreadable_page_is_named(tmp_path: Path, models_dir: Path) -> None:
    pdf = FPDF(format=PAGE)
    _text_page(pdf, "Canal Trees", OTHER)
    _image_page(pdf, _scan(HEADING, BODY, tmp_path))
    noise = np.random.default_rng(7).integers(0, 256, (300, 560), dtype=np.uint8)
    _image_page(pdf, Image.fromarray(noise))
    pdf.output(str(tmp_path / "mixed.pdf"))
    loaded = load_pdf(tmp_path / "mixed.pdf", OcrOptions(models_dir=models_dir))
    assert loaded.ocr is not None and loaded.ocr.pages == [2]
    assert loaded.ocr.unread == ["page 3: no text recognised"]
    by_page = {p: " ".join(b.text for b in loaded.blocks if b.page == p) for p in (1, 2, 3)}
    assert OTHER in by_page[1] and "4.2 degrees" in by_page[2] and not by_page[3]
    # Only the blocks OCR read keep their words: a text layer is read again when a quote is boxed.
    assert all(bool(b.words) == (b.page == 2) for b in loaded.blocks)


def test_the_words_a_block_keeps_come_back_from_the_registry(tmp_path: Path, backend: str | None) -> None:
    registry = Registry(PostgresDatabase(backend) if backend else tmp_path / "registry.sqlite")
    document = Document(
        doc_id="0" * 16, title="Scan", path="/scan.pdf", type=DocType.PDF, page_count=1, sha256="0" * 64
    )
    words = [
        PageWord(text="Green", x0=34.56, top=53.2, x1=62.28, bottom=65.78),
        PageWord(text="roofs", x0=65.52, top=53.2, x1=90.36, bottom=65.78),
    ]
    read = Block(
        block_id="b0", doc_id=document.doc_id, seq=0, page=1, kind=BlockKind.PARAGRAPH, text="Green roofs", words=words
    )
    plain = read.model_copy(update={"block_id": "b1", "seq": 1, "words": []})
    registry.add_pending(document, [read, plain], [])
    registry.mark_ready(document.doc_id)
    assert [b.words for b in registry.blocks_of(document.doc_id)] == [words, []]
    # The citation index reads the blocks' text alone.
    assert [(b.block_id, b.text, b.words) for b in registry.iter_blocks()] == [
        ("b0", "Green roofs", []),
        ("b1", "Green roofs", []),
    ]
    registry.database.close()


def test_a_page_is_bounded_in_time_and_pixels(tmp_path: Path, models_dir: Path) -> None:
    _scan(HEADING, BODY, tmp_path).save(tmp_path / "scan.pdf", "PDF", resolution=200)
    loaded_error = None
    try:
        load_pdf(tmp_path / "scan.pdf", OcrOptions(page_seconds=0.01, models_dir=models_dir))
    except Exception as exc:  # noqa: BLE001 - the one page is unread: the document has no text
        loaded_error = str(exc)
    assert loaded_error is not None and "page 1: OCR took longer than 0.01 CPU-s" in loaded_error
    # An A0 poster at 200 dpi would be 62 megapixels: it is rendered at a lower resolution.
    scale = render_scale(2384, 3370, OcrOptions(dpi=200, max_megapixels=40))
    assert 2384 * 3370 * scale * scale <= 40e6 + 1 and scale < 200 / 72
    assert render_scale(612, 792, OcrOptions(dpi=200)) == 200 / 72


def test_the_engine_keeps_its_memory_between_pages_and_reads_alike(tmp_path: Path, models_dir: Path) -> None:
    # One engine a process, whose sessions keep onnxruntime's memory arena (RapidOCR's default
    # turns it off, and each run then pays for its memory again): a page read twice reads the same.
    from corpus.ocr import _engine, read_image, recognizer

    image = np.asarray(_scan(HEADING, BODY, tmp_path).convert("RGB"))
    first, second = read_image(image, 60, models_dir), read_image(image, 60, models_dir)
    engine = _engine(recognizer(models_dir))
    assert first.lines and first == second and engine is _engine(recognizer(models_dir))
    assert all(s.session.get_session_options().enable_cpu_mem_arena for s in engine.sessions)


def test_a_line_is_read_narrower_and_its_words_keep_their_boxes(tmp_path: Path, models_dir: Path, monkeypatch) -> None:
    # Recognition reads a line at REC_SQUEEZE of its width (its cost grows with the width); the line and
    # its padding narrow alike, so the share of the input the line fills, by which RapidOCR places the
    # words, is the line's own.
    from corpus import ocr
    from corpus.ocr import REC_HEIGHT, REC_SQUEEZE, _rec_input, read_image

    line = np.full((30, 600, 3), 255, dtype=np.uint8)
    wide = _rec_input(line, max_wh_ratio=2 * 600 / 30)
    assert wide.shape == (3, REC_HEIGHT, int(REC_HEIGHT * 40 * REC_SQUEEZE))
    filled = np.flatnonzero(wide[0, 0] != 0).size  # the line is white (1.0), the padding 0
    assert abs(filled / wide.shape[2] - 0.5) < 0.01
    image = np.asarray(_scan(HEADING, BODY, tmp_path).convert("RGB"))
    (heading, *_) = read_image(image, 60, models_dir).lines
    assert [w.text for w in heading] == HEADING.split()
    first, second = heading
    assert 0 < first.x0 < first.x1 < second.x0 < second.x1 < 0.6 * image.shape[1]
    monkeypatch.setattr(ocr, "REC_SQUEEZE", 1.0)  # read at full width, the words are where they were
    (full, *_) = read_image(image, 60, models_dir).lines
    assert [w.text for w in full] == [w.text for w in heading]
    # (within a third of the line's height: a word's edge is placed by the model's output columns)
    near = (first.bottom - first.top) / 3
    assert all(abs(a.x0 - b.x0) < near and abs(a.x1 - b.x1) < near for a, b in zip(full, heading, strict=True))


def test_the_int8_recognition_model_is_built_once_the_same_and_rebuilt_when_changed(tmp_path: Path) -> None:
    # Built from the wheel's float model and the ranges prp keeps, without data or network: the same
    # bytes in any folder, as pinned; a file changed since is built again, not read.
    from corpus.model_files import RAPIDOCR_REC_INT8, sha256_of
    from corpus.ocr_model import int8_recognizer

    first, second = int8_recognizer(tmp_path / "a"), int8_recognizer(tmp_path / "b")
    assert first.read_bytes() == second.read_bytes() and sha256_of(first) == RAPIDOCR_REC_INT8
    assert first.parent.parent == tmp_path / "a" and [p.name for p in first.parent.iterdir()] == [first.name]
    first.write_bytes(b"not a model")
    assert int8_recognizer(tmp_path / "a") == first and sha256_of(first) == RAPIDOCR_REC_INT8
