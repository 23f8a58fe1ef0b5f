"""Checkpointing: the SQLite saver under the data directory, or PostgreSQL's when
``PRP_DATABASE_URL`` names a database (several workers, or machines, then share the threads), and
which types they may restore.

LangGraph refuses (and, for now, warns about) restoring types it was not told about; the state's
pydantic models and enums are listed explicitly rather than allowing any module. A thread written by
an earlier prp whose report no longer restores is kept on disk and named as such
(``StaleThreadError``), never shown half-read.
"""

from __future__ import annotations

import asyncio
import atexit
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from enum import Enum
from types import ModuleType

import aiosqlite
import psycopg
from langgraph.checkpoint.postgres import PostgresSaver
from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool, ConnectionPool
from pydantic import BaseModel

import corpus.models
import corpus.retrieval
import research.evidence
import research.options
import research.report
import tools.citations.resolve
from config import Settings
from corpus.errors import PrpError
from research.report import FinalReport

STATE_MODULES: tuple[ModuleType, ...] = (
    corpus.models,
    corpus.retrieval,
    tools.citations.resolve,
    research.evidence,
    research.options,
    research.report,
)


def _state_types() -> list[tuple[str, str]]:
    return [
        (module.__name__, name)
        for module in STATE_MODULES
        for name, obj in sorted(vars(module).items())
        if isinstance(obj, type) and issubclass(obj, (BaseModel, Enum)) and obj.__module__ == module.__name__
    ]


def checkpoint_serde() -> JsonPlusSerializer:
    return JsonPlusSerializer(allowed_msgpack_modules=_state_types())


Checkpointer = SqliteSaver | PostgresSaver
AsyncCheckpointer = AsyncSqliteSaver | AsyncPostgresSaver

# What PostgresSaver's own connections are opened with: autocommit (its migrations create indexes
# concurrently, which no transaction may hold), rows as dicts, and no server-side prepared
# statements (they break behind a transaction pooler such as PgBouncer).
_CONNECTION = {"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row}
# Connections a process keeps to the database: one per concurrent checkpoint write or read, not per
# run (a pooled saver borrows one per operation), so a handful serves a busy worker. Each is checked
# as it is lent: a long-running service outlives a database restart.
_POOLED = {"min_size": 1, "max_size": 8, "kwargs": _CONNECTION}
# Two workers starting on an empty database would both create the tables: the first to take this
# (arbitrary, prp's own) advisory lock does, the other then finds them made; closing the setup's
# connection releases it. The others poll for it rather than wait in a statement: the migrations
# create indexes concurrently, which waits for every transaction open, a blocked lock request too.
_SETUP_LOCK = 0x70727063
_TAKE_SETUP_LOCK = "SELECT pg_try_advisory_lock(%s) AS taken"
_SETUP_POLL_S = 0.05


class DatabaseUnavailableError(PrpError):
    """``PRP_DATABASE_URL`` names a database prp cannot reach."""


@contextmanager
def open_checkpointer(settings: Settings) -> Iterator[Checkpointer]:
    if settings.storage.database_url:
        yield postgres_checkpointer(settings.storage.database_url)
    else:
        with open_sqlite_checkpointer(settings) as checkpointer:
            yield checkpointer


@contextmanager
def open_sqlite_checkpointer(settings: Settings) -> Iterator[SqliteSaver]:
    """The library's own ``checkpoints.sqlite``, whatever ``PRP_DATABASE_URL`` says."""
    settings.storage.data_dir.mkdir(parents=True, exist_ok=True)
    connection = sqlite3.connect(settings.storage.checkpoint_path, check_same_thread=False)
    try:
        yield SqliteSaver(connection, serde=checkpoint_serde())
    finally:
        connection.close()


def postgres_checkpointer(database_url: str) -> PostgresSaver:
    """A saver on the process's pool for ``database_url``: cheap to make per run or per listing, as
    the SQLite saver is; the pool (and so the tables) is made once per process."""
    return PostgresSaver(_pool(database_url), serde=checkpoint_serde())


# The process's pools, by URL: the one state kept across calls here, because every surface opens a
# checkpointer per operation (a listing, a run) and a pool per call would reconnect each time.
_pools: dict[str, ConnectionPool] = {}
_pools_lock = threading.Lock()


def _pool(database_url: str) -> ConnectionPool:
    # Held while the first pool is made: the service's first listing and first run may come at once.
    with _pools_lock:
        if database_url not in _pools:
            set_up_checkpoints(database_url)
            pool = ConnectionPool(database_url, **_POOLED, check=ConnectionPool.check_connection, open=True)
            atexit.register(pool.close)
            _pools[database_url] = pool
        return _pools[database_url]


def set_up_checkpoints(database_url: str) -> None:
    """The saver's tables, made (or migrated) if they are not yet: on a connection of its own, so a
    wrong URL fails here at once rather than after a pool's timeout."""
    try:
        with psycopg.Connection.connect(database_url, **_CONNECTION) as connection:
            while not connection.execute(_TAKE_SETUP_LOCK, (_SETUP_LOCK,)).fetchone()["taken"]:
                time.sleep(_SETUP_POLL_S)
            PostgresSaver(connection).setup()
    except psycopg.OperationalError as exc:
        raise DatabaseUnavailableError(f"PRP_DATABASE_URL: cannot use the database: {exc}") from exc


@asynccontextmanager
async def open_async_checkpointer(settings: Settings) -> AsyncIterator[AsyncCheckpointer]:
    """The same store for an asyncio server (LangGraph's, under ``prp serve``): its runs land beside
    the CLI's and the chat's, in the same file or database, restorable by the same serde. The server
    holds it for its lifetime: on PostgreSQL, a pool of its own."""
    database_url = settings.storage.database_url
    if database_url:
        await asyncio.to_thread(set_up_checkpoints, database_url)  # the same setup, off the server's loop
        async with AsyncConnectionPool(
            database_url, **_POOLED, check=AsyncConnectionPool.check_connection, open=False
        ) as pool:
            yield AsyncPostgresSaver(pool, serde=checkpoint_serde())
        return
    settings.storage.data_dir.mkdir(parents=True, exist_ok=True)
    async with aiosqlite.connect(settings.storage.checkpoint_path) as connection:
        yield AsyncSqliteSaver(connection, serde=checkpoint_serde())


class StaleThreadError(PrpError):
    """A finished thread whose report this version of prp cannot restore."""


def finished_report(thread_id: str, values: dict) -> FinalReport | None:
    """The thread's final report, None while it has none, ``StaleThreadError`` if it cannot be read."""
    report = values.get("report")
    if report is None or isinstance(report, FinalReport):
        return report
    raise StaleThreadError(
        f"thread {thread_id} was written by an earlier version of prp and cannot be opened; "
        "ask again to research it anew"
    )
