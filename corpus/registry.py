"""The SQLite registry of documents, blocks and chunks.

It is the source of truth for what is in the corpus: a citation resolves to its block and page here,
without re-parsing, and the UI renders pages from it. The vector store only holds what the registry
says is ready; documents move pending -> ready, and a replaced document's id is written as a
tombstone in the same transaction, so a crash at any step leaves something ``recover`` can finish.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from corpus.models import BBox, Block, BlockKind, CharSpan, Chunk, DocType, Document

SCHEMA = """
CREATE TABLE IF NOT EXISTS documents (
    doc_id TEXT PRIMARY KEY,
    path TEXT NOT NULL,
    title TEXT NOT NULL,
    type TEXT NOT NULL,
    page_count INTEGER NOT NULL,
    year INTEGER,
    sha256 TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'ready')),
    added_at TEXT NOT NULL,
    n_blocks INTEGER NOT NULL,
    n_chunks INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS documents_path ON documents(path);
CREATE TABLE IF NOT EXISTS blocks (
    block_id TEXT PRIMARY KEY,
    doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    page INTEGER NOT NULL,
    x0 REAL, top REAL, x1 REAL, bottom REAL,
    span_start INTEGER, span_end INTEGER,
    section TEXT NOT NULL,
    kind TEXT NOT NULL,
    text TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS blocks_doc ON blocks(doc_id, seq);
CREATE TABLE IF NOT EXISTS chunks (
    chunk_id TEXT PRIMARY KEY,
    doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    block_ids TEXT NOT NULL,
    text TEXT NOT NULL,
    section TEXT NOT NULL,
    page_start INTEGER NOT NULL,
    page_end INTEGER NOT NULL,
    is_reference INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS chunks_doc ON chunks(doc_id, seq);
CREATE TABLE IF NOT EXISTS tombstones (doc_id TEXT PRIMARY KEY);
"""


class DocumentRecord(Document):
    status: str
    added_at: str
    n_blocks: int
    n_chunks: int


class Registry:
    """Thin, typed access to the registry database. Safe to use from several threads and processes."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as db:
            db.executescript(SCHEMA)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        # A connection per transaction: cheap for SQLite, and it keeps the registry usable from
        # Gradio's worker threads and from a second process (WAL lets readers run beside a writer).
        db = sqlite3.connect(self.path, timeout=30)
        db.row_factory = sqlite3.Row
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("PRAGMA journal_mode = WAL")
        try:
            with db:
                yield db
        finally:
            db.close()

    # --- documents -------------------------------------------------------------------------

    def document(self, doc_id: str) -> DocumentRecord | None:
        with self._connect() as db:
            row = db.execute("SELECT * FROM documents WHERE doc_id = ?", (doc_id,)).fetchone()
        return _document(row) if row else None

    def ready_document_at(self, path: str) -> DocumentRecord | None:
        with self._connect() as db:
            row = db.execute("SELECT * FROM documents WHERE path = ? AND status = 'ready'", (path,)).fetchone()
        return _document(row) if row else None

    def documents(self, status: str = "ready") -> list[DocumentRecord]:
        with self._connect() as db:
            rows = db.execute(
                "SELECT * FROM documents WHERE status = ? ORDER BY added_at, doc_id", (status,)
            ).fetchall()
        return [_document(r) for r in rows]

    def documents_by_id(self, doc_ids: Iterable[str]) -> dict[str, DocumentRecord]:
        ids = list(dict.fromkeys(doc_ids))
        with self._connect() as db:
            rows = _select_in(db, "SELECT * FROM documents WHERE doc_id IN ({})", ids)
        return {r["doc_id"]: _document(r) for r in rows}

    def add_pending(self, document: Document, blocks: Sequence[Block], chunks: Sequence[Chunk]) -> None:
        """Record a parsed document as pending: visible to nothing until ``mark_ready``."""
        now = datetime.now(UTC).isoformat(timespec="seconds")
        with self._connect() as db:
            db.execute("DELETE FROM documents WHERE doc_id = ?", (document.doc_id,))
            db.execute(
                "INSERT INTO documents VALUES (?,?,?,?,?,?,?, 'pending', ?,?,?)",
                (
                    document.doc_id,
                    document.path,
                    document.title,
                    document.type.value,
                    document.page_count,
                    document.year,
                    document.sha256,
                    now,
                    len(blocks),
                    len(chunks),
                ),
            )
            db.executemany(
                "INSERT INTO blocks VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                [_block_row(b) for b in blocks],
            )
            db.executemany(
                "INSERT INTO chunks VALUES (?,?,?,?,?,?,?,?,?)",
                [
                    (
                        c.chunk_id,
                        c.doc_id,
                        c.seq,
                        json.dumps(c.block_ids),
                        c.text,
                        c.section,
                        c.page_start,
                        c.page_end,
                        int(c.is_reference),
                    )
                    for c in chunks
                ],
            )

    def mark_ready(self, doc_id: str, replaces: str | None = None) -> None:
        """Publish a document; the version it replaces is removed and tombstoned atomically."""
        with self._connect() as db:
            db.execute("UPDATE documents SET status = 'ready' WHERE doc_id = ?", (doc_id,))
            if replaces and replaces != doc_id:
                self._retire(db, replaces)

    def retire(self, doc_id: str) -> None:
        """Remove a document from the registry and tombstone it until its vectors are deleted."""
        with self._connect() as db:
            self._retire(db, doc_id)

    @staticmethod
    def _retire(db: sqlite3.Connection, doc_id: str) -> None:
        db.execute("DELETE FROM documents WHERE doc_id = ?", (doc_id,))
        db.execute("INSERT OR IGNORE INTO tombstones VALUES (?)", (doc_id,))

    def tombstones(self) -> list[str]:
        with self._connect() as db:
            return [r[0] for r in db.execute("SELECT doc_id FROM tombstones ORDER BY doc_id")]

    def clear_tombstone(self, doc_id: str) -> None:
        with self._connect() as db:
            db.execute("DELETE FROM tombstones WHERE doc_id = ?", (doc_id,))

    # --- blocks and chunks -----------------------------------------------------------------

    def blocks(self, block_ids: Iterable[str]) -> dict[str, Block]:
        ids = list(dict.fromkeys(block_ids))
        with self._connect() as db:
            rows = _select_in(db, "SELECT * FROM blocks WHERE block_id IN ({})", ids)
        return {r["block_id"]: _block(r) for r in rows}

    def blocks_of(self, doc_id: str) -> list[Block]:
        with self._connect() as db:
            rows = db.execute("SELECT * FROM blocks WHERE doc_id = ? ORDER BY seq", (doc_id,)).fetchall()
        return [_block(r) for r in rows]

    def iter_blocks(self) -> Iterator[Block]:
        """Every block of every ready document, in document and reading order."""
        with self._connect() as db:
            rows = db.execute(
                "SELECT b.* FROM blocks b JOIN documents d USING (doc_id) "
                "WHERE d.status = 'ready' ORDER BY b.doc_id, b.seq"
            ).fetchall()
        return (_block(r) for r in rows)

    def chunks_of(self, doc_id: str) -> list[Chunk]:
        with self._connect() as db:
            rows = db.execute("SELECT * FROM chunks WHERE doc_id = ? ORDER BY seq", (doc_id,)).fetchall()
        return [_chunk(r) for r in rows]

    def fingerprint(self) -> str:
        """Identifies the set of ready documents: it changes whenever one is added, replaced or
        removed (doc ids are content hashes), so values derived from the corpus know when to rebuild."""
        with self._connect() as db:
            ids = [r[0] for r in db.execute("SELECT doc_id FROM documents WHERE status = 'ready' ORDER BY doc_id")]
        return hashlib.sha1("\n".join(ids).encode()).hexdigest()

    def counts(self) -> dict[str, int]:
        with self._connect() as db:
            row = db.execute(
                "SELECT COUNT(*), COALESCE(SUM(n_blocks), 0), COALESCE(SUM(n_chunks), 0) "
                "FROM documents WHERE status = 'ready'"
            ).fetchone()
        return {"documents": row[0], "blocks": row[1], "chunks": row[2]}


def _select_in(db: sqlite3.Connection, sql: str, ids: list[str]) -> list[sqlite3.Row]:
    rows: list[sqlite3.Row] = []
    for start in range(0, len(ids), 500):  # stay under SQLite's host-parameter limit
        part = ids[start : start + 500]
        rows.extend(db.execute(sql.format(",".join("?" * len(part))), part).fetchall())
    return rows


def _document(row: sqlite3.Row) -> DocumentRecord:
    data = dict(row)
    data["type"] = DocType(data["type"])
    return DocumentRecord(**data)


def _block_row(b: Block) -> tuple:
    bbox = b.bbox
    span = b.span
    return (
        b.block_id,
        b.doc_id,
        b.seq,
        b.page,
        bbox.x0 if bbox else None,
        bbox.top if bbox else None,
        bbox.x1 if bbox else None,
        bbox.bottom if bbox else None,
        span.start if span else None,
        span.end if span else None,
        b.section,
        b.kind.value,
        b.text,
    )


def _block(row: sqlite3.Row) -> Block:
    bbox = BBox(x0=row["x0"], top=row["top"], x1=row["x1"], bottom=row["bottom"]) if row["x0"] is not None else None
    span = CharSpan(start=row["span_start"], end=row["span_end"]) if row["span_start"] is not None else None
    return Block(
        block_id=row["block_id"],
        doc_id=row["doc_id"],
        seq=row["seq"],
        page=row["page"],
        bbox=bbox,
        span=span,
        section=row["section"],
        kind=BlockKind(row["kind"]),
        text=row["text"],
    )


def _chunk(row: sqlite3.Row) -> Chunk:
    return Chunk(
        chunk_id=row["chunk_id"],
        doc_id=row["doc_id"],
        seq=row["seq"],
        block_ids=json.loads(row["block_ids"]),
        text=row["text"],
        section=row["section"],
        page_start=row["page_start"],
        page_end=row["page_end"],
        is_reference=bool(row["is_reference"]),
    )
