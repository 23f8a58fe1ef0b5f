"""The core in this process: the library opened here, and the jobs that ingest, delete and research
over it.

A serving process (``prp serve``) holds one ``LocalPortal`` and hands it to its surfaces, the chat
and the REST API, which also use what only the holder of the library has: the jobs themselves
(``handle``), finished runs with their evidence (``runs``), uploads, exports as files. A command with
no service to go through opens one of its own, with foreground jobs (``ui.core.jobs``).

Research runs, threads and exports are the ``runs`` half (``ui.core.runs``), made on first use:
LangGraph, the strategies and the PDF writer load only then, so a command that searches or lists
documents never imports them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from contextlib import ExitStack, suppress
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from config import Settings
from corpus.ingest import FileResult, IngestSummary, Outcome, discover
from corpus.ingest_progress import IngestCounter
from corpus.library import Library
from corpus.models import MetadataOverride
from corpus.own_folders import check_ingest_paths
from corpus.registry import DocumentRecord
from corpus.sync import SyncPlan, SyncSummary, sync
from corpus.text import counted
from research.options import ResearchOptions
from research.report import mode_model
from research.strategy import ResearchStrategy
from tools.hybrid_search import hybrid_search, named_documents
from ui.core.citation_view import block_resolution, citation_view, quote_resolution
from ui.core.conversations import Conversation, conversations
from ui.core.errors import (
    CitationNotFoundError,
    DocumentNotFoundError,
    InvalidValueError,
    JobFailed,
    JobFinishedError,
    JobNotFoundError,
)
from ui.core.exports.formats import ExportFormat
from ui.core.jobs import Job, JobEvent, JobKind, Jobs, JobState, JobView
from ui.core.models import ExportFile, Health, JobOutcome, RunRequest, SearchRequest, SearchResponse
from ui.core.passages import CitationView, CitedPassage, DocumentPages, cite, document_pages
from ui.core.portal import RunKind
from ui.core.query_limit import check_query
from ui.core.report_json import JsonReport
from ui.core.uploads import RejectedUpload, StoredUpload, discard, store_uploads

if TYPE_CHECKING:
    from corpus.references.plan import ImportPlan
    from ui.core.runs import Runs

#: Called with (step, line) while the strategy opens (in local LLM mode, the model server starting).
StatusCallback = Callable[[str, str], None]


def mode_name(mode: str) -> str:
    """A strategy's (or a report's) mode as people read it: "offline mode", "LLM mode · model X"."""
    if mode == "offline":
        return "offline mode"
    return f"LLM mode \u00b7 model {mode_model(mode)}"


class LocalPortal:
    in_process = True

    def __init__(
        self,
        library: Library,
        strategy: ResearchStrategy | None = None,
        *,
        foreground: bool = False,
        on_status: StatusCallback | None = None,
        research_workers: int = 2,
    ):
        """``strategy``: the one the serving process opened; left out, it is opened from the library's
        settings at the first run and closed with the portal. ``foreground``: jobs run in the thread
        that follows them (a command's own process); else on the portal's threads."""
        self.library = library
        if strategy is not None:
            self.strategy = strategy
        self.runner = Jobs(research_workers, foreground=foreground)  # the jobs themselves, for this process
        self._on_status = on_status
        self._opened = ExitStack()

    def close(self) -> None:
        """Ask running jobs to stop at their next step and wait for them (a run keeps its
        checkpoints, an ingest ends between files or embedding batches); then close what the portal
        opened."""
        self.runner.shutdown(cancel=True)
        self._opened.close()

    def __enter__(self) -> LocalPortal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def settings(self) -> Settings:
        return self.library.settings

    @property
    def where(self) -> str:
        return self.settings.describe_store()

    @cached_property
    def strategy(self) -> ResearchStrategy:
        from strategies.select import open_strategy  # the strategies (and LangChain) load for a run only

        return self._opened.enter_context(open_strategy(self.settings, self.library, self._on_status))

    @cached_property
    def runs(self) -> Runs:
        from ui.core.runs import Runs

        return Runs(self.library, self.runner)

    def mode_label(self) -> str:
        """The chat banner's description of the mode."""
        if self.strategy.mode == "offline":
            return "offline mode \u00b7 deterministic extractive research, no language model"
        return mode_name(self.strategy.mode)

    def health(self) -> Health:
        from corpus.embeddings import BM25_MODEL  # fastembed comes with it: a serving process has it loaded

        documents = self.library.registry.documents()
        return Health(
            mode=mode_name(self.strategy.mode),
            engine=self.where,
            dense_model=self.settings.embeddings.model,
            sparse_model=BM25_MODEL,
            documents=len(documents),
            chunks=sum(d.n_chunks for d in documents),
            data_dir=str(self.settings.storage.data_dir.resolve()),
            active_jobs=self.jobs(active=True),
        )

    # --- documents ------------------------------------------------------------------------------

    def documents(self) -> list[DocumentRecord]:
        return self.library.registry.documents()

    def document(self, doc_id: str) -> DocumentRecord | None:
        record = self.library.registry.document(doc_id)
        return record if record is not None and record.status == "ready" else None

    def edit_document(self, doc_id: str, edit: MetadataOverride) -> DocumentRecord:
        if self.document(doc_id) is None:
            raise DocumentNotFoundError(f"no document {doc_id}")
        try:
            record = self.library.edit_metadata(doc_id, edit)
        except ValueError as exc:  # a DOI or arXiv id that is not one
            raise InvalidValueError(str(exc)) from None
        if record is None:  # deleted in between
            raise DocumentNotFoundError(f"no document {doc_id}")
        return record

    def document_pages(self, doc_id: str) -> DocumentPages:
        return document_pages(self.library, doc_id)

    def cite(self, block_id: str) -> CitedPassage:
        return cite(self.library, block_id)

    def block_view(self, block_id: str, images: bool = True, quote: str | None = None) -> CitationView:
        cited = self.cite(block_id)
        resolution = quote_resolution(cited, quote) if quote and quote.strip() else block_resolution(cited)
        return citation_view(self.library.registry, None, resolution, images)

    def citation_view(self, thread_id: str, number: int, images: bool = True) -> CitationView:
        cited = {c.number: c.resolution for c in self.runs.record(thread_id).report.citations}
        if number not in cited:
            raise CitationNotFoundError(
                f"the report of thread {thread_id} has no citation [{number}]"
                + (f": its citations are [1] to [{max(cited)}]" if cited else ": it cites nothing")
            )
        return citation_view(self.library.registry, number, cited[number], images)

    def document_choices(self) -> list[tuple[str, str]]:
        """(label, doc_id) for every document, for filters and the delete picker."""
        return [
            (f"{d.title} ({d.year or 'n.d.'}, {d.type.value})", d.doc_id)
            for d in sorted(self.documents(), key=lambda d: d.title.lower())
        ]

    def search(self, request: SearchRequest) -> SearchResponse:
        """Ranked chunks, and the documents the query named by title if it was scoped to them."""
        check_query(request.query, "search query")
        filters = request.filters
        results = hybrid_search(self.library, request.query, request.k, filters, request.search_mode)
        return SearchResponse(
            query=request.query, scope=named_documents(self.library, request.query, filters), results=results
        )

    def ingest(self, paths: Sequence[Path], imports: Sequence[Path] = ()) -> JobView:
        """Never the library's own folders (``RefusedPathError``), nor files an export attaches there.
        The exports are read now, so one that cannot be is refused before the job starts."""
        check_ingest_paths(paths, self.settings)
        from corpus.references.plan import plan_import  # the BibTeX reader, for an import only

        imported = plan_import(imports) if imports else None
        if imported is not None:
            check_ingest_paths(imported.files, self.settings)
        return self.start_ingest(paths, imported=imported).view()

    def upload(self, files: Iterable[tuple[str, Path]]) -> tuple[Job | None, list[StoredUpload], list[RejectedUpload]]:
        """Store each acceptable ``(name, temporary file)`` under the library's uploads and ingest
        them (no job if none was accepted). Content the library already holds is not stored again:
        it is rejected, naming the document (``RejectedUpload.duplicate_of``)."""
        stored, rejected = store_uploads(files, self.settings, self.library.registry)
        return (self.start_ingest([], stored) if stored else None), stored, rejected

    def ingest_stray_uploads(self) -> Job | None:
        """Ingest the files in the uploads folder that the library does not hold: uploads whose
        ingest never ran (a service killed while they waited). They are ingested as any upload is, so
        one that cannot be is reported in the job with its reason and removed. None if there are none."""
        folder = self.settings.storage.uploads_dir
        if not folder.is_dir():
            return None
        held = {d.path for d in self.library.registry.documents()}
        stray = [
            StoredUpload(path.name, path.resolve(), new=True)
            for path in sorted(folder.iterdir())
            if path.is_file() and str(path.resolve()) not in held
        ]
        if not stray:
            return None
        return self.start_ingest(
            [], stray, title=f"ingest {counted(len(stray), 'upload')} left unindexed by the last run"
        )

    def start_ingest(
        self,
        paths: Sequence[Path],
        uploads: Sequence[StoredUpload] = (),
        title: str = "",
        imported: ImportPlan | None = None,
    ) -> Job:
        """An ingest job: one ``file`` event per file as it is done (each document searchable from
        then on), the ``IngestSummary`` as its result. Uploaded copies the library does not hold
        afterwards (failed, or copies of another document) are removed, so the uploads folder holds
        only what the library holds. ``title``: the job's, else one naming the files. ``imported``:
        a reference-manager import's files and entries, each entry without a file one event too. The
        folders and files named (not the uploads, nor an import's files) are remembered as the
        library's ingest roots when the ingest completes."""
        roots = list(paths)
        paths = [*roots, *(u.path for u in uploads)]
        named = [*paths, *(imported.exports if imported else [])]

        def drop_unheld_uploads() -> None:
            for upload in uploads:
                if self.library.registry.ready_document_at(str(upload.path.resolve())) is None:
                    discard(upload)

        def work(job: Job) -> IngestSummary:
            found = discover([*paths, *(imported.files if imported else [])])
            files = _FileEvents(job)
            files.start(len(found) + (len(imported.problems) if imported else 0), found.files)
            try:
                summary = self.library.ingest(paths, files, job.check, imported, files.chunks)
            except BaseException:  # cancelled (between files or embedding batches), or failed
                drop_unheld_uploads()
                # What it did ingest is indexed as after a whole ingest, if the index can be had: the
                # failure that stopped the ingest (a full disk, the index held elsewhere) is the one told.
                with suppress(Exception):
                    self.library.disk_space.check()  # never on a full disk (``corpus.disk_space``)
                    self.library.store.optimize()
                raise
            drop_unheld_uploads()
            # What was named (never an upload: the library's own copy) is what ``prp sync`` keeps in
            # step, once its ingest is whole: a cancelled one (a venv named by mistake) leaves no root.
            self.library.roots.remember(roots)
            return summary

        names = ", ".join(Path(p).name for p in named[:3]) + (f" and {len(named) - 3} more" if len(named) > 3 else "")
        return self.runner.submit(
            "ingest",
            title or f"ingest {names}",
            work,
            info={"paths": [str(p) for p in named]},
            finish=lambda job: {"summary": job.result.as_dict()} if job.result is not None else {},
        )

    def sync(self, dry_run: bool = False) -> JobView:
        return self.start_sync(dry_run=dry_run).view()

    def start_sync(self, *, dry_run: bool = False, scope: Sequence[Path] | None = None, title: str = "") -> Job:
        """A sync job (``corpus.sync``) of every ingest root, or of the paths in ``scope`` inside
        them (a watcher's changes): a ``started`` event with the plan's counts, a ``file`` event per
        file indexed and a ``removed`` event per document removed, the ``SyncSummary`` as its result.
        It is a write, so it waits for any ingest or deletion before it, as they wait for it."""

        def work(job: Job) -> SyncSummary:
            files = _FileEvents(job)

            def on_plan(plan: SyncPlan) -> None:
                todo = [*plan.added, *plan.changed]
                files.start(len(todo), todo, removed=len(plan.removed), dry_run=dry_run)

            def on_removed(document: DocumentRecord) -> None:
                job.emit("removed", {"doc_id": document.doc_id, "title": document.title, "path": document.path})

            try:
                return sync(
                    self.library,
                    dry_run=dry_run,
                    scope=scope,
                    on_plan=on_plan,
                    progress=files,
                    on_chunks=files.chunks,
                    on_removed=on_removed,
                    checkpoint=job.check,
                )
            except BaseException:
                if not dry_run:  # as after an ingest: what it did index is indexed for searches
                    with suppress(Exception):
                        self.library.disk_space.check()
                        self.library.store.optimize()
                raise

        what = "dry run" if dry_run else ("changed paths" if scope is not None else "every folder")
        return self.runner.submit(
            "sync",
            title or f"sync {what}",
            work,
            info={"dry_run": dry_run} | ({"paths": [str(p) for p in scope]} if scope is not None else {}),
            finish=lambda job: {"summary": job.result.as_dict()} if job.result is not None else {},
        )

    def delete(self, doc_id: str) -> DocumentRecord | None:
        """A deletion, queued behind any ingest. A copy the chat or the API stored on upload goes
        too; files ingested from elsewhere are the user's."""

        def work(job: Job) -> DocumentRecord | None:
            document = self.library.registry.document(doc_id)
            if document is None or not self.library.delete(doc_id):
                return None
            path = Path(document.path)
            if path.parent.resolve() == self.settings.storage.uploads_dir.resolve() and not any(
                d.path == document.path for d in self.library.registry.documents()
            ):
                path.unlink(missing_ok=True)
            return document

        job = self.runner.submit("delete", f"delete {doc_id}", work, info={"doc_id": doc_id})
        self.runner.follow(job, lambda event: None)
        if job.state is JobState.FAILED:
            raise JobFailed(job.error or "the deletion failed")
        return job.result

    # --- research -------------------------------------------------------------------------------

    def research(self, kind: RunKind, request: RunRequest) -> JobView:
        job = self.start_research(
            request.topic,
            single_question=kind == "ask",
            options=request.options,
            thread_id=request.thread_id,
            conversation=request.conversation,
        )
        return job.view()

    def start_research(
        self,
        topic: str,
        *,
        single_question: bool,
        options: ResearchOptions,
        thread_id: str | None = None,
        conversation: str | None = None,
    ) -> Job:
        """See ``Runs.start`` (follow-ups too). An over-long topic is refused (``QueryTooLongError``)."""
        check_query(topic, "question" if single_question else "topic")
        return self.runs.start(
            self.strategy,
            topic,
            single_question=single_question,
            options=options,
            thread_id=thread_id,
            conversation=conversation,
        )

    def threads(self) -> list[Conversation]:
        return conversations(self.runs.threads())

    def report(self, thread_id: str) -> JsonReport:
        return self.runs.record(thread_id).json_report()

    def exports(self, thread_id: str) -> list[ExportFile]:
        return [
            ExportFile(
                format=fmt.value,
                name=path.name,
                url=f"/api/threads/{thread_id}/exports/{fmt.value}",
                bytes=path.stat().st_size,
            )
            for fmt, path in self.runs.export_files(self.runs.record(thread_id)).items()
        ]

    def export(self, thread_id: str, export_format: ExportFormat, with_notes: bool = False) -> bytes:
        return self.runs.export(self.runs.record(thread_id), export_format, with_notes)

    def export_conversation(self, conversation: str, export_format: ExportFormat, with_notes: bool = False) -> bytes:
        return self.runs.export_conversation(conversation, export_format, with_notes)

    def export_file(self, thread_id: str, export_format: ExportFormat) -> Path:
        """One export as a file, written with the others (``exports``) once."""
        return self.runs.export_files(self.runs.record(thread_id))[export_format]

    # --- jobs -----------------------------------------------------------------------------------

    def jobs(self, kind: JobKind | None = None, active: bool = False) -> list[JobView]:
        return [j.view() for j in self.runner.list(kind, active)]

    def handle(self, job_id: str) -> Job:
        """The job itself, for readers in this process (its events, its result)."""
        job = self.runner.get(job_id)
        if job is None:
            raise JobNotFoundError(f"no job {job_id} (finished jobs are kept for a while, then forgotten)")
        return job

    def job(self, job_id: str) -> JobView:
        return self.handle(job_id).view()

    def cancel(self, job_id: str) -> JobView:
        """``JobFinishedError`` (and nothing changed) if the job had already finished."""
        job = self.handle(job_id)
        if job.state.finished:
            raise JobFinishedError(f"job {job_id} already finished ({job.state.value}): there is nothing to cancel")
        job.cancel()
        return job.view()

    def follow(self, job_id: str, on_event: Callable[[JobEvent], None]) -> JobOutcome:
        job = self.handle(job_id)
        self.runner.follow(job, on_event)
        return self.outcome(job)

    def outcome(self, job: Job) -> JobOutcome:
        """A finished job with what it made."""
        view, made = job.view(), job.result
        if made is None:
            return JobOutcome(job=view)
        match job.kind:
            case "research":
                return JobOutcome(job=view, report=made.json_report())
            case "ingest":
                return JobOutcome(job=view, summary=made)
            case "sync":
                return JobOutcome(job=view, sync=made)
            case "delete":
                return JobOutcome(job=view, deleted=made)


class _FileEvents:
    """The events of an ingest's progress, each with its counters (``corpus.ingest_progress``), which
    the job's status carries too: ``started``, one ``file`` per file done (``done`` of ``total``),
    one ``chunks`` per batch of a document's chunks written."""

    def __init__(self, job: Job):
        self.job = job
        self.counter = IngestCounter(0, {})

    def start(self, files: int, paths: Iterable[Path], **data: Any) -> None:
        self.counter = self.job.progress = IngestCounter.of_files(files, paths)
        self.job.emit("started", {"files": files, **data, "progress": self._counters()})

    def __call__(self, result: FileResult) -> None:
        self.counter.file_done(result.path, result.pages, result.chunks, result.outcome is Outcome.SKIPPED)
        data = result.model_dump(mode="json", exclude_none=True)
        done = {"done": self.counter.done, "total": self.counter.files}
        self.job.emit("file", {**done, **data, "progress": self._counters()})

    def chunks(self, path: str, written: int, total: int) -> None:
        self.counter.chunks_written(path, written, total)
        self.job.emit("chunks", {"progress": self._counters()})

    def _counters(self) -> dict[str, Any]:
        return self.counter.snapshot().model_dump(mode="json")
