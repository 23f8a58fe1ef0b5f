"""The vectors for a document's chunks: its earlier version's where the embedded text is unchanged.

A chunk's vectors depend only on the text the models embed for it (its header and its text). When a
document is parsed again (its loader or the chunker improved, or its file changed), a chunk whose
embedded text comes out the same takes the vectors its earlier version's point holds; only the
others are embedded. Points name their embedded text by a digest (payload ``embedded``); a point
written before they did is named by the text today's chunker makes from its title, section and
text, which is what it was embedded from unless the header rule changed since (then the digests
differ and the chunk is embedded again: a wrong guess costs an embedding, never a wrong vector).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from qdrant_client import models

from corpus.chunking import ChunkedText, embed_text_for, embedded_digest, header_for
from corpus.embeddings import Embedder
from corpus.index import schema
from corpus.index.store import ChunkStore
from corpus.models import Document


@dataclass(frozen=True)
class Vectors:
    dense: Sequence[float]
    sparse: models.SparseVector


@dataclass(frozen=True)
class EarlierVectors:
    """A stored document's vectors by the digest of their embedded text, and its chunk ids."""

    by_digest: dict[str, Vectors]
    chunk_ids: frozenset[str]

    @classmethod
    def none(cls) -> EarlierVectors:
        return cls({}, frozenset())

    @classmethod
    def of(cls, store: ChunkStore, document: Document) -> EarlierVectors:
        by_digest: dict[str, Vectors] = {}
        chunk_ids: set[str] = set()
        for point in store.points(schema.document_filter(document.doc_id), with_vectors=True):
            chunk_ids.add(point.payload["chunk_id"])
            vectors = point.vectors or {}
            if schema.DENSE in vectors and schema.SPARSE in vectors:
                by_digest[_digest(document, point.payload)] = Vectors(vectors[schema.DENSE], vectors[schema.SPARSE])
        return cls(by_digest, frozenset(chunk_ids))


def _digest(document: Document, payload: dict) -> str:
    stored = payload.get(schema.EMBEDDED)
    if stored:
        return stored
    return embedded_digest(embed_text_for(header_for(document, payload["section"]), payload["text"]))


def vectors_for(
    chunked: Sequence[ChunkedText], earlier: EarlierVectors, embedder: Embedder
) -> tuple[list[Sequence[float]], list[models.SparseVector]]:
    """Each chunk's dense and sparse vectors, in order: reused where ``earlier`` has its embedded
    text, else embedded (together, in the chunks' order, as a new document's chunks are)."""
    reused = [earlier.by_digest.get(c.digest) for c in chunked]
    fresh = [c.embed_text for c, r in zip(chunked, reused, strict=True) if r is None]
    new_dense = iter(embedder.embed_passages(fresh) if fresh else [])
    new_sparse = iter(embedder.embed_sparse_passages(fresh) if fresh else [])
    dense: list[Sequence[float]] = []
    sparse: list[models.SparseVector] = []
    for r in reused:
        if r is None:
            dense.append(next(new_dense))
            sparse.append(schema.sparse_vector(next(new_sparse)))
        else:
            dense.append(r.dense)
            sparse.append(r.sparse)
    return dense, sparse
