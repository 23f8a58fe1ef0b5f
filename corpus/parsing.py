"""Turn one file into a ``ParsedDocument``: pick the loader, assign stable document and block ids.

Ids depend only on the file's bytes and the (deterministic) loader, so they are identical across
runs and machines. ``parse_file`` is a top-level function so it can run in a process pool.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from corpus.errors import LoadError
from corpus.loaders.page_furniture import url_title
from corpus.loaders.titles import clean_title, file_title
from corpus.models import Block, DocType, Document, LoadedDocument, OcrOptions, ParsedDocument, TitleSource

SUFFIX_TYPES: dict[str, DocType] = {
    ".pdf": DocType.PDF,
    ".md": DocType.MARKDOWN,
    ".markdown": DocType.MARKDOWN,
    ".txt": DocType.TEXT,
    ".text": DocType.TEXT,
    ".html": DocType.HTML,
    ".htm": DocType.HTML,
    ".docx": DocType.DOCX,
    ".pptx": DocType.PPTX,
    ".epub": DocType.EPUB,
    ".odt": DocType.ODT,
    ".tex": DocType.LATEX,
}

DOC_ID_LENGTH = 16


def doc_type_for(path: Path) -> DocType:
    try:
        return SUFFIX_TYPES[path.suffix.lower()]
    except KeyError:
        supported = ", ".join(sorted(SUFFIX_TYPES))
        raise LoadError(f"unsupported file type '{path.suffix or '(none)'}' (supported: {supported})") from None


def doc_id_for(sha256: str) -> str:
    return sha256[:DOC_ID_LENGTH]


def block_id_for(doc_id: str, seq: int) -> str:
    # Short, readable and unique across the corpus: the document id prefix keeps two documents'
    # blocks apart, the sequence number keeps blocks of one document apart.
    return f"{doc_id[:10]}-{seq:04d}"


# Signatures of binary formats that turn up under a text extension (a PDF saved as ".md").
_MAGIC = (
    (b"%PDF-", "a PDF"),
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"PK\x03\x04", "a ZIP archive (or a .docx/.xlsx/.epub)"),
    (b"\x1f\x8b", "a gzip archive"),
    (b"\xd0\xcf\x11\xe0", "an old Office document"),
)
_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32"),
    (b"\x00\x00\xfe\xff", "utf-32"),
    (b"\xff\xfe", "utf-16"),
    (b"\xfe\xff", "utf-16"),
    (b"\xef\xbb\xbf", "utf-8-sig"),
)
# Decoded text with more than this share of control characters is binary data, not a document.
MAX_CONTROL_SHARE = 0.01
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")


def decode_text(data: bytes) -> str:
    """The text of a text, Markdown or HTML file: by its byte-order mark, as UTF-16 when every other
    byte is NUL, else UTF-8, Windows-1252, Latin-1. Raises ``LoadError`` for binary content."""
    for magic, kind in _MAGIC:
        if data.startswith(magic):
            raise LoadError(f"binary content, not text: this is {kind} with a text file's extension")
    text = _decode(data)
    sample = text[:65536]
    if sample and len(_CONTROL.findall(sample)) > MAX_CONTROL_SHARE * len(sample):
        raise LoadError("binary content, not text (control characters throughout)")
    return text


def _decode(data: bytes) -> str:
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return data.decode(encoding, errors="replace")
    head = data[:4096]
    if len(head) >= 4:
        even, odd = head[0::2].count(0), head[1::2].count(0)
        if odd > 0.4 * len(head) / 2 and even == 0:
            return data.decode("utf-16-le", errors="replace")
        if even > 0.4 * len(head) / 2 and odd == 0:
            return data.decode("utf-16-be", errors="replace")
    for encoding in ("utf-8", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def load(path: Path, data: bytes, doc_type: DocType, ocr: OcrOptions | None = None) -> LoadedDocument:
    # Imported here so a worker process only imports the loader it needs.
    if doc_type in _PACKAGED:
        return _load_packaged(path, doc_type, ocr)
    text = decode_text(data)
    if doc_type is DocType.LATEX:
        from corpus.loaders.latex import load_latex

        return load_latex(text)
    if doc_type is DocType.HTML:
        from corpus.loaders.html import load_html

        return load_html(text)
    if doc_type is DocType.MARKDOWN:
        from corpus.loaders.markdown import load_markdown

        return load_markdown(text)
    from corpus.loaders.text import load_text

    return load_text(text)


_PACKAGED = frozenset({DocType.PDF, DocType.DOCX, DocType.PPTX, DocType.EPUB, DocType.ODT})


def _load_packaged(path: Path, doc_type: DocType, ocr: OcrOptions | None) -> LoadedDocument:
    """A binary format, read from its file by its library."""
    if doc_type is DocType.DOCX:
        from corpus.loaders.docx import load_docx

        return load_docx(path)
    if doc_type is DocType.PPTX:
        from corpus.loaders.pptx import load_pptx

        return load_pptx(path)
    if doc_type is DocType.EPUB:
        from corpus.loaders.epub import load_epub

        return load_epub(path)
    if doc_type is DocType.ODT:
        from corpus.loaders.odt import load_odt

        return load_odt(path)
    from corpus.loaders.pdf import load_pdf

    return load_pdf(path, ocr)


def parse_file(path: Path, ocr: OcrOptions | None = None) -> ParsedDocument:
    """Parse ``path`` into a document and its blocks (a PDF's scanned pages read as ``ocr`` says: by
    default, by OCR). Raises ``LoadError`` with a readable reason."""
    path = Path(path)
    doc_type = doc_type_for(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise LoadError(f"cannot read file: {exc.strerror or exc}") from None
    if not data.strip():
        raise LoadError("the file is empty")
    sha256 = hashlib.sha256(data).hexdigest()
    loaded = load(path, data, doc_type, ocr)
    blocks_raw = [b for b in loaded.blocks if b.text.strip()]
    if not blocks_raw:
        raise LoadError("no text could be extracted")
    doc_id = doc_id_for(sha256)
    title, source = clean_title(loaded.title), loaded.title_source or TitleSource.HEADING
    if not title and loaded.bibliography.url and (title := url_title(loaded.bibliography.url) or ""):
        source = TitleSource.URL
    document = Document(
        doc_id=doc_id,
        title=title or file_title(path),
        title_source=source if title else TitleSource.FILE_NAME,
        path=str(path.resolve()),
        type=doc_type,
        page_count=loaded.page_count,
        year=loaded.year,
        sha256=sha256,
        bibliography=loaded.bibliography,
        ocr=loaded.ocr,
    )
    blocks = [
        Block(block_id=block_id_for(doc_id, seq), doc_id=doc_id, seq=seq, **raw.model_dump())
        for seq, raw in enumerate(blocks_raw)
    ]
    return ParsedDocument(document=document, blocks=blocks)
