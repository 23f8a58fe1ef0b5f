"""Research runs as the checkpointer keeps them: the list of threads, and one thread's latest state.

Every research run is one LangGraph thread. Listing reads the saver's tables directly (one pass of
SQL, then only the small ``topic``, ``single_question`` and ``report`` writes are deserialised):
loading every thread's full state through the graph would deserialise all the evidence of every run
just to show a list. The SQLite and PostgreSQL savers keep the same rows under different table and
column names; ``_Tables`` holds that difference, everything above it is one code path.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.postgres import PostgresSaver
from langgraph.checkpoint.sqlite import SqliteSaver
from psycopg.rows import tuple_row

from graph.build import build_graph
from graph.checkpoints import Checkpointer
from research.report import FinalReport
from research.runs import RunSummary

_THREADS_SQL = """
SELECT thread_id, MIN(checkpoint_id) AS first_id, MAX(checkpoint_id) AS last_id
FROM checkpoints WHERE checkpoint_ns = ''
GROUP BY thread_id ORDER BY last_id DESC LIMIT {p}
"""
_LAST_WRITE_SQL = """
SELECT type, {value} FROM {writes} WHERE thread_id = {p} AND checkpoint_ns = '' AND channel = {p}
ORDER BY checkpoint_id DESC LIMIT 1
"""


def _sqlite_rows(checkpointer: SqliteSaver, sql: str, parameters: tuple) -> list[tuple]:
    checkpointer.setup()  # the saver creates its tables on first use; there may have been none yet
    with checkpointer.lock:
        return checkpointer.conn.execute(sql, parameters).fetchall()


def _postgres_rows(checkpointer: PostgresSaver, sql: str, parameters: tuple) -> list[tuple]:
    # prp's PostgreSQL savers borrow from a pool whose tables were set up when it was made.
    with checkpointer.conn.connection() as connection, connection.cursor(row_factory=tuple_row) as cursor:
        return cursor.execute(sql, parameters).fetchall()


@dataclass(frozen=True)
class _Tables:
    """One saver's SQL for the listing, and how it runs it."""

    threads: str
    last_write: str
    rows: Callable[[Checkpointer, str, tuple], list[tuple]]


_SQLITE = _Tables(
    _THREADS_SQL.format(p="?"), _LAST_WRITE_SQL.format(p="?", value="value", writes="writes"), _sqlite_rows
)
_POSTGRES = _Tables(
    _THREADS_SQL.format(p="%s"),
    _LAST_WRITE_SQL.format(p="%s", value="blob", writes="checkpoint_writes"),
    _postgres_rows,
)


def _tables(checkpointer: Checkpointer) -> _Tables:
    return _POSTGRES if isinstance(checkpointer, PostgresSaver) else _SQLITE


def list_threads(checkpointer: Checkpointer, limit: int = 200) -> list[RunSummary]:
    """The most recently active runs first."""
    tables = _tables(checkpointer)
    rows = tables.rows(checkpointer, tables.threads, (limit,))
    summaries = []
    for thread_id, first_id, _ in rows:
        topic = _last_write(checkpointer, thread_id, "topic") or ""
        single = bool(_last_write(checkpointer, thread_id, "single_question"))
        stored = _last_write(checkpointer, thread_id, "report")
        # A report an earlier prp wrote may no longer restore: listed, but not as this version's.
        report = stored if isinstance(stored, FinalReport) else None
        first = checkpointer.get_tuple(
            {"configurable": {"thread_id": thread_id, "checkpoint_ns": "", "checkpoint_id": first_id}}
        )
        summaries.append(
            RunSummary(
                thread_id=thread_id,
                topic=topic,
                single_question=single,
                started=first.checkpoint["ts"] if first else "",
                finished=stored is not None,
                mode=report.mode if report else ("earlier prp version" if stored is not None else None),
                citations=len(report.citations) if report else 0,
            )
        )
    return summaries


def thread_state(checkpointer: BaseCheckpointSaver, thread_id: str) -> dict:
    """The latest checkpointed state of a run, finished or not; empty if there is no such thread."""
    snapshot = build_graph(checkpointer).get_state({"configurable": {"thread_id": thread_id}})
    return dict(snapshot.values or {})


def _last_write(checkpointer: Checkpointer, thread_id: str, channel: str):
    tables = _tables(checkpointer)
    rows = tables.rows(checkpointer, tables.last_write, (thread_id, channel))
    return checkpointer.serde.loads_typed((rows[0][0], rows[0][1])) if rows else None
