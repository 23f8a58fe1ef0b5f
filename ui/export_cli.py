"""``prp export``: a finished run's evidence table, bibliography, report and contradiction map."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from corpus.library import Library
from ui.exports.record import ThreadNotFoundError, load_record
from ui.exports.writer import ExportFormat, folder_name, write_exports
from ui.threads import ThreadSummary, list_threads


def add_export_parser(sub: argparse._SubParsersAction) -> None:
    export = sub.add_parser(
        "export",
        help="write a finished run's artifacts: evidence CSV, BibTeX, bibliography, report MD/PDF, contradictions",
    )
    export.add_argument("thread", nargs="?", help="thread id of the run (as printed by report/ask, or see --list)")
    export.add_argument(
        "--format",
        action="append",
        dest="formats",
        choices=[f.value for f in ExportFormat],
        help="only this format (repeatable; default: all)",
    )
    export.add_argument("--out", type=Path, help="folder to write to (default ./prp-export-THREAD)")
    export.add_argument("--list", action="store_true", help="list recent research threads and exit")


#: How many recent threads ``prp export --list`` shows.
THREADS_LISTED = 30


def print_threads(threads: Sequence[ThreadSummary], asked: bool) -> int:
    """The recent threads, for ``--list`` (exit 0) or when no thread was given (exit 2)."""
    if not asked:
        print("prp export: give the thread id of a finished run; recent threads:", file=sys.stderr)
    for t in threads:
        status = f"{t.citations} citations" if t.finished else "interrupted"
        print(f"{t.thread_id:24} {t.started[:16].replace('T', ' ')}  {t.kind:12} {status:14} {t.topic[:70]}")
    if not threads:
        print("no research threads yet: run prp ask / prp report, or the research chat (prp serve)")
    return 0 if asked else 2


def cmd_export(library: Library, args: argparse.Namespace) -> int:
    from graph.checkpoints import open_checkpointer

    with open_checkpointer(library.settings) as checkpointer:
        if args.list or not args.thread:
            if not args.list:
                print("prp export: give the thread id of a finished run; recent threads:", file=sys.stderr)
            return print_threads(list_threads(checkpointer, limit=THREADS_LISTED), args.list)
        try:
            record = load_record(checkpointer, args.thread)
        except ThreadNotFoundError as exc:
            print(f"prp: error: {exc} (prp export --list shows the threads)", file=sys.stderr)
            return 1
    formats = [ExportFormat(f) for f in args.formats] if args.formats else list(ExportFormat)
    out_dir = args.out or Path(f"prp-export-{folder_name(args.thread)}")
    documents = library.registry.documents_by_id(c.resolution.doc_id for c in record.report.citations)
    for path in write_exports(record, out_dir, documents, formats, font=library.settings.pdf_font):
        print(path)
    return 0
