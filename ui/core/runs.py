"""Research runs and what they leave, in the process that holds the library: runs started or resumed
as jobs, finished runs read back from the checkpointer (a few kept at hand), the thread list, exports.

Finished runs never change (resuming a finished thread returns the same report), so caching their
records is safe.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from collections.abc import Mapping
from contextlib import suppress
from pathlib import Path

from corpus.library import Library
from corpus.models import BlockKind, Document
from graph.checkpoints import open_checkpointer
from graph.run import run_research
from graph.threads import list_threads, served_graph, thread_state
from research.conversation import MAX_HISTORY_TURNS, Turn
from research.options import ResearchOptions
from research.runs import RunSummary
from research.strategy import ResearchStrategy
from ui.core.conversations import conversation_of, conversations, run_thread_id, turn_of
from ui.core.errors import ThreadNotFoundError
from ui.core.exports.conversation import conversation_markdown, conversation_record
from ui.core.exports.formats import FILE_NAMES, ExportFormat, folder_name
from ui.core.exports.latex_text import proper_words
from ui.core.exports.record import ReportRecord, load_record
from ui.core.exports.writer import render_export, write_exports
from ui.core.follow_ups import conversation_turn, scoped
from ui.core.jobs import Job, Jobs

RECORD_CACHE_SIZE = 32
# What the chat offers for a whole conversation.
CONVERSATION_FILES = (
    ExportFormat.REPORT_MD,
    ExportFormat.EVIDENCE_CSV,
    ExportFormat.BIBTEX,
    ExportFormat.RIS,
    ExportFormat.BIBLIOGRAPHY_MD,
)


# The blocks whose capitals are a writer's choice in mid-sentence.
_RUNNING_TEXT = (BlockKind.PARAGRAPH, BlockKind.LIST, BlockKind.CAPTION, BlockKind.FOOTNOTE, BlockKind.NOTES)


class Runs:
    def __init__(self, library: Library, jobs: Jobs):
        self.library = library
        self.settings = library.settings
        self._jobs = jobs
        self._records: OrderedDict[str, ReportRecord] = OrderedDict()
        self._lock = threading.Lock()

    def start(
        self,
        strategy: ResearchStrategy,
        topic: str,
        *,
        single_question: bool,
        options: ResearchOptions,
        thread_id: str | None = None,
        conversation: str | None = None,
    ) -> Job:
        """A research job; its events are the graph's progress lines, its result the run's
        ``ReportRecord``. Given the id of an interrupted (or cancelled) run, it resumes that run;
        the id of a run in progress gives that run's job (a second reader, not a second run).
        A thread keeps the topic and kind it was started with: resuming never changes them.

        A new run continues its conversation: ``conversation`` (a conversation's id, or any of its
        runs' thread ids) makes it the conversation's next turn, and so does the thread id of a
        *finished* run given with another question (``prp ask --thread T "and what does it
        cost?"``) or the id of a chat conversation; a chat turn's thread id
        (``<conversation>.<n>``) names its place itself. The strategy reads the question against the
        earlier turns (``ResearchStrategy.condense``) before research. ``ThreadNotFoundError`` for a
        conversation with no runs."""
        if conversation:
            thread_id = self._next_turn(conversation_of(conversation))
        stored = self.state(thread_id) if thread_id else {}
        if "report" in stored and topic.strip() not in (stored.get("asked"), stored.get("topic")):
            thread_id, stored = self._next_turn(conversation_of(thread_id)), {}
        elif thread_id and not stored and conversation_of(thread_id) == thread_id:
            # A chat conversation's id (its runs are "<id>.<n>") continues it; an unknown id is a new run's.
            with suppress(ThreadNotFoundError):
                thread_id = self._next_turn(thread_id)
        if stored:
            topic = stored.get("topic", topic)
            single_question = bool(stored.get("single_question", single_question))
        thread_id = thread_id or uuid.uuid4().hex[:12]
        # A resumed run was read against its conversation when it started: it goes on as it was.
        history = [] if stored else self.history(thread_id)
        with self._lock:
            for job in self._jobs.list("research", active=True):
                if job.info.get("thread_id") == thread_id:
                    return job
            return self._submit(strategy, topic, single_question, options, thread_id, history)

    def history(self, thread_id: str) -> list[Turn]:
        """The finished turns of ``thread_id``'s conversation before it, the last few, oldest first."""
        conversation, turn = conversation_of(thread_id), turn_of(thread_id)
        if turn == 1:
            return []  # a conversation's first run (every run started without one) reads as asked
        earlier = sorted(
            (
                s
                for s in self.threads()
                if conversation_of(s.thread_id) == conversation and s.finished and turn_of(s.thread_id) < turn
            ),
            key=lambda s: turn_of(s.thread_id),
        )
        return [conversation_turn(self.record(s.thread_id)) for s in earlier][-MAX_HISTORY_TURNS:]

    def _next_turn(self, conversation: str) -> str:
        turns = [turn_of(s.thread_id) for s in self.threads() if conversation_of(s.thread_id) == conversation]
        if not turns:
            raise ThreadNotFoundError(f"no conversation {conversation!r}: start one with a question of its own")
        return run_thread_id(conversation, max(turns) + 1)

    def _submit(
        self,
        strategy: ResearchStrategy,
        topic: str,
        single_question: bool,
        options: ResearchOptions,
        thread_id: str,
        history: list[Turn],
    ) -> Job:

        def work(job: Job) -> ReportRecord:
            asked, run_topic, run_options = None, topic, options
            if history:
                read = strategy.condense(topic, history)
                if read.question != topic:
                    asked, run_topic = topic, read.question
                if read.doc_ids and not options.filters.doc_ids:
                    run_options = scoped(options, read.doc_ids)
            with open_checkpointer(self.settings) as checkpointer:
                result = run_research(
                    self.library,
                    strategy,
                    run_topic,
                    single_question=single_question,
                    asked=asked,
                    options=run_options,
                    checkpointer=checkpointer,
                    thread_id=thread_id,
                    on_progress=lambda node, line: job.emit("progress", {"node": node, "line": line}),
                )
            record = ReportRecord.from_state(thread_id, result.state)
            self.remember(record)
            return record

        kind = "question" if single_question else "topic report"
        info = {"thread_id": thread_id, "topic": topic, "single_question": single_question, "mode": strategy.mode}
        return self._jobs.submit("research", f"{kind}: {topic}", work, info=info)

    def state(self, thread_id: str) -> dict:
        """The latest checkpointed state of a run (finished or not); empty if unknown."""
        with open_checkpointer(self.settings) as checkpointer:
            return thread_state(checkpointer, thread_id)

    def served_graph(self, thread_id: str) -> str | None:
        """The graph a LangGraph API server (this worker's or another's) ran the thread on; else None."""
        with open_checkpointer(self.settings) as checkpointer:
            return served_graph(checkpointer, thread_id)

    def record(self, thread_id: str) -> ReportRecord:
        """A finished run (``ThreadNotFoundError`` for any other thread)."""
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

    def threads(self) -> list[RunSummary]:
        """The most recently active runs first."""
        with open_checkpointer(self.settings) as checkpointer:
            return list_threads(checkpointer)

    def export_files(self, record: ReportRecord) -> dict[ExportFormat, Path]:
        """Every export of a finished run, written once under ``exports/<thread id>/`` (the chat
        offers them as downloads, the API serves them from there)."""
        out_dir = self.settings.storage.exports_dir / folder_name(record.thread_id)
        paths = {f: out_dir / FILE_NAMES[f] for f in ExportFormat}
        if not all(p.is_file() for p in paths.values()):
            documents = self._cited_documents(record)
            names = self._title_names(documents)
            write_exports(record, out_dir, documents, font=self.settings.exports.pdf_font, names=names)
        return paths

    def export(self, record: ReportRecord, export_format: ExportFormat, with_notes: bool = False) -> bytes:
        """One export, made now."""
        documents = self._cited_documents(record)
        names = self._title_names(documents) if export_format is ExportFormat.BIBTEX else None
        return render_export(
            record, export_format, documents, font=self.settings.exports.pdf_font, with_notes=with_notes, names=names
        )

    def conversation_records(self, conversation: str) -> list[ReportRecord]:
        """The finished turns of ``conversation`` (its id, or any of its runs' thread ids), in turn
        order; ``ThreadNotFoundError`` when it has none."""
        wanted = conversation_of(conversation)
        runs = [r for c in conversations(self.threads()) if c.conversation == wanted for r in c.runs]
        records = []
        for run in runs:
            with suppress(ThreadNotFoundError):  # a turn interrupted or still running is left out
                records.append(self.record(run.thread_id))
        if not records:
            raise ThreadNotFoundError(f"no conversation {conversation!r} with a finished turn in the checkpoint store")
        return records

    def conversation_files(self, thread_id: str) -> list[Path]:
        """The whole conversation of ``thread_id`` as files (report, evidence table, bibliographies),
        written once for its present number of finished turns (the chat's downloads); none for a
        conversation of one turn, whose own exports say it all."""
        try:
            records = self.conversation_records(thread_id)
        except ThreadNotFoundError:
            return []
        if len(records) < 2:
            return []
        conversation = conversation_of(thread_id)
        out_dir = self.settings.storage.exports_dir / f"{folder_name(conversation)}-conversation-{len(records)}"
        paths = [out_dir / f"conversation-{FILE_NAMES[f]}" for f in CONVERSATION_FILES]
        if not all(p.is_file() for p in paths):
            out_dir.mkdir(parents=True, exist_ok=True)
            for fmt, path in zip(CONVERSATION_FILES, paths, strict=True):
                path.write_bytes(self.export_conversation(conversation, fmt))
        return paths

    def export_conversation(self, conversation: str, export_format: ExportFormat, with_notes: bool = False) -> bytes:
        """One export of a whole conversation (``ui.core.exports.conversation``), made now."""
        records = self.conversation_records(conversation)
        wanted = conversation_of(conversation)
        if export_format is ExportFormat.REPORT_MD:
            return conversation_markdown(wanted, records).encode("utf-8")
        record = conversation_record(wanted, records)
        documents = self._cited_documents(record)
        names = self._title_names(documents) if export_format is ExportFormat.BIBTEX else None
        return render_export(
            record, export_format, documents, font=self.settings.exports.pdf_font, with_notes=with_notes, names=names
        )

    def _cited_documents(self, record: ReportRecord):
        return self.library.registry.documents_by_id(c.resolution.doc_id for c in record.report.citations)

    def _title_names(self, documents: Mapping[str, Document]) -> dict[str, frozenset[str]]:
        """By document, the words of its title its own running text writes as proper names (BibTeX
        braces them); headings, written in title case, and other works' titles in its references are
        not running text."""
        registry = self.library.registry
        return {
            doc_id: proper_words([b.text for b in registry.blocks_of(doc_id) if b.kind in _RUNNING_TEXT], doc.title)
            for doc_id, doc in documents.items()
        }
