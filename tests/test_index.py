"""The chunk index: the embedded engine answers as Qdrant does, filters keep their meaning, a server
receives exactly the collection and queries prp means, and an old local-mode library moves over."""

from __future__ import annotations

import importlib.metadata
import json
import shutil
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from qdrant_client import QdrantClient, models

from config import IndexSettings
from corpus.errors import PrpError
from corpus.index import schema
from corpus.index.client import ClientIndex
from corpus.index.edge import EdgeIndex
from corpus.index.store import ChunkStore, Hit
from corpus.index.transfer import copy_index
from corpus.library import Library
from corpus.retrieval import RetrievalOptions, SearchFilters, SearchMode
from tools.hybrid_search import hybrid_search
from tools.retrievers import MIN_PREFETCH, PREFETCH_FACTOR, RETRIEVERS, TIE_MARGIN, fuse_rrf, rank_hits
from ui.cli.main import main as cli_main

from .paths import SAMPLE_DOCS

QUERIES = [
    "How much do green roofs cool the city in summer?",
    "Which species were found on the roofs?",
    "maintenance cost per square metre",
    "stormwater retention",
]


# The reference copy is on local mode, which keeps no payload indexes and searches exactly, and says so.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Payload indexes have no effect:UserWarning"),
    pytest.mark.filterwarnings("ignore:Local mode performs exact:UserWarning"),
    # and a server that is not there has no version to check
    pytest.mark.filterwarnings("ignore:Failed to obtain server version:UserWarning"),
]


@pytest.fixture(scope="module")
def both_engines(sample_library: Library, tmp_path_factory) -> Iterator[tuple[EdgeIndex, ClientIndex]]:
    """The sample library's own embedded index, and qdrant-client's reference implementation
    (local mode) holding the very same points."""
    edge = sample_library.store.backend
    reference = ClientIndex(QdrantClient(path=str(tmp_path_factory.mktemp("reference"))), "prp_chunks")
    reference.ensure(schema.CollectionSchema(sample_library.embedder.dim))
    reference.upsert([p.as_point() for p in edge.scroll(with_vectors=True)])
    yield edge, reference
    reference.close()


def _ranked(backend, request: models.QueryRequest) -> list[tuple[float, str]]:
    return [(round(p.score, 4), p.payload["chunk_id"]) for p in backend.query(request)]


def _same_ranking(a: list[tuple[float, str]], b: list[tuple[float, str]]) -> None:
    """Same scores in the same order; chunks may swap only within a tie (engines break ties apart),
    and the tie cut by the limit is compared by score alone."""
    assert [s for s, _ in a] == pytest.approx([s for s, _ in b], abs=2e-4)
    last = a[-1][0] if a else None
    assert {c for s, c in a if s != last} == {c for s, c in b if s != last}


def _rrf(*rankings: list[tuple[float, str]], k: int = schema.RRF_K) -> dict[str, float]:
    """Qdrant's reciprocal rank fusion: each list adds 1 / (k + rank), ranks from 0."""
    fused: dict[str, float] = {}
    for ranking in rankings:
        for rank, (_, chunk_id) in enumerate(ranking):
            fused[chunk_id] = fused.get(chunk_id, 0.0) + 1 / (k + rank)
    return fused


FILTERS = [
    SearchFilters(),
    SearchFilters(include_references=True),
    SearchFilters(year_min=2021, year_max=2023),
    SearchFilters(types=["pdf", "html"]),
]


@pytest.mark.parametrize("query", QUERIES)
def test_embedded_engine_ranks_as_qdrant_does(both_engines, sample_library: Library, query: str):
    """Each retriever ranks the same chunks with the same scores on both engines, and the engine
    fuses them by Qdrant's RRF. (Fused lists are compared through the retrievers: where BM25 gives
    two chunks one score, engines order them differently, which moves their RRF terms.)"""
    edge, reference = both_engines
    doc_ids = sorted({d.doc_id for d in sample_library.registry.documents()})[:3]
    dense = sample_library.embedder.embed_query(query)
    sparse = schema.sparse_vector(sample_library.embedder.embed_sparse_query(query))
    for filters in [*FILTERS, SearchFilters(doc_ids=doc_ids)]:
        query_filter = filters.to_qdrant()
        sides = []
        for request in (schema.dense_query(dense, 32, query_filter), schema.sparse_query(sparse, 32, query_filter)):
            side = _ranked(edge, request)
            _same_ranking(side, _ranked(reference, request))
            sides.append(side)
        fused = _ranked(edge, schema.hybrid_query(dense, sparse, limit=8, prefetch_limit=32, query_filter=query_filter))
        expected = _rrf(*sides)
        assert fused and all(score == pytest.approx(expected[c], abs=1e-4) for score, c in fused)
        assert [s for s, _ in fused] == pytest.approx(sorted(expected.values(), reverse=True)[: len(fused)], abs=1e-4)
    for filters in FILTERS:
        assert edge.count(filters.to_qdrant()) == reference.count(filters.to_qdrant())


def test_reference_sections_stay_out_unless_asked(sample_library: Library):
    references = models.Filter(must=[models.FieldCondition(key="is_reference", match=models.MatchValue(value=1))])
    n_references = sample_library.store.backend.count(references)
    assert n_references > 0, "the sample corpus has reference lists"
    total = sample_library.store.count()
    assert sample_library.store.backend.count(SearchFilters().to_qdrant()) == total - n_references
    query = "references cited bibliography et al. journal"
    for mode in SearchMode:
        default = hybrid_search(sample_library, query, k=20, mode=mode)
        assert default and not any(_is_reference(sample_library, h.chunk_id) for h in default)
    asked = hybrid_search(sample_library, query, k=20, filters=SearchFilters(include_references=True))
    assert any(_is_reference(sample_library, h.chunk_id) for h in asked)


def _is_reference(library: Library, chunk_id: str) -> bool:
    (point,) = library.store.backend.retrieve([schema.point_id(chunk_id)])
    return point.payload["is_reference"] == 1


def test_translation_refuses_what_would_silently_match_nothing(sample_library: Library):
    flag = models.Filter(must_not=[models.FieldCondition(key="is_reference", match=models.MatchValue(value=True))])
    with pytest.raises(TypeError, match="0/1"):
        sample_library.store.backend.count(flag)


def test_writes_are_indexed_and_survive_reopening(make_library):
    library = make_library()
    library.ingest([SAMPLE_DOCS / "harborview_policy_brief_2023.md"])
    n = library.store.count()
    assert n == library.registry.counts()["chunks"] > 0
    settings = library.settings
    library.close()
    del library.__dict__["store"]
    reopened = ChunkStore(settings, library.embedder.dim)
    try:
        assert reopened.count() == n
    finally:
        reopened.close()


# --- the server path: what qdrant-client puts on the wire ---------------------------------------


class QdrantRecorder:
    """A scripted Qdrant REST endpoint on loopback: records every request prp's client sends and
    answers with the smallest valid reply."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, str, dict | None]] = []
        self.points = 0
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length)) if length else None
                path = self.path.split("?")[0]
                recorder.requests.append((self.command, path, body))
                self._send(recorder.reply(self.command, path, body))

            do_GET = do_PUT = do_POST = do_DELETE = _handle  # noqa: N815 (http.server's naming)

            def _send(self, result: object) -> None:
                root = self.path == "/"  # the version banner is not wrapped in a result
                data = json.dumps(result if root else {"result": result, "status": "ok", "time": 0.0}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)

    def reply(self, method: str, path: str, body: dict | None) -> object:
        if path == "/":
            return {"title": "qdrant", "version": importlib.metadata.version("qdrant-client")}
        if path.endswith("/exists"):
            return {"exists": False}
        if path.endswith("/query/batch"):
            return [{"points": []}]
        if path.endswith("/count"):
            return {"count": self.points}
        if method == "PUT" and path.endswith("/points"):
            self.points += len(body["points"])
        if method == "PUT" and path.count("/") == 2:
            return True
        return {"operation_id": 1, "status": "completed"}

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> QdrantRecorder:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def test_a_server_receives_the_collection_and_queries_prp_means(make_settings, embedder):
    with QdrantRecorder() as qdrant:
        settings = make_settings(index=IndexSettings(qdrant_url=qdrant.url))
        store = ChunkStore(settings, embedder.dim)
        dense = embedder.embed_query("green roofs")
        sparse = embedder.embed_sparse_query("green roofs")
        store.query(schema.hybrid_query(dense, schema.sparse_vector(sparse), 8, 32, SearchFilters().to_qdrant()))
        store.delete_document("doc-1")
        store.close()
    sent = {(m, p): b for m, p, b in qdrant.requests}
    assert sent[("PUT", "/collections/prp_chunks")] == {
        "vectors": {"dense": {"size": embedder.dim, "distance": "Cosine"}},
        "sparse_vectors": {"bm25": {"modifier": "idf"}, "title": {"modifier": "idf"}},
    }
    indexes = [b for m, p, b in qdrant.requests if p == "/collections/prp_chunks/index"]
    assert indexes == [
        {"field_name": "doc_id", "field_schema": "keyword"},
        {"field_name": "type", "field_schema": "keyword"},
        {"field_name": "year", "field_schema": "integer"},
        {"field_name": "is_reference", "field_schema": "integer"},
    ]
    (query,) = sent[("POST", "/collections/prp_chunks/points/query/batch")]["searches"]
    no_references = {"must_not": [{"key": "is_reference", "match": {"value": 1}}]}
    assert query["query"] == {"rrf": {"k": 2}} and query["limit"] == 8 and query["with_payload"] is True
    dense_side, sparse_side = query["prefetch"]
    assert dense_side["using"] == "dense" and dense_side["limit"] == 32 and dense_side["filter"] == no_references
    assert dense_side["params"]["hnsw_ef"] == 256
    assert dense_side["query"] == pytest.approx(dense)
    assert sparse_side["using"] == "bm25" and sparse_side["filter"] == no_references
    assert sparse_side["query"]["indices"] == sparse.indices.tolist()
    assert sent[("POST", "/collections/prp_chunks/points/delete")] == {
        "filter": {"must": [{"key": "doc_id", "match": {"value": "doc-1"}}]}
    }


@pytest.mark.parametrize(
    ("mode", "text", "sent"),
    [
        (SearchMode.HYBRID, "stormwater retention of green roofs", ["dense", "bm25", "title"]),
        (SearchMode.DENSE, "stormwater retention of green roofs", ["dense"]),
        (SearchMode.SPARSE, "stormwater retention of green roofs", ["bm25"]),
        # Only stopwords: BM25 has nothing to say, so hybrid is the dense ranking and sparse asks nothing.
        (SearchMode.HYBRID, "the of and", ["dense"]),
        (SearchMode.SPARSE, "the of and", []),
    ],
)
def test_the_options_mode_reaches_the_engine_through_the_registry(make_library, mode, text, sent):
    """A run's mode goes from its options, through the one registry of retrievers, to the queries the
    engine receives: one retriever per mode, and each builds its own queries (nothing is inferred).
    Hybrid asks for the dense, the BM25 and the title field's ranking, each ``max(20, 4k)`` deep, and fuses them itself
    (``fuse_rrf``); every ranking is asked ``TIE_MARGIN`` deeper, so ties at its end are cut by chunk id."""
    assert set(RETRIEVERS) == set(SearchMode)
    options = RetrievalOptions(k=6, search_mode=mode)
    with QdrantRecorder() as qdrant:
        library = make_library(index=IndexSettings(qdrant_url=qdrant.url))
        assert hybrid_search(library, text, options.k, options.filters, options.search_mode) == []
        library.close()
    queries = [q for _, p, b in qdrant.requests if p.endswith("/points/query/batch") for q in b["searches"]]
    assert [q["using"] for q in queries] == sent
    depth = max(MIN_PREFETCH, PREFETCH_FACTOR * options.k) if len(sent) > 1 else options.k
    for query in queries:
        assert query["limit"] == depth + TIE_MARGIN and query["with_payload"] is True and "prefetch" not in query
        if query["using"] == "dense":
            assert query["params"]["hnsw_ef"] == 256


def test_rankings_and_their_fusion_break_ties_by_chunk_id():
    """The engine returns chunks with one score in any order (another in each process): the retrievers'
    order does not depend on it."""

    def hit(chunk_id: str, score: float) -> Hit:
        return Hit(chunk_id=chunk_id, doc_id=chunk_id[0], score=score, payload={})

    dense = [hit("b:1", 0.9), hit("a:1", 0.9), hit("c:1", 0.5)]
    sparse = [hit("c:1", 7.0), hit("d:1", 3.0), hit("e:1", 3.0)]
    for rankings in ([dense, sparse], [list(reversed(dense)), list(reversed(sparse))]):
        ordered = [rank_hits(r, 3) for r in rankings]
        fused = fuse_rrf(ordered, 4)
        # a:1 and b:1 tie on the dense side (a first); d:1 and e:1 on BM25; c:1 is in both.
        assert [(h.chunk_id, round(h.score, 4)) for h in fused] == [
            ("c:1", round(1 / 4 + 1 / 2, 4)),
            ("a:1", 0.5),
            ("b:1", round(1 / 3, 4)),
            ("d:1", round(1 / 3, 4)),
        ]


def test_prp_index_copies_the_library_to_a_server(make_library, monkeypatch, capsys):
    library = make_library()
    library.ingest([SAMPLE_DOCS / "harborview_policy_brief_2023.md", SAMPLE_DOCS / "green_roof_faq_2021.html"])
    points = library.store.count()
    library.close()
    monkeypatch.setenv("PRP_DATA_DIR", str(library.settings.storage.data_dir))
    monkeypatch.setenv("PRP_MODELS_DIR", str(library.settings.models_dir))
    assert cli_main(["index"]) == 0
    assert f"points: {points}  registry chunks: {points}  (in step)" in capsys.readouterr().out
    with QdrantRecorder() as qdrant:
        assert cli_main(["index", "copy", "--to", qdrant.url]) == 0
    assert f"copied {points} points to {qdrant.url}" in capsys.readouterr().out
    upserts = [b for m, p, b in qdrant.requests if m == "PUT" and p == "/collections/prp_chunks/points"]
    sent = [p for b in upserts for p in b["points"]]
    assert len(sent) == points and {p["payload"]["doc_id"] for p in sent} == {
        d.doc_id for d in library.registry.documents()
    }
    assert all(set(p["vector"]) == {"dense", "bm25", "title"} and p["payload"]["is_reference"] in (0, 1) for p in sent)
    # Copying back from a server that has no such collection is an error, not an empty library.
    with QdrantRecorder() as empty:
        assert cli_main(["index", "copy", "--from", empty.url]) == 2
    assert "has no collection 'prp_chunks'" in capsys.readouterr().err
    assert not any(m == "PUT" for m, _, _ in empty.requests)
    # A server that is not there is named, with what to check; no traceback.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{probe.getsockname()[1]}"
    assert cli_main(["index", "copy", "--to", closed]) == 2
    assert f"could not use the Qdrant server at {closed}" in capsys.readouterr().err
    monkeypatch.setenv("QDRANT_URL", closed)
    assert cli_main(["search", "green roofs"]) == 2
    assert "check that it is running" in capsys.readouterr().err


def test_copy_goes_both_ways_and_refuses_a_non_empty_target(sample_library: Library, tmp_path):
    server = ClientIndex(QdrantClient(path=str(tmp_path / "server")), "prp_chunks")
    collection = schema.CollectionSchema(sample_library.embedder.dim)
    server.ensure(collection)
    assert copy_index(sample_library.store.backend, server) == sample_library.store.count()
    back = EdgeIndex(tmp_path / "back", collection)
    try:
        assert copy_index(server, back) == sample_library.store.count()
        original = {p.id: p for p in sample_library.store.backend.scroll(with_vectors=True)}
        returned = {p.id: p for p in back.scroll(with_vectors=True)}
        assert returned.keys() == original.keys()
        assert all(returned[i].payload == p.payload for i, p in original.items())
        with pytest.raises(PrpError, match="already holds"):
            copy_index(server, back)
        empty = EdgeIndex(tmp_path / "empty", collection)
        with pytest.raises(PrpError, match="nothing to copy"):
            copy_index(empty, server)
        empty.close()
    finally:
        back.close()
        server.close()


# --- moving a library built on qdrant-client's local mode ---------------------------------------


def _local_mode_library(sample_library: Library, settings, lost: str | None = None) -> None:
    """The sample library as an earlier prp left it: local mode, flags stored as booleans, and
    ``lost``'s vectors missing."""
    settings.storage.data_dir.mkdir(parents=True)
    shutil.copy(sample_library.settings.storage.registry_path, settings.storage.registry_path)
    old = ClientIndex(QdrantClient(path=str(settings.storage.local_mode_path)), settings.index.collection)
    old.ensure(schema.CollectionSchema(sample_library.embedder.dim))
    points = [
        p.as_point() for p in sample_library.store.backend.scroll(with_vectors=True) if p.payload["doc_id"] != lost
    ]
    for p in points:
        p.payload["is_reference"] = bool(p.payload["is_reference"])
    old.upsert(points)
    old.close()


def test_a_local_mode_library_moves_without_reparsing(sample_library: Library, make_settings, embedder, capfd):
    settings = make_settings("old")
    _local_mode_library(sample_library, settings, lost=sample_library.registry.documents()[0].doc_id)
    library = Library(settings, embedder=embedder)
    try:
        assert library.store.count() == sample_library.store.count()
        err = capfd.readouterr().err
        assert "moved" in err and "1 embedded again" in err and "local-mode-moved" in err
        assert not settings.storage.local_mode_path.exists()
        assert (settings.storage.data_dir / "qdrant.local-mode-moved").is_dir()
        # The same points: payloads as prp writes them now, vectors as they were.
        moved = {p.id: p for p in library.store.backend.scroll(with_vectors=True)}
        original = {p.id: p for p in sample_library.store.backend.scroll(with_vectors=True)}
        assert moved.keys() == original.keys()
        for point_id, point in original.items():
            assert moved[point_id].payload == point.payload
            assert moved[point_id].vectors[schema.DENSE] == pytest.approx(point.vectors[schema.DENSE], abs=1e-5)
            assert moved[point_id].vectors[schema.SPARSE].indices == point.vectors[schema.SPARSE].indices
        assert hybrid_search(library, QUERIES[0])
    finally:
        library.close()
    # Opening it again does not move anything.
    with Library(settings, embedder=embedder) as again:
        assert again.store.count() == sample_library.store.count()
    assert "moved" not in capfd.readouterr().err


def test_an_interrupted_move_starts_over(sample_library: Library, make_settings, embedder, monkeypatch):
    settings = make_settings("old")
    _local_mode_library(sample_library, settings)
    writes, upsert = [], ChunkStore.upsert_points

    def interrupted_at_the_third(store, points):
        writes.append(len(points))
        if len(writes) == 3:
            raise KeyboardInterrupt
        return upsert(store, points)

    monkeypatch.setattr(ChunkStore, "upsert_points", interrupted_at_the_third)
    library = Library(settings, embedder=embedder)
    with pytest.raises(KeyboardInterrupt):
        _ = library.store
    assert settings.storage.local_mode_path.is_dir()  # nothing is given up until every point is written
    library.close()
    monkeypatch.undo()
    with Library(settings, embedder=embedder) as again:
        assert again.store.count() == sample_library.store.count()
    assert not settings.storage.local_mode_path.exists()
