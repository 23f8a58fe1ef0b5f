"""``open_library`` and the ``ResearchLibrary`` it returns: the core's operations as typed methods.

Each method is one call of the core (``ui.core.portal.Portal``), or a job started and followed to
its end, so a script gets what ``prp`` prints and the REST API returns, in the same models, whether
the library is opened here or a running service holds it. A job that does not finish (a failed
ingest, a cancelled research run) raises ``PrpError`` with its reason.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import ExitStack
from pathlib import Path

from config import Settings
from corpus.errors import PrpError
from corpus.ingest import IngestSummary
from corpus.models import DocType
from corpus.registry import DocumentRecord
from corpus.retrieval import DEFAULT_K, SearchFilters, SearchMode
from research.options import ResearchOptions
from ui.core.connect import open_portal
from ui.core.conversations import Conversation
from ui.core.exports.formats import ExportFormat
from ui.core.jobs import JobEvent
from ui.core.models import JobOutcome, RunRequest, SearchRequest, SearchResponse
from ui.core.passages import CitedPassage, DocumentPages
from ui.core.portal import Portal, RunKind
from ui.core.report_json import JsonReport

#: Called with each step of a research run as it goes ("plan", "plan: 3 sub-questions").
OnProgress = Callable[[str, str], None]


def open_library(data_dir: str | Path | None = None, *, settings: Settings | None = None) -> ResearchLibrary:
    """The library in ``data_dir`` (default: ``PRP_DATA_DIR``, else ``.prp``), through the ``prp serve``
    serving it if one runs, else opened in this process (which then holds it until ``close``: an
    embedded index has one opener at a time). ``settings``: all of them, as ``prp`` reads them from
    the environment (``config.Settings``); ``data_dir`` overrides theirs."""
    settings = settings or Settings()
    if data_dir is not None:
        settings = settings.updated(storage={"data_dir": Path(data_dir).expanduser()})
    return ResearchLibrary(settings)


class ResearchLibrary:
    """One library, open until ``close`` (or the end of a ``with`` block)."""

    def __init__(self, settings: Settings):
        self._opened = ExitStack()
        self.portal: Portal = self._opened.enter_context(open_portal(settings))

    def close(self) -> None:
        self._opened.close()

    def __enter__(self) -> ResearchLibrary:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def where(self) -> str:
        """The index, or the service the library is reached through, in words."""
        return self.portal.where

    # --- documents ------------------------------------------------------------------------------

    def ingest(self, paths: Sequence[str | Path] = (), *, imports: Sequence[str | Path] = ()) -> IngestSummary:
        """Add files or folders (and reference-manager exports' attached files, ``imports``); a file
        the library holds is skipped, a changed one indexed again. Files that fail are in the summary."""
        job = self.portal.ingest(_paths(paths), _paths(imports))
        outcome = self._finish(job.job_id, "the ingest")
        assert outcome.summary is not None
        return outcome.summary

    def documents(self) -> list[DocumentRecord]:
        return self.portal.documents()

    def document_pages(self, doc_id: str) -> DocumentPages:
        """A document's bibliographic fields and stored text, page by page."""
        return self.portal.document_pages(doc_id)

    def cite(self, block_id: str) -> CitedPassage:
        """One block as stored, with its page, bounding box, document and the document's BibTeX."""
        return self.portal.cite(block_id)

    # --- search and research --------------------------------------------------------------------

    def search(
        self,
        query: str,
        *,
        k: int = DEFAULT_K,
        mode: SearchMode | str = SearchMode.HYBRID,
        doc_ids: Sequence[str] | None = None,
        year_min: int | None = None,
        year_max: int | None = None,
        types: Sequence[DocType | str] | None = None,
    ) -> SearchResponse:
        filters = SearchFilters(
            doc_ids=list(doc_ids) if doc_ids else None,
            year_min=year_min,
            year_max=year_max,
            types=list(types) if types else None,
        )
        return self.portal.search(SearchRequest(query=query, k=k, search_mode=mode, filters=filters))

    def ask(
        self,
        question: str,
        *,
        thread: str | None = None,
        options: ResearchOptions | None = None,
        on_progress: OnProgress | None = None,
    ) -> JsonReport:
        """A cited answer to one question. ``thread``: an earlier run's thread id, to ask a follow-up."""
        return self._research("ask", question, thread, options, on_progress)

    def report(
        self,
        topic: str,
        *,
        thread: str | None = None,
        options: ResearchOptions | None = None,
        on_progress: OnProgress | None = None,
    ) -> JsonReport:
        """A cited report on a topic, planned into sub-questions. ``thread``: resume that run."""
        return self._research("report", topic, thread, options, on_progress)

    def threads(self) -> list[Conversation]:
        """Past research runs, grouped into conversations, most recently active first."""
        return self.portal.threads()

    def thread(self, thread_id: str) -> JsonReport:
        """A finished run's report."""
        return self.portal.report(thread_id)

    def export(self, thread_id: str, export_format: ExportFormat | str) -> bytes:
        """One artifact of a finished run: ``"bibtex"``, ``"ris"``, ``"report-md"``, ``"report-pdf"``,
        ``"evidence-csv"``, ``"bibliography-md"``, ``"contradictions-csv"``, ``"contradictions-md"``."""
        return self.portal.export(thread_id, ExportFormat(export_format))

    # --- jobs -----------------------------------------------------------------------------------

    def _research(
        self,
        kind: RunKind,
        topic: str,
        thread: str | None,
        options: ResearchOptions | None,
        on_progress: OnProgress | None,
    ) -> JsonReport:
        request = RunRequest(topic=topic, options=options or ResearchOptions(), thread_id=thread)
        job = self.portal.research(kind, request)

        def on_event(event: JobEvent) -> None:
            if on_progress is not None and event.event == "progress":
                on_progress(event.data["node"], event.data["line"])

        outcome = self._finish(job.job_id, f"the run (thread {job.info['thread_id']})", on_event)
        assert outcome.report is not None
        return outcome.report

    def _finish(self, job_id: str, what: str, on_event: Callable[[JobEvent], None] | None = None) -> JobOutcome:
        outcome = self.portal.follow(job_id, on_event or (lambda event: None))
        if outcome.report is None and outcome.summary is None:
            raise PrpError(f"{what} did not finish: {outcome.job.error or outcome.job.state.value}")
        return outcome


def _paths(given: Sequence[str | Path]) -> list[Path]:
    return [Path(p).expanduser() for p in given]
