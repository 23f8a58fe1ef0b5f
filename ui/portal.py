"""The research service's core: what one serving process holds and what every surface (the chat,
the REST API, the CLI through the API) asks of it.

It holds the library (and with it the embedded index), the research strategy, the jobs that ingest,
delete and research in the background (``ui.service.jobs``), and finished runs read back from the
checkpointer, kept in a small cache. One ``Portal`` per process, passed to each surface; nothing is
module-level. Finished runs never change (resuming a finished thread returns the same report), so
caching their records is safe.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path

from corpus.config import Settings
from corpus.ingest import FileResult, IngestSummary, Outcome, discover
from corpus.library import Library
from corpus.retrieval import RetrievalOptions, RetrievedChunk
from graph.build import build_graph
from graph.checkpoints import open_checkpointer
from graph.run import run_research
from research.options import ResearchOptions
from research.strategy import ResearchStrategy
from tools.hybrid_search import hybrid_search, named_documents
from tools.title_scope import TitleScope
from ui.exports.record import ReportRecord, load_record
from ui.exports.writer import FILE_NAMES, ExportFormat, folder_name, write_exports
from ui.service.jobs import Job, Jobs
from ui.threads import ConversationSummary, list_conversations
from ui.uploads import StoredUpload, discard

RECORD_CACHE_SIZE = 32


def mode_name(mode: str) -> str:
    """A strategy's (or a report's) mode as people read it: "offline mode", "LLM mode · model X"."""
    if mode == "offline":
        return "offline mode"
    return f"LLM mode \u00b7 model {mode.removeprefix('llm').strip(' ()') or 'unknown'}"


class Portal:
    def __init__(self, library: Library, strategy: ResearchStrategy, research_workers: int = 2):
        self.library = library
        self.strategy = strategy
        self.jobs = Jobs(research_workers)
        self._records: OrderedDict[str, ReportRecord] = OrderedDict()
        self._lock = threading.Lock()

    def close(self) -> None:
        """Ask running jobs to stop at their next step and wait for them (a run keeps its
        checkpoints, an ingest ends between files)."""
        self.jobs.shutdown(cancel=True)

    @property
    def settings(self) -> Settings:
        return self.library.settings

    # --- the mode banner ------------------------------------------------------------------------

    def mode_label(self) -> str:
        """The banner's description of the mode."""
        if self.strategy.mode == "offline":
            return "offline mode \u00b7 deterministic extractive research, no language model"
        return mode_name(self.strategy.mode)

    # --- runs -----------------------------------------------------------------------------------

    def start_research(
        self,
        topic: str,
        *,
        single_question: bool,
        options: ResearchOptions,
        thread_id: str | None = None,
    ) -> Job:
        """A research job; its events are the graph's progress lines, its result the run's
        ``ReportRecord``. Given the id of an interrupted (or cancelled) run, it resumes that run;
        the id of a run in progress gives that run's job (a second reader, not a second run).
        A thread keeps the topic and kind it was started with: resuming never changes them."""
        if thread_id:
            stored = self.state(thread_id)
            topic = stored.get("topic", topic)
            single_question = bool(stored.get("single_question", single_question))
        thread_id = thread_id or uuid.uuid4().hex[:12]
        with self._lock:
            for job in self.jobs.list("research", active=True):
                if job.info.get("thread_id") == thread_id:
                    return job
            return self._submit_research(topic, single_question, options, thread_id)

    def _submit_research(self, topic: str, single_question: bool, options: ResearchOptions, thread_id: str) -> Job:

        def work(job: Job) -> ReportRecord:
            with open_checkpointer(self.settings) as checkpointer:
                result = run_research(
                    self.library,
                    self.strategy,
                    topic,
                    single_question=single_question,
                    options=options,
                    checkpointer=checkpointer,
                    thread_id=thread_id,
                    on_progress=lambda node, line: job.emit("progress", {"node": node, "line": line}),
                )
            record = ReportRecord.from_state(thread_id, result.state)
            self.remember(record)
            return record

        kind = "question" if single_question else "topic report"
        info = {"thread_id": thread_id, "topic": topic, "single_question": single_question, "mode": self.strategy.mode}
        return self.jobs.submit("research", f"{kind}: {topic}", work, info=info)

    def state(self, thread_id: str) -> dict:
        """The latest checkpointed state of a run (finished or not); empty if unknown."""
        with open_checkpointer(self.settings) as checkpointer:
            snapshot = build_graph(checkpointer).get_state({"configurable": {"thread_id": thread_id}})
        return dict(snapshot.values or {})

    def record(self, thread_id: str) -> ReportRecord:
        with self._lock:
            if thread_id in self._records:
                self._records.move_to_end(thread_id)
                return self._records[thread_id]
        with open_checkpointer(self.settings) as checkpointer:
            record = load_record(checkpointer, thread_id)
        self.remember(record)
        return record

    def remember(self, record: ReportRecord) -> None:
        with self._lock:
            self._records[record.thread_id] = record
            self._records.move_to_end(record.thread_id)
            while len(self._records) > RECORD_CACHE_SIZE:
                self._records.popitem(last=False)

    def conversations(self) -> list[ConversationSummary]:
        with open_checkpointer(self.settings) as checkpointer:
            return list_conversations(checkpointer)

    def exports(self, record: ReportRecord) -> list[Path]:
        """Every export of a finished run, written once under ``exports/<thread id>/``."""
        out_dir = self.settings.exports_dir / folder_name(record.thread_id)
        paths = [out_dir / FILE_NAMES[f] for f in ExportFormat]
        if all(p.is_file() for p in paths):
            return paths
        documents = self.library.registry.documents_by_id(c.resolution.doc_id for c in record.report.citations)
        return write_exports(record, out_dir, documents, font=self.settings.pdf_font)

    # --- the library ----------------------------------------------------------------------------

    def search(self, query: str, options: RetrievalOptions) -> tuple[list[RetrievedChunk], TitleScope | None]:
        """Ranked chunks, and the documents the query named by title if it was scoped to them."""
        filters = options.filters
        results = hybrid_search(self.library, query, options.k, filters, options.search_mode)
        return results, named_documents(self.library, query, filters)

    def start_ingest(self, paths: Sequence[Path], uploads: Sequence[StoredUpload] = ()) -> Job:
        """An ingest job: one ``file`` event per file as it is done (each document searchable from
        then on), the ``IngestSummary`` as its result. Uploaded copies that fail to ingest are removed,
        so the uploads folder holds only what the library holds."""
        paths = [*paths, *(u.path for u in uploads)]
        by_path = {str(u.path.resolve()): u for u in uploads}

        def work(job: Job) -> IngestSummary:
            total = len(discover(paths))
            job.emit("started", {"files": total})
            done = 0

            def progress(result: FileResult) -> None:
                nonlocal done
                done += 1
                upload = by_path.get(str(Path(result.path).resolve()))
                if result.outcome is Outcome.FAILED and upload is not None:
                    discard(upload)
                job.emit("file", {"done": done, "total": total, **result.model_dump(mode="json", exclude_none=True)})

            try:
                return self.library.ingest(paths, progress)
            except BaseException:  # cancelled between files, or failed
                for upload in uploads:  # nothing in uploads/ that the library does not hold
                    if self.library.registry.ready_document_at(str(upload.path.resolve())) is None:
                        discard(upload)
                self.library.store.optimize()  # what it did ingest is indexed as after a whole ingest
                raise

        names = ", ".join(Path(p).name for p in paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
        return self.jobs.submit(
            "ingest",
            f"ingest {names}",
            work,
            info={"paths": [str(p) for p in paths]},
            finish=lambda job: {"summary": job.result.as_dict()} if job.result is not None else {},
        )

    def delete(self, doc_id: str) -> Job:
        """A deletion, queued behind any ingest; its result is the deleted ``DocumentRecord`` or
        None if there was no such document. A copy the chat or the API stored on upload goes too;
        files ingested from elsewhere are the user's."""

        def work(job: Job):
            document = self.library.registry.document(doc_id)
            if document is None or not self.library.delete(doc_id):
                return None
            path = Path(document.path)
            if path.parent.resolve() == self.settings.uploads_dir.resolve() and not any(
                d.path == document.path for d in self.library.registry.documents()
            ):
                path.unlink(missing_ok=True)
            return document

        return self.jobs.submit("delete", f"delete {doc_id}", work, info={"doc_id": doc_id})

    def document_choices(self) -> list[tuple[str, str]]:
        """(label, doc_id) for every document, for filters and the delete picker."""
        return [
            (f"{d.title} ({d.year or 'n.d.'}, {d.type.value})", d.doc_id)
            for d in sorted(self.library.registry.documents(), key=lambda d: d.title.lower())
        ]
