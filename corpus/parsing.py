"""Turn one file into a ``ParsedDocument``: pick the loader, assign stable document and block ids.

Ids depend only on the file's bytes and the (deterministic) loader, so they are identical across
runs and machines. ``parse_file`` is a top-level function so it can run in a process pool.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from corpus.errors import LoadError
from corpus.loaders.titles import clean_title
from corpus.models import Block, DocType, Document, LoadedDocument, ParsedDocument

SUFFIX_TYPES: dict[str, DocType] = {
    ".pdf": DocType.PDF,
    ".md": DocType.MARKDOWN,
    ".markdown": DocType.MARKDOWN,
    ".txt": DocType.TEXT,
    ".text": DocType.TEXT,
    ".html": DocType.HTML,
    ".htm": DocType.HTML,
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


def decode_text(data: bytes) -> str:
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def load(path: Path, data: bytes, doc_type: DocType) -> LoadedDocument:
    # Imported here so a worker process only imports the loader it needs.
    if doc_type is DocType.PDF:
        from corpus.loaders.pdf import load_pdf

        return load_pdf(path)
    text = decode_text(data)
    if doc_type is DocType.HTML:
        from corpus.loaders.html import load_html

        return load_html(text)
    if doc_type is DocType.MARKDOWN:
        from corpus.loaders.markdown import load_markdown

        return load_markdown(text)
    from corpus.loaders.text import load_text

    return load_text(text)


def parse_file(path: Path) -> ParsedDocument:
    """Parse ``path`` into a document and its blocks. Raises ``LoadError`` with a readable reason."""
    path = Path(path)
    doc_type = doc_type_for(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise LoadError(f"cannot read file: {exc.strerror or exc}") from None
    if not data.strip():
        raise LoadError("the file is empty")
    sha256 = hashlib.sha256(data).hexdigest()
    loaded = load(path, data, doc_type)
    blocks_raw = [b for b in loaded.blocks if b.text.strip()]
    if not blocks_raw:
        raise LoadError("no text could be extracted (a scanned PDF without a text layer?)")
    doc_id = doc_id_for(sha256)
    document = Document(
        doc_id=doc_id,
        title=clean_title(loaded.title) or path.stem,
        path=str(path.resolve()),
        type=doc_type,
        page_count=loaded.page_count,
        year=loaded.year,
        sha256=sha256,
    )
    blocks = [
        Block(block_id=block_id_for(doc_id, seq), doc_id=doc_id, seq=seq, **raw.model_dump())
        for seq, raw in enumerate(blocks_raw)
    ]
    return ParsedDocument(document=document, blocks=blocks)
