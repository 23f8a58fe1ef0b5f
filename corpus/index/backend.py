"""What a chunk index engine does for prp: the interface both backends implement."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from qdrant_client import models

from corpus.errors import ConfigError

SCROLL_BATCH = 512


@dataclass(frozen=True)
class StoredPoint:
    id: str
    payload: dict
    # Named vectors (``schema.DENSE``: list of floats, ``schema.SPARSE``: models.SparseVector)
    # when asked for, else None.
    vectors: dict | None = None

    def as_point(self) -> models.PointStruct:
        """The point to write it again elsewhere (needs its vectors)."""
        return models.PointStruct(id=self.id, vector=self.vectors, payload=self.payload)


@dataclass(frozen=True)
class ScoredPayload:
    score: float
    payload: dict


class IndexBackend(Protocol):
    # The sparse vectors the collection was created with: one created before ``schema.TITLE`` lacks it.
    sparse_names: frozenset[str]

    def upsert(self, points: Sequence[models.PointStruct]) -> None: ...

    def delete(self, selector: models.Filter | Sequence[str]) -> None:
        """Delete the points a filter matches, or the points with these ids."""

    def count(self, query_filter: models.Filter | None = None) -> int: ...

    def query(self, request: models.QueryRequest) -> list[ScoredPayload]: ...

    def retrieve(self, ids: Sequence[str], with_vectors: bool = False) -> list[StoredPoint]: ...

    def scroll(
        self, query_filter: models.Filter | None = None, with_vectors: bool = False
    ) -> Iterator[StoredPoint]: ...

    def optimize(self) -> None:
        """Build what searches need (HNSW graphs, merged segments) after a batch of writes."""

    def close(self) -> None: ...


def check_dimension(name: str, existing: int | None, dim: int) -> None:
    if existing != dim:
        raise ConfigError(
            f"index '{name}' was built with another embedding model (dimension {existing or '?'}, now {dim}); "
            "use a new PRP_COLLECTION or PRP_DATA_DIR, or re-ingest into an empty one"
        )
