"""``ChunkStore``: the chunk index as the rest of prp sees it, on whichever engine settings pick.

The embedded engine under the data directory by default; ``QDRANT_URL`` moves the same schema and
queries to a Qdrant server or cluster.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from fastembed.sparse.sparse_embedding_base import SparseEmbedding
from qdrant_client import models

from corpus.config import Settings
from corpus.errors import StoreLockedError
from corpus.index import schema
from corpus.index.backend import IndexBackend, StoredPoint
from corpus.index.client import ClientIndex
from corpus.index.edge import EdgeIndex, ShardLocked
from corpus.models import Chunk, Document


@dataclass(frozen=True)
class Hit:
    chunk_id: str
    doc_id: str
    score: float
    payload: dict


def open_backend(settings: Settings, collection: schema.CollectionSchema) -> IndexBackend:
    if settings.qdrant_url:
        index = ClientIndex.remote(settings.qdrant_url, settings.qdrant_api_key, settings.collection)
        index.ensure(collection)
        return index
    try:
        return EdgeIndex(settings.index_path, collection)
    except ShardLocked:
        raise StoreLockedError(
            f"The data directory {settings.data_dir.resolve()} is in use by another prp process (the "
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
        chunks: Sequence[Chunk],
        dense: Sequence[Sequence[float]],
        sparse: Sequence[SparseEmbedding],
    ) -> None:
        self.backend.upsert(
            [
                schema.point(document, chunk, d, schema.sparse_vector(s))
                for chunk, d, s in zip(chunks, dense, sparse, strict=True)
            ]
        )

    def upsert_points(self, points: Sequence[models.PointStruct]) -> None:
        self.backend.upsert(points)

    def delete_document(self, doc_id: str) -> None:
        self.backend.delete(schema.document_filter(doc_id))

    def delete_chunks(self, chunk_ids: Sequence[str]) -> None:
        if chunk_ids:
            self.backend.delete([schema.point_id(c) for c in chunk_ids])

    def count(self) -> int:
        return self.backend.count()

    def points(self, query_filter: models.Filter | None = None) -> Iterator[StoredPoint]:
        """Every stored point (payload only), optionally those a filter matches."""
        return self.backend.scroll(query_filter)

    def optimize(self) -> None:
        self.backend.optimize()

    def query(
        self,
        dense: Sequence[float] | None,
        sparse: SparseEmbedding | None,
        limit: int,
        prefetch_limit: int,
        query_filter: models.Filter | None,
    ) -> list[Hit]:
        """Dense, sparse, or both fused with reciprocal rank fusion, by which vectors are given."""
        request = schema.query_request(
            dense, schema.sparse_vector(sparse) if sparse is not None else None, limit, prefetch_limit, query_filter
        )
        return [
            Hit(chunk_id=p.payload["chunk_id"], doc_id=p.payload["doc_id"], score=p.score, payload=p.payload)
            for p in self.backend.query(request)
        ]
