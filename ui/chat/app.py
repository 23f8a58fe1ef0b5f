"""The research chat: one Gradio Blocks app over the serving process's core (``LocalPortal``), mounted
at ``/chat`` by ``prp serve`` (``ui.service.app``).

Research runs, ingests and deletions are the service's jobs (``ui.core.jobs``): the chat starts
and follows them like any other client, so an ingest started from the CLI or the API shows in the
banner here as it goes, and a run goes on if the tab closes. Nothing leaves the machine: Gradio's
analytics are off, no share link is made, and the default theme's fonts are served locally.
"""

from __future__ import annotations

import html
import os
from functools import partial

import gradio as gr

from config import Settings
from corpus.ingest_progress import IngestProgress, clock
from corpus.text import counted
from ui.chat.assets import CSS
from ui.chat.chat_tab import (
    PANEL_OUTPUTS,
    ChatSession,
    ChatTab,
    build_chat_tab,
    example_question,
    panel_updates,
    research,
    show_citation,
    stop_research,
)
from ui.chat.library_tab import (
    LibraryTab,
    build_library_tab,
    delete_document,
    documents_table,
    edit_cells,
    ingest_uploads,
    sync_folders,
)
from ui.chat.threads_tab import (
    ThreadsTab,
    build_threads_tab,
    conversation_of_row,
    open_conversation,
    refresh_threads,
    resume_conversation,
)
from ui.core.local import LocalPortal

#: The chat's research handlers only follow jobs; the service's job runner bounds the work itself.
RESEARCH_QUEUE = dict(concurrency_id="research", concurrency_limit=8)
#: How often the banner looks for ingests and runs in progress (started anywhere).
BANNER_SECONDS = 2.0


def gradio_environment(settings: Settings) -> None:
    """Set before the Blocks are created, which is when Gradio reads them: no analytics (also
    passed to ``Blocks``), and browser uploads cached inside the data directory, not in /tmp."""
    os.environ["GRADIO_ANALYTICS_ENABLED"] = "False"
    os.environ.setdefault("GRADIO_TEMP_DIR", str((settings.storage.data_dir / "gradio-cache").resolve()))


def banner(portal: LocalPortal) -> str:
    mode = portal.mode_label()
    mode_class = "prp-mode-offline" if portal.strategy.mode == "offline" else "prp-mode-llm"
    n_docs = len(portal.documents())
    return (
        '<div class="prp-banner" id="prp-banner"><span class="prp-name">prp \u00b7 Personal Research Portal</span>'
        f'<span class="prp-pill {mode_class}" id="prp-mode">{html.escape(mode)}</span>'
        f'<span class="prp-pill">{html.escape(portal.settings.describe_store())}</span>'
        f'<span class="prp-pill" id="prp-doc-count">{counted(n_docs, "document")}</span>{activity(portal)}</div>'
    )


def activity(portal: LocalPortal) -> str:
    """A pill per ingest or deletion in progress, with how far it got, and one for research runs."""
    pills = []
    for job in portal.runner.list(active=True):
        if job.kind == "research":
            continue
        counters = job.view().progress
        count = f": {progress_words(counters)}" if counters and counters.files else ""
        state = "waiting: " if job.state == "queued" else ""
        pills.append(f'<span class="prp-pill prp-busy">{html.escape(state + job.title)}{count}</span>')
    runs = len(portal.jobs("research", active=True))
    if runs:
        pills.append(f'<span class="prp-pill prp-busy">{counted(runs, "research run")} in progress</span>')
    return "".join(pills)


def progress_words(counters: IngestProgress) -> str:
    """How far an ingest got, as the banner says it (the same counters as its job status)."""
    left = "" if counters.eta_seconds is None else f", ~{clock(counters.eta_seconds)} left"
    return f"{counters.done} of {counted(counters.files, 'file')}, {counted(counters.chunks, 'chunk')}{left}"


def build_app(portal: LocalPortal) -> gr.Blocks:
    # Gradio's copies of uploads and downloads are dropped after an hour (the library keeps its own).
    with gr.Blocks(
        title="prp \u00b7 research chat", analytics_enabled=False, fill_width=True, delete_cache=(3600, 3600)
    ) as app:
        header = gr.HTML(banner(portal))
        with gr.Tabs(selected="research") as tabs:
            with gr.Tab("Research", id="research"):
                chat = build_chat_tab(portal)
            with gr.Tab("Library", id="library"):
                lib = build_library_tab(portal)
            with gr.Tab("Threads", id="threads") as threads_tab:
                threads = build_threads_tab()
        # The events are wired in this order, which is the order of the app's API endpoints.
        _wire_research(portal, chat, threads)
        _wire_evidence(portal, chat)
        _wire_library(app, portal, chat, lib, header)
        _wire_threads(app, portal, chat, threads, threads_tab, tabs)
    return app


def _wire_research(portal: LocalPortal, chat: ChatTab, threads: ThreadsTab) -> None:
    """A run from the button or the message box, with the threads list refreshed after it; stop; a
    new conversation."""
    research_inputs = [chat.message, chat.kind, *chat.settings.inputs, chat.session, chat.chatbot]
    research_outputs = [chat.chatbot, chat.message, chat.session, *chat.panel]
    threads_outputs = [threads.table, threads.choice]
    for trigger, api_name in ((chat.run.click, "research"), (chat.message.submit, None)):
        trigger(
            partial(research, portal),
            research_inputs,
            research_outputs,
            api_name=api_name,
            api_visibility="public" if api_name else "private",
            **RESEARCH_QUEUE,
        ).then(partial(refresh_threads, portal), None, threads_outputs, api_visibility="private")
    chat.stop.click(partial(stop_research, portal), chat.session, None, api_name="stop")
    chat.new_conversation.click(
        lambda: [[], ChatSession(), *panel_updates(portal, None, None)],
        None,
        [chat.chatbot, chat.session, *chat.panel],
        api_name="new_conversation",
    )


def _wire_evidence(portal: LocalPortal, chat: ChatTab) -> None:
    """A citation opened from the picker, or from a marker clicked in the chat."""
    chat.citation.input(partial(show_citation, portal), chat.citation, chat.panel, api_name="show_citation")

    def marker_clicked(evt: gr.EventData) -> list:
        """A citation marker clicked in the chat (see ``ui.assets.CITATION_BRIDGE_JS``)."""
        try:
            ref = evt.cite
        except (AttributeError, TypeError):  # a click on the panel itself, not on a marker
            return [gr.skip()] * PANEL_OUTPUTS
        return show_citation(portal, ref)

    chat.bridge.click(marker_clicked, None, chat.panel, api_visibility="private")


def _wire_library(app: gr.Blocks, portal: LocalPortal, chat: ChatTab, lib: LibraryTab, header: gr.HTML) -> None:
    """Ingest, sync, delete, filter and edit; the library views refreshed on load and the banner on a timer."""
    library_outputs = [lib.table, lib.delete_choice, chat.settings.documents, header]

    lib.ingest.click(
        partial(_ingest, portal),
        lib.upload,
        [lib.log, lib.upload, *library_outputs],
        api_name="ingest",
    )
    lib.sync.click(partial(_sync, portal), None, [lib.log, *library_outputs], api_name="sync_folders")
    lib.delete.click(
        lambda doc_id: [delete_document(portal, doc_id), *_library_views(portal)],
        lib.delete_choice,
        [lib.delete_log, *library_outputs],
        api_name="delete_document",
    )
    lib.filter.change(lambda query: documents_table(portal, query), lib.filter, lib.table, api_visibility="private")
    lib.table.input(
        partial(_edit_cells, portal),
        [lib.table, lib.filter],
        [lib.table, lib.edit_log],
        api_name="edit_documents",
    )
    # A page (re)load shows what other processes (prp ingest, prp ask) changed meanwhile.
    app.load(partial(_library_views, portal), None, library_outputs, api_visibility="private")
    app.load(lambda: gr.update(placeholder=example_question(portal)), None, chat.message, api_visibility="private")
    gr.Timer(BANNER_SECONDS).tick(
        partial(banner, portal), None, header, api_visibility="private", show_progress="hidden"
    )


def _wire_threads(
    app: gr.Blocks, portal: LocalPortal, chat: ChatTab, threads: ThreadsTab, threads_tab: gr.Tab, tabs: gr.Tabs
) -> None:
    """The threads list refreshed (on demand, on load, on opening the tab); a conversation opened or resumed."""
    threads_outputs = [threads.table, threads.choice]
    threads.refresh.click(partial(refresh_threads, portal), None, threads_outputs, api_name="threads")
    app.load(partial(refresh_threads, portal), None, threads_outputs, api_visibility="private")
    # Opening the tab shows the runs made since the page loaded, this chat's included.
    threads_tab.select(partial(refresh_threads, portal), None, threads_outputs, api_visibility="private")
    threads.table.select(conversation_of_row, None, threads.choice, api_visibility="private")
    threads.open.click(
        partial(open_conversation, portal),
        threads.choice,
        [chat.chatbot, chat.session, *chat.panel, tabs],
        api_name="open_conversation",
    )
    threads.resume.click(
        partial(resume_conversation, portal),
        [threads.choice, *chat.settings.inputs],
        [chat.chatbot, chat.session, *chat.panel, tabs],
        api_name="resume",
        **RESEARCH_QUEUE,
    ).then(partial(refresh_threads, portal), None, threads_outputs, api_visibility="private")


def _ingest(portal: LocalPortal, files: list[str] | None):
    """Yields ``[log, upload box, *library views]``; the upload box empties and the views refresh
    once the ingest has ended, however it ended."""
    log = ""
    for log, _ in ingest_uploads(portal, files):
        yield [log, *[gr.skip()] * 5]
    yield [log, None, *_library_views(portal)]


def _sync(portal: LocalPortal):
    """Yields ``[log, *library views]``; the views refresh once the sync has ended."""
    log = ""
    for log in sync_folders(portal):
        yield [log, *[gr.skip()] * 4]
    yield [log, *_library_views(portal)]


def _edit_cells(portal: LocalPortal, table: list[list], query: str) -> list:
    """The table and what was saved; nothing at all when no cell changed (the table's own refresh
    fires the event again, and its empty log must not wipe the message)."""
    rows, log = edit_cells(portal, table, query)
    return [rows, log] if log else [gr.skip(), gr.skip()]


def _library_views(portal: LocalPortal) -> list:
    """Everything that shows the document list: table, delete picker, filter picker, banner."""
    choices = portal.document_choices()
    return [documents_table(portal), gr.update(choices=choices, value=None), gr.update(choices=choices), banner(portal)]


def mount_options(settings: Settings) -> dict:
    """How ``gr.mount_gradio_app`` serves the chat: local theme and styles, no telemetry, uploads
    capped, downloads only from the exports folder, never from the rest of the data directory."""
    settings.storage.exports_dir.mkdir(parents=True, exist_ok=True)
    return dict(
        theme=gr.themes.Default(),
        css=CSS,
        ssr_mode=False,
        enable_monitoring=False,
        mcp_server=False,
        pwa=False,
        show_error=True,
        footer_links=["api", "settings"],
        max_file_size=int(settings.limits.upload_max_mb * 1_000_000),
        allowed_paths=[str(settings.storage.exports_dir.resolve())],
        blocked_paths=[
            str(settings.storage.registry_path.resolve()),
            str(settings.storage.checkpoint_path.resolve()),
            str((settings.storage.data_dir / "index").resolve()),
            str(settings.storage.local_mode_path.resolve()),
        ],
    )
