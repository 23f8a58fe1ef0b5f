"""A library's threads moved from its SQLite checkpoints into PostgreSQL (``prp database migrate``).

The copy goes through the savers' public API (``list``, ``put``, ``put_writes``), so each saver keeps
its own layout: every checkpoint of every thread and namespace, with its id, its parent and the
writes still pending on it, lands as it was; a thread copied is resumed or continued from PostgreSQL
as from SQLite.
"""

from __future__ import annotations

from collections import defaultdict

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import CheckpointTuple
from langgraph.checkpoint.postgres import PostgresSaver

from config import Settings
from corpus.errors import PrpError
from graph.checkpoints import open_sqlite_checkpointer, postgres_checkpointer


class TargetNotEmptyError(PrpError):
    """The database already holds threads: a copy would mix two histories."""


def copy_threads(settings: Settings, database_url: str) -> int:
    """Copy every thread of the library's ``checkpoints.sqlite`` into ``database_url``; the number
    of threads copied. A database that already holds threads is refused; a copy that fails part way
    takes back what it wrote, so it can be run again."""
    target = postgres_checkpointer(database_url)
    if next(target.list(None, limit=1), None) is not None:
        raise TargetNotEmptyError(
            "the database already holds research threads: copy into an empty one (or keep using it as it is)"
        )
    threads: set[str] = set()
    try:
        with open_sqlite_checkpointer(settings) as source:
            for item in source.list(None):
                threads.add(item.config["configurable"]["thread_id"])
                _copy_checkpoint(target, item)
    except BaseException:
        for thread_id in threads:
            target.delete_thread(thread_id)
        raise
    return len(threads)


def _copy_checkpoint(target: PostgresSaver, item: CheckpointTuple) -> None:
    configurable = item.config["configurable"]
    # ``put`` takes the parent's id where the graph would pass it: in the config it was given.
    config: RunnableConfig = {
        "configurable": {"thread_id": configurable["thread_id"], "checkpoint_ns": configurable["checkpoint_ns"]}
    }
    if item.parent_config:
        config["configurable"]["checkpoint_id"] = item.parent_config["configurable"]["checkpoint_id"]
    # Every channel's value as of this checkpoint is stored with it, not only the ones it changed.
    saved = target.put(config, item.checkpoint, item.metadata, item.checkpoint["channel_versions"])
    by_task: defaultdict[str, list[tuple[str, object]]] = defaultdict(list)
    for task_id, channel, value in item.pending_writes or []:
        by_task[task_id].append((channel, value))
    for task_id, writes in by_task.items():
        target.put_writes(saved, writes, task_id)
