"""Past research runs, read from the graph's SQLite checkpointer, grouped into conversations.

Every research run is one LangGraph thread. The chat names its runs ``<conversation>.<turn>`` so a
conversation (several questions in one chat) can be reopened whole; a run started elsewhere (``prp
ask``/``prp report``, whose thread ids have no dot) is a conversation of one run.

Listing reads the saver's tables directly (one pass of SQL, then only the small ``topic`` and
``report`` writes are deserialised): loading every thread's full state through the graph would
deserialise all the evidence of every run just to show a list.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from langgraph.checkpoint.sqlite import SqliteSaver

from research.report import FinalReport

TURN_SEPARATOR = "."


def new_conversation_id() -> str:
    return uuid.uuid4().hex[:10]


def run_thread_id(conversation: str, turn: int) -> str:
    return f"{conversation}{TURN_SEPARATOR}{turn}"


def conversation_of(thread_id: str) -> str:
    return thread_id.split(TURN_SEPARATOR, 1)[0]


def turn_of(thread_id: str) -> int:
    _, _, turn = thread_id.partition(TURN_SEPARATOR)
    return int(turn) if turn.isdigit() else 1


@dataclass(frozen=True)
class ThreadSummary:
    thread_id: str
    topic: str
    single_question: bool
    started: str  # ISO 8601, UTC
    finished: bool
    mode: str | None
    citations: int

    @property
    def conversation(self) -> str:
        return conversation_of(self.thread_id)

    @property
    def kind(self) -> str:
        return "question" if self.single_question else "topic report"


@dataclass(frozen=True)
class ConversationSummary:
    conversation: str
    runs: list[ThreadSummary]  # in turn order

    @property
    def started(self) -> str:
        return self.runs[0].started

    @property
    def title(self) -> str:
        return self.runs[0].topic


_THREADS_SQL = """
SELECT thread_id, MIN(checkpoint_id) AS first_id, MAX(checkpoint_id) AS last_id
FROM checkpoints WHERE checkpoint_ns = ''
GROUP BY thread_id ORDER BY last_id DESC LIMIT ?
"""
_LAST_WRITE_SQL = """
SELECT type, value FROM writes WHERE thread_id = ? AND checkpoint_ns = '' AND channel = ?
ORDER BY checkpoint_id DESC LIMIT 1
"""


def list_threads(checkpointer: SqliteSaver, limit: int = 200) -> list[ThreadSummary]:
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
            ThreadSummary(
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


def list_conversations(checkpointer: SqliteSaver, limit: int = 200) -> list[ConversationSummary]:
    """Conversations, most recently active first; each with its runs in turn order."""
    grouped: dict[str, list[ThreadSummary]] = {}
    for summary in list_threads(checkpointer, limit):
        grouped.setdefault(summary.conversation, []).append(summary)
    return [
        ConversationSummary(conversation, sorted(runs, key=lambda r: turn_of(r.thread_id)))
        for conversation, runs in grouped.items()
    ]


def _last_write(checkpointer: SqliteSaver, thread_id: str, channel: str):
    with checkpointer.lock:
        row = checkpointer.conn.execute(_LAST_WRITE_SQL, (thread_id, channel)).fetchone()
    return checkpointer.serde.loads_typed((row[0], row[1])) if row else None
