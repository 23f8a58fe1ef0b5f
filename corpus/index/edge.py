"""The collection on Qdrant's embedded engine (qdrant-edge): Qdrant's Rust segments in process.

One shard per directory. prp's queries and points are written in qdrant-client's models
(``corpus.index.schema``); this module translates the part of that API prp uses, field by field, and
refuses anything else rather than guess. A second process opening the directory is refused by the
write-ahead log's lock (``ShardLocked``); the WAL stays on, since without it updates are durable
only once flushed.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import qdrant_edge as qe
from qdrant_client import models

from corpus.index.backend import SCROLL_BATCH, ScoredPayload, StoredPoint, check_dimension
from corpus.index.schema import DENSE, PAYLOAD_INDEXES, RRF_K, CollectionSchema

_CONFIG_FILE = "edge_config.json"
# A shard folder set aside while a rebuilt one takes its place (``replace_shard``).
_REPLACED = ".replaced"
_OS_ERROR = re.compile(r"Os \{ code: (\d+)")
_DISTANCES = {models.Distance.COSINE: qe.Distance.Cosine, models.Distance.DOT: qe.Distance.Dot}
_MODIFIERS = {models.Modifier.IDF: qe.Modifier.Idf}
_FIELD_TYPES = {
    models.PayloadSchemaType.KEYWORD: qe.PayloadSchemaType.Keyword,
    models.PayloadSchemaType.INTEGER: qe.PayloadSchemaType.Integer,
}


class ShardLocked(Exception):
    """Another process has the shard open."""


@contextmanager
def _engine_errors() -> Iterator[None]:
    """The engine reports every failure as a plain Exception; give back the ones callers act on:
    its directory lock, and operating-system errors (a full disk) as OSError with their errno."""
    try:
        yield
    except Exception as exc:
        if type(exc) is not Exception:
            raise
        message = str(exc)
        if "WouldBlock" in message:
            raise ShardLocked(message) from None
        os_error = _OS_ERROR.search(message)
        if os_error:
            raise OSError(int(os_error.group(1)), message) from None
        raise


class EdgeIndex:
    def __init__(self, path: Path, schema: CollectionSchema):
        self.path = path
        _finish_replace(path)
        if (path / _CONFIG_FILE).exists():
            check_dimension(str(path), _stored_dimension(path), schema.dim)
            with _engine_errors():
                self.shard = qe.EdgeShard.load(str(path))
        else:
            with _engine_errors():
                self._create(schema)
        self.sparse_names = _stored_sparse_names(path)

    def _create(self, schema: CollectionSchema) -> None:
        config = qe.EdgeConfig(
            vectors={
                name: qe.EdgeVectorParams(size=p.size, distance=_DISTANCES[p.distance])
                for name, p in schema.vectors().items()
            },
            sparse_vectors={
                name: qe.EdgeSparseVectorParams(modifier=_MODIFIERS[p.modifier] if p.modifier else None)
                for name, p in schema.sparse_vectors().items()
            },
        )
        self.path.mkdir(parents=True, exist_ok=True)
        self.shard = qe.EdgeShard.create(str(self.path), config)
        for field, field_schema in PAYLOAD_INDEXES.items():
            self.shard.update(qe.UpdateOperation.create_field_index(field, _FIELD_TYPES[field_schema]))

    def upsert(self, points: Sequence[models.PointStruct]) -> None:
        if points:
            self._update(qe.UpdateOperation.upsert_points([_point(p) for p in points]))

    def delete(self, selector: models.Filter | Sequence[str]) -> None:
        if isinstance(selector, models.Filter):
            self._update(qe.UpdateOperation.delete_points_by_filter(_filter(selector)))
        elif selector:
            self._update(qe.UpdateOperation.delete_points(list(selector)))

    def _update(self, operation: qe.UpdateOperation) -> None:
        with _engine_errors():
            self.shard.update(operation)

    def count(self, query_filter: models.Filter | None = None) -> int:
        return self.shard.count(qe.CountRequest(exact=True, filter=_filter(query_filter) if query_filter else None))

    def query(self, request: models.QueryRequest) -> list[ScoredPayload]:
        return [ScoredPayload(score=p.score, payload=p.payload or {}) for p in self.shard.query(_request(request))]

    def retrieve(self, ids: Sequence[str], with_vectors: bool = False) -> list[StoredPoint]:
        return [_stored(r) for r in self.shard.retrieve(list(ids), with_payload=True, with_vector=with_vectors)]

    def scroll(self, query_filter: models.Filter | None = None, with_vectors: bool = False) -> Iterator[StoredPoint]:
        offset = None
        while True:
            records, offset = self.shard.scroll(
                qe.ScrollRequest(
                    offset=offset,
                    limit=SCROLL_BATCH,
                    filter=_filter(query_filter) if query_filter else None,
                    with_payload=True,
                    with_vector=with_vectors,
                )
            )
            yield from (_stored(r) for r in records)
            if offset is None:
                return

    def optimize(self) -> None:
        # The engine has no background optimizer: without this, new points stay in unindexed
        # segments and every search scans them.
        with _engine_errors():
            self.shard.optimize()

    def close(self) -> None:
        self.shard.close()


def replace_shard(path: Path, fresh: Path) -> None:
    """Put the closed shard folder ``fresh`` in the place of the closed ``path``. The old folder is set
    aside first and deleted last; ``_finish_replace`` completes a replacement a crash interrupted."""
    aside = path.with_name(path.name + _REPLACED)
    shutil.rmtree(aside, ignore_errors=True)
    path.rename(aside)
    fresh.rename(path)
    shutil.rmtree(aside)


def _finish_replace(path: Path) -> None:
    """After an interrupted ``replace_shard``: the old folder back when the new one never took its place
    (the rebuild then runs again), else deleted."""
    aside = path.with_name(path.name + _REPLACED)
    if aside.exists():
        if path.exists():
            shutil.rmtree(aside)
        else:
            aside.rename(path)


def _stored_dimension(path: Path) -> int | None:
    """The dense size the shard was created with (the bindings expose no config getter)."""
    config = json.loads((path / _CONFIG_FILE).read_text())
    return config.get("vectors", {}).get(DENSE, {}).get("size")


def _stored_sparse_names(path: Path) -> frozenset[str]:
    return frozenset(json.loads((path / _CONFIG_FILE).read_text()).get("sparse_vectors", {}))


def _point(point: models.PointStruct) -> qe.Point:
    assert isinstance(point.vector, dict), "prp's points carry named vectors"
    return qe.Point(str(point.id), {name: _vector(v) for name, v in point.vector.items()}, point.payload)


def _vector(vector: object) -> list[float] | qe.SparseVector:
    if isinstance(vector, models.SparseVector):
        return qe.SparseVector(vector.indices, vector.values)
    if isinstance(vector, models.NearestQuery):
        return _vector(vector.nearest)
    if isinstance(vector, list) and all(isinstance(x, int | float) for x in vector):
        return [float(x) for x in vector]
    raise TypeError(f"unsupported vector for the embedded engine: {type(vector).__name__}")


def _stored(record: qe.Record) -> StoredPoint:
    vectors = None
    if isinstance(record.vector, dict):
        vectors = {
            name: models.SparseVector(indices=v.indices, values=v.values) if isinstance(v, qe.SparseVector) else v
            for name, v in record.vector.items()
        }
    return StoredPoint(id=str(record.id), payload=record.payload or {}, vectors=vectors)


def _request(request: models.QueryRequest) -> qe.QueryRequest:
    return qe.QueryRequest(
        limit=request.limit or 10,
        query=_scoring(request.query, request.using),
        prefetches=[_prefetch(p) for p in _as_list(request.prefetch)],
        filter=_filter(request.filter) if request.filter else None,
        params=_params(request.params),
        with_payload=bool(request.with_payload),
    )


def _prefetch(prefetch: models.Prefetch) -> qe.Prefetch:
    return qe.Prefetch(
        limit=prefetch.limit or 10,
        query=_scoring(prefetch.query, prefetch.using),
        prefetches=[_prefetch(p) for p in _as_list(prefetch.prefetch)],
        filter=_filter(prefetch.filter) if prefetch.filter else None,
        params=_params(prefetch.params),
    )


def _params(params: models.SearchParams | None) -> qe.SearchParams | None:
    if params is None:
        return None
    if params.quantization is not None or params.indexed_only or params.acorn is not None:
        raise TypeError("only hnsw_ef and exact search parameters are translated for the embedded engine")
    return qe.SearchParams(hnsw_ef=params.hnsw_ef, exact=bool(params.exact))


def _as_list(value: object) -> list:
    return [] if value is None else value if isinstance(value, list) else [value]


def _scoring(query: object, using: str | None) -> object:
    if query is None:
        return None
    if isinstance(query, models.RrfQuery):
        # Qdrant's server applies k=2 when a query leaves it out; the embedded engine needs it said.
        return qe.Fusion.Rrf(k=query.rrf.k if query.rrf.k is not None else RRF_K, weights=query.rrf.weights)
    if isinstance(query, models.FusionQuery) and query.fusion == models.Fusion.RRF:
        return qe.Fusion.Rrf(k=RRF_K)
    return qe.Query.Nearest(_vector(query), using=using)


def _filter(query_filter: models.Filter) -> qe.Filter:
    if query_filter.min_should is not None:
        raise TypeError("min_should filters are not translated for the embedded engine")
    return qe.Filter(
        must=[_condition(c) for c in _as_list(query_filter.must)] or None,
        should=[_condition(c) for c in _as_list(query_filter.should)] or None,
        must_not=[_condition(c) for c in _as_list(query_filter.must_not)] or None,
    )


def _condition(condition: object) -> object:
    if isinstance(condition, models.Filter):
        return _filter(condition)
    if not isinstance(condition, models.FieldCondition):
        raise TypeError(f"unsupported filter condition for the embedded engine: {type(condition).__name__}")
    return qe.FieldCondition(
        key=condition.key,
        match=_match(condition.match) if condition.match is not None else None,
        range=qe.RangeFloat(
            gte=condition.range.gte, gt=condition.range.gt, lte=condition.range.lte, lt=condition.range.lt
        )
        if isinstance(condition.range, models.Range)
        else None,
    )


def _match(match: object) -> object:
    if isinstance(match, models.MatchValue):
        if isinstance(match.value, bool):
            # The engine reads True as the integer 1, which no boolean payload equals: such a
            # filter would silently match nothing. prp stores flags as 0/1 instead.
            raise TypeError("boolean match values match nothing on the embedded engine; store the flag as 0/1")
        return qe.MatchValue(match.value)
    if isinstance(match, models.MatchAny):
        return qe.MatchAny(list(match.any))
    if isinstance(match, models.MatchExcept):
        return qe.MatchExcept(list(match.except_))
    raise TypeError(f"unsupported match for the embedded engine: {type(match).__name__}")
