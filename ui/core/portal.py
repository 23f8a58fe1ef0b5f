"""The interface of the application core: what prp does with a library, whoever holds it.

Two implementations: ``ui.core.local.LocalPortal`` works on a library opened in this process (a
serving process's, or a command's own when no service runs), ``ui.core.remote.RemotePortal`` asks
the ``prp serve`` that holds it, over its REST API (which is this interface over HTTP). The command
line works on either through ``ui.core.connect.open_portal``, so each command has one code path and
prints the same whichever it got.

Long work (an ingest, a research run) is a job: the call that starts it returns at once with the
job's view, ``follow`` reads its events as they come and returns how it ended. Errors a caller acts
on are typed (``ui.core.errors``), and are the same from either implementation: the REST API
answers each with the code ``ui.core.errors.API_ERRORS`` gives it, and ``RemotePortal`` raises it again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Literal, Protocol

from corpus.models import MetadataOverride
from corpus.registry import DocumentRecord
from ui.core.conversations import Conversation
from ui.core.exports.formats import ExportFormat
from ui.core.jobs import JobEvent, JobKind, JobView
from ui.core.models import ExportFile, Health, JobOutcome, RunRequest, SearchRequest, SearchResponse
from ui.core.passages import CitationView, CitedPassage, DocumentPages
from ui.core.report_json import JsonReport

#: ``ask``: one question, one cited answer; ``report``: a topic, planned into sub-questions.
RunKind = Literal["ask", "report"]


class Portal(Protocol):
    @property
    def where(self) -> str:
        """Where the library is, in words: its index, or the service it is reached through."""

    @property
    def in_process(self) -> bool:
        """Whether the library is opened in this process (so this process's settings, such as the LLM
        mode, apply), rather than held by a service that has its own."""

    def health(self) -> Health: ...

    def documents(self) -> list[DocumentRecord]:
        """Every document ready in the library."""

    def edit_document(self, doc_id: str, edit: MetadataOverride) -> DocumentRecord:
        """Set a document's title, year, authors, venue, DOI or arXiv id (those ``edit`` gives): they
        win over extraction on every later ingest. ``DocumentNotFoundError`` for no such document,
        ``InvalidValueError`` (a ``ValueError``) for a DOI or arXiv id that is not one (nothing is changed)."""

    def delete(self, doc_id: str) -> DocumentRecord | None:
        """Remove a document, its blocks and its chunks (after any ingest in progress); None if there
        was no such document; ``JobFailed`` if the deletion failed."""

    def document_pages(self, doc_id: str) -> DocumentPages:
        """A document's bibliographic fields and its stored text page by page; ``DocumentNotFoundError``
        for no such document."""

    def cite(self, block_id: str) -> CitedPassage:
        """One block as stored (the text a citation of it must match, its page and bounding box) with
        its document and the document's BibTeX; ``BlockNotFoundError`` for no such block."""

    def block_view(self, block_id: str, images: bool = True, quote: str | None = None) -> CitationView:
        """One block as a citation of the whole of it is shown (``citation_view``), with no number, or
        of ``quote`` in it, its own words boxed; ``BlockNotFoundError`` for no such block,
        ``InvalidValueError`` for a quote the block does not hold."""

    def citation_view(self, thread_id: str, number: int, images: bool = True) -> CitationView:
        """Citation ``number`` of a finished run's report as a reader checks it: the quote, the passage
        around it as stored, the document and its BibTeX entry, and (``images``, PDFs) the page with the
        cited block framed, zoomed and whole. ``ThreadNotFoundError`` for no finished run of this
        thread, ``CitationNotFoundError`` for no citation of this number in its report."""

    def search(self, request: SearchRequest) -> SearchResponse:
        """``QueryTooLongError`` for a query over ``ui.core.query_limit.MAX_QUERY_CHARS``."""

    def ingest(self, paths: Sequence[Path], imports: Sequence[Path] = ()) -> JobView:
        """Start ingesting files or folders: a ``started`` event with the number of files, then one
        ``file`` event per file as it is done; the outcome carries the summary. The library's own
        data or models directory (or a folder holding one) is refused: ``corpus.errors.RefusedPathError``.
        ``imports``: reference-manager exports (BibTeX, CSL-JSON) whose entries' attached files are
        ingested with the entries' metadata (``corpus.references``); an export that cannot be read
        at all is refused before anything starts: ``ReferenceImportError``."""

    def sync(self, dry_run: bool = False) -> JobView:
        """Start bringing the library in step with the folders and files it was ingested from: new
        files added, changed ones indexed again, documents whose files are gone removed (never
        under a root that is unavailable). A ``started`` event with the plan's counts, ``file``
        events as files are indexed, ``removed`` events; the outcome carries the ``SyncSummary``.
        ``dry_run``: change nothing, say what would change."""

    def research(self, kind: RunKind, request: RunRequest) -> JobView:
        """Start (or resume, given the thread id of an interrupted run) a research run; its info
        holds the thread id and the mode. ``progress`` events as the graph works; the outcome
        carries the report. An over-long topic is refused: ``QueryTooLongError``."""

    def jobs(self, kind: JobKind | None = None, active: bool = False) -> list[JobView]:
        """Newest first."""

    def job(self, job_id: str) -> JobView: ...

    def cancel(self, job_id: str) -> JobView:
        """Stop a job at its next step (a research run keeps its checkpoints); ``JobFinishedError``
        if it had already finished."""

    def follow(self, job_id: str, on_event: Callable[[JobEvent], None]) -> JobOutcome:
        """Hand the job's events to ``on_event`` as they come, until it has finished."""

    def threads(self) -> list[Conversation]:
        """Research runs, grouped into conversations, most recently active first."""

    def report(self, thread_id: str) -> JsonReport:
        """A finished run's report, every citation resolved."""

    def exports(self, thread_id: str) -> list[ExportFile]: ...

    def export(self, thread_id: str, export_format: ExportFormat, with_notes: bool = False) -> bytes:
        """One artifact of a finished run (``ThreadNotFoundError`` for any other thread); ``with_notes``:
        BibTeX entries carry a ``note`` naming their prp document."""

    def export_conversation(self, conversation: str, export_format: ExportFormat, with_notes: bool = False) -> bytes:
        """One artifact of a whole conversation: every finished turn, citations numbered throughout
        (``ThreadNotFoundError`` when it has no finished turn)."""

    def close(self) -> None: ...
