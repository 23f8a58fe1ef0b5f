"""Entry point: open the file (readable errors for whatever cannot be read), pass 1 page by page,
then pass 2 over the whole document."""

from __future__ import annotations

import logging
import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pdfplumber
from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect
from pdfminer.psparser import PSEOF
from pdfplumber.utils.exceptions import PdfminerException
from pdfplumber.utils.text import WordExtractor

from corpus.errors import LoadError
from corpus.loaders.pdf.bibliography import pdf_bibliography
from corpus.loaders.pdf.blocks import BlockDraft, build_blocks
from corpus.loaders.pdf.dehyphenation import dehyphenated_text
from corpus.loaders.pdf.doc_stats import DocStats
from corpus.loaders.pdf.elements import WORD_GAP_RATIO, PageData, most_common
from corpus.loaders.pdf.figures import separate_figures
from corpus.loaders.pdf.headers_footers import strip_headers_footers
from corpus.loaders.pdf.inflation import bomb_stream
from corpus.loaders.pdf.metadata import (
    VisualTitle,
    document_title,
    find_title,
    metadata_title,
    publication_year,
    title_acronyms,
)
from corpus.loaders.pdf.ocr_page import is_scanned, ocr_words, read_scanned_page
from corpus.loaders.pdf.page_extraction import extract_page
from corpus.loaders.pdf.reading_order import build_lines
from corpus.loaders.pdf.superscripts import mark_spans
from corpus.loaders.titles import capitals_title_case, is_capitals
from corpus.models import BBox, BlockKind, LoadedDocument, OcrOptions, OcrRecord, RawBlock, TitleSource
from corpus.ocr import engine_label

logger = logging.getLogger(__name__)

TOKEN_PUNCT = ".,;:()[]{}\"'“”‘’!?"

_quiet = False


def _quiet_pdfminer() -> None:
    """pdfminer logs a warning for every font quirk; they mean nothing to the person ingesting."""
    global _quiet
    if not _quiet:
        for name in ("pdfminer", "pdfplumber"):
            logging.getLogger(name).setLevel(logging.ERROR)
        _quiet = True


# ---------------------------------------------------------------------------------------------
# Entry point


def _open(path: Path) -> Any:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise LoadError(f"cannot read file: {exc.strerror or exc}") from None
    head = data[:1024]
    if not head.strip():
        raise LoadError("the file is empty")
    if b"%PDF-" not in head:
        raise LoadError("the file is corrupt or not a PDF (no %PDF header)")
    bomb = bomb_stream(data)
    if bomb:
        raise LoadError(f"the PDF is refused: {bomb}")
    try:
        return pdfplumber.open(path)
    except Exception as exc:  # noqa: BLE001 - pdfminer raises many types; none may escape
        raise _load_error(exc) from None


def _load_error(exc: BaseException) -> LoadError:
    """A readable LoadError for whatever pdfminer/pdfplumber raised while opening the file."""
    inner = exc
    if isinstance(exc, PdfminerException) and exc.args and isinstance(exc.args[0], BaseException):
        inner = exc.args[0]
    if isinstance(inner, PDFPasswordIncorrect):
        return LoadError("the PDF is encrypted (password protected)")
    if isinstance(inner, PDFEncryptionError):
        return LoadError(f"the PDF is encrypted with an unsupported method ({_reason(inner)})")
    # PDFSyntaxError, PSEOF (truncated files), broken xref tables and object streams, ...
    return LoadError(f"the PDF is corrupt or unreadable ({_reason(inner)})")


def _reason(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    if isinstance(exc, PSEOF) or text == "Unexpected EOF":
        text = "unexpected end of file: truncated?"
    return text[:160]


def load_pdf(path: Path, ocr: OcrOptions | None = None) -> LoadedDocument:
    """Read a PDF into blocks (page, bounding box, section, kind, text) in reading order; its scanned
    pages by OCR, unless ``ocr`` says not to."""
    ocr = ocr or OcrOptions()
    _quiet_pdfminer()
    path = Path(path)
    pdf = _open(path)
    extractor = WordExtractor(
        x_tolerance_ratio=WORD_GAP_RATIO,
        y_tolerance=3,
        extra_attrs=["fontname", "size"],
        keep_blank_chars=False,
        use_text_flow=False,
    )
    try:
        try:
            page_list = pdf.pages
            meta = dict(pdf.metadata or {})
        except Exception as exc:  # noqa: BLE001
            raise _load_error(exc) from None
        if not page_list:
            raise LoadError("the PDF has no pages")
        passed = _extract_pages(page_list, extractor, ocr)
        page_count = len(page_list)
    finally:
        pdf.close()
    _check_extracted(path, passed, page_count, ocr)

    try:
        loaded = _layout(passed.pages, passed.vocab, meta, passed.stamp, page_count)
        return loaded.model_copy(update={"ocr": passed.ocr_record()})
    except Exception as exc:  # noqa: BLE001 - a layout bug on an odd PDF: report it, don't crash the batch
        logger.exception("%s: laying out the extracted text failed", path.name)
        raise LoadError(f"the PDF's layout could not be analysed ({type(exc).__name__}: {_reason(exc)})") from None


@dataclass
class _PassOne:
    """What pass 1 found: the pages' data, the document's vocabulary (for de-hyphenation), the arXiv
    side stamp of page 1 or 2, the reasons pages could not be read, how many pages hold images, and
    the pages read by OCR and those it could not read (with their reasons)."""

    pages: list[PageData] = field(default_factory=list)
    vocab: Counter[str] = field(default_factory=Counter)
    stamp: str = ""
    errors: list[str] = field(default_factory=list)
    image_pages: int = 0
    ocr_pages: list[int] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)

    def ocr_record(self) -> OcrRecord | None:
        if not self.ocr_pages and not self.unread:
            return None
        return OcrRecord(engine=engine_label(), pages=self.ocr_pages, unread=self.unread)


def _extract_pages(page_list: list[Any], extractor: WordExtractor, ocr: OcrOptions) -> _PassOne:
    """Pass 1 over all pages."""
    passed = _PassOne()
    for number, page in enumerate(page_list, start=1):
        data, page_stamp = _extract_page_or_blank(page, number, extractor, passed, ocr)
        passed.image_pages += data.has_images
        if page_stamp and not passed.stamp and number <= 2:
            passed.stamp = page_stamp
        _count_tokens(data, passed.vocab)
        passed.pages.append(data)
    return passed


def _extract_page_or_blank(
    page: Any, number: int, extractor: WordExtractor, passed: _PassOne, ocr: OcrOptions
) -> tuple[PageData, str]:
    """One page's data (a scanned page's by OCR), or a blank page (its error noted) when it cannot be read."""
    try:
        data, stamp = extract_page(page, number, extractor)
        if ocr.enabled and is_scanned(data):
            problem = read_scanned_page(page, data, ocr)
            if problem:
                passed.unread.append(f"page {number}: {problem}")
            else:
                passed.ocr_pages.append(number)
        return data, stamp
    except LoadError:
        raise
    except Exception as exc:  # noqa: BLE001 - a broken page must not sink the document
        passed.errors.append(f"page {number}: {_reason(exc)}")
        return PageData(number, (0.0, 0.0, 612.0, 792.0)), ""
    finally:
        page.close()


def _count_tokens(data: PageData, vocab: Counter[str]) -> None:
    """Count the page's words (lower-cased, punctuation stripped), tables included."""
    texts = [seg.text for seg in data.segments] + [row for t in data.tables for _, row, _ in t.rows]
    for text in texts:
        for token in text.split():
            token = token.strip(TOKEN_PUNCT).lower()
            if token:
                vocab[token] += 1


def _check_extracted(path: Path, passed: _PassOne, page_count: int, ocr: OcrOptions) -> None:
    """Fail when no page could be read or no text was found; log the pages that were skipped."""
    errors = passed.errors
    if errors and len(errors) == page_count:
        raise LoadError(f"the PDF is corrupt or unreadable ({errors[0]})")
    if errors:
        logger.warning("%s: skipped unreadable content on %s", path.name, "; ".join(errors))
    if not any(p.segments or p.tables for p in passed.pages):
        if passed.unread:
            shown = "; ".join(passed.unread[:3]) + ("; ..." if len(passed.unread) > 3 else "")
            raise LoadError(f"no text could be read: its pages are images and OCR read none of them ({shown})")
        if passed.image_pages and not ocr.enabled:
            raise LoadError(
                f"no text layer, and OCR is switched off (PRP_OCR): {passed.image_pages} of its {page_count} "
                "page(s) are images only, as in a scanned PDF"
            )
        raise LoadError("no text could be extracted: its pages are blank")


def _layout(pages: list[PageData], vocab: Counter[str], meta: dict, stamp: str, page_count: int) -> LoadedDocument:
    """Pass 2: headers and footers, reading order, lines, blocks, title, year and bibliography."""
    body_size = _body_size(pages)
    running, margin_texts = _strip_running_lines(pages, meta, body_size)
    for p in pages:
        separate_figures(p, body_size)
        build_lines(p, body_size)
    doc = DocStats(pages, vocab)
    visual = find_title(pages, doc, running)
    title_ids = set(visual.line_ids) if visual else set()
    raw_blocks = _raw_blocks(build_blocks(pages, doc, title_ids), vocab)
    first_page_text = " ".join(ln.text for ln in pages[0].lines) if pages else ""
    page_texts = margin_texts + [b.text for b in raw_blocks if b.page == 1 and b.kind is not BlockKind.REFERENCE]
    title, source = _title(meta, visual, running, raw_blocks)
    return LoadedDocument(
        title=title,
        title_source=source if title else None,
        page_count=page_count,
        year=publication_year(meta, stamp, first_page_text),
        bibliography=pdf_bibliography(
            meta, pages[0] if pages else None, title_ids, stamp, page_texts, visual.lead if visual else None
        ),
        blocks=raw_blocks,
    )


def _strip_running_lines(pages: list[PageData], meta: dict, body_size: float) -> tuple[set[str], list[str]]:
    """Headers and footers taken off every page: the running texts, and the text of page 1's. A
    journal prints its name in page 1's running header, which is no block: its text is kept."""
    first_segments = list(pages[0].segments) if pages else []
    running = strip_headers_footers(pages, metadata_title(meta), body_size)
    kept = {id(s) for s in pages[0].segments} if pages else set()
    return running, [s.text for s in first_segments if id(s) not in kept]


def _raw_blocks(blocks: list[BlockDraft], vocab: Counter[str]) -> list[RawBlock]:
    """The drafts as blocks (a draft with no text left is none), all read as prose when mostly figures."""
    raw_blocks = [raw for b in blocks if (raw := _raw_block(b, vocab)) is not None]
    figure_words = sum(len(b.text.split()) for b in raw_blocks if b.kind is BlockKind.FIGURE)
    if figure_words and figure_words >= sum(len(b.text.split()) for b in raw_blocks) / 2:
        # Mostly figures (a chart, a diagram, a poster saved as a PDF): their text is most of what
        # the document says, so it is read and searched as prose.
        raw_blocks = [b.model_copy(update={"kind": BlockKind.PARAGRAPH}) for b in raw_blocks]
    return raw_blocks


def _title(
    meta: dict, visual: VisualTitle | None, running: set[str], raw_blocks: list[RawBlock]
) -> tuple[str | None, TitleSource]:
    title, source = document_title(meta, visual, running)
    if title:  # a title printed in capitals reads in title case, the document's acronyms kept
        title = capitals_title_case(title, title_acronyms([b.text for b in raw_blocks if not is_capitals(b.text)]))
    return title, source


def _body_size(pages: list[PageData]) -> float:
    """The most common font size of the text, weighted by characters (10 pt on an empty document)."""
    sizes: Counter[float] = Counter()
    for p in pages:
        for seg in p.segments:
            for w in seg.words:
                sizes[round(w.size, 1)] += len(w.text)
    return most_common(sizes) if sizes else 10.0


def _raw_block(b: BlockDraft, vocab: Counter[str]) -> RawBlock | None:
    """The block as the loader returns it, or None when it holds nothing to read."""
    words = [w for ln in b.lines for w in ln.words]
    text = b.lines[0].text if b.lines[0].table is not None else dehyphenated_text(b.lines, vocab)
    if not text.strip():
        return None
    if b.kind not in (BlockKind.TABLE, BlockKind.FIGURE) and len(text) <= 12 and not any(ch.isalpha() for ch in text):
        return None  # stray figure labels and callout numbers: nothing to read or cite
    # The union of the words' boxes, rounded outwards to 0.01 pt.
    bbox = BBox(
        x0=math.floor(min(w.x0 for w in words) * 100) / 100,
        top=math.floor(min(w.top for w in words) * 100) / 100,
        x1=math.ceil(max(w.x1 for w in words) * 100) / 100,
        bottom=math.ceil(max(w.bottom for w in words) * 100) / 100,
    )
    marks = mark_spans(text, b.lines) if b.lines[0].table is None else []
    return RawBlock(
        page=b.page, bbox=bbox, section=b.section, kind=b.kind, text=text, marks=marks, words=ocr_words(words)
    )
