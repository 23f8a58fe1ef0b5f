"""Research runs as the checkpointer keeps them: the list of threads, and one thread's latest state.

Every research run is one LangGraph thread. Listing reads the saver's tables directly (two queries,
then only the small ``topic``, ``single_question`` and ``report`` writes are deserialised):
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
# Oldest first, so that of a channel written more than once the latest is kept.
_WRITES_SQL = """
SELECT thread_id, channel, type, {value} FROM {writes}
WHERE checkpoint_ns = '' AND channel IN ('topic', 'single_question', 'report') AND thread_id IN ({threads})
ORDER BY checkpoint_id, task_id, idx
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
    """One saver's names for the listing's rows, and how it runs a query."""

    placeholder: str
    writes: str
    value: str
    rows: Callable[[Checkpointer, str, tuple], list[tuple]]

    def threads_sql(self) -> str:
        return _THREADS_SQL.format(p=self.placeholder)

    def writes_sql(self, threads: int) -> str:
        return _WRITES_SQL.format(value=self.value, writes=self.writes, threads=", ".join([self.placeholder] * threads))


_SQLITE = _Tables("?", "writes", "value", _sqlite_rows)
_POSTGRES = _Tables("%s", "checkpoint_writes", "blob", _postgres_rows)


def _tables(checkpointer: Checkpointer) -> _Tables:
    return _POSTGRES if isinstance(checkpointer, PostgresSaver) else _SQLITE


def list_threads(checkpointer: Checkpointer, limit: int = 200) -> list[RunSummary]:
    """The most recently active runs first."""
    tables = _tables(checkpointer)
    rows = tables.rows(checkpointer, tables.threads_sql(), (limit,))
    writes = _last_writes(checkpointer, tables, [thread_id for thread_id, _, _ in rows])
    summaries = []
    for thread_id, first_id, _ in rows:
        topic = _read(checkpointer, writes.get((thread_id, "topic"))) or ""
        single = bool(_read(checkpointer, writes.get((thread_id, "single_question"))))
        stored = _read(checkpointer, writes.get((thread_id, "report")))
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


def served_graph(checkpointer: BaseCheckpointSaver, thread_id: str) -> str | None:
    """The graph a LangGraph API server ran ``thread_id`` on, as its latest checkpoint records it
    (``graph_id``); None for a thread no such server ran, or no thread."""
    latest = checkpointer.get_tuple({"configurable": {"thread_id": thread_id}})
    graph = (latest.metadata or {}).get("graph_id") if latest is not None else None
    return graph if isinstance(graph, str) else None


def _last_writes(checkpointer: Checkpointer, tables: _Tables, thread_ids: list[str]) -> dict[tuple, tuple]:
    """Each thread's latest ``topic``, ``single_question`` and ``report`` writes, still serialised
    (by thread and channel): one query for the whole list, and only what is shown is read."""
    if not thread_ids:
        return {}
    rows = tables.rows(checkpointer, tables.writes_sql(len(thread_ids)), tuple(thread_ids))
    return {(thread_id, channel): (kind, value) for thread_id, channel, kind, value in rows}


def _read(checkpointer: Checkpointer, stored: tuple | None):
    return checkpointer.serde.loads_typed(stored) if stored else None
