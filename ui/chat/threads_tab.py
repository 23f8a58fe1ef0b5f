"""The Threads tab: past conversations from the checkpointer, reopened in the chat or resumed."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from textwrap import shorten

import gradio as gr

from corpus.text import counted
from research.options import ResearchOptions
from ui.chat.chat_tab import ELLIPSIS, ChatSession, conversation_history, panel_updates, run_turn
from ui.chat.settings_panel import with_options
from ui.core.conversations import Conversation
from ui.core.local import LocalPortal

COLUMNS = ["Started (UTC)", "Conversation", "Runs", "First question or topic", "Status", "Mode", "Citations"]
CONVERSATION = COLUMNS.index("Conversation")


@dataclass(frozen=True)
class ThreadsTab:
    table: gr.Dataframe
    choice: gr.Dropdown
    open: gr.Button
    resume: gr.Button
    refresh: gr.Button


def _status(c: Conversation) -> str:
    unfinished = sum(1 for r in c.runs if not r.finished)
    return "finished" if not unfinished else f"{unfinished} interrupted"


def threads_rows(conversations: list[Conversation]) -> list[list]:
    return [
        [
            c.started.replace("T", " ")[:19],
            c.conversation,
            len(c.runs),
            c.title,
            _status(c),
            ", ".join(sorted({r.mode for r in c.runs if r.mode})) or "-",
            sum(r.citations for r in c.runs),
        ]
        for c in conversations
    ]


def threads_choices(conversations: list[Conversation]) -> list[tuple[str, str]]:
    return [
        (
            f"{c.started[:16].replace('T', ' ')} \u00b7 {shorten(c.title, 80, placeholder=ELLIPSIS)} "
            f"({counted(len(c.runs), 'run')}, {_status(c)})",
            c.conversation,
        )
        for c in conversations
    ]


def build_threads_tab() -> ThreadsTab:
    """Empty until the page loads (``refresh_threads``): runs are read from the checkpointer then,
    not while the service starts."""
    gr.Markdown(
        "Every run is checkpointed (in `checkpoints.sqlite` under the data directory, or in the "
        "PostgreSQL database of `PRP_DATABASE_URL`), including runs from `prp ask` / `prp report`. "
        "Open a conversation to read it again with its evidence, or resume a run that was interrupted."
    )
    table = gr.Dataframe(
        value=[],
        headers=COLUMNS,
        interactive=False,
        wrap=True,
        elem_id="prp-threads-table",
        column_widths=["14%", "12%", "5%", "45%", "10%", "7%", "7%"],
        label="Conversations: click a row to choose it",
    )
    with gr.Row(equal_height=True):
        choice = gr.Dropdown([], label="Conversation", scale=4)
        open_button = gr.Button("Open in chat", variant="primary", scale=1)
        resume = gr.Button("Resume interrupted run", scale=1)
        refresh = gr.Button("Refresh", scale=1)
    return ThreadsTab(table, choice, open_button, resume, refresh)


def refresh_threads(portal: LocalPortal) -> list:
    conversations = portal.threads()
    return [threads_rows(conversations), gr.update(choices=threads_choices(conversations))]


def conversation_of_row(event: gr.SelectData) -> str | None:
    """A click anywhere in a table row picks that row's conversation."""
    row = event.row_value or []
    return row[CONVERSATION] if len(row) > CONVERSATION else None


def _runs(portal: LocalPortal, conversation: str | None) -> list[str]:
    if not conversation:
        raise gr.Error("Choose a conversation first.")
    for c in portal.threads():
        if c.conversation == conversation:
            return [r.thread_id for r in c.runs]
    raise gr.Error(f"No conversation {conversation!r} in the checkpoint store.")


def open_conversation(portal: LocalPortal, conversation: str | None) -> list:
    """Yields ``[chatbot, session, *panel, tabs]``: the conversation back in the chat."""
    runs = _runs(portal, conversation)
    history, last = conversation_history(portal, runs)
    session = ChatSession(conversation=conversation, turns=runs)
    first = last.report.citations[0].number if last and last.report.citations else None
    return [history, session, *panel_updates(portal, last, first), gr.Tabs(selected="research")]


@with_options
def resume_conversation(portal: LocalPortal, conversation: str | None, *, options: ResearchOptions) -> Iterator[list]:
    """Reopen the conversation, then resume its interrupted run with the settings panel's current
    values (as for a new run). Yields ``[chatbot, session, *panel, tabs]``."""
    runs = _runs(portal, conversation)
    unfinished = [t for t in runs if "report" not in portal.runs.state(t)]
    if not unfinished:
        raise gr.Error("Every run of this conversation finished; open it instead.")
    thread_id = unfinished[-1]
    state = portal.runs.state(thread_id)
    history, _ = conversation_history(portal, [t for t in runs if t != thread_id])
    session = ChatSession(conversation=conversation, turns=[t for t in runs if t != thread_id])
    tabs = gr.Tabs(selected="research")
    for history_value, session_value, *panel in run_turn(
        portal, session, history, state.get("topic", ""), bool(state.get("single_question")), options, thread_id
    ):
        yield [history_value, session_value, *panel, tabs]
