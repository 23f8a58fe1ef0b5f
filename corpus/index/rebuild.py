"""A collection created before the title field (``schema.TITLE``), rebuilt once with it.

An engine fixes a collection's named vectors when it creates it, so one built by an earlier prp cannot
take the title field's vector; left as it is, its searches would go without the field for good. On
first open it is copied point by point into a collection of the current schema: the dense and body
vectors move as they are (nothing is parsed or embedded by a model again) and each point gains its
title field, made from its document's registry record and its payload's section heading
(``corpus.title_field``). The old collection is replaced only once every point is written, so an
interrupted rebuild starts over or finishes on the next open, never leaving a half-built index in use.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterable
from itertools import groupby
from typing import TYPE_CHECKING

from corpus.index import schema
from corpus.index.backend import SCROLL_BATCH, IndexBackend, StoredPoint
from corpus.index.client import ClientIndex
from corpus.index.edge import EdgeIndex, replace_shard
from corpus.index.store import ChunkStore
from corpus.registry import Registry
from corpus.title_field import title_vectors

if TYPE_CHECKING:
    from corpus.embeddings import Embedder

# (points written, points in all)
RebuildProgress = Callable[[int, int], None]
# Where a rebuild writes before it replaces the collection: a shard folder's or a collection's name plus this.
REBUILDING = ".rebuilding"


def needed(store: ChunkStore) -> bool:
    """Whether the collection lacks the title field, or a rebuild on a server stopped before its end."""
    backend = store.backend
    if isinstance(backend, ClientIndex) and backend.client.collection_exists(backend.collection + REBUILDING):
        return True
    return not store.has_titles


def rebuild(store: ChunkStore, registry: Registry, embedder: Embedder, progress: RebuildProgress | None = None) -> int:
    """Rebuild ``store``'s collection with the title field; returns the points written."""
    backend = store.backend
    collection = schema.CollectionSchema(embedder.dim)
    if isinstance(backend, EdgeIndex):
        fresh_path = backend.path.with_name(backend.path.name + REBUILDING)
        shutil.rmtree(fresh_path, ignore_errors=True)  # what an interrupted rebuild left
        fresh = EdgeIndex(fresh_path, collection)
        try:
            written = _copy(backend, fresh, registry, embedder, progress)
            fresh.optimize()
        finally:
            fresh.close()
        backend.close()
        replace_shard(backend.path, fresh_path)
        store.backend = EdgeIndex(backend.path, collection)
        return written
    assert isinstance(backend, ClientIndex), "prp's backends are the embedded engine and qdrant-client"
    fresh = ClientIndex(backend.client, backend.collection + REBUILDING)
    if not store.has_titles:  # the copy out; a rebuild stopped during it starts over
        if fresh.exists():
            backend.client.delete_collection(fresh.collection)
        fresh.ensure(collection)
        _copy(backend, fresh, registry, embedder, progress)
        backend.client.delete_collection(backend.collection)
        backend.ensure(collection)
    # The copy back, points as they are (one stopped after the old collection was dropped ends here).
    written = _copy(fresh, backend, None, embedder, progress)
    backend.client.delete_collection(fresh.collection)
    return written


def _copy(
    source: IndexBackend,
    target: IndexBackend,
    registry: Registry | None,
    embedder: Embedder,
    progress: RebuildProgress | None,
) -> int:
    """Every point of ``source`` into ``target``, each with its title field when ``registry`` is given
    (a point whose document the registry no longer holds goes without one)."""
    total, written = source.count(), 0
    for batch in _batches(source.scroll(with_vectors=True)):
        if registry is not None:
            batch = _with_titles(batch, registry, embedder)
        target.upsert([p.as_point() for p in batch])
        written += len(batch)
        if progress:
            progress(written, total)
    return written


def _batches(points: Iterable[StoredPoint]) -> Iterable[list[StoredPoint]]:
    batch: list[StoredPoint] = []
    for point in points:
        batch.append(point)
        if len(batch) == SCROLL_BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def _with_titles(batch: list[StoredPoint], registry: Registry, embedder: Embedder) -> list[StoredPoint]:
    out: list[StoredPoint] = []
    by_document = sorted(batch, key=lambda p: p.payload.get("doc_id", ""))
    for doc_id, group in groupby(by_document, key=lambda p: p.payload.get("doc_id", "")):
        points = list(group)
        document = registry.document(doc_id)
        if document is None:
            out.extend(points)
            continue
        titles = title_vectors(embedder, document, [schema.headings(p.payload) for p in points])
        out.extend(
            StoredPoint(p.id, p.payload, {**(p.vectors or {}), schema.TITLE: t})
            for p, t in zip(points, titles, strict=True)
        )
    return out
