"""The collection through qdrant-client: a Qdrant server or cluster (``QDRANT_URL``).

The same class reads a library qdrant-client's local mode built (``corpus.index.legacy``), and the
tests run it on local mode to check the embedded engine answers the same queries the same way.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from qdrant_client import QdrantClient, models
from qdrant_client.http.exceptions import ResponseHandlingException, UnexpectedResponse

from corpus.errors import ConfigError
from corpus.index.backend import SCROLL_BATCH, ScoredPayload, StoredPoint, check_dimension
from corpus.index.schema import DENSE, PAYLOAD_INDEXES, CollectionSchema


class ClientIndex:
    def __init__(self, client: QdrantClient, collection: str, where: str = "qdrant-client"):
        self.client = client
        self.collection = collection
        self.where = where
        self.sparse_names: frozenset[str] = frozenset()

    @classmethod
    def remote(cls, url: str, api_key: str | None, collection: str) -> ClientIndex:
        return cls(QdrantClient(url=url, api_key=api_key), collection, where=url)

    def exists(self) -> bool:
        """Whether the collection is there. The first request prp makes, so a server that cannot be
        reached or refuses the key is reported here, in words."""
        try:
            return self.client.collection_exists(self.collection)
        except (ResponseHandlingException, UnexpectedResponse) as exc:
            raise ConfigError(
                f"could not use the Qdrant server at {self.where} ({exc}): check that it is running and "
                "that QDRANT_URL and QDRANT_API_KEY (or --api-key) are right"
            ) from None

    def ensure(self, schema: CollectionSchema) -> None:
        """Create the collection with ``schema``, or check an existing one was built with its model."""
        if self.exists():
            params = self.client.get_collection(self.collection).config.params
            existing = params.vectors.get(DENSE) if isinstance(params.vectors, dict) else None
            check_dimension(self.collection, existing.size if existing else None, schema.dim)
            self.sparse_names = frozenset(params.sparse_vectors or {})
            return
        self.client.create_collection(
            self.collection, vectors_config=schema.vectors(), sparse_vectors_config=schema.sparse_vectors()
        )
        for field, field_schema in PAYLOAD_INDEXES.items():
            self.client.create_payload_index(self.collection, field, field_schema, wait=True)
        self.sparse_names = frozenset(schema.sparse_vectors())

    def upsert(self, points: Sequence[models.PointStruct]) -> None:
        self.client.upsert(self.collection, points=list(points), wait=True)

    def delete(self, selector: models.Filter | Sequence[str]) -> None:
        if isinstance(selector, models.Filter):
            points_selector: models.PointsSelector = models.FilterSelector(filter=selector)
        else:
            points_selector = models.PointIdsList(points=list(selector))
        self.client.delete(self.collection, points_selector=points_selector, wait=True)

    def count(self, query_filter: models.Filter | None = None) -> int:
        return self.client.count(self.collection, count_filter=query_filter, exact=True).count

    def query(self, request: models.QueryRequest) -> list[ScoredPayload]:
        (response,) = self.client.query_batch_points(self.collection, requests=[request])
        return [ScoredPayload(score=p.score, payload=p.payload or {}) for p in response.points]

    def retrieve(self, ids: Sequence[str], with_vectors: bool = False) -> list[StoredPoint]:
        records = self.client.retrieve(self.collection, ids=list(ids), with_payload=True, with_vectors=with_vectors)
        return [_stored(r) for r in records]

    def scroll(self, query_filter: models.Filter | None = None, with_vectors: bool = False) -> Iterator[StoredPoint]:
        offset = None
        while True:
            records, offset = self.client.scroll(
                self.collection,
                scroll_filter=query_filter,
                limit=SCROLL_BATCH,
                offset=offset,
                with_payload=True,
                with_vectors=with_vectors,
            )
            yield from (_stored(r) for r in records)
            if offset is None:
                return

    def optimize(self) -> None:
        """Nothing to do: a server indexes in the background."""

    def close(self) -> None:
        self.client.close()


def _stored(record: models.Record) -> StoredPoint:
    vectors = record.vector if isinstance(record.vector, dict) else None
    return StoredPoint(id=str(record.id), payload=record.payload or {}, vectors=vectors)
