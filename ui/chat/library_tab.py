"""The Library tab: the documents, uploads ingested with progress, the ingested folders synced, and
deleting a document."""

from __future__ import annotations

import html
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import gradio as gr

from corpus.author_names import short_authors
from corpus.ingest import FileResult, IngestSummary, Outcome
from corpus.sync import NO_ROOTS, SyncSummary
from corpus.text import counted
from ui.core.errors import JobFailed
from ui.core.jobs import JobState
from ui.core.local import LocalPortal
from ui.core.uploads import RejectedUpload, StoredUpload, allowed_suffixes

COLUMNS = ["Title", "Authors", "Type", "Pages", "Chunks", "Year", "Added (UTC)", "Document id", "File"]


@dataclass(frozen=True)
class LibraryTab:
    table: gr.Dataframe
    upload: gr.File
    ingest: gr.Button
    sync: gr.Button
    log: gr.HTML
    delete_choice: gr.Dropdown
    delete: gr.Button
    delete_log: gr.HTML


def documents_table(portal: LocalPortal) -> list[list]:
    return [
        [
            d.title,
            short_authors(d.bibliography.authors) or ("authors: needs review" if d.authors_need_review else ""),
            d.type.value,
            d.page_count,
            d.n_chunks,
            d.year or "",
            d.added_at.replace("T", " ")[:16],
            d.doc_id,
            Path(d.path).name,
        ]
        for d in portal.documents()
    ]


def build_library_tab(portal: LocalPortal) -> LibraryTab:
    """Adding and removing documents above; the table below, the page's whole width, so titles
    wrap to a line or two and a screen shows a dozen documents."""
    limit = portal.settings.upload_max_mb
    with gr.Row(equal_height=False):
        upload = gr.File(
            file_count="multiple",
            type="filepath",
            elem_id="prp-upload",
            label=f"Add documents: {', '.join(allowed_suffixes())}; up to {limit:g} MB each",
            height=150,
            scale=3,
        )
        with gr.Column(scale=3, min_width=260):
            ingest = gr.Button("Ingest uploaded files", variant="primary")
            # The folders `prp ingest` was given: what changed in them since (prp sync).
            sync = gr.Button("Sync folders", elem_id="prp-sync")
            log = gr.HTML(elem_id="prp-ingest-log")
        with gr.Column(scale=3, min_width=260):
            delete_choice = gr.Dropdown(
                portal.document_choices(), label="Remove a document (its blocks and chunks go too)"
            )
            delete = gr.Button("Delete document", variant="stop")
            delete_log = gr.HTML()
    table = gr.Dataframe(
        value=documents_table(portal),
        headers=COLUMNS,
        interactive=False,
        wrap=True,
        label="Documents in the library (their number is in the banner above)",
        elem_id="prp-library-table",
        # Wide enough for each header word at a laptop's width; the title takes the most.
        column_widths=["30%", "12%", "6%", "6%", "6%", "5%", "11%", "11%", "13%"],
        max_height=720,
    )
    return LibraryTab(table, upload, ingest, sync, log, delete_choice, delete, delete_log)


def ingest_uploads(portal: LocalPortal, files: list[str] | None) -> Iterator[tuple[str, IngestSummary | None]]:
    """Log HTML as files are checked and ingested; the summary comes with the last update (none if
    nothing was ingested or the ingest stopped)."""
    if not files:
        yield _log(["<p>No files: drop or choose files above first.</p>"]), None
        return
    job, stored, rejected = portal.upload([(Path(f).name, Path(f)) for f in files])
    lines = [_rejected(r) for r in rejected]
    duplicates = sum(1 for r in rejected if r.duplicate_of is not None)
    if job is None:
        yield _log(lines + ["<p>Nothing to ingest.</p>"]), None
        return
    by_path = {str(s.path.resolve()): s for s in stored}
    status = len(lines)  # this line counts the files done as they come
    lines.append(_progress(0, len(stored)))
    yield _log(lines), None
    for event in job.follow():
        if event.event == "file":
            result = FileResult.model_validate(event.data)
            lines.append(_result(result, by_path.get(str(Path(result.path).resolve()))))
            lines[status] = _progress(event.data["done"], len(stored))
            yield _log(lines), None
    summary: IngestSummary | None = job.result
    if job.state is JobState.DONE and summary is not None:
        lines.append(
            f"<p><b>Done in {job.view().seconds or 0:.1f} s:</b> {summary.count(Outcome.OK)} added, "
            f"{summary.count(Outcome.SKIPPED) + duplicates} already there, "
            f"{summary.count(Outcome.FAILED) + len(rejected) - duplicates} rejected or failed.</p>"
        )
    else:
        reason = "stopped on request" if job.state is JobState.CANCELLED else job.error
        lines.append(f'<p class="prp-bad">Ingest stopped: {html.escape(reason or "")}</p>')
    yield _log(lines), summary


def sync_folders(portal: LocalPortal) -> Iterator[str]:
    """Log HTML as a sync of the library's folders goes, then its summary."""
    job = portal.start_sync(title="sync folders (chat)")
    lines = ["<p>Syncing the folders the library was ingested from \u2026</p>"]
    shown: set[str] = set()
    yield _log(lines)
    for event in job.follow():
        if event.event == "file":
            result = FileResult.model_validate(event.data)
            shown.add(result.path)
            lines.append(_result(result, None))
            yield _log(lines)
        elif event.event == "removed":
            title, path = html.escape(event.data["title"]), html.escape(Path(event.data["path"]).name)
            lines.append(f"<p>\u2212 <b>{path}</b>: {title} removed, its file is gone</p>")
            yield _log(lines)
    summary: SyncSummary | None = job.result
    if job.state is JobState.DONE and summary is not None:
        lines += _sync_summary(summary, job.view().seconds or 0)
        # Files the sync could not even read (broken links, pipes) were never ingested, so never shown.
        lines += [_result(f, None) for f in summary.failed if f.path not in shown]
    else:
        reason = "stopped on request" if job.state is JobState.CANCELLED else job.error
        lines.append(f'<p class="prp-bad">Sync stopped: {html.escape(reason or "")}</p>')
    yield _log(lines)


def _sync_summary(summary: SyncSummary, seconds: float) -> list[str]:
    if not summary.roots:
        said = html.escape(NO_ROOTS[0].upper() + NO_ROOTS[1:]).replace("`prp ingest`", "<code>prp ingest</code>")
        return [f"<p>{said}.</p>"]
    lines = [f"<p><b>Synced {summary.roots_line()} in {seconds:.1f} s:</b> {summary.counts_line()}.</p>"]
    lines += [
        f'<p class="prp-bad">\u26a0 <b>{html.escape(r.root.path)}</b>: {html.escape(r.reason)} '
        f"({counted(r.documents, 'document')})</p>"
        for r in summary.unavailable
    ]
    return lines


def delete_document(portal: LocalPortal, doc_id: str | None) -> str:
    if not doc_id:
        return "<p>Choose a document first.</p>"
    try:
        document = portal.delete(doc_id)
    except JobFailed as exc:
        return f'<p class="prp-bad">Could not delete {html.escape(doc_id)}: {html.escape(str(exc))}</p>'
    if document is None:
        return f'<p class="prp-bad">No document {html.escape(doc_id)} in the library.</p>'
    counts = f"{document.n_blocks} blocks, {document.n_chunks} chunks"
    return f"<p>Deleted <b>{html.escape(document.title)}</b> ({counts}).</p>"


def _progress(done: int, total: int) -> str:
    state = "" if done == total else " \u2026"
    return (
        f'<p><progress value="{done}" max="{total}"></progress> {done} of {counted(total, "file")} ingested{state}</p>'
    )


def _log(lines: list[str]) -> str:
    return '<div class="prp-log">' + "".join(lines) + "</div>"


def _rejected(r: RejectedUpload) -> str:
    if r.duplicate_of is not None:  # not an error: the library has it already
        return f"<p>\u2022 <b>{html.escape(r.name)}</b>: {html.escape(r.reason)}</p>"
    return f'<p class="prp-bad">\u2717 <b>{html.escape(r.name)}</b>: rejected, {html.escape(r.reason)}</p>'


def _boilerplate(result: FileResult) -> str:
    """How many blocks repeat other documents' text (left out of search); nothing when none do."""
    return f" ({result.boilerplate_blocks} boilerplate)" if result.boilerplate_blocks else ""


def _result(result: FileResult, upload: StoredUpload | None) -> str:
    name = html.escape(upload.name if upload else Path(result.path).name)
    if result.outcome is Outcome.OK:
        return (
            f'<p class="prp-ok">\u2713 <b>{name}</b>: {html.escape(result.title or "")} \u00b7 '
            f"{counted(result.pages, 'page')}, {counted(result.blocks, 'block')}{_boilerplate(result)}, "
            f"{counted(result.chunks, 'chunk')}</p>"
        )
    if result.outcome is Outcome.SKIPPED:
        return f"<p>\u2022 <b>{name}</b>: skipped, {html.escape(result.reason)}</p>"
    return f'<p class="prp-bad">\u2717 <b>{name}</b>: failed, {html.escape(result.reason)}</p>'
