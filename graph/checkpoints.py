"""Checkpointing: the SQLite saver under the data directory, and which types it may restore.

LangGraph refuses (and, for now, warns about) restoring types it was not told about; the state's
pydantic models and enums are listed explicitly rather than allowing any module.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from enum import Enum
from types import ModuleType

from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.checkpoint.sqlite import SqliteSaver
from pydantic import BaseModel

import corpus.models
import graph.state
import tools.hybrid_search
import tools.resolve_citation
from corpus.config import Settings

STATE_MODULES: tuple[ModuleType, ...] = (corpus.models, tools.hybrid_search, tools.resolve_citation, graph.state)


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
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    connection = sqlite3.connect(settings.checkpoint_path, check_same_thread=False)
    try:
        yield SqliteSaver(connection, serde=checkpoint_serde())
    finally:
        connection.close()
