"""``ChunkStore``: the chunk index as the rest of prp sees it, on whichever engine settings pick.

The embedded engine under the data directory by default; ``QDRANT_URL`` moves the same schema and
queries to a Qdrant server or cluster.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from qdrant_client import models

from config import Settings
from corpus.chunking import ChunkedText
from corpus.errors import StoreLockedError
from corpus.index import schema
from corpus.index.backend import IndexBackend, StoredPoint
from corpus.index.client import ClientIndex
from corpus.index.edge import EdgeIndex, ShardLocked
from corpus.models import Document


@dataclass(frozen=True)
class Hit:
    chunk_id: str
    doc_id: str
    score: float
    payload: dict


def open_backend(settings: Settings, collection: schema.CollectionSchema) -> IndexBackend:
    if settings.index.qdrant_url:
        index = ClientIndex.remote(settings.index.qdrant_url, settings.index.qdrant_api_key, settings.index.collection)
        index.ensure(collection)
        return index
    try:
        return EdgeIndex(settings.index_path, collection)
    except ShardLocked:
        raise StoreLockedError(
            f"The data directory {settings.storage.data_dir.resolve()} is in use by another prp process (the "
            "embedded index admits one process at a time). To use the chat, the CLI and other programs "
            "together, run `prp serve`: the CLI then goes through it (see 'The research service' in "
            "docs/service-api.md). Otherwise stop that process or use another PRP_DATA_DIR."
        ) from None


class ChunkStore:
    """Writes and queries the chunk index. Owns its engine; close it when done."""

    def __init__(self, settings: Settings, dim: int):
        self.settings = settings
        self.backend = open_backend(settings, schema.CollectionSchema(dim))

    def close(self) -> None:
        self.backend.close()

    def upsert(
        self,
        document: Document,
        chunked: Sequence[ChunkedText],
        dense: Sequence[Sequence[float]],
        sparse: Sequence[models.SparseVector],
        titles: Sequence[models.SparseVector],
    ) -> None:
        """Write a document's chunks with their vectors, each recording the text they were made from."""
        kept = titles if self.has_titles else [None] * len(titles)
        self.backend.upsert(
            [
                schema.point(document, c.chunk, d, s, c.digest, t)
                for c, d, s, t in zip(chunked, dense, sparse, kept, strict=True)
            ]
        )

    @property
    def has_titles(self) -> bool:
        """Whether the collection has the title field's vector (one created before it has not)."""
        return schema.TITLE in self.backend.sparse_names

    def upsert_points(self, points: Sequence[models.PointStruct]) -> None:
        self.backend.upsert(points)

    def restate_document(
        self, document: Document, titles: Callable[[Sequence[Sequence[str]]], list[models.SparseVector]]
    ) -> None:
        """Write a document's own fields (year, type, title) into its points' payloads again, and its
        title field's vectors (``titles`` of the points' heading paths), the other vectors unchanged: after
        its metadata was edited, so a search filtered by year or naming the new title sees it."""
        points = list(self.points(schema.document_filter(document.doc_id), with_vectors=True))
        fields = {"year": document.year, "type": document.type.value, "title": document.title}
        if not points:  # none when every block of the document is boilerplate
            return
        vectors = [dict(p.vectors or {}) for p in points]
        if self.has_titles:
            for v, t in zip(vectors, titles([schema.headings(p.payload) for p in points]), strict=True):
                v[schema.TITLE] = t
        self.backend.upsert(
            [StoredPoint(p.id, {**p.payload, **fields}, v).as_point() for p, v in zip(points, vectors, strict=True)]
        )

    def delete_document(self, doc_id: str) -> None:
        self.backend.delete(schema.document_filter(doc_id))

    def delete_chunks(self, chunk_ids: Sequence[str]) -> None:
        if chunk_ids:
            self.backend.delete([schema.point_id(c) for c in chunk_ids])

    def count(self) -> int:
        return self.backend.count()

    def points(self, query_filter: models.Filter | None = None, with_vectors: bool = False) -> Iterator[StoredPoint]:
        """Every stored point (payload, and vectors if asked), optionally those a filter matches."""
        return self.backend.scroll(query_filter, with_vectors)

    def optimize(self) -> None:
        self.backend.optimize()

    def query(self, request: models.QueryRequest) -> list[Hit]:
        """Run a query built by ``schema`` (``dense_query``, ``sparse_query`` or ``hybrid_query``)."""
        return [
            Hit(chunk_id=p.payload["chunk_id"], doc_id=p.payload["doc_id"], score=p.score, payload=p.payload)
            for p in self.backend.query(request)
        ]
