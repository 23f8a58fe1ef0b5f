"""``Library``: the researcher's corpus as one object — registry, vector store and embedding models.

Entry points (CLI, UI, graph, evals) open one Library and pass it down; nothing below keeps
module-level state. The embedding models load lazily, so listing documents or resolving a citation
never pays for loading ONNX models.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property
from pathlib import Path

from corpus.config import Settings
from corpus.embeddings import Embedder
from corpus.ingest import IngestSummary, Ingestor, ProgressCallback
from corpus.registry import Registry
from corpus.store import ChunkStore


class Library:
    def __init__(self, settings: Settings, embedder: Embedder | None = None):
        """``embedder`` lets several libraries (eval collections, tests) share loaded models."""
        self.settings = settings
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        self.registry = Registry(settings.registry_path)
        if embedder is not None:
            self.embedder = embedder

    @cached_property
    def embedder(self) -> Embedder:
        return Embedder(self.settings)

    @cached_property
    def store(self) -> ChunkStore:
        return ChunkStore(self.settings, self.embedder.dim)

    def ingest(self, paths: Iterable[Path], progress: ProgressCallback | None = None) -> IngestSummary:
        return self._ingestor().ingest(paths, progress)

    def delete(self, doc_id: str) -> bool:
        return self._ingestor().delete(doc_id)

    def _ingestor(self) -> Ingestor:
        return Ingestor(self.embedder, self.store, self.registry, self.settings.parse_workers)

    def close(self) -> None:
        if "store" in self.__dict__:
            self.store.close()

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
