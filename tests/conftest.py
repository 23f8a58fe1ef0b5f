"""Shared fixtures. Everything runs for real (fastembed, embedded Qdrant, pdfplumber); only an LLM
would ever be faked, at its boundary."""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from config import EmbeddingSettings, Settings, StorageSettings
from corpus.embeddings import Embedder
from corpus.library import Library

from .paths import SAMPLE_DOCS
from .postgres import PostgresCluster, start_cluster

# Settings come only from what a test passes, never from the developer's shell.
for _var in (
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "QDRANT_URL",
    "QDRANT_API_KEY",
    "PRP_DATA_DIR",
    "PRP_EMBED_MODEL",
    "PRP_COLLECTION",
    "PRP_MODELS_DIR",
    "PRP_LLM",
    "PRP_LLM_SCHEMA_FORMAT",
    "PRP_LLM_MODEL",
    "PRP_LLM_PLANNING_MODEL",
    "PRP_LLM_ANSWERING_MODEL",
    "PRP_LLM_RERANKING_MODEL",
    "PRP_LLM_CONDENSING_MODEL",
    "PRP_LLM_MAX_TOKENS",
    "PRP_LOCAL_MODEL",
    "PRP_UPLOAD_MAX_MB",
    "PRP_PDF_FONT",
    "PRP_API_TOKEN",
    "PRP_WATCH",
    "PRP_DATABASE_URL",
):
    os.environ.pop(_var, None)
os.environ["LANGSMITH_TRACING"] = "false"


@pytest.fixture(scope="session")
def models_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("models")


@pytest.fixture(scope="session")
def embedder(models_dir: Path) -> Embedder:
    return Embedder(
        Settings(
            storage=StorageSettings(data_dir=models_dir.parent / "unused"),
            embeddings=EmbeddingSettings(models_path=models_dir),
        )
    )


@pytest.fixture
def make_settings(tmp_path: Path, models_dir: Path):
    def make(name: str = "data", database_url: str | None = None, **overrides) -> Settings:
        return Settings(
            storage=StorageSettings(data_dir=tmp_path / name, database_url=database_url),
            embeddings=EmbeddingSettings(models_path=models_dir),
            **overrides,
        )

    return make


@pytest.fixture
def make_library(make_settings, embedder: Embedder) -> Iterator:
    opened: list[Library] = []

    def make(name: str = "data", **overrides) -> Library:
        library = Library(make_settings(name, **overrides), embedder=embedder)
        opened.append(library)
        return library

    yield make
    for library in opened:
        library.close()


@pytest.fixture
def library_of(make_library, tmp_path: Path) -> Callable[[dict[str, str]], Library]:
    """A library of the given documents (file name -> text), ingested from a folder of them."""

    def make(documents: dict[str, str]) -> Library:
        folder = tmp_path / "docs"
        folder.mkdir()
        for name, text in documents.items():
            (folder / name).write_text(text, encoding="utf-8")
        library = make_library()
        library.ingest([folder])
        return library

    return make


def _shared_between_workers(tmp_path_factory: pytest.TempPathFactory, name: str) -> Path:
    """A folder of this test session that every xdist worker sees (its own base folder otherwise)."""
    base = tmp_path_factory.getbasetemp()
    # Under xdist each worker's base is a folder of the session's own (pytest-N/popen-gwK).
    return (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / name


@contextmanager
def _locked(lock: Path) -> Iterator[None]:
    with lock.open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def copy_sample(tmp_path_factory: pytest.TempPathFactory, models_dir: Path, embedder: Embedder):
    """``copy(data_dir, names=None)``: a library of its own at ``data_dir`` (which must not exist) holding
    the sample corpus, or only the named files of it. Each set of files is ingested once per session,
    into a library no process holds open, and copied from there: embedding it costs seconds a time. The
    xdist workers share it: the first to need a set ingests it, the others wait for it and copy it."""
    shared = _shared_between_workers(tmp_path_factory, "sample-ingested")
    shared.mkdir(exist_ok=True)

    def ingested(names: tuple[str, ...] | None) -> Path:
        key = "all" if names is None else hashlib.sha256("\0".join(names).encode()).hexdigest()[:16]
        data_dir, done = shared / key / "data", shared / f"{key}.done"
        with _locked(shared / f"{key}.lock"):
            if not done.exists():
                shutil.rmtree(data_dir, ignore_errors=True)  # what a worker that failed midway left
                ingest(data_dir, names)
                done.touch()
        return data_dir

    def ingest(data_dir: Path, names: tuple[str, ...] | None) -> None:
        settings = Settings(
            storage=StorageSettings(data_dir=data_dir), embeddings=EmbeddingSettings(models_path=models_dir)
        )
        with Library(settings, embedder=embedder) as library:
            summary = library.ingest([SAMPLE_DOCS] if names is None else [SAMPLE_DOCS / n for n in names])
        failed = [f for f in summary.files if f.outcome.value == "failed"]
        assert not failed, failed

    def copy(data_dir: Path, names: tuple[str, ...] | None = None) -> Path:
        shutil.copytree(ingested(names), data_dir)
        return data_dir

    return copy


@pytest.fixture(scope="session")
def sample_library(
    tmp_path_factory: pytest.TempPathFactory, models_dir: Path, embedder: Embedder, copy_sample
) -> Iterator[Library]:
    """The bundled sample corpus, ingested once for the whole session."""
    settings = Settings(
        storage=StorageSettings(data_dir=copy_sample(tmp_path_factory.mktemp("sample") / "data")),
        embeddings=EmbeddingSettings(models_path=models_dir),
    )
    library = Library(settings, embedder=embedder)
    yield library
    library.close()


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresCluster]:
    """A real PostgreSQL server for this pytest worker (skips when none is installed)."""
    yield from start_cluster()


@pytest.fixture
def database_url(postgres: PostgresCluster) -> str:
    """A fresh, empty PostgreSQL database for one test: ``PRP_DATABASE_URL``'s value."""
    return postgres.database()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def backend(request: pytest.FixtureRequest) -> str | None:
    """The registry's database, for a test run on both: None (the SQLite file) or a fresh PostgreSQL's URL."""
    return request.getfixturevalue("database_url") if request.param == "postgresql" else None
