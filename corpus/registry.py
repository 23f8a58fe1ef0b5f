"""The registry of documents, blocks and chunks (SQLite, or PostgreSQL: ``corpus.database``).

It is the source of truth for what is in the corpus: a citation resolves to its block and page here,
without re-parsing, and the UI renders pages from it. The vector store only holds what the registry
says is ready; documents move pending -> ready, and a replaced document's id is written as a
tombstone in the same transaction, so a crash at any step leaves something ``recover`` can finish.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import Field, computed_field

from corpus import boilerplate
from corpus.database import Connection, Database, as_database
from corpus.loaders.identifiers import normalise_arxiv_id, normalise_doi
from corpus.models import (
    BBox,
    Bibliography,
    Block,
    BlockKind,
    CharSpan,
    Chunk,
    DocType,
    Document,
    MetadataOverride,
    OcrRecord,
    PageWord,
    TitleSource,
)
from corpus.parser_versions import ParserVersion

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
    n_chunks INTEGER NOT NULL,
    -- The parser that produced the document (corpus.parser_versions); 0 before versions were kept.
    loader_version INTEGER NOT NULL DEFAULT 0,
    chunker_version INTEGER NOT NULL DEFAULT 0,
    bibliography TEXT NOT NULL DEFAULT '{}',  -- corpus.models.Bibliography as JSON, as extracted
    -- Where the extracted title came from (corpus.models.TitleSource); '' before sources were kept.
    title_source TEXT NOT NULL DEFAULT '',
    ocr TEXT NOT NULL DEFAULT ''  -- corpus.models.OcrRecord as JSON when pages were read by OCR, else ''
);
CREATE INDEX IF NOT EXISTS documents_path ON documents(path);
CREATE TABLE IF NOT EXISTS blocks (
    block_id TEXT PRIMARY KEY,
    doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    page INTEGER NOT NULL,
    x0 DOUBLE PRECISION, top DOUBLE PRECISION, x1 DOUBLE PRECISION, bottom DOUBLE PRECISION,
    span_start INTEGER, span_end INTEGER,
    section TEXT NOT NULL,
    kind TEXT NOT NULL,
    text TEXT NOT NULL,
    fp TEXT,
    boilerplate INTEGER NOT NULL DEFAULT 0,
    nfp TEXT,  -- the number fingerprint (corpus.boilerplate.number_fingerprint), when it holds a number
    parents TEXT NOT NULL DEFAULT '',  -- the headings above the section, outermost first, one a line
    marks TEXT NOT NULL DEFAULT '',  -- superscript marks (models.Block.marks): "start:end" each, space-separated
    -- The words OCR read in the block (models.Block.words): a JSON list of [text, x0, top, x1, bottom], or ''
    words TEXT NOT NULL DEFAULT ''
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
    is_reference INTEGER NOT NULL,
    parents TEXT NOT NULL DEFAULT ''  -- as the blocks'
);
CREATE INDEX IF NOT EXISTS chunks_doc ON chunks(doc_id, seq);
CREATE TABLE IF NOT EXISTS tombstones (doc_id TEXT PRIMARY KEY);
-- Boilerplate detection (corpus.boilerplate): how many of a document's blocks carry each text
-- fingerprint and number fingerprint, so the documents holding one are an index lookup away.
CREATE TABLE IF NOT EXISTS fingerprints (
    fp TEXT NOT NULL,
    doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
    blocks INTEGER NOT NULL,
    PRIMARY KEY (fp, doc_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS fingerprints_doc ON fingerprints(doc_id);
-- Fingerprints whose documents changed (one was added, replaced or removed) since the documents
-- holding them were last re-marked; written in the transaction that changes them, with the lowest
-- and highest number of ready documents holding the fingerprint before each change since (NULL:
-- unknown, so its holders are marked again whatever the counts).
CREATE TABLE IF NOT EXISTS remark_queue (fp TEXT PRIMARY KEY, lo INTEGER, hi INTEGER) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
-- Fields a person or an import set (corpus.models.MetadataOverride), one row per field, the value
-- as JSON. Kept apart from the documents row, which every parse rewrites, so they outlive it.
CREATE TABLE IF NOT EXISTS metadata_overrides (
    doc_id TEXT NOT NULL,
    field TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (doc_id, field)
) WITHOUT ROWID;
"""

_BLOCK_COLUMNS = (
    "block_id, doc_id, seq, page, x0, top, x1, bottom, span_start, span_end, section, kind, text, fp, boilerplate, nfp, "
    "parents, marks, words"
)
#: The blocks' columns but the OCR'd words, of ``blocks b``.
_TEXT_COLUMNS = ", ".join(f"b.{c.strip()}" for c in _BLOCK_COLUMNS.split(",") if c.strip() != "words")


class DocumentRecord(Document):
    title_source: TitleSource | None = Field(  # type: ignore[assignment]
        default=None, description="Where the title came from; None for a document parsed before sources were kept."
    )
    status: str
    added_at: str
    n_blocks: int
    n_chunks: int
    loader_version: int = 0
    chunker_version: int = 0
    overridden: list[str] = Field(
        default_factory=list,
        description="The metadata fields a person or an import set; extraction does not change them.",
    )

    @computed_field  # type: ignore[prop-decorator]
    @property
    def authors_need_review(self) -> bool:
        """No author could be read and no one has said there is none (``prp docs edit --author ""``)."""
        return not self.bibliography.authors and "authors" not in self.overridden

    @property
    def parser_version(self) -> ParserVersion:
        return ParserVersion(loader=self.loader_version, chunker=self.chunker_version)


class Registry:
    """Thin, typed access to the registry database. Safe to use from several threads and processes."""

    def __init__(self, database: Database | Path):
        """``database``: where it lives (``corpus.database.open_database``), or a registry file's path."""
        self.database = as_database(database)
        with self._connect() as db:
            self._migrate(db)
            self.database.create(db, SCHEMA)
            self._refresh_fingerprints(db)

    def _migrate(self, db: Connection) -> None:
        """Registries written before boilerplate detection: add the block columns it needs; before
        parser versions: add the document columns, 0 for every existing document (an unknown
        version, older than any), so the next ingest parses them again; before bibliographies: an
        empty one each, filled when a newer loader parses the document again; before title sources:
        none recorded ('') until the next parse; before heading paths, superscript marks, OCR records and
        OCR'd words: none ('') until then either."""
        added = (
            ("blocks", "fp", "TEXT"),
            ("blocks", "boilerplate", "INTEGER NOT NULL DEFAULT 0"),
            ("blocks", "nfp", "TEXT"),
            ("remark_queue", "lo", "INTEGER"),
            ("remark_queue", "hi", "INTEGER"),
            ("documents", "loader_version", "INTEGER NOT NULL DEFAULT 0"),
            ("documents", "chunker_version", "INTEGER NOT NULL DEFAULT 0"),
            ("documents", "bibliography", "TEXT NOT NULL DEFAULT '{}'"),
            ("documents", "title_source", "TEXT NOT NULL DEFAULT ''"),
            ("blocks", "parents", "TEXT NOT NULL DEFAULT ''"),
            ("chunks", "parents", "TEXT NOT NULL DEFAULT ''"),
            ("blocks", "marks", "TEXT NOT NULL DEFAULT ''"),
            ("documents", "ocr", "TEXT NOT NULL DEFAULT ''"),
            ("blocks", "words", "TEXT NOT NULL DEFAULT ''"),
        )
        for table, column, kind in added:
            columns = self.database.columns(db, table)
            if columns and column not in columns:
                self.database.add_column(db, table, column, kind)

    @staticmethod
    def _refresh_fingerprints(db: Connection) -> None:
        """(Re)compute every block's fingerprint when the registry predates the current definition,
        and queue them all, so the next ingest re-marks whatever the new fingerprints change."""
        row = db.execute("SELECT value FROM meta WHERE key = 'fingerprint_version'").fetchone()
        if row is not None and row[0] == boilerplate.FINGERPRINT_VERSION:
            return
        db.execute("DELETE FROM fingerprints")
        titles = dict(db.execute("SELECT doc_id, title FROM documents").fetchall())
        for doc_id, title in titles.items():
            blocks = [_block(r) for r in db.execute("SELECT * FROM blocks WHERE doc_id = ? ORDER BY seq", (doc_id,))]
            fps = boilerplate.fingerprints(blocks, title)
            nfps = boilerplate.number_fingerprints(blocks, title)
            db.executemany(
                "UPDATE blocks SET fp = ?, nfp = ? WHERE block_id = ?",
                [(f, n, b.block_id) for b, f, n in zip(blocks, fps, nfps, strict=True)],
            )
            _insert_fingerprints(db, doc_id, [*fps, *nfps])
        db.execute(
            "INSERT INTO remark_queue (fp, lo, hi) SELECT DISTINCT fp, CAST(NULL AS INTEGER), CAST(NULL AS INTEGER) "
            "FROM fingerprints WHERE true ON CONFLICT (fp) DO UPDATE SET lo = NULL, hi = NULL"
        )
        db.execute(
            "INSERT INTO meta VALUES ('fingerprint_version', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (boilerplate.FINGERPRINT_VERSION,),
        )

    def _connect(self) -> Any:
        return self.database.connect()

    @contextmanager
    def claim(self, key: str, wait: bool = False) -> Iterator[bool]:
        """Whether this process holds the work ``key`` names (a document's id) until the block exits;
        False while another process sharing the database holds it (``Database.claim``)."""
        with self.database.claim(key, wait) as held:
            yield held

    # --- documents -------------------------------------------------------------------------

    def document(self, doc_id: str) -> DocumentRecord | None:
        with self._connect() as db:
            rows = db.execute("SELECT * FROM documents WHERE doc_id = ?", (doc_id,)).fetchall()
            records = _documents(db, rows)
        return records[0] if records else None

    def ready_document_at(self, path: str) -> DocumentRecord | None:
        with self._connect() as db:
            rows = db.execute("SELECT * FROM documents WHERE path = ? AND status = 'ready'", (path,)).fetchall()
            records = _documents(db, rows[:1])
        return records[0] if records else None

    def documents(self, status: str = "ready") -> list[DocumentRecord]:
        with self._connect() as db:
            rows = db.execute(
                "SELECT * FROM documents WHERE status = ? ORDER BY added_at, doc_id", (status,)
            ).fetchall()
            return _documents(db, rows)

    def documents_by_id(self, doc_ids: Iterable[str]) -> dict[str, DocumentRecord]:
        ids = list(dict.fromkeys(doc_ids))
        with self._connect() as db:
            records = _documents(db, _select_in(db, "SELECT * FROM documents WHERE doc_id IN ({})", ids))
        return {r.doc_id: r for r in records}

    def override_metadata(self, doc_id: str, override: MetadataOverride) -> DocumentRecord | None:
        """Set the fields ``override`` gives on a document (any status), as set by a person or an
        import: every read shows them instead of the extracted values, and they stay through every
        later parse of the document and pass to the version of it that replaces it (the file at the
        same path changed). The DOI and arXiv id are normalised; one that is not an identifier is a
        ValueError. Returns the document as it now reads, None when there is no such document."""
        values = override.values()
        if values.get("doi") is not None:
            values["doi"] = _identifier(normalise_doi(values["doi"]), "DOI", values["doi"])
        if values.get("arxiv_id") is not None:
            values["arxiv_id"] = _identifier(normalise_arxiv_id(values["arxiv_id"]), "arXiv id", values["arxiv_id"])
        with self._connect() as db:
            if db.execute("SELECT 1 FROM documents WHERE doc_id = ?", (doc_id,)).fetchone() is None:
                return None
            db.executemany(
                "INSERT INTO metadata_overrides VALUES (?,?,?) "
                "ON CONFLICT (doc_id, field) DO UPDATE SET value = excluded.value",
                [(doc_id, field, json.dumps(value)) for field, value in values.items()],
            )
        return self.document(doc_id)

    def add_pending(
        self,
        document: Document,
        blocks: Sequence[Block],
        chunks: Sequence[Chunk],
        fingerprints: Sequence[str | None] | None = None,
        version: ParserVersion | None = None,
        number_fingerprints: Sequence[str | None] | None = None,
    ) -> None:
        """Record a parsed document as pending: visible to nothing until ``mark_ready``. A document
        of the same id (the same bytes, parsed again) is replaced.

        ``fingerprints`` and ``number_fingerprints`` are the blocks' (``corpus.boilerplate``), computed
        if not given; ``version`` is the parser's that produced them (none given: unknown, recorded as 0).
        """
        fps = boilerplate.fingerprints(blocks, document.title) if fingerprints is None else list(fingerprints)
        nfps = (
            boilerplate.number_fingerprints(blocks, document.title)
            if number_fingerprints is None
            else list(number_fingerprints)
        )
        version = version or ParserVersion(loader=0, chunker=0)
        with self._connect() as db:
            # A document parsed again keeps the date it was added; the fingerprints its earlier
            # parse held may be gone from this one, so their other holders are marked again.
            earlier = db.execute("SELECT added_at FROM documents WHERE doc_id = ?", (document.doc_id,)).fetchone()
            added_at = earlier[0] if earlier else datetime.now(UTC).isoformat(timespec="seconds")
            _queue_remark(db, document.doc_id)
            db.execute("DELETE FROM documents WHERE doc_id = ?", (document.doc_id,))
            db.execute(
                "INSERT INTO documents (doc_id, path, title, type, page_count, year, sha256, status, added_at, "
                "n_blocks, n_chunks, loader_version, chunker_version, bibliography, title_source, ocr) "
                "VALUES (?,?,?,?,?,?,?, 'pending', ?,?,?,?,?,?,?,?)",
                (
                    document.doc_id,
                    document.path,
                    document.title,
                    document.type.value,
                    document.page_count,
                    document.year,
                    document.sha256,
                    added_at,
                    len(blocks),
                    len(chunks),
                    version.loader,
                    version.chunker,
                    document.bibliography.model_dump_json(),
                    document.title_source.value,
                    document.ocr.model_dump_json() if document.ocr else "",
                ),
            )
            db.executemany(
                f"INSERT INTO blocks ({_BLOCK_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                [_block_row(b, fp, nfp) for b, fp, nfp in zip(blocks, fps, nfps, strict=True)],
            )
            _insert_fingerprints(db, document.doc_id, [*fps, *nfps])
            _insert_chunks(db, chunks)

    def mark_ready(self, doc_id: str, replaces: str | None = None) -> None:
        """Publish a document; the version it replaces is removed and tombstoned atomically."""
        with self._connect() as db:
            _queue_remark(db, doc_id)  # with the counts before it is one of the documents counted
            db.execute("UPDATE documents SET status = 'ready' WHERE doc_id = ?", (doc_id,))
            if replaces and replaces != doc_id:
                # The file at the same path changed: what a person set on it still holds, except
                # where the new version already has its own (an import's, say).
                db.execute(
                    "INSERT INTO metadata_overrides SELECT ?, field, value FROM metadata_overrides "
                    "WHERE doc_id = ? ON CONFLICT DO NOTHING",
                    (doc_id, replaces),
                )
                self._retire(db, replaces)
                db.execute("DELETE FROM metadata_overrides WHERE doc_id = ?", (replaces,))

    def retire(self, doc_id: str, forget_edits: bool = False) -> None:
        """Remove a document from the registry and tombstone it until its vectors are deleted.

        What a person set on it is kept unless ``forget_edits`` (the user deleted it): a document
        retired by ``recover`` (a re-parse a crash interrupted) gets it back when ingested again."""
        with self._connect() as db:
            self._retire(db, doc_id)
            if forget_edits:
                db.execute("DELETE FROM metadata_overrides WHERE doc_id = ?", (doc_id,))

    @staticmethod
    def _retire(db: Connection, doc_id: str) -> None:
        _queue_remark(db, doc_id)
        db.execute("DELETE FROM documents WHERE doc_id = ?", (doc_id,))
        db.execute("INSERT INTO tombstones VALUES (?) ON CONFLICT DO NOTHING", (doc_id,))

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
        """Every block of every ready document, in document and reading order, without the words OCR
        read (``Block.words``): the citation index needs the text alone, and a scanned library's words
        would cost it seconds to load."""
        with self._connect() as db:
            rows = db.execute(
                f"SELECT {_TEXT_COLUMNS}, '' AS words FROM blocks b JOIN documents d USING (doc_id) "
                "WHERE d.status = 'ready' ORDER BY b.doc_id, b.seq"
            ).fetchall()
        return (_block(r) for r in rows)

    def marked_blocks(self, doc_id: str) -> tuple[list[Block], list[str | None], list[str | None]]:
        """A document's blocks in reading order, with their fingerprints and number fingerprints."""
        with self._connect() as db:
            rows = db.execute("SELECT * FROM blocks WHERE doc_id = ? ORDER BY seq", (doc_id,)).fetchall()
        return [_block(r) for r in rows], [r["fp"] for r in rows], [r["nfp"] for r in rows]

    # --- boilerplate -----------------------------------------------------------------------

    def document_counts(self, fps: Iterable[str | None], exclude: Iterable[str | None] = ()) -> dict[str, int]:
        """For each fingerprint, how many ready documents (other than ``exclude``) hold it."""
        ids = list({fp for fp in fps if fp})
        skip = [d for d in exclude if d] or [""]
        counts: dict[str, int] = {}
        with self._connect() as db:
            for start in range(0, len(ids), 500):
                part = ids[start : start + 500]
                rows = db.execute(
                    "SELECT f.fp, COUNT(*) FROM fingerprints f JOIN documents d ON d.doc_id = f.doc_id "
                    f"WHERE d.status = 'ready' AND f.fp IN ({','.join('?' * len(part))}) "
                    f"AND f.doc_id NOT IN ({','.join('?' * len(skip))}) GROUP BY f.fp",
                    [*part, *skip],
                ).fetchall()
                counts.update((r[0], r[1]) for r in rows)
        return counts

    def remark_queue(self) -> list[str]:
        with self._connect() as db:
            return [r[0] for r in db.execute("SELECT fp FROM remark_queue")]

    def clear_remark_queue(self, fps: Iterable[str]) -> None:
        with self._connect() as db:
            db.executemany("DELETE FROM remark_queue WHERE fp = ?", [(fp,) for fp in fps])

    def remark_candidates(self) -> list[str]:
        """Ready documents holding a queued fingerprint whose number of documents crossed the
        boilerplate threshold (``corpus.boilerplate.MIN_DOCUMENTS``) since they were last marked:
        the rule reads a count only as "at least the threshold" or not, so a document holding no such
        fingerprint would be marked as it is. Deleting 10 of 4,800 notes sharing a heading moves its
        count from 4,800 to 4,790: no note needs a look, and the cost is that of the 10 deletions."""
        with self._connect() as db:
            # Each queued fingerprint's holders counted once (materialised), then its holders looked up.
            rows = db.execute(
                "WITH c AS MATERIALIZED (SELECT g.fp, COUNT(*) AS now FROM fingerprints g JOIN documents e "
                "ON e.doc_id = g.doc_id AND e.status = 'ready' WHERE g.fp IN (SELECT fp FROM remark_queue) "
                "GROUP BY g.fp), "
                "q AS MATERIALIZED (SELECT r.fp FROM remark_queue r LEFT JOIN c ON c.fp = r.fp "
                "WHERE r.lo IS NULL OR r.hi IS NULL "
                # The lower of the two counts under the threshold and the higher at it or over.
                "OR ((r.lo < ? OR coalesce(c.now, 0) < ?) AND (r.hi >= ? OR coalesce(c.now, 0) >= ?))) "
                "SELECT DISTINCT f.doc_id FROM q JOIN fingerprints f ON f.fp = q.fp "
                "JOIN documents d ON d.doc_id = f.doc_id AND d.status = 'ready' ORDER BY f.doc_id",
                (boilerplate.MIN_DOCUMENTS,) * 4,
            ).fetchall()
        return [r[0] for r in rows]

    def replace_chunks(self, doc_id: str, marked: Sequence[bool], chunks: Sequence[Chunk]) -> None:
        """Store a ready document's new boilerplate marks (one per block, in reading order) and the
        chunks made from them, in one transaction."""
        with self._connect() as db:
            ids = [r[0] for r in db.execute("SELECT block_id FROM blocks WHERE doc_id = ? ORDER BY seq", (doc_id,))]
            db.executemany(
                "UPDATE blocks SET boilerplate = ? WHERE block_id = ?",
                [(int(m), b) for b, m in zip(ids, marked, strict=True)],
            )
            db.execute("DELETE FROM chunks WHERE doc_id = ?", (doc_id,))
            _insert_chunks(db, chunks)
            db.execute("UPDATE documents SET n_chunks = ? WHERE doc_id = ?", (len(chunks), doc_id))

    def chunks_of(self, doc_id: str) -> list[Chunk]:
        with self._connect() as db:
            rows = db.execute("SELECT * FROM chunks WHERE doc_id = ? ORDER BY seq", (doc_id,)).fetchall()
        return [_chunk(r) for r in rows]

    def fingerprint(self) -> str:
        """Identifies the set of ready documents and what they read as: it changes whenever one is
        added, replaced or removed (doc ids are content hashes) or a person edits one's metadata (a
        new title), so values derived from the corpus know when to rebuild."""
        with self._connect() as db:
            ids = [r[0] for r in db.execute("SELECT doc_id FROM documents WHERE status = 'ready' ORDER BY doc_id")]
            edits = [
                "\t".join(r)
                for r in db.execute("SELECT doc_id, field, value FROM metadata_overrides ORDER BY doc_id, field")
            ]
        return hashlib.sha1("\n".join([*ids, "", *edits]).encode()).hexdigest()

    def counts(self) -> dict[str, int]:
        with self._connect() as db:
            row = db.execute(
                "SELECT COUNT(*), COALESCE(SUM(n_blocks), 0), COALESCE(SUM(n_chunks), 0) "
                "FROM documents WHERE status = 'ready'"
            ).fetchone()
        return {"documents": row[0], "blocks": row[1], "chunks": row[2]}


def _select_in(db: Connection, sql: str, ids: list[str]) -> list[Any]:
    rows: list[Any] = []
    for start in range(0, len(ids), 500):  # stay under SQLite's host-parameter limit
        part = ids[start : start + 500]
        rows.extend(db.execute(sql.format(",".join("?" * len(part))), part).fetchall())
    return rows


def _documents(db: Connection, rows: list[Any]) -> list[DocumentRecord]:
    """The records of ``rows``, with the fields a person or an import set in place of the extracted ones."""
    overrides: dict[str, dict[str, object]] = {}
    for row in _select_in(db, "SELECT * FROM metadata_overrides WHERE doc_id IN ({})", [r["doc_id"] for r in rows]):
        overrides.setdefault(row["doc_id"], {})[row["field"]] = json.loads(row["value"])
    return [_document(r, overrides.get(r["doc_id"], {})) for r in rows]


def _document(row: Any, overrides: dict[str, object]) -> DocumentRecord:
    data = dict(row)
    data["type"] = DocType(data["type"])
    bibliography = Bibliography.model_validate_json(data.pop("bibliography") or "{}")
    ocr = data.pop("ocr", "")
    data["ocr"] = OcrRecord.model_validate_json(ocr) if ocr else None
    known = {k: v for k, v in overrides.items() if k in MetadataOverride.FIELDS}
    for field in ("title", "year"):
        if field in known:
            data[field] = known[field]
    if "title" in known:
        data["title_source"] = TitleSource.EDITED
    data["title_source"] = data.get("title_source") or None
    bib_fields = {k: (v or []) if k == "authors" else v for k, v in known.items() if k in Bibliography.model_fields}
    data["bibliography"] = Bibliography.model_validate({**bibliography.model_dump(), **bib_fields})
    data["overridden"] = [f for f in MetadataOverride.FIELDS if f in known]
    return DocumentRecord(**data)


def _identifier(normalised: str | None, kind: str, raw: str) -> str:
    if normalised is None:
        raise ValueError(f"not a {kind}: {raw!r}")
    return normalised


def _insert_chunks(db: Connection, chunks: Sequence[Chunk]) -> None:
    db.executemany(
        "INSERT INTO chunks VALUES (?,?,?,?,?,?,?,?,?,?)",
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
                "\n".join(c.parents),
            )
            for c in chunks
        ],
    )


def _insert_fingerprints(db: Connection, doc_id: str, fps: Iterable[str | None]) -> None:
    counts = Counter(fp for fp in fps if fp)
    db.executemany("INSERT INTO fingerprints VALUES (?,?,?)", [(fp, doc_id, n) for fp, n in counts.items()])


def _queue_remark(db: Connection, doc_id: str) -> None:
    """Queue the fingerprints of ``doc_id``, about to change, with how many ready documents hold
    each now (before the change): ``Registry.remark_candidates`` compares that with the count then."""
    db.execute(
        "INSERT INTO remark_queue (fp, lo, hi) SELECT fp, n, n FROM (SELECT f.fp, (SELECT COUNT(*) "
        "FROM fingerprints g JOIN documents e ON e.doc_id = g.doc_id AND e.status = 'ready' WHERE g.fp = f.fp) AS n "
        "FROM fingerprints f WHERE f.doc_id = ?) AS held WHERE true "
        # The lower and the higher count, an unknown one (NULL) staying unknown.
        "ON CONFLICT (fp) DO UPDATE SET "
        "lo = CASE WHEN excluded.lo < remark_queue.lo THEN excluded.lo ELSE remark_queue.lo END, "
        "hi = CASE WHEN excluded.hi > remark_queue.hi THEN excluded.hi ELSE remark_queue.hi END",
        (doc_id,),
    )


def _block_row(b: Block, fp: str | None, nfp: str | None) -> tuple:
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
        fp,
        int(b.boilerplate),
        nfp,
        "\n".join(b.parents),
        " ".join(f"{m.start}:{m.end}" for m in b.marks),
        json.dumps([[w.text, w.x0, w.top, w.x1, w.bottom] for w in b.words], separators=(",", ":")) if b.words else "",
    )


def _block(row: Any) -> Block:
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
        parents=row["parents"].split("\n") if row["parents"] else [],
        kind=BlockKind(row["kind"]),
        text=row["text"],
        marks=[CharSpan(start=int(a), end=int(b)) for a, b in (m.split(":") for m in row["marks"].split())],
        boilerplate=bool(row["boilerplate"]),
        words=_page_words(row["words"]),
    )


def _page_words(stored: str) -> list[PageWord]:
    return [
        PageWord(text=t, x0=x0, top=top, x1=x1, bottom=bottom) for t, x0, top, x1, bottom in json.loads(stored or "[]")
    ]


def _chunk(row: Any) -> Chunk:
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
        parents=row["parents"].split("\n") if row["parents"] else [],
    )
