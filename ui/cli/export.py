"""``prp export``: a finished run's evidence table, bibliography, report and contradiction map, through
the core; ``--list`` (or no thread) shows recent runs."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from config import Settings
from ui.cli.output import print_threads
from ui.core.connect import open_portal
from ui.core.errors import ThreadNotFoundError
from ui.core.exports.formats import FILE_NAMES, ExportFormat, folder_name

#: How many recent threads ``prp export --list`` shows.
THREADS_LISTED = 30


def run(settings: Settings, args: argparse.Namespace) -> int:
    with open_portal(settings) as portal:
        thread = args.conversation or args.thread
        if args.list or not thread:
            runs = [summary for conversation in portal.threads() for summary in conversation.runs]
            return print_threads(runs[:THREADS_LISTED], args.list)
        formats = [ExportFormat(f) for f in args.formats] if args.formats else list(ExportFormat)
        export = portal.export_conversation if args.conversation else portal.export
        try:
            contents = {fmt: export(thread, fmt, with_notes=args.with_notes) for fmt in formats}
        except ThreadNotFoundError as exc:
            print(f"prp: error: {exc} (prp export --list shows the threads)", file=sys.stderr)
            return 1
    out_dir = args.out or Path(f"prp-export-{folder_name(thread)}")
    out_dir.mkdir(parents=True, exist_ok=True)
    for fmt, content in contents.items():
        path = out_dir / FILE_NAMES[fmt]
        path.write_bytes(content)
        print(path)
    return 0
