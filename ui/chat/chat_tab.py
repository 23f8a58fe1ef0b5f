"""The Research tab: the chat that runs the graph with live progress, the evidence panel that opens
a citation on its page, the evidence cards, and the downloads of the selected report."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from contextlib import suppress
from dataclasses import dataclass, field
from textwrap import shorten
from typing import NamedTuple

import gradio as gr

from research.options import ResearchOptions
from ui.chat.assets import CITATION_BRIDGE_JS
from ui.chat.evidence import citation_panel
from ui.chat.evidence_cards import evidence_cards
from ui.chat.report_html import parse_cite_ref, report_html
from ui.chat.research_stream import Failed, Finished, Progress, stream_research
from ui.chat.settings_panel import SettingsPanel, build_settings_panel, with_options
from ui.core.conversations import new_conversation_id, run_thread_id, turn_of
from ui.core.errors import JobFinishedError, QueryTooLongError, ThreadNotFoundError
from ui.core.exports.record import ReportRecord
from ui.core.local import LocalPortal, mode_name

QUESTION, TOPIC = "question", "topic"
ELLIPSIS = " \u2026"  # where a long title is cut, between words
#: How many outputs ``ChatTab.panel`` has (updates that leave the panel as it is skip each one).
PANEL_OUTPUTS = 8
EVIDENCE_HINT = (
    '<p class="prp-note">Click a citation marker such as <a class="prp-cite">[1]</a> in an answer, or pick '
    "one below, to see the quoted span in its block and, for PDFs, on the page.</p>"
)


@dataclass
class ChatSession:
    """One browser session's conversation: its id and its runs' thread ids, in order."""

    conversation: str = field(default_factory=new_conversation_id)
    turns: list[str] = field(default_factory=list)

    def next_thread_id(self) -> str:
        return run_thread_id(self.conversation, max((turn_of(t) for t in self.turns), default=0) + 1)


@dataclass(frozen=True)
class ChatTab:
    chatbot: gr.Chatbot
    message: gr.Textbox
    kind: gr.Radio
    run: gr.Button
    stop: gr.Button
    new_conversation: gr.Button
    session: gr.State
    settings: SettingsPanel
    bridge: gr.HTML
    citation: gr.Dropdown
    header: gr.HTML
    passage: gr.HTML
    zoom: gr.Image
    image: gr.Image
    image_note: gr.Markdown
    cards: gr.HTML
    exports: gr.File

    @property
    def panel(self) -> list:
        """The outputs ``panel_updates`` fills, in its order (``PANEL_OUTPUTS`` of them)."""
        return [
            self.citation,
            self.header,
            self.passage,
            self.zoom,
            self.image,
            self.image_note,
            self.cards,
            self.exports,
        ]


def example_question(portal: LocalPortal) -> str:
    """The message box's hint: a question about the library's most recently added document, from
    its title ("e.g. How Much Do Green Roofs Cool the Street?", "e.g. What does the library say about
    Carbon Uptake and Air Pollutant Removal by Extensive Green Roofs?"), never about a document the
    library does not hold."""
    documents = sorted(portal.documents(), key=lambda d: (d.added_at, d.doc_id))
    if not documents:
        return "Add documents in the Library tab, then ask about them"
    # The main title: up to a subtitle's ": ", or up to and with the "?" of a title that asks; one
    # that reads as a subject (three words or more, not a label in capitals) where there is one.
    mains = [re.split(r"(?<=\?)\s|:\s", d.title.strip(), maxsplit=1)[0] for d in documents]
    subjects = [m for m in mains if len(m.split()) >= 3 and not m.isupper()]
    main = (subjects or mains)[-1]
    if main.endswith("?"):
        return f"e.g. {shorten(main, 90, placeholder=ELLIPSIS)}"
    return f"e.g. What does the library say about {shorten(main, 70, placeholder=ELLIPSIS)}?"


def build_chat_tab(portal: LocalPortal) -> ChatTab:
    session = gr.State(None)
    with gr.Row(equal_height=False):
        with gr.Column(scale=11, min_width=480):
            chat = _chat_column(portal)
        with gr.Column(scale=9, min_width=380, elem_id="prp-evidence"):
            evidence = _evidence_column()
    return ChatTab(
        chat.chatbot,
        chat.message,
        chat.kind,
        chat.run,
        chat.stop,
        chat.new_conversation,
        session,
        chat.settings,
        evidence.bridge,
        evidence.citation,
        evidence.header,
        evidence.passage,
        evidence.zoom,
        evidence.image,
        evidence.image_note,
        evidence.cards,
        chat.exports,
    )


class _ChatColumn(NamedTuple):
    chatbot: gr.Chatbot
    message: gr.Textbox
    run: gr.Button
    stop: gr.Button
    kind: gr.Radio
    new_conversation: gr.Button
    settings: SettingsPanel
    exports: gr.File


def _chat_column(portal: LocalPortal) -> _ChatColumn:
    """The chat, the message box and its buttons, the research settings and the downloads."""
    chatbot = gr.Chatbot(
        label="Research chat",
        show_label=False,  # its badge would sit over the first line of the chat
        height=640,
        elem_id="prp-chat",
        layout="panel",
        feedback_options=None,
        buttons=["copy"],
        placeholder=(
            "<b>Ask a question about your documents, or give a topic for a full report.</b><br>"
            "Every claim in an answer is cited; click a citation to see it on its page."
        ),
    )
    with gr.Row(equal_height=True):
        message = gr.Textbox(
            label="Message",
            show_label=False,
            scale=6,
            placeholder=example_question(portal),
            elem_id="prp-message",
            lines=1,
            max_lines=4,
        )
        run = gr.Button("Research", variant="primary", scale=1, min_width=110, elem_id="prp-run")
        stop = gr.Button("Stop", variant="secondary", scale=0, min_width=70, elem_id="prp-stop")
    with gr.Row(equal_height=True):
        kind = gr.Radio(
            [("Question (one cited answer)", QUESTION), ("Topic report (plan, sub-questions, report)", TOPIC)],
            value=QUESTION,
            show_label=False,
            scale=4,
            elem_id="prp-kind",
        )
        new_conversation = gr.Button("New conversation", size="sm", scale=1, min_width=110)
    with gr.Accordion("Research settings (apply to the next run)", open=False):
        settings = build_settings_panel(portal.document_choices())
    gr.Markdown(
        "**Downloads for the selected report**: evidence table (CSV), annotated bibliography "
        "(BibTeX, RIS, Markdown), report (Markdown, PDF), contradiction map (CSV, Markdown); for a "
        "conversation of several turns, the whole conversation's too (`conversation-…`).",
        elem_classes="prp-note",
    )
    exports = gr.File(label="Downloads", file_count="multiple", interactive=False, elem_id="prp-exports")
    return _ChatColumn(chatbot, message, run, stop, kind, new_conversation, settings, exports)


class _EvidenceColumn(NamedTuple):
    bridge: gr.HTML
    citation: gr.Dropdown
    header: gr.HTML
    zoom: gr.Image
    image: gr.Image
    image_note: gr.Markdown
    passage: gr.HTML
    cards: gr.HTML


def _evidence_column() -> _EvidenceColumn:
    """The evidence panel: the citation open, its block on its page, the passage, the evidence cards."""
    gr.Markdown("### Evidence")
    bridge = gr.HTML(EVIDENCE_HINT, js_on_load=CITATION_BRIDGE_JS, elem_id="prp-bridge")
    # Custom values let the API open any run's citation; ``show_citation`` validates them.
    citation = gr.Dropdown([], label="Citation", elem_id="prp-citation", interactive=True, allow_custom_value=True)
    header = gr.HTML(label="Cited source", elem_id="prp-ev-header")
    # The zoom reads at its natural size in the panel; the whole page shows where it is.
    zoom = _picture("The cited block on its page", "prp-zoom-image")
    with gr.Accordion("The whole page", open=False, elem_id="prp-page-accordion"):
        image = _picture("Page with the cited block framed", "prp-page-image", height=600)
    image_note = gr.Markdown(label="Page note", elem_classes="prp-note")
    passage = gr.HTML(label="Cited passage", elem_id="prp-passage", elem_classes="prp-passage")
    with gr.Accordion("Evidence cards: every retrieved chunk, with score and document", open=False):
        cards = gr.HTML(label="Evidence cards", elem_id="prp-cards", max_height=560)
    return _EvidenceColumn(bridge, citation, header, zoom, image, image_note, passage, cards)


def _picture(label: str, elem_id: str, **size) -> gr.Image:
    """A rendered page (or part of one) in the evidence panel: shown once a citation opens."""
    return gr.Image(
        label=label,
        type="pil",
        interactive=False,
        visible=False,
        elem_id=elem_id,
        buttons=["fullscreen", "download"],
        format="png",
        **size,
    )


# --- chat messages ------------------------------------------------------------------------------


def user_message(topic: str, single: bool) -> dict:
    label = "Question" if single else "Topic report"
    return {"role": "user", "content": f"**{label}:** {html.escape(topic)}"}


def steps_message(
    lines: list[tuple[str, str]], mode: str, done: bool, seconds: float | None = None, error: str | None = None
) -> dict:
    rows = "".join(
        f"<div>{f'<span class=prp-node>[{html.escape(node)}]</span> ' if node else ''}{html.escape(line)}</div>"
        for node, line in lines
    )
    if error:
        rows += f'<div class="prp-error">stopped: {html.escape(error)}</div>'
    title = f"Research steps \u00b7 {mode}" if done else f"Researching\u2026 \u00b7 {mode}"
    metadata = {"title": title, "status": "done" if done else "pending"}
    if seconds is not None:
        metadata["duration"] = round(seconds, 1)
    return {"role": "assistant", "content": f'<div class="prp-steps">{rows or "starting"}</div>', "metadata": metadata}


def report_message(record: ReportRecord) -> dict:
    return {"role": "assistant", "content": report_html(record.report, record.thread_id)}


def interrupted_message(thread_id: str, error: str | None = None) -> dict:
    reason = f" ({html.escape(error)})" if error else ""
    return {
        "role": "assistant",
        "content": f"<p><b>This run did not finish</b>{reason}. It is checkpointed as thread "
        f"<code>{html.escape(thread_id)}</code>: resume it from the Threads tab.</p>",
    }


# --- the evidence panel -------------------------------------------------------------------------


def panel_updates(portal: LocalPortal, record: ReportRecord | None, number: int | None) -> list:
    """Values for ``ChatTab.panel``: the citation picker, the open citation, cards and downloads."""
    if record is None:
        hidden = gr.update(value=None, visible=False)
        return [gr.update(choices=[], value=None), "", "", hidden, hidden, "", "", None]
    choices = [
        (
            f"[{c.number}] {shorten(c.resolution.title, 70, placeholder=ELLIPSIS)}"
            + (f" \u2014 {c.resolution.where}" if c.resolution.where else ""),
            f"{record.thread_id}:{c.number}",
        )
        for c in record.report.citations
    ]
    cited = {c.number: c.resolution for c in record.report.citations}
    # A report without citations has an empty bibliography: nothing to download. A conversation of
    # several turns adds its whole report, evidence table and bibliographies ("conversation-…").
    exports = [str(p) for p in portal.runs.export_files(record).values() if p.stat().st_size]
    exports += [str(p) for p in portal.runs.conversation_files(record.thread_id) if p.stat().st_size]
    if number not in cited:
        note = "This report has no resolved citations." if not cited else ""
        return [
            gr.update(choices=choices, value=None),
            "",
            note and f'<p class="prp-note">{note}</p>',
            gr.update(value=None, visible=False),
            gr.update(value=None, visible=False),
            "",
            evidence_cards(record),
            exports,
        ]
    view = citation_panel(portal.citation_view(record.thread_id, number))
    return [
        gr.update(choices=choices, value=f"{record.thread_id}:{number}"),
        view.header,
        view.passage,
        gr.update(value=view.zoom, visible=view.zoom is not None),
        gr.update(value=view.image, visible=view.image is not None),
        view.image_note,
        evidence_cards(record, active=number),
        exports,
    ]


def show_citation(portal: LocalPortal, ref: str | None) -> list:
    """Open ``"<thread id>:<n>"`` in the evidence panel (from a marker click or the picker)."""
    parsed = parse_cite_ref(ref or "")
    if parsed is None:
        raise gr.Error(f"Not a citation reference: {ref!r} (expected '<thread id>:<number>').")
    thread_id, number = parsed
    try:
        record = portal.runs.record(thread_id)
    except ThreadNotFoundError as exc:
        raise gr.Error(str(exc)) from None
    return panel_updates(portal, record, number)


# --- running research ---------------------------------------------------------------------------


def run_turn(
    portal: LocalPortal,
    session: ChatSession,
    history: list,
    topic: str,
    single: bool,
    options: ResearchOptions,
    thread_id: str,
) -> Iterator[list]:
    """Stream one run into the chat. Yields ``[history, session, *panel]`` updates; what the core
    refuses to start (``QueryTooLongError``) is raised before the first."""
    mode = mode_name(portal.strategy.mode)
    events = stream_research(portal, topic, single_question=single, options=options, thread_id=thread_id)
    if thread_id not in session.turns:
        session.turns.append(thread_id)
    history = [*history, user_message(topic, single), steps_message([], mode, done=False)]
    unchanged = [gr.skip()] * PANEL_OUTPUTS
    yield [history, session, *unchanged]
    lines: list[tuple[str, str]] = []
    for event in events:
        if isinstance(event, Progress):
            lines.append((event.node, event.line))
            history[-1] = steps_message(lines, mode, done=False)
            yield [history, session, *unchanged]
        elif isinstance(event, Finished):
            record = event.record
            history[-1] = steps_message(lines, mode, done=True, seconds=event.seconds)
            history.append(report_message(record))
            first = record.report.citations[0].number if record.report.citations else None
            yield [history, session, *panel_updates(portal, record, first)]
        elif isinstance(event, Failed):
            history[-1] = steps_message(lines, mode, done=True, seconds=event.seconds, error=event.message)
            history.append(interrupted_message(thread_id, event.message))
            yield [history, session, *unchanged]


@with_options
def research(
    portal: LocalPortal,
    message: str,
    kind: str = QUESTION,
    *,
    options: ResearchOptions,
    session: ChatSession | None = None,
    history: list | None = None,
) -> Iterator[list]:
    """The chat's submit (and the ``/research`` API), the settings panel's values as ``options``.
    Yields ``[history, message box, session, *panel]``."""
    topic = (message or "").strip()
    if not topic:
        raise gr.Error("Type a question or a topic first.")
    session = session or ChatSession()
    try:
        for update in run_turn(portal, session, history or [], topic, kind != TOPIC, options, session.next_thread_id()):
            history_value, session_value, *panel = update
            yield [history_value, "", session_value, *panel]
    except QueryTooLongError as exc:  # the message box keeps the text, to be shortened
        raise gr.Error(str(exc)) from None


def stop_research(portal: LocalPortal, session: ChatSession | None) -> None:
    """Cancel this conversation's running research: it stops at its next step, checkpointed, and
    the chat says so (resumable from the Threads tab)."""
    turns = session.turns if session else []
    running = [job for job in portal.jobs("research", active=True) if job.info.get("thread_id") in turns]
    for job in running:
        with suppress(JobFinishedError):  # it finished meanwhile: nothing left to stop
            portal.cancel(job.job_id)
    if not running:
        gr.Info("Nothing is running in this conversation.")


def conversation_history(portal: LocalPortal, conversation_runs: list[str]) -> tuple[list, ReportRecord | None]:
    """The chat rebuilt from checkpoints: each run's question, steps and report (or a resume note)."""
    history: list = []
    last: ReportRecord | None = None
    for thread_id in conversation_runs:
        state = portal.runs.state(thread_id)
        if not state:
            continue
        # A follow-up shows as it was typed; its steps say how it was read.
        history.append(user_message(state.get("asked") or state.get("topic", ""), bool(state.get("single_question"))))
        lines = [("", line) for line in state.get("progress", [])]
        if "report" in state:
            try:
                record = ReportRecord.from_state(thread_id, state)
            except ThreadNotFoundError as exc:  # written by an earlier prp: say so, keep the rest
                history.append({"role": "assistant", "content": f"<p>{html.escape(str(exc))}</p>"})
                continue
            last = record
            portal.runs.remember(last)
            history.append(steps_message(lines, mode_name(last.report.mode), done=True))
            history.append(report_message(last))
        else:
            history.append(steps_message(lines, mode_name(portal.strategy.mode), done=True))
            history.append(interrupted_message(thread_id))
    return history, last
