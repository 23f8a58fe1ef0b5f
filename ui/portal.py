"""What the running research chat holds: the library (and with it the local store), the research
strategy, and finished runs read back from the checkpointer, kept in a small cache.

One ``Portal`` per UI process, created by ``ui.app.build_app`` and passed to each tab; nothing is
module-level. Finished runs never change (resuming a finished thread returns the same report), so
caching their records is safe.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from pathlib import Path

from corpus.config import Settings
from corpus.library import Library
from graph.build import build_graph
from graph.checkpoints import open_checkpointer
from research.strategy import ResearchStrategy
from ui.exports.record import ReportRecord, load_record
from ui.exports.writer import FILE_NAMES, ExportFormat, folder_name, write_exports
from ui.threads import ConversationSummary, list_conversations

RECORD_CACHE_SIZE = 32


def mode_name(mode: str) -> str:
    """A strategy's (or a report's) mode as people read it: "offline mode", "LLM mode · model X"."""
    if mode == "offline":
        return "offline mode"
    return f"LLM mode \u00b7 model {mode.removeprefix('llm').strip(' ()') or 'unknown'}"


class Portal:
    def __init__(self, library: Library, strategy: ResearchStrategy):
        self.library = library
        self.strategy = strategy
        self._records: OrderedDict[str, ReportRecord] = OrderedDict()
        self._lock = threading.Lock()
        #: Held by every research run, ingest and deletion while it works on the library. Gradio's
        #: queue already runs them one at a time, but a run whose browser tab closed goes on in its
        #: thread after Gradio has moved on; this keeps the next write from overlapping it.
        self.library_lock = threading.Lock()

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

    def document_choices(self) -> list[tuple[str, str]]:
        """(label, doc_id) for every document, for filters and the delete picker."""
        return [
            (f"{d.title} ({d.year or 'n.d.'}, {d.type.value})", d.doc_id)
            for d in sorted(self.library.registry.documents(), key=lambda d: d.title.lower())
        ]
