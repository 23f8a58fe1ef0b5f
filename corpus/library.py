"""``Library``: the researcher's corpus as one object — registry, vector store and embedding models.

Entry points (CLI, UI, graph, evals) open one Library and pass it down; nothing below keeps
module-level state. The embedding models and the index engine load when first used, and so do the
libraries behind them (fastembed and the ONNX runtime, Qdrant's engine and client): listing
documents or resolving a citation never pays for them.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterable
from functools import cached_property, partial
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from config import Settings
from corpus.database import open_database
from corpus.disk_space import DiskSpace
from corpus.ingest import Checkpoint, Ingestor, IngestSummary, ProgressCallback, carry_on
from corpus.ingest_progress import ChunksCallback
from corpus.ingest_roots import IngestRoots
from corpus.models import MetadataOverride, OcrOptions
from corpus.registry import DocumentRecord, Registry

if TYPE_CHECKING:
    from corpus.embeddings import Embedder
    from corpus.index.store import ChunkStore
    from corpus.references.plan import ImportPlan

T = TypeVar("T")


class Library:
    def __init__(self, settings: Settings, embedder: Embedder | None = None):
        """``embedder`` lets several libraries (eval collections, tests) share loaded models."""
        self.settings = settings
        settings.storage.data_dir.mkdir(parents=True, exist_ok=True)
        # The registry file under the data directory, or the PostgreSQL database PRP_DATABASE_URL names.
        self.database = open_database(settings.storage)
        self.registry = Registry(self.database)
        # The folders and files it was ingested from, kept in step by ``corpus.sync``.
        self.roots = IngestRoots(self.database)
        if embedder is not None:
            self.embedder = embedder
        # Values computed from the whole corpus (the citation index), with the registry fingerprint
        # they were built at: a run reuses them until a document is added, replaced or removed.
        self._derived: dict[str, tuple[str, object]] = {}
        self._derived_lock = threading.Lock()

    @cached_property
    def embedder(self) -> Embedder:
        from corpus.embeddings import Embedder

        return Embedder(self.settings)

    @cached_property
    def store(self) -> ChunkStore:
        from corpus.index import legacy, rebuild
        from corpus.index.store import ChunkStore

        if not self.settings.index.qdrant_url:  # ``corpus.disk_space``
            index, space = self.settings.index_path, self.disk_space
            if not index.exists():
                space.check()  # making the embedded index writes ~10 MB
            elif opening := space.opening_room_mb(index):
                space.check(opening, keep=False)  # on a tmpfs, opening it takes its files' mapped size
        store = ChunkStore(self.settings, self.embedder.dim)
        try:
            if legacy.needs_move(self.settings):
                self._move_local_mode(store)
            if rebuild.needed(store):
                self._rebuild_with_titles(store)
        except BaseException:
            store.close()  # release the engine's lock: the next open starts the move or rebuild over
            raise
        return store

    def _rebuild_with_titles(self, store: ChunkStore) -> None:
        """Rebuild a collection created before the title field, once, on first open."""
        from tqdm import tqdm

        from corpus.index import rebuild

        print(
            f"prp: the index ({self.settings.describe_store()}) was built before the title field "
            "(titles, URLs and headings searched on their own); rebuilding it once, its vectors kept.",
            file=sys.stderr,
        )
        with tqdm(unit="chunk", desc="prp: rebuilding the index", file=sys.stderr) as bar:

            def progress(done: int, total: int) -> None:
                bar.total = total
                bar.update(done - bar.n)

            written = rebuild.rebuild(store, self.registry, self.embedder, progress)
        print(f"prp: rebuilt the index with the title field ({written} chunks).", file=sys.stderr)

    def _move_local_mode(self, store: ChunkStore) -> None:
        """Move a library an earlier prp built on qdrant-client's local mode (once, on first open)."""
        from tqdm import tqdm

        from corpus.index import legacy

        ingestor = Ingestor(self.embedder, store, self.registry, self.settings.ingest.parse_workers)
        with tqdm(unit="doc", desc="prp: moving the index to the embedded engine", file=sys.stderr) as bar:

            def progress(done: int, total: int) -> None:
                bar.total = total
                bar.update(done - bar.n)

            from corpus.title_field import title_vectors

            titles = partial(title_vectors, self.embedder)
            moved = legacy.move_local_mode_library(
                self.settings, store, self.registry, ingestor.reindex, titles, progress
            )
        again = f"; {len(moved.reembedded)} embedded again (vectors missing)" if moved.reembedded else ""
        print(
            f"prp: moved {moved.points} chunks of {moved.documents} documents from local mode{again}. "
            f"The old index, {moved.old_folder}, is no longer used: delete it to free its space.",
            file=sys.stderr,
        )

    def derived(self, name: str, build: Callable[[Registry], T]) -> T:
        """``build(registry)``, cached until the set of ready documents changes."""
        with self._derived_lock:  # one build at a time: concurrent runs wait for it, not redo it
            fingerprint = self.registry.fingerprint()
            cached = self._derived.get(name)
            if cached is None or cached[0] != fingerprint:
                cached = self._derived[name] = (fingerprint, build(self.registry))
            return cached[1]  # type: ignore[return-value]

    def ingest(
        self,
        paths: Iterable[Path],
        progress: ProgressCallback | None = None,
        checkpoint: Checkpoint = carry_on,
        imported: ImportPlan | None = None,
        on_chunks: ChunksCallback | None = None,
    ) -> IngestSummary:
        """See ``Ingestor.ingest``; ``checkpoint`` may raise to stop it (a cancelled job)."""
        self.disk_space.check()  # before the index is opened or made
        return self._ingestor().ingest(paths, progress, checkpoint, imported, on_chunks)

    def delete(self, doc_id: str) -> bool:
        return self._ingestor().delete(doc_id)

    def delete_many(self, doc_ids: Iterable[str], on_deleted: Callable[[str], None] | None = None) -> list[str]:
        """See ``Ingestor.delete_many``: boilerplate is marked again once for the batch."""
        return self._ingestor().delete_many(doc_ids, on_deleted)

    def edit_metadata(self, doc_id: str, override: MetadataOverride) -> DocumentRecord | None:
        """Set the fields a person gave (``Registry.override_metadata``). The year and title are in
        the points' payloads too (the year filters searches), so an edit of either is written there;
        other fields live in the registry alone, and their edit opens neither the index nor a model."""
        record = self.registry.override_metadata(doc_id, override)
        if record is not None and {"year", "title"} & override.model_fields_set:
            from corpus.title_field import title_vectors

            self.store.restate_document(record, partial(title_vectors, self.embedder, record))
        return record

    def _ingestor(self) -> Ingestor:
        return Ingestor(
            self.embedder,
            self.store,
            self.registry,
            self.settings.ingest.parse_workers,
            self.settings.limits.max_file_chunks,
            self.disk_space,
            self.ocr_options,
        )

    @property
    def ocr_options(self) -> OcrOptions:
        """How an ingest reads scanned PDF pages (``PRP_OCR``, ``PRP_OCR_DPI``, ...)."""
        ingest = self.settings.ingest
        return OcrOptions(
            enabled=ingest.ocr,
            dpi=ingest.ocr_dpi,
            max_megapixels=ingest.ocr_max_megapixels,
            page_seconds=ingest.ocr_page_seconds,
            models_dir=self.settings.models_dir,
        )

    @property
    def disk_space(self) -> DiskSpace:
        """The free space an ingest keeps on the data directory's disk (``PRP_MIN_FREE_MB``)."""
        return DiskSpace(self.settings.storage.data_dir, self.settings.storage.min_free_mb)

    def close(self) -> None:
        if "store" in self.__dict__:
            self.store.close()
        self.database.close()

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
