"""The collection prp keeps, its points and its queries, written once in Qdrant's API models.

The server backend sends these models as they are; the embedded backend translates them field by
field (``corpus.index.edge``), so a query means the same on both and their results agree.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from fastembed.sparse.sparse_embedding_base import SparseEmbedding
from qdrant_client import models

from corpus.models import Chunk, Document

DENSE = "dense"
SPARSE = "bm25"
# BM25 of a chunk's title field (``corpus.title_field``): its document's title, URL path and heading.
# Collections created before it have no such vector; their searches go without it.
TITLE = "title"
# The payload field naming the text a point's vectors were embedded from; points written by earlier
# versions lack it.
EMBEDDED = "embedded"
# Qdrant's default RRF constant, stated because the embedded engine has no default; it is what
# hybrid retrieval was tuned with.
RRF_K = 2
# The HNSW beam for dense searches. Qdrant's default (ef_construct, 100) found 96% of the exact top 10 at
# a million chunks; 256 keeps dense recall at or above 0.98 for a few milliseconds more.
DENSE_SEARCH = models.SearchParams(hnsw_ef=256)
_POINT_NAMESPACE = uuid.UUID("5d7c8f0e-6a43-4f0b-9c55-2f1c4e3b7a10")

# Fields filters use, indexed on both engines. ``is_reference`` is stored as 0/1, not a bool: the
# embedded engine reads a boolean match value as the integer 1, so a bool field never matches it.
PAYLOAD_INDEXES: dict[str, models.PayloadSchemaType] = {
    "doc_id": models.PayloadSchemaType.KEYWORD,
    "type": models.PayloadSchemaType.KEYWORD,
    "year": models.PayloadSchemaType.INTEGER,
    "is_reference": models.PayloadSchemaType.INTEGER,
}


def point_id(chunk_id: str) -> str:
    """uuid5 of the chunk id, so writing a chunk twice overwrites it."""
    return str(uuid.uuid5(_POINT_NAMESPACE, chunk_id))


@dataclass(frozen=True)
class CollectionSchema:
    dim: int

    def vectors(self) -> dict[str, models.VectorParams]:
        return {DENSE: models.VectorParams(size=self.dim, distance=models.Distance.COSINE)}

    def sparse_vectors(self) -> dict[str, models.SparseVectorParams]:
        # IDF is computed by Qdrant over the live collection, so BM25 stays right as documents
        # come and go without re-embedding anything.
        return {
            SPARSE: models.SparseVectorParams(modifier=models.Modifier.IDF),
            TITLE: models.SparseVectorParams(modifier=models.Modifier.IDF),
        }


def sparse_vector(sparse: SparseEmbedding) -> models.SparseVector:
    return models.SparseVector(indices=sparse.indices.tolist(), values=sparse.values.tolist())


def payload(document: Document, chunk: Chunk, embedded: str | None = None) -> dict:
    """The point's payload; ``embedded`` is the digest of the text its vectors were made from
    (``corpus.chunking.embedded_digest``), so a later parse can tell which vectors still hold."""
    fields = {
        "chunk_id": chunk.chunk_id,
        "doc_id": chunk.doc_id,
        "text": chunk.text,
        "block_ids": chunk.block_ids,
        "section": chunk.section,
        "parents": chunk.parents,
        "pages": list(range(chunk.page_start, chunk.page_end + 1)),
        "year": document.year,
        "type": document.type.value,
        "title": document.title,
        "is_reference": int(chunk.is_reference),
    }
    return fields if embedded is None else {**fields, EMBEDDED: embedded}


def headings(payload: dict) -> list[str]:
    """A point's heading path: the headings its section sits under, then the section's own (points
    written before heading paths were kept: the section alone)."""
    return [*payload.get("parents", []), payload.get("section", "")]


def point(
    document: Document,
    chunk: Chunk,
    dense: Sequence[float],
    sparse: models.SparseVector,
    embedded: str | None = None,
    title: models.SparseVector | None = None,
) -> models.PointStruct:
    """A chunk's point; ``title`` is its title field's vector, left out for a collection without one."""
    vectors: dict = {DENSE: list(dense), SPARSE: sparse}
    if title is not None:
        vectors[TITLE] = title
    return models.PointStruct(id=point_id(chunk.chunk_id), vector=vectors, payload=payload(document, chunk, embedded))


def document_filter(doc_id: str) -> models.Filter:
    return models.Filter(must=[models.FieldCondition(key="doc_id", match=models.MatchValue(value=doc_id))])


# One query per search mode. Which one a search runs is said, never inferred: the retriever registered
# for the run's mode (``tools.retrievers``) embeds what its query needs and builds it here.


def dense_query(dense: Sequence[float], limit: int, query_filter: models.Filter | None) -> models.QueryRequest:
    """Nearest chunks to the query's dense vector."""
    return models.QueryRequest(
        query=list(dense), using=DENSE, filter=query_filter, params=DENSE_SEARCH, limit=limit, with_payload=True
    )


def sparse_query(
    sparse: models.SparseVector, limit: int, query_filter: models.Filter | None, using: str = SPARSE
) -> models.QueryRequest:
    """Best BM25 matches of the query's sparse vector (IDF applied by the engine), in the body
    (``SPARSE``) or the title field (``TITLE``)."""
    return models.QueryRequest(query=sparse, using=using, filter=query_filter, limit=limit, with_payload=True)


def hybrid_query(
    dense: Sequence[float],
    sparse: models.SparseVector,
    limit: int,
    prefetch_limit: int,
    query_filter: models.Filter | None,
) -> models.QueryRequest:
    """The dense and BM25 rankings, each ``prefetch_limit`` deep, fused by reciprocal rank fusion."""
    return models.QueryRequest(
        prefetch=[
            models.Prefetch(
                query=list(dense), using=DENSE, limit=prefetch_limit, filter=query_filter, params=DENSE_SEARCH
            ),
            models.Prefetch(query=sparse, using=SPARSE, limit=prefetch_limit, filter=query_filter),
        ],
        query=models.RrfQuery(rrf=models.Rrf(k=RRF_K)),
        limit=limit,
        with_payload=True,
    )
