"""Ingest files and folders: parse in a process pool while the main process embeds and indexes.

Per document the order of writes is: registry rows as *pending* -> vectors upserted -> registry marks
the document ready and retires the version it replaces (one transaction) -> the old vectors deleted.
Searches only return chunks of ready documents, so a reader never sees a half-written or mixed
document, and ``recover`` finishes whatever a crash interrupted.

Boilerplate (``corpus.boilerplate``) is text repeated across documents, so a document's marks can
change when others come or go. A document is marked against the collection as it stands when it is
indexed; every fingerprint whose set of documents changed is queued in the registry in the same
transaction, and at the end of the ingest (or delete, or in ``recover`` after a crash) the
documents holding a queued fingerprint are marked again; only those whose marks changed are
re-chunked and re-embedded. So the marks end up the same whatever order the files came in, and
re-ingesting unchanged files changes nothing.

A file whose bytes are unchanged is parsed again when the registry says an older loader or chunker
produced it (``corpus.parser_versions``): it keeps its document id, so its points are overwritten in
place while it is pending, and the chunks the new parse no longer has are deleted before it is ready
again. Whenever a document's chunks are written anew (a refresh, a changed file, new boilerplate
marks), a chunk whose embedded text is unchanged keeps its vectors (``corpus.chunk_vectors``).

Work per file is bounded: a file that makes more than ``max_chunks`` chunks is refused before any
of it is embedded, and a document's chunks are embedded and written ``WRITE_BATCH`` at a time, so
memory does not grow with the file. Before each write the free space of the library's disk is
looked at (``corpus.disk_space``: under ``PRP_MIN_FREE_MB`` the ingest stops, the document being
written retired whole). Before each batch (and while waiting for a parse worker) the ingest calls
its ``checkpoint``, which may raise to stop it (a cancelled job, Ctrl-C): the document
being indexed is then retired whole, pending rows and written vectors alike, so it is either
indexed or absent, and the next ingest takes it up again.

An import from a reference manager (``corpus.references``) names files with the entry each belongs
to: the entry's metadata is laid over the parsed document before anything is stored (so the index's
payloads and the embedded titles carry it too) and kept in the registry as set by an import, so a
later parse does not undo it. A file already indexed with the same bytes takes the entry's metadata
without being parsed again; its chunks are redone only if its title or year changed.
"""

from __future__ import annotations

import errno
import hashlib
import logging
import multiprocessing
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

try:
    import resource  # POSIX only
except ImportError:  # pragma: no cover - Windows
    resource = None  # type: ignore[assignment]

from corpus import boilerplate, parser_versions
from corpus.chunking import ChunkedText, chunk_document
from corpus.disk_space import DiskSpace
from corpus.errors import LoadError
from corpus.file_names import NOT_UTF8, is_utf8, shown
from corpus.ingest_progress import ChunksCallback
from corpus.models import Block, BlockKind, DocType, Document, MetadataOverride, OcrOptions, ParsedDocument
from corpus.non_prose import NonProse
from corpus.non_prose import summarise as summarise_non_prose
from corpus.off_limits import REGISTRY_NAME, is_data_directory
from corpus.parsing import SUFFIX_TYPES, doc_id_for, parse_file
from corpus.registry import DocumentRecord, Registry
from corpus.worker_lifetime import die_with_parent

if TYPE_CHECKING:  # an ingest is handed them open; importing them is the library's (corpus.library)
    from corpus.chunk_vectors import EarlierVectors
    from corpus.embeddings import Embedder
    from corpus.index.store import ChunkStore
    from corpus.references.entries import ReferenceEntry
    from corpus.references.plan import ImportPlan

# A batch is parsed in worker processes when it holds this many PDFs or files at least.
POOL_MIN_PDFS = 2
POOL_MIN_FILES = 16
# Parse workers run at the lowest priority: embedding is the bottleneck, so parsing should only take
# the CPU time the ONNX runtime leaves idle (between batches, in its single-threaded operators), not
# share the cores with it as an equal. Ingest/embedding-alone ratio on 8 PDFs, 2 cores: niceness 0
# 0.81, 10 0.84, 19 0.85.
PARSE_NICENESS = 19
# Address space a parse worker may use (the 500-page benchmark PDF peaks at well under half of it).
PARSE_MEMORY_LIMIT = 6 << 30
# Chunks embedded and written at a time: what a document holds in memory besides its text, and how
# often a long file checks whether to stop (a batch takes a few seconds on a busy machine).
WRITE_BATCH = 64
# How often a wait for a parse worker checks whether to stop, in seconds.
PARSE_POLL = 0.5
# Why a file is skipped when another process sharing the registry is indexing the same document.
ELSEWHERE = "being indexed by another prp process sharing the library's database (PRP_DATABASE_URL)"


class Outcome(StrEnum):
    OK = "ok"
    SKIPPED = "skipped"
    FAILED = "failed"


class FileResult(BaseModel):
    path: str
    outcome: Outcome
    reason: str = ""
    doc_id: str | None = None
    title: str | None = None
    pages: int = 0
    blocks: int = 0
    # Blocks marked boilerplate (``corpus.boilerplate``): kept for citations, in no chunk.
    boilerplate_blocks: int = 0
    chunks: int = 0
    # Indexed again with unchanged bytes, because a newer loader or chunker parses it now.
    refreshed: bool = False
    # The reference-manager entry (its key) the file is attached to, for an import (``prp ingest --bib``).
    entry: str | None = None
    # Runs no reader reads (``corpus.non_prose``: data: URIs, blobs), kept in the blocks, in no chunk.
    non_prose: list[NonProse] = Field(default_factory=list)
    # Pages whose only text is a figure's (tick values, labels: kind ``figure``), kept in the blocks,
    # in no chunk: said, so that text is never lost without a word.
    figure_pages: list[int] = Field(default_factory=list)
    # Pages whose text OCR read, and pages OCR tried and could not read ("page 3: no text recognised").
    ocr_pages: list[int] = Field(default_factory=list)
    unread_pages: list[str] = Field(default_factory=list)


class IngestSummary(BaseModel):
    files: list[FileResult]
    seconds: float
    embed_seconds: float
    # Documents indexed before this ingest and re-chunked because their boilerplate marks changed.
    remarked: list[str] = Field(default_factory=list)
    # Hidden files and folders in the named folders, left out by the walk (``discover``).
    hidden: list[str] = Field(default_factory=list)

    def count(self, outcome: Outcome) -> int:
        return sum(1 for f in self.files if f.outcome is outcome)

    @property
    def refreshed(self) -> int:
        """Documents parsed again because the parser was updated (counted among the ok ones)."""
        return sum(1 for f in self.files if f.refreshed)

    @property
    def blocks(self) -> int:
        return sum(f.blocks for f in self.files)

    @property
    def boilerplate_blocks(self) -> int:
        """Blocks of this ingest's documents marked boilerplate (``FileResult.boilerplate_blocks``
        says which document holds how many)."""
        return sum(f.boilerplate_blocks for f in self.files)

    @property
    def chunks(self) -> int:
        return sum(f.chunks for f in self.files)

    @property
    def pages(self) -> int:
        return sum(f.pages for f in self.files)

    def as_dict(self) -> dict:
        return {
            "documents": {o.value: self.count(o) for o in Outcome},
            "blocks": self.blocks,
            "boilerplate_blocks": self.boilerplate_blocks,
            "remarked_documents": len(self.remarked),
            "refreshed_documents": self.refreshed,
            "chunks": self.chunks,
            "pages": self.pages,
            "seconds": round(self.seconds, 2),
            "embed_seconds": round(self.embed_seconds, 2),
            "files": [f.model_dump(mode="json", exclude_none=True) for f in self.files],
            "hidden": self.hidden,
        }


ProgressCallback = Callable[[FileResult], None]
# Called between steps of an ingest; raises to stop it (whatever it raises reaches the caller).
Checkpoint = Callable[[], None]


def carry_on() -> None:
    """The checkpoint of an ingest nobody stops."""


@dataclass(frozen=True)
class Discovery:
    files: list[Path]  # to ingest, resolved, in order, without repeats
    refused: list[FileResult]  # links that are not followed, each with its reason
    # Hidden files and folders a walk left out, the outermost only (``.git``, not what it holds).
    hidden: list[Path] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.files) + len(self.refused)


def hidden(relative: Path) -> bool:
    """A folder walk never enters hidden files or folders (dot-files, ``.git``, the default ``.prp``),
    nor reads Office's lock files ("~$report.docx": who has the document open, not a document)."""
    return any(part.startswith(".") for part in relative.parts) or relative.name.startswith("~$")


def discover(paths: Iterable[Path]) -> Discovery:
    """Files named directly, plus every non-hidden file under the named folders, sorted.

    Inside a folder, a symbolic link is followed only to a file inside that folder: a link out of it
    (to ``/etc/passwd``, say) would let a shared folder make prp read and index anything the user can
    read. Links to folders are not followed (their files, when inside, are found where they live), so
    a link loop cannot trap the walk; broken links and loops are reported, never silently dropped. A
    file or link named directly is the user's own choice and is read wherever it points. A library's
    data directory (``corpus.off_limits``) is stepped around, and reported as skipped. Hidden files
    and folders are left out, and named (``Discovery.hidden``); so is a file whose name is not UTF-8
    (``corpus.file_names``).
    """
    found: list[Path] = []
    refused: list[FileResult] = []
    left_out: list[Path] = []
    for path in map(Path, paths):
        if not is_utf8(path):
            refused.append(FileResult(path=shown(path), outcome=Outcome.SKIPPED, reason=NOT_UTF8))
        elif not path.is_dir():
            found.append(path)
        else:
            _walk(path, found, refused, left_out)
    return Discovery(files=list(dict.fromkeys(p.resolve() for p in found)), refused=refused, hidden=left_out)


def _walk(folder: Path, found: list[Path], refused: list[FileResult], left_out: list[Path]) -> None:
    """Add the files under a named folder to ``found``, the links and files not read to ``refused``
    and the hidden files and folders to ``left_out``."""
    root = folder.resolve()
    entries = _visible(folder, left_out)
    # A library's data directory met on the way (another library's, or this one's under a name
    # that is not hidden): its uploads, exports and models are that library's own files.
    libraries = [folder] if is_data_directory(folder) else []
    libraries += [e.parent for e in entries if e.name == REGISTRY_NAME and e.is_file() and e.parent != folder]
    refused.extend(FileResult(path=str(d), outcome=Outcome.SKIPPED, reason=DATA_DIRECTORY) for d in libraries)
    for entry in entries:
        if not any(entry == d or entry.is_relative_to(d) for d in libraries):
            _sort_entry(entry, root, found, refused)


def _visible(folder: Path, left_out: list[Path]) -> list[Path]:
    """Everything under ``folder`` that is not hidden, sorted; the outermost hidden ones are added
    to ``left_out``."""
    entries = []
    for entry in sorted(folder.rglob("*")):
        relative = entry.relative_to(folder)
        if not hidden(relative):
            entries.append(entry)
        elif not hidden(relative.parent):  # named, so a dot-file is never left out without a word
            left_out.append(Path(shown(entry)))
    return entries


def _sort_entry(entry: Path, root: Path, found: list[Path], refused: list[FileResult]) -> None:
    """Add an entry of a walked folder to ``found`` (a file, or the file a link inside ``root`` leads
    to) or to ``refused`` (with its reason); a folder is neither."""
    if not is_utf8(entry):
        if entry.is_file():
            refused.append(FileResult(path=shown(entry), outcome=Outcome.SKIPPED, reason=NOT_UTF8))
        return
    if entry.is_symlink():
        verdict = _link_verdict(entry, root)
        if isinstance(verdict, FileResult):
            refused.append(verdict)
        else:
            found.append(verdict)
    elif entry.is_file():
        found.append(entry)
    elif not entry.is_dir():  # a pipe, socket or device: reading it could block forever
        refused.append(FileResult(path=str(entry), outcome=Outcome.FAILED, reason=NOT_REGULAR))


LOOP = "symbolic link loop: not followed"
DATA_DIRECTORY = "a library's data directory: its files are that library's own, not documents (not walked)"
NOT_REGULAR = "not a regular file (a pipe, socket or device)"


def _link_verdict(link: Path, root: Path) -> Path | FileResult:
    """The file a link inside ``root`` stands for, or a refusal with its reason."""
    try:
        target = link.resolve(strict=True)
    except RuntimeError:  # Python 3.11 raises this for a loop
        return FileResult(path=str(link), outcome=Outcome.SKIPPED, reason=LOOP)
    except OSError as exc:
        reason = LOOP if exc.errno == errno.ELOOP else "broken symbolic link: its target does not exist"
        outcome = Outcome.SKIPPED if exc.errno == errno.ELOOP else Outcome.FAILED
        return FileResult(path=str(link), outcome=outcome, reason=reason)
    if not target.is_relative_to(root):
        reason = f"symbolic link to {target}, outside the ingested folder {root}: not followed"
        return FileResult(path=str(link), outcome=Outcome.SKIPPED, reason=reason)
    if target.is_dir():
        if link.parent.resolve().is_relative_to(target):
            return FileResult(path=str(link), outcome=Outcome.SKIPPED, reason=LOOP)
        reason = f"symbolic link to the folder {target}: not followed (its files are read where they are)"
        return FileResult(path=str(link), outcome=Outcome.SKIPPED, reason=reason)
    if not target.is_file():  # a device or a pipe: reading it could block forever
        reason = f"symbolic link to {target}, which is not a regular file"
        return FileResult(path=str(link), outcome=Outcome.FAILED, reason=reason)
    return target


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _init_parse_worker(parent_pid: int) -> None:
    die_with_parent(parent_pid)  # never left behind by a killed service (``corpus.worker_lifetime``)
    if hasattr(os, "nice"):  # POSIX only; elsewhere workers keep the normal priority
        os.nice(PARSE_NICENESS)
    if resource is not None:
        # A file that makes a parser allocate without bound fails with MemoryError in its worker
        # instead of driving the machine into the out-of-memory killer.
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = PARSE_MEMORY_LIMIT if hard == resource.RLIM_INFINITY else min(PARSE_MEMORY_LIMIT, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    # pdfminer logs every token it reads at DEBUG; even filtered out, those calls cost a tenth of a
    # parse (8 PDFs: 13.1 -> 11.7 CPU-s). A worker process only parses, so it can switch them off.
    logging.disable(logging.DEBUG)


def _parse_or_error(path: Path, ocr: OcrOptions) -> ParsedDocument | str:
    """Run in a worker: a LoadError comes back as its message, anything else as a short reason."""
    try:
        return parse_file(path, ocr)
    except LoadError as exc:
        return str(exc)
    except Exception as exc:  # a parser bug on one odd file must not stop the whole ingest
        return f"could not be parsed ({type(exc).__name__}: {exc})"


PARSER_DIED = "the parser process died on this file (out of memory, or a crash in a native library)"


def _parse_pool(workers: int) -> ProcessPoolExecutor:
    # "spawn": forking a process that already holds the ONNX runtime's threads is unsafe.
    context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_init_parse_worker, initargs=(os.getpid(),)
    )


def _parse_alone(path: Path, ocr: OcrOptions) -> ParsedDocument | str:
    """Parse one file in a process of its own: its result, or PARSER_DIED if that process dies too."""
    with _parse_pool(1) as pool:
        try:
            return pool.submit(_parse_or_error, path, ocr).result()
        except BrokenProcessPool:
            return PARSER_DIED


class Ingestor:
    def __init__(
        self,
        embedder: Embedder,
        store: ChunkStore,
        registry: Registry,
        parse_workers: int = 1,
        max_chunks: int | None = None,
        space: DiskSpace | None = None,
        ocr: OcrOptions | None = None,
    ):
        """``max_chunks``: the most chunks one file may make (``Settings.max_file_chunks``); None, no
        limit (documents already in the library are chunked again without one). ``space``: the free
        space to keep on the library's disk, looked at before each write (``corpus.disk_space``);
        None, not looked at. ``ocr``: how PDF pages without a text layer are read (by default, by OCR)."""
        self.embedder = embedder
        self.store = store
        self.registry = registry
        self.parse_workers = parse_workers
        self.max_chunks = max_chunks
        self.space = space
        self.ocr = ocr or OcrOptions()

    def _room(self) -> None:
        """Stop (DiskFullError) before a write the library's disk may not have room for."""
        if self.space is not None:
            self.space.check()

    def recover(self) -> dict[str, tuple[int, int]]:
        """Finish what an interrupted ingest left: drop pending documents and retired vectors, and
        mark again the documents it did not get to (see ``remark``)."""
        for record in self.registry.documents(status="pending"):
            # Not one another process sharing the registry is indexing now (it holds its claim).
            with self.registry.claim(record.doc_id) as mine:
                now = self.registry.document(record.doc_id) if mine else None
                if now is not None and now.status == "pending":
                    self.registry.retire(record.doc_id)
        for doc_id in self.registry.tombstones():
            self._drop_vectors(doc_id)
        return self.remark()

    def delete(self, doc_id: str) -> bool:
        return bool(self.delete_many([doc_id]))

    def delete_many(self, doc_ids: Iterable[str], on_deleted: Callable[[str], None] | None = None) -> list[str]:
        """Delete the documents (those the library holds; ``on_deleted`` hears of each as it goes),
        then mark the others again once for the whole batch: text a deleted document shared with two
        others is content again in those two. Returns the ids deleted."""
        deleted = []
        for doc_id in doc_ids:
            if self.registry.document(doc_id) is None:
                continue
            self._retire(doc_id, forget_edits=True)
            deleted.append(doc_id)
            if on_deleted:
                on_deleted(doc_id)
        if deleted:
            self.remark()
        return deleted

    def reindex(self, doc_id: str) -> None:
        """Chunk and embed a ready document again from its registry blocks, without parsing it:
        for an index that lacks its vectors."""
        document = self.registry.document(doc_id)
        if document is None:
            return
        blocks = self.registry.blocks_of(doc_id)
        old = [c.chunk_id for c in self.registry.chunks_of(doc_id)]
        chunks = self._embed_and_store(document, blocks)
        kept = {c.chunk_id for c in chunks}
        self.store.delete_chunks([c for c in old if c not in kept])
        self.registry.replace_chunks(doc_id, [b.boilerplate for b in blocks], chunks)

    def remark(self) -> dict[str, tuple[int, int]]:
        """Mark again the documents holding a fingerprint whose documents changed; re-chunk and
        re-index those whose marks differ. Returns their ids, with their marked blocks and chunks."""
        # One process at a time marks again (a no-op claim when one process owns the registry).
        with self.registry.claim("remark", wait=True):
            return self._remark()

    def _remark(self) -> dict[str, tuple[int, int]]:
        queued = self.registry.remark_queue()
        if not queued:
            return {}
        changed: dict[str, tuple[int, int]] = {}
        # Counted once per fingerprint, not once per holder: 4,800 notes sharing a heading would
        # otherwise count its 4,800 holders 4,800 times. Re-marking changes no document's presence.
        counts: dict[str, int] = {}
        for doc_id in self.registry.remark_candidates():
            document = self.registry.document(doc_id)
            blocks, fps, nfps = self.registry.marked_blocks(doc_id)
            if document is None or not blocks:
                continue
            uncounted = {fp for fp in [*fps, *nfps] if fp and fp not in counts}
            counts.update(dict.fromkeys(uncounted, 0) | self.registry.document_counts(uncounted))
            marked = boilerplate.detect(blocks, fps, counts, nfps)
            if marked == [b.boilerplate for b in blocks]:
                continue
            blocks = [b.model_copy(update={"boilerplate": m}) for b, m in zip(blocks, marked, strict=True)]
            old = [c.chunk_id for c in self.registry.chunks_of(doc_id)]
            chunks = self._embed_and_store(document, blocks)
            # Vectors first, registry second: if this is interrupted, the registry still holds the
            # old marks, so the queued fingerprint brings the document back here.
            kept = {c.chunk_id for c in chunks}
            self.store.delete_chunks([c for c in old if c not in kept])
            self.registry.replace_chunks(doc_id, marked, chunks)
            changed[doc_id] = (sum(marked), len(chunks))
        self.registry.clear_remark_queue(queued)
        return changed

    def ingest(
        self,
        paths: Iterable[Path],
        progress: ProgressCallback | None = None,
        checkpoint: Checkpoint = carry_on,
        imported: ImportPlan | None = None,
        on_chunks: ChunksCallback | None = None,
    ) -> IngestSummary:
        """Ingest files and folders; ``progress`` hears of each file as it is done, ``on_chunks``
        of each batch of a document's chunks as it is written, ``checkpoint`` is called between steps
        and may raise to stop (see the module's docstring). ``imported``: the files of a
        reference-manager import, each with its entry, ingested with ``paths``; its entries that bring
        no file are reported by key, first."""
        started = time.perf_counter()
        self._room()
        recovered = self.recover()
        told = _Told(progress)
        entries = imported.attached if imported else {}
        discovery = discover([*paths, *entries])
        for result in [*_unattached(imported), *discovery.refused]:
            told.add(result)
        todo = self._prechecked(discovery.files, entries, told)
        embed_seconds = self._index_all(todo, entries, told, checkpoint, on_chunks)
        t0 = time.perf_counter()
        remarked = {**recovered, **self.remark()}
        self._room()
        self.store.optimize()  # index what this run wrote before anyone searches it
        embed_seconds += time.perf_counter() - t0
        _take_remarks(told.results, remarked)
        return IngestSummary(
            files=told.results,
            seconds=time.perf_counter() - started,
            embed_seconds=embed_seconds,
            remarked=list(remarked),
            hidden=[str(p) for p in discovery.hidden],
        )

    def _prechecked(
        self, files: list[Path], entries: dict[Path, ReferenceEntry], told: _Told
    ) -> list[tuple[Path, str | None]]:
        """The files to parse, each with the doc_id of the version it replaces; the others' results
        (unsupported, unchanged, copies) are told."""
        todo: list[tuple[Path, str | None]] = []
        batch: dict[str, Path] = {}  # sha256 -> first path in this run, so copies index once
        for path in files:
            result, replaces = self._precheck(path, batch, entries.get(path))
            if result is not None:
                told.add(result)
            else:
                todo.append((path, replaces))
        return todo

    def _index_all(
        self,
        todo: list[tuple[Path, str | None]],
        entries: dict[Path, ReferenceEntry],
        told: _Told,
        checkpoint: Checkpoint,
        on_chunks: ChunksCallback | None,
    ) -> float:
        """Parse and index ``todo``, telling each file's result; the seconds spent indexing."""
        seconds = 0.0
        for (path, replaces), parsed in self._parse_all(todo, checkpoint):
            if isinstance(parsed, str):
                result = FileResult(path=str(path), outcome=Outcome.FAILED, reason=parsed)
            else:
                t0 = time.perf_counter()
                result = self._index_claimed(parsed, replaces, checkpoint, entries.get(path), on_chunks)
                seconds += time.perf_counter() - t0
            told.add(result)
        return seconds

    def _precheck(
        self, path: Path, batch: dict[str, Path], entry: ReferenceEntry | None = None
    ) -> tuple[FileResult | None, str | None]:
        """Decide without parsing whether a file is unsupported, missing, unchanged or a duplicate.
        An unchanged file (or a copy of a document) an import names takes its entry's metadata."""
        if path.suffix.lower() not in SUFFIX_TYPES:
            supported = ", ".join(sorted(SUFFIX_TYPES))
            reason = f"unsupported file type '{path.suffix or '(none)'}' (supported: {supported})"
            return FileResult(path=str(path), outcome=Outcome.FAILED, reason=reason), None
        if path.exists() and not path.is_file():  # reading a pipe or a device could block forever
            return FileResult(path=str(path), outcome=Outcome.FAILED, reason=NOT_REGULAR), None
        try:
            sha = sha256_of(path)
        except OSError as exc:
            reason = f"cannot read file: {exc.strerror or exc}"
            return FileResult(path=str(path), outcome=Outcome.FAILED, reason=reason), None
        if sha in batch:
            return _skipped(path, doc_id_for(sha), None, f"same content as {batch[sha]}"), None
        batch[sha] = path
        current = self.registry.ready_document_at(str(path))
        if current is not None and current.sha256 == sha:
            if current.parser_version.older_than(parser_versions.current(current.type)):
                return None, current.doc_id  # the same bytes, parsed again by the newer parser
            return self._unchanged(path, current, "unchanged", entry), None
        same_content = self.registry.document(doc_id_for(sha))
        if same_content is not None and same_content.status == "ready":
            if current is not None:  # this path changed into a copy of another document
                self._retire(current.doc_id)
            return self._unchanged(path, same_content, f"same content as {same_content.path}", entry), None
        return None, current.doc_id if current else None

    def _parse_all(
        self, todo: list[tuple[Path, str | None]], checkpoint: Checkpoint
    ) -> Iterator[tuple[tuple[Path, str | None], ParsedDocument | str]]:
        """Parse in worker processes, a few files ahead of the embedding loop, in input order.

        Starting a worker costs seconds (a fresh interpreter importing the parsers), so a batch with
        too little parsing to hide behind embedding (an upload, a handful of text files) is parsed in
        this process instead.
        """
        if not todo:
            return
        pdfs = sum(1 for path, _ in todo if SUFFIX_TYPES.get(path.suffix.lower()) is DocType.PDF)
        if pdfs < POOL_MIN_PDFS and len(todo) < POOL_MIN_FILES:
            for item in todo:
                yield item, _parse_or_error(item[0], self.ocr)
            return
        window = max(2, 2 * self.parse_workers)
        pool = _parse_pool(self.parse_workers)
        wait = True
        try:
            first, *rest = todo
            queue = iter(rest)
            pending = [(item, pool.submit(_parse_or_error, item[0], self.ocr)) for item in islice(queue, window)]
            # While the workers start up (a fresh interpreter importing the parsers, about a second),
            # this process parses the first file, so embedding starts as soon as it can.
            yield first, _parse_or_error(first[0], self.ocr)
            while pending:
                item, future = pending.pop(0)
                try:
                    parsed = _result(future, checkpoint)
                except BrokenProcessPool:
                    # A worker died (the kernel's out-of-memory killer, a crash in a native parser):
                    # every file in flight failed with it. Find the culprit by parsing this file alone,
                    # then carry on with a fresh pool: one bad file must not end the ingest.
                    pool.shutdown(wait=False, cancel_futures=True)
                    parsed = _parse_alone(item[0], self.ocr)
                    pool = _parse_pool(self.parse_workers)
                    pending = [(it, pool.submit(_parse_or_error, it[0], self.ocr)) for it, _ in pending]
                nxt = next(queue, None)
                if nxt is not None:
                    pending.append((nxt, pool.submit(_parse_or_error, nxt[0], self.ocr)))
                yield item, parsed
        except BaseException:
            wait = False  # stopped: a file a worker is parsing is not waited for
            raise
        finally:
            pool.shutdown(wait=wait, cancel_futures=True)

    def _unchanged(self, path: Path, record: Document, reason: str, entry: ReferenceEntry | None) -> FileResult:
        """A file not parsed again; with an entry, the document takes its metadata (and is chunked
        again if the title or year, which its chunks carry, changed)."""
        if entry is None:
            return _skipped(path, record.doc_id, record.title, reason)
        updated = self.registry.override_metadata(record.doc_id, entry.override())
        if updated is not None and (updated.title, updated.year) != (record.title, record.year):
            self.reindex(record.doc_id)
        if updated is not None and _metadata(updated) != _metadata(record):
            reason = f"{reason}; metadata set from the entry"
        title = updated.title if updated is not None else record.title
        return _skipped(path, record.doc_id, title, reason).model_copy(update={"entry": entry.key})

    def _index_claimed(
        self,
        parsed: ParsedDocument,
        replaces: str | None,
        checkpoint: Checkpoint,
        entry: ReferenceEntry | None,
        on_chunks: ChunksCallback | None,
    ) -> FileResult:
        """Index a parsed document as its one indexer: several ``prp serve`` processes may share the
        registry (PRP_DATABASE_URL) and be handed the same file. The one that claims its document id
        indexes it; another skips it, saying so, and so does one that claims it once it is indexed."""
        doc = parsed.document
        with self.registry.claim(doc.doc_id) as mine:
            if not mine:
                return _skipped(Path(doc.path), doc.doc_id, doc.title, ELSEWHERE)
            done = self._indexed_meanwhile(doc, replaces, entry)
            return done or self._index(parsed, replaces, checkpoint, entry, on_chunks)

    def _indexed_meanwhile(
        self, doc: Document, replaces: str | None, entry: ReferenceEntry | None
    ) -> FileResult | None:
        """The result of a document another process indexed since ``_precheck`` looked (None: it is
        to be indexed here). One process alone never finds one: its checks saw the registry as it is."""
        record = self.registry.document(doc.doc_id)
        if record is None or record.status != "ready":
            return None
        if replaces == doc.doc_id and record.parser_version.older_than(parser_versions.current(record.type)):
            return None  # still the older parse: this one refreshes it
        return self._unchanged(Path(doc.path), record, f"same content as {record.path}, indexed meanwhile", entry)

    def _index(
        self,
        parsed: ParsedDocument,
        replaces: str | None,
        checkpoint: Checkpoint,
        entry: ReferenceEntry | None = None,
        on_chunks: ChunksCallback | None = None,
    ) -> FileResult:
        from corpus.chunk_vectors import EarlierVectors  # see ``_embed``

        earlier_doc = self.registry.document(replaces) if replaces else None
        doc = _keep_overridden(parsed.document, earlier_doc)
        doc = entry.override().apply(doc) if entry else doc
        earlier = EarlierVectors.of(self.store, earlier_doc) if earlier_doc else EarlierVectors.none()
        blocks, fps, nfps = self._marked(parsed.blocks, doc, replaces)
        chunked = self._chunk(doc, blocks)
        refusal = self._refusal(blocks, chunked)
        if refusal:
            return FileResult(path=doc.path, outcome=Outcome.FAILED, reason=refusal, doc_id=doc.doc_id, title=doc.title)
        chunks = [c.chunk for c in chunked]
        self._room()
        self.registry.add_pending(doc, blocks, chunks, fps, parser_versions.current(doc.type), nfps)
        if entry is not None:  # remembered while pending: a crash before it is ready loses neither
            self.registry.override_metadata(doc.doc_id, entry.override())
        self._embed_pending(doc, chunked, earlier, checkpoint, on_chunks)
        self._make_ready(doc.doc_id, replaces, earlier, chunks)
        return _indexed(doc, blocks, chunks, replaces == doc.doc_id, entry)

    def _marked(
        self, parsed: list[Block], doc: Document, replaces: str | None
    ) -> tuple[list[Block], list[str | None], list[str | None]]:
        """A parsed document's blocks marked as boilerplate or not, with their fingerprints and number
        fingerprints."""
        fps = boilerplate.fingerprints(parsed, doc.title)
        nfps = boilerplate.number_fingerprints(parsed, doc.title)
        # This document counts once; the version it replaces does not count at all.
        others = self.registry.document_counts([*fps, *nfps], exclude=(doc.doc_id, replaces))
        counts = {fp: others.get(fp, 0) + 1 for fp in [*fps, *nfps] if fp}
        marked = boilerplate.detect(parsed, fps, counts, nfps)
        return [b.model_copy(update={"boilerplate": m}) for b, m in zip(parsed, marked, strict=True)], fps, nfps

    def _refusal(self, blocks: list[Block], chunked: list[ChunkedText]) -> str | None:
        """Why a parsed document is not indexed (nothing to search, or too many chunks); None: it is."""
        if not chunked and any(not b.boilerplate for b in blocks):  # all of its text is non-prose
            held = ", ".join(n.describe() for n in summarise_non_prose(b.text for b in blocks)) or "nothing"
            return f"no text to read or search: it holds only {held}, which is not indexed"
        if self.max_chunks is not None and len(chunked) > self.max_chunks:
            return (
                f"too much text to index: {len(chunked):,} chunks, over the limit of {self.max_chunks:,} "
                "per file (PRP_MAX_FILE_CHUNKS)"
            )
        return None

    def _embed_pending(
        self,
        doc: Document,
        chunked: list[ChunkedText],
        earlier: EarlierVectors,
        checkpoint: Checkpoint,
        on_chunks: ChunksCallback | None,
    ) -> None:
        """Embed and write a pending document's chunks; retire it whole if that is stopped or fails."""
        try:
            # The points carry the year and title as they read, a person's edits included (the chunks
            # were made from the document's own title: an edit must not change what was embedded).
            self._embed(self.registry.document(doc.doc_id) or doc, chunked, earlier, checkpoint, on_chunks)
        except BaseException:
            # Stopped (or failed) half-way: the document goes whole, as ``recover`` would retire it.
            self._retire(doc.doc_id)
            raise

    def _make_ready(self, doc_id: str, replaces: str | None, earlier: EarlierVectors, chunks: list) -> None:
        """Mark a written document ready in place of the version it replaces, and drop what of that
        version's vectors it does not reuse."""
        # The same bytes parsed again: the same document id, so the same chunk and point ids.
        refreshed = replaces == doc_id
        if refreshed:
            # Its points were overwritten in place; those the new parse no longer has go while the
            # document is pending (a crash now retires it whole, see ``recover``).
            self.store.delete_chunks(sorted(earlier.chunk_ids - {c.chunk_id for c in chunks}))
        self.registry.mark_ready(doc_id, replaces=replaces)
        if replaces and not refreshed:
            self._drop_vectors(replaces)

    def _chunk(self, doc: Document, blocks: list[Block]) -> list[ChunkedText]:
        return chunk_document(doc, blocks, self.embedder.max_tokens, self.embedder.count_tokens_batch)

    def _embed(
        self,
        doc: Document,
        chunked: list[ChunkedText],
        earlier: EarlierVectors,
        checkpoint: Checkpoint = carry_on,
        on_chunks: ChunksCallback | None = None,
    ) -> None:
        # Imported here, not with this module: its results (``FileResult``, ``IngestSummary``) are
        # read by clients of a service (``prp ask``/``prp ingest`` through ``prp serve``), which
        # never embed and should not load the index client and the embedding runtime for them.
        from corpus.chunk_vectors import vectors_for
        from corpus.title_field import title_vectors

        for start in range(0, len(chunked), WRITE_BATCH):  # none if every block is boilerplate
            if on_chunks:
                on_chunks(doc.path, start, len(chunked))
            checkpoint()
            batch = chunked[start : start + WRITE_BATCH]
            dense, sparse = vectors_for(batch, earlier, self.embedder)
            titles = title_vectors(self.embedder, doc, [[*c.chunk.parents, c.chunk.section] for c in batch])
            self._room()
            self.store.upsert(doc, batch, dense, sparse, titles)

    def _embed_and_store(self, doc: Document, blocks: list[Block]) -> list:
        """Chunk a ready document again and write its chunks, reusing the vectors it has."""
        from corpus.chunk_vectors import EarlierVectors  # see ``_embed``

        chunked = self._chunk(doc, blocks)
        self._embed(doc, chunked, EarlierVectors.of(self.store, doc))
        return [c.chunk for c in chunked]

    def _retire(self, doc_id: str, forget_edits: bool = False) -> None:
        self.registry.retire(doc_id, forget_edits)
        self._drop_vectors(doc_id)

    def _drop_vectors(self, doc_id: str) -> None:
        """Delete a retired document's vectors, then its tombstone (in that order, for recovery)."""
        self.store.delete_document(doc_id)
        self.registry.clear_tombstone(doc_id)


def _result(future: Future, checkpoint: Checkpoint) -> ParsedDocument | str:
    """A parse worker's result, checking between waits whether to stop."""
    while True:
        try:
            return future.result(timeout=PARSE_POLL)
        except TimeoutError:
            checkpoint()


@dataclass
class _Told:
    """An ingest's file results in the order they are known, each told to ``progress`` as it comes."""

    progress: ProgressCallback | None
    results: list[FileResult] = field(default_factory=list)

    def add(self, result: FileResult) -> None:
        self.results.append(result)
        if self.progress:
            self.progress(result)


def _unattached(imported: ImportPlan | None) -> list[FileResult]:
    """An import's entries that bring no file, by key: skipped, or failed."""
    return [
        FileResult(path=p.export, outcome=Outcome.FAILED if p.failed else Outcome.SKIPPED, entry=p.key, reason=p.reason)
        for p in (imported.problems if imported else [])
    ]


def _take_remarks(results: list[FileResult], remarked: dict[str, tuple[int, int]]) -> None:
    """Give a document of this batch re-marked once later ones came in its new counts, taking it out
    of ``remarked``."""
    for result in results:
        if result.outcome is Outcome.OK and result.doc_id in remarked:
            result.boilerplate_blocks, result.chunks = remarked.pop(result.doc_id)


def _indexed(
    doc: Document, blocks: list[Block], chunks: list, refreshed: bool, entry: ReferenceEntry | None
) -> FileResult:
    """The result of a document indexed."""
    return FileResult(
        path=doc.path,
        outcome=Outcome.OK,
        doc_id=doc.doc_id,
        title=doc.title,
        pages=doc.page_count,
        blocks=len(blocks),
        boilerplate_blocks=sum(b.boilerplate for b in blocks),
        chunks=len(chunks),
        refreshed=refreshed,
        entry=entry.key if entry else None,
        non_prose=summarise_non_prose(b.text for b in blocks if not b.boilerplate),
        figure_pages=figure_only_pages(blocks),
        ocr_pages=doc.ocr.pages if doc.ocr else [],
        unread_pages=doc.ocr.unread if doc.ocr else [],
    )


def _keep_overridden(doc: Document, earlier: DocumentRecord | None) -> Document:
    """``doc`` with the fields a person or an import set on the version it replaces. The registry
    shows them on every read whatever the parse found; the index's payloads and the embedded titles
    must say the same."""
    if earlier is None or not earlier.overridden:
        return doc
    shown = {**earlier.model_dump(include={"title", "year"}), **earlier.bibliography.model_dump()}
    return MetadataOverride(**{f: shown[f] for f in earlier.overridden}).apply(doc)


def figure_only_pages(blocks: Sequence[Block]) -> list[int]:
    """The pages whose text, headings aside, is all figures' (``BlockKind.FIGURE``)."""
    figures = {b.page for b in blocks if b.kind is BlockKind.FIGURE}
    other = {b.page for b in blocks if b.kind not in (BlockKind.FIGURE, BlockKind.HEADING) and not b.boilerplate}
    return sorted(figures - other)


def _metadata(document: Document) -> tuple:
    return document.title, document.year, document.bibliography


def _skipped(path: Path, doc_id: str, title: str | None, reason: str) -> FileResult:
    return FileResult(path=str(path), outcome=Outcome.SKIPPED, reason=reason, doc_id=doc_id, title=title)
