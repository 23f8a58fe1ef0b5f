"""Research runs as the checkpointer keeps them: the list of threads, and one thread's latest state.

Every research run is one LangGraph thread. Listing reads the SQLite saver's tables directly (one
pass of SQL, then only the small ``topic``, ``single_question`` and ``report`` writes are
deserialised): loading every thread's full state through the graph would deserialise all the
evidence of every run just to show a list.
"""

from __future__ import annotations

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.sqlite import SqliteSaver

from graph.build import build_graph
from research.report import FinalReport
from research.runs import RunSummary

_THREADS_SQL = """
SELECT thread_id, MIN(checkpoint_id) AS first_id, MAX(checkpoint_id) AS last_id
FROM checkpoints WHERE checkpoint_ns = ''
GROUP BY thread_id ORDER BY last_id DESC LIMIT ?
"""
_LAST_WRITE_SQL = """
SELECT type, value FROM writes WHERE thread_id = ? AND checkpoint_ns = '' AND channel = ?
ORDER BY checkpoint_id DESC LIMIT 1
"""


def list_threads(checkpointer: SqliteSaver, limit: int = 200) -> list[RunSummary]:
    """The most recently active runs first."""
    checkpointer.setup()  # the saver creates its tables on first use; there may have been none yet
    with checkpointer.lock:
        rows = checkpointer.conn.execute(_THREADS_SQL, (limit,)).fetchall()
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


def _last_write(checkpointer: SqliteSaver, thread_id: str, channel: str):
    with checkpointer.lock:
        row = checkpointer.conn.execute(_LAST_WRITE_SQL, (thread_id, channel)).fetchone()
    return checkpointer.serde.loads_typed((row[0], row[1])) if row else None
