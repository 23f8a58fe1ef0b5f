"""Checkpointing: the SQLite saver under the data directory, and which types it may restore.

LangGraph refuses (and, for now, warns about) restoring types it was not told about; the state's
pydantic models and enums are listed explicitly rather than allowing any module. A thread written by
an earlier prp whose report no longer restores is kept on disk and named as such
(``StaleThreadError``), never shown half-read.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from enum import Enum
from types import ModuleType

import aiosqlite
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
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


@contextmanager
def open_checkpointer(settings: Settings) -> Iterator[SqliteSaver]:
    settings.storage.data_dir.mkdir(parents=True, exist_ok=True)
    connection = sqlite3.connect(settings.storage.checkpoint_path, check_same_thread=False)
    try:
        yield SqliteSaver(connection, serde=checkpoint_serde())
    finally:
        connection.close()


@asynccontextmanager
async def open_async_checkpointer(settings: Settings) -> AsyncIterator[AsyncSqliteSaver]:
    """The same store for an asyncio server (LangGraph's, under ``prp serve``): its runs land beside
    the CLI's and the chat's, in the same file, restorable by the same serde."""
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
