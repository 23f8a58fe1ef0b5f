"""The Library tab: the documents, uploads ingested with progress, the ingested folders synced, and
deleting a document."""

from __future__ import annotations

import html
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import gradio as gr
from pydantic import ValidationError

from corpus.author_names import display_name
from corpus.ingest import FileResult, IngestSummary, Outcome
from corpus.models import MetadataOverride
from corpus.registry import DocumentRecord
from corpus.sync import NO_ROOTS, SyncSummary
from corpus.text import counted
from ui.core.errors import DocumentNotFoundError, JobFailed
from ui.core.jobs import JobState
from ui.core.local import LocalPortal
from ui.core.uploads import RejectedUpload, StoredUpload, allowed_suffixes

COLUMNS = ["Title", "Authors", "Venue", "Year", "DOI", "arXiv", "Status", "Type", "Added", "Id"]
# The columns a researcher edits in place, and the field of ``MetadataOverride`` each sets.
EDITABLE = {"Title": "title", "Authors": "authors", "Venue": "venue", "Year": "year", "DOI": "doi", "arXiv": "arxiv_id"}
NEEDS_REVIEW = "needs review: authors"
EDITED = "edited"
_ID = COLUMNS.index("Id")
# What the filter box searches.
_SEARCHED = [COLUMNS.index(c) for c in ("Title", "Authors", "Venue", "Year")]


@dataclass(frozen=True)
class LibraryTab:
    table: gr.Dataframe
    filter: gr.Textbox
    edit_log: gr.HTML
    upload: gr.File
    ingest: gr.Button
    sync: gr.Button
    log: gr.HTML
    delete_choice: gr.Dropdown
    delete: gr.Button
    delete_log: gr.HTML


def status(d: DocumentRecord) -> str:
    """ "needs review: authors" where no author could be read (the document's names are not known
    with confidence), "edited" where a person or an import set fields, else empty."""
    if d.authors_need_review:
        return NEEDS_REVIEW
    return EDITED if d.overridden else ""


def _row(d: DocumentRecord) -> list:
    bib = d.bibliography
    return [
        d.title,
        "; ".join(display_name(a) for a in bib.authors),
        bib.venue or "",
        str(d.year or ""),
        bib.doi or "",
        bib.arxiv_id or "",
        status(d),
        f"{d.type.value} (OCR)" if d.ocr and d.ocr.pages else d.type.value,
        d.added_at.replace("T", " ")[:16],
        d.doc_id,
    ]


def _matches(row: list, query: str) -> bool:
    """Every word of ``query`` in the row's title, authors, venue or year (case ignored)."""
    text = " ".join(str(row[i]) for i in _SEARCHED).lower()
    return all(word in text for word in query.lower().split())


def documents_table(portal: LocalPortal, query: str = "") -> list[list]:
    return [row for row in map(_row, portal.documents()) if _matches(row, query or "")]


def _value(column: str, cell: object) -> object:
    text = " ".join(str(cell if cell is not None else "").split())
    if column == "Authors":
        return [name for name in (n.strip() for n in text.split(";")) if name]
    return text or None


def edit_cells(portal: LocalPortal, table: list[list], query: str) -> tuple[list[list], str]:
    """The table as the researcher edited it in place: each changed cell of an editable column is
    set through the same override as ``prp docs edit`` and PATCH, validated the same way; returns
    the table as it now reads (a refused edit reverts) and what happened."""
    shown = {row[_ID]: row for row in documents_table(portal, query)}
    done, refused = [], []
    for row in table or []:
        before = shown.get(row[_ID]) if len(row) == len(COLUMNS) else None
        changed = _changes(row, before) if before is not None else {}
        if not changed:
            continue
        saved, line = _save_edit(portal, row[_ID], before[0], changed)
        if saved:
            done.append(line)
        else:
            refused.append(line)
    lines = [f'<p class="prp-edit-done">{line}</p>' for line in done]
    lines += [f'<p class="prp-edit-refused">Not saved: {line}</p>' for line in refused]
    return documents_table(portal, query), "".join(lines)


def _changes(row: list, before: list) -> dict[str, object]:
    """The editable fields whose cells differ from the table as it was shown, with their new values."""
    return {
        field: _value(column, row[i])
        for i, column in enumerate(COLUMNS)
        if (field := EDITABLE.get(column)) and str(row[i] or "").strip() != str(before[i] or "").strip()
    }


def _save_edit(portal: LocalPortal, doc_id: str, title: str, changed: dict[str, object]) -> tuple[bool, str]:
    """Set a document's changed fields; whether they were saved, and the line saying so (or why not)."""
    name = html.escape(title)
    try:
        portal.edit_document(doc_id, MetadataOverride(**changed))
    except ValidationError as exc:
        return False, f"{name}: " + html.escape("; ".join(e["msg"] for e in exc.errors()))
    except (ValueError, DocumentNotFoundError) as exc:
        return False, f"{name}: {html.escape(str(exc))}"
    return True, f"{name}: {', '.join(changed)} saved"


def build_library_tab(portal: LocalPortal) -> LibraryTab:
    """Adding and removing documents above; the table below, the page's whole width, so titles
    wrap to a line or two and a screen shows a dozen documents."""
    limit = portal.settings.limits.upload_max_mb
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
    filter_box = gr.Textbox(
        placeholder="Filter by title, author, venue or year",
        show_label=False,
        elem_id="prp-library-filter",
        max_lines=1,
    )
    table = gr.Dataframe(
        value=documents_table(portal),
        headers=COLUMNS,
        type="array",
        interactive=True,
        # Title, authors ("; " between names), venue, year, DOI and arXiv id are edited in place.
        static_columns=[i for i, c in enumerate(COLUMNS) if c not in EDITABLE],
        wrap=True,
        label="Documents in the library (added: UTC): click a header to sort; double-click a title, author, "
        "venue, year, DOI or arXiv cell to edit it (saved as `prp docs edit` saves it)",
        elem_id="prp-library-table",
        # Wide enough for each header word at a laptop's width; the title takes the most.
        column_widths=["24%", "16%", "13%", "5%", "10%", "7%", "8%", "5%", "6%", "6%"],
        max_height=720,
    )
    edit_log = gr.HTML(elem_id="prp-library-edit-log")
    return LibraryTab(table, filter_box, edit_log, upload, ingest, sync, log, delete_choice, delete, delete_log)


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
