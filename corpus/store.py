"""The Qdrant collection: one named dense vector and one BM25 sparse vector per chunk.

Local mode (``QdrantClient(path=...)``) by default; ``QDRANT_URL`` moves the same code to a server
or cluster. Point ids are uuid5 of the chunk id, so writing a chunk twice overwrites it.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from fastembed.sparse.sparse_embedding_base import SparseEmbedding
from qdrant_client import QdrantClient, models

from corpus.config import Settings
from corpus.errors import ConfigError, StoreLockedError
from corpus.models import Chunk, Document

DENSE = "dense"
SPARSE = "bm25"
_POINT_NAMESPACE = uuid.UUID("5d7c8f0e-6a43-4f0b-9c55-2f1c4e3b7a10")


def point_id(chunk_id: str) -> str:
    return str(uuid.uuid5(_POINT_NAMESPACE, chunk_id))


def open_client(settings: Settings) -> QdrantClient:
    if settings.qdrant_url:
        return QdrantClient(url=settings.qdrant_url, api_key=settings.qdrant_api_key)
    settings.qdrant_path.mkdir(parents=True, exist_ok=True)
    try:
        return QdrantClient(path=str(settings.qdrant_path))
    except RuntimeError as exc:
        if "already accessed" not in str(exc):
            raise
        raise StoreLockedError(
            f"The data directory {settings.data_dir.resolve()} is in use by another prp process, such as "
            "a running `prp ui` (Qdrant local mode lets one process open the store at a time). To use the "
            "CLI and the UI together, run a Qdrant server and set QDRANT_URL (and the same PRP_DATA_DIR) "
            "for both: see 'Running the UI and the CLI together' in the README. Otherwise stop that "
            "process or use another PRP_DATA_DIR. (prp docs and prp export work meanwhile: they do not "
            "open the store.)"
        ) from None


@dataclass(frozen=True)
class Hit:
    chunk_id: str
    doc_id: str
    score: float
    payload: dict


class ChunkStore:
    """Writes and queries the chunk collection. Owns its client; close it when done."""

    def __init__(self, settings: Settings, dim: int):
        self.settings = settings
        self.collection = settings.collection
        self.client = open_client(settings)
        self._ensure_collection(dim)

    def close(self) -> None:
        self.client.close()

    def _ensure_collection(self, dim: int) -> None:
        if self.client.collection_exists(self.collection):
            info = self.client.get_collection(self.collection)
            vectors = info.config.params.vectors
            existing = vectors.get(DENSE) if isinstance(vectors, dict) else None
            if existing is None or existing.size != dim:
                raise ConfigError(
                    f"collection '{self.collection}' was built with another embedding model "
                    f"(dimension {getattr(existing, 'size', '?')}, now {dim}); use a new "
                    "PRP_COLLECTION or PRP_DATA_DIR, or re-ingest into an empty one"
                )
            return
        self.client.create_collection(
            self.collection,
            vectors_config={DENSE: models.VectorParams(size=dim, distance=models.Distance.COSINE)},
            # IDF is computed by Qdrant over the live collection, so BM25 stays right as documents
            # come and go without re-embedding anything.
            sparse_vectors_config={SPARSE: models.SparseVectorParams(modifier=models.Modifier.IDF)},
        )
        if not self.settings.uses_local_qdrant:
            # Filters need payload indexes on a server; local mode scans and ignores them.
            for field, schema in (
                ("doc_id", models.PayloadSchemaType.KEYWORD),
                ("type", models.PayloadSchemaType.KEYWORD),
                ("year", models.PayloadSchemaType.INTEGER),
                ("is_reference", models.PayloadSchemaType.BOOL),
            ):
                self.client.create_payload_index(self.collection, field, schema)

    def upsert(
        self,
        document: Document,
        chunks: Sequence[Chunk],
        dense: Sequence[Sequence[float]],
        sparse: Sequence[SparseEmbedding],
    ) -> None:
        points = [
            models.PointStruct(
                id=point_id(chunk.chunk_id),
                vector={
                    DENSE: list(d),
                    SPARSE: models.SparseVector(indices=s.indices.tolist(), values=s.values.tolist()),
                },
                payload={
                    "chunk_id": chunk.chunk_id,
                    "doc_id": chunk.doc_id,
                    "text": chunk.text,
                    "block_ids": chunk.block_ids,
                    "section": chunk.section,
                    "pages": list(range(chunk.page_start, chunk.page_end + 1)),
                    "year": document.year,
                    "type": document.type.value,
                    "title": document.title,
                    "is_reference": chunk.is_reference,
                },
            )
            for chunk, d, s in zip(chunks, dense, sparse, strict=True)
        ]
        self.client.upsert(self.collection, points=points, wait=True)

    def delete_document(self, doc_id: str) -> None:
        self.client.delete(
            self.collection,
            points_selector=models.FilterSelector(filter=_match("doc_id", doc_id)),
            wait=True,
        )

    def delete_chunks(self, chunk_ids: Sequence[str]) -> None:
        if chunk_ids:
            self.client.delete(
                self.collection,
                points_selector=models.PointIdsList(points=[point_id(c) for c in chunk_ids]),
                wait=True,
            )

    def count(self) -> int:
        return self.client.count(self.collection, exact=True).count

    def query(
        self,
        dense: Sequence[float] | None,
        sparse: SparseEmbedding | None,
        limit: int,
        prefetch_limit: int,
        query_filter: models.Filter | None,
    ) -> list[Hit]:
        """Dense, sparse, or both fused with reciprocal rank fusion, by which vectors are given."""
        sparse_vector = (
            models.SparseVector(indices=sparse.indices.tolist(), values=sparse.values.tolist())
            if sparse is not None
            else None
        )
        if dense is not None and sparse_vector is not None:
            response = self.client.query_points(
                self.collection,
                prefetch=[
                    models.Prefetch(query=list(dense), using=DENSE, limit=prefetch_limit, filter=query_filter),
                    models.Prefetch(query=sparse_vector, using=SPARSE, limit=prefetch_limit, filter=query_filter),
                ],
                query=models.FusionQuery(fusion=models.Fusion.RRF),
                limit=limit,
                with_payload=True,
            )
        elif dense is not None:
            response = self.client.query_points(
                self.collection,
                query=list(dense),
                using=DENSE,
                limit=limit,
                query_filter=query_filter,
                with_payload=True,
            )
        elif sparse_vector is not None:
            response = self.client.query_points(
                self.collection,
                query=sparse_vector,
                using=SPARSE,
                limit=limit,
                query_filter=query_filter,
                with_payload=True,
            )
        else:
            raise ValueError("query needs a dense vector, a sparse vector, or both")
        return [
            Hit(chunk_id=p.payload["chunk_id"], doc_id=p.payload["doc_id"], score=p.score, payload=p.payload)
            for p in response.points
        ]


def _match(field: str, value: str) -> models.Filter:
    return models.Filter(must=[models.FieldCondition(key=field, match=models.MatchValue(value=value))])
