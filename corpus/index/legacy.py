"""Libraries built by earlier prp versions on qdrant-client's local mode, moved to the embedded engine.

Found on first open by local mode's folder under the data directory. Each ready document's chunks
come from the SQLite registry and their vectors from the old store, so nothing is parsed or embedded
again; a document whose vectors the old store lacks is embedded again from its registry blocks. The
old folder is renamed only after every point is written: a move that is interrupted starts over
(points are keyed by chunk id, so writing them twice changes nothing).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from qdrant_client import QdrantClient, models

from config import Settings
from corpus.errors import StoreLockedError
from corpus.index import schema
from corpus.index.client import ClientIndex
from corpus.index.store import ChunkStore
from corpus.models import Chunk, Document
from corpus.registry import Registry

MOVED_SUFFIX = ".local-mode-moved"

# (documents done, documents in all)
MoveProgress = Callable[[int, int], None]


@dataclass(frozen=True)
class MoveSummary:
    documents: int
    points: int
    reembedded: list[str]  # documents whose vectors the old store lacked
    old_folder: Path  # where the local-mode folder now is: the user may delete it


def needs_move(settings: Settings) -> bool:
    return (
        settings.index.uses_embedded_index
        and (settings.storage.local_mode_path / "collection" / settings.index.collection).is_dir()
    )


def move_local_mode_library(
    settings: Settings,
    store: ChunkStore,
    registry: Registry,
    reindex: Callable[[str], None],
    titles: Callable[[Document, Sequence[Sequence[str]]], list[models.SparseVector]],
    progress: MoveProgress | None = None,
) -> MoveSummary:
    """Copy every ready document's points from the local-mode store into ``store``; ``reindex(doc_id)``
    embeds a document again when its vectors are missing there; ``titles(document, heading paths)`` are the
    title field's vectors, which local mode never had."""
    old = ClientIndex(_open_local_mode(settings), settings.index.collection)
    documents = registry.documents()
    written, reembedded = 0, []
    try:
        for done, document in enumerate(documents, start=1):
            points = _moved_points(old, document, registry.chunks_of(document.doc_id), titles)
            if points is not None:
                store.upsert_points(points)
                written += len(points)
            else:
                reindex(document.doc_id)
                reembedded.append(document.doc_id)
            if progress:
                progress(done, len(documents))
    finally:
        old.close()
    store.optimize()
    moved = _unused_name(settings.storage.local_mode_path)
    settings.storage.local_mode_path.rename(moved)
    return MoveSummary(documents=len(documents), points=written, reembedded=reembedded, old_folder=moved)


def _open_local_mode(settings: Settings) -> QdrantClient:
    """The local-mode store; StoreLockedError while an older prp process holds it."""
    try:
        return QdrantClient(path=str(settings.storage.local_mode_path))
    except RuntimeError as exc:
        if "already accessed" not in str(exc):
            raise
        raise StoreLockedError(
            f"The data directory {settings.storage.data_dir.resolve()} is in use by an older prp process (its "
            "local-mode index is locked); stop it, then run this again to move the library to the "
            "embedded engine."
        ) from None


def _moved_points(
    old: ClientIndex,
    document: Document,
    chunks: Sequence[Chunk],
    titles: Callable[[Document, Sequence[Sequence[str]]], list[models.SparseVector]],
) -> list[models.PointStruct] | None:
    """A document's points for the embedded engine, with the vectors the local-mode store holds for
    its chunks; None when it lacks any of them."""
    stored = {p.id: p for p in old.retrieve([schema.point_id(c.chunk_id) for c in chunks], True)}
    points = [stored.get(schema.point_id(c.chunk_id)) for c in chunks]
    if not all(p is not None and schema.DENSE in (p.vectors or {}) and schema.SPARSE in p.vectors for p in points):
        return None
    return [
        # The vectors move as they are, so the digest of their embedded text still holds.
        schema.point(
            document, chunk, p.vectors[schema.DENSE], p.vectors[schema.SPARSE], p.payload.get(schema.EMBEDDED), title
        )
        for chunk, p, title in zip(
            chunks, points, titles(document, [[*c.parents, c.section] for c in chunks]), strict=True
        )
    ]


def _unused_name(folder: Path) -> Path:
    """Where the local-mode folder goes once moved: beside it, numbered after an earlier move of
    another collection in this data directory."""
    moved = folder.with_name(folder.name + MOVED_SUFFIX)
    n = 1
    while moved.exists():
        n += 1
        moved = moved.with_name(f"{folder.name}{MOVED_SUFFIX}-{n}")
    return moved
