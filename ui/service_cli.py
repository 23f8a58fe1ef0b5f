"""The CLI through a running service: when ``prp serve`` serves the data directory, ``prp ingest``,
``search``, ``ask``, ``report``, ``docs``, ``delete`` and ``export`` call its API instead of opening
the library (which the service holds), and print what they would have printed.

Interrupting a command here stops only the reading: an ingest or a research run goes on in the
service (the message says how to follow it), since other clients may be waiting for it too.
"""

from __future__ import annotations

import argparse
import sys
from contextlib import ExitStack
from pathlib import Path

from corpus.errors import PrpError
from corpus.ingest import FileResult, IngestSummary
from ui.cli_output import ingest_progress, print_deleted, print_docs, print_ingest, print_search, write_report
from ui.export_cli import THREADS_LISTED, print_threads
from ui.exports.writer import FILE_NAMES, ExportFormat, folder_name
from ui.service.client import ServiceClient, ServiceError
from ui.service.models import RunRequest, SearchRequest
from ui.threads import ThreadSummary

COMMANDS = ("ingest", "search", "ask", "report", "docs", "delete", "export")


def run(client: ServiceClient, args: argparse.Namespace) -> int:
    handler = {
        "ingest": ingest,
        "search": search,
        "ask": research,
        "report": research,
        "docs": docs,
        "delete": delete,
        "export": export,
    }[args.command]
    return handler(client, args)


def ingest(client: ServiceClient, args: argparse.Namespace) -> int:
    started = client.ingest([str(Path(p).expanduser().resolve()) for p in args.paths])
    with ExitStack() as bars:
        progress = None

        def on_event(event: str, data: dict) -> None:
            nonlocal progress
            if event == "started":
                progress = bars.enter_context(ingest_progress(data["files"]))
            elif event == "file" and progress is not None:
                progress(FileResult.model_validate(data))

        result = _follow(client, started.events, on_event, "the ingest", started.job.job_id)
    if "summary" not in result:
        raise PrpError(f"the ingest stopped: {result['job'].get('error') or result['job']['state']}")
    return print_ingest(IngestSummary.model_validate(result["summary"]), args.json)


def search(client: ServiceClient, args: argparse.Namespace) -> int:
    response = client.search(SearchRequest(query=args.query, **args.options.model_dump()))
    return print_search(response.results, None if args.json else response.scope, args.json)


def research(client: ServiceClient, args: argparse.Namespace) -> int:
    single = args.command == "ask"
    if args.llm:
        print(
            f"prp {args.command}: --llm is ignored: the service at {client.url} runs in its own mode", file=sys.stderr
        )
    request = RunRequest(topic=args.question if single else args.topic, options=args.options, thread_id=args.thread)
    started = client.start_run(args.command, request)
    thread_id = started.thread_id
    print(
        f"prp {args.command}: {started.job.info.get('mode')} mode, through the service at {client.url}", file=sys.stderr
    )

    def on_event(event: str, data: dict) -> None:
        if event == "progress" and not args.quiet:
            print(f"[{data['node']}] {data['line']}", file=sys.stderr, flush=True)

    result = _follow(client, started.events, on_event, f"the run (thread {thread_id})", started.job.job_id)
    if "report" not in result:
        job = result["job"]
        reason = job.get("error") or ("cancelled" if job["state"] == "cancelled" else job["state"])
        raise PrpError(f"{reason}. The steps done so far are saved: rerun with --thread {thread_id} to resume")
    return write_report(args, result["report"])


def docs(client: ServiceClient, args: argparse.Namespace) -> int:
    return print_docs(client.documents(), args.json)


def delete(client: ServiceClient, args: argparse.Namespace) -> int:
    return print_deleted(args.doc_id, client.delete(args.doc_id) is not None)


def export(client: ServiceClient, args: argparse.Namespace) -> int:
    if args.list or not args.thread:
        runs = [ThreadSummary(**r.model_dump(exclude={"kind"})) for c in client.threads() for r in c.runs]
        return print_threads(runs[:THREADS_LISTED], args.list)
    try:
        files = {f.format: f for f in client.exports(args.thread)}
    except ServiceError as exc:
        if exc.status != 404:
            raise
        print(f"prp: error: {exc.detail} (prp export --list shows the threads)", file=sys.stderr)
        return 1
    formats = [ExportFormat(f) for f in args.formats] if args.formats else list(ExportFormat)
    out_dir = args.out or Path(f"prp-export-{folder_name(args.thread)}")
    out_dir.mkdir(parents=True, exist_ok=True)
    for fmt in formats:
        path = out_dir / FILE_NAMES[fmt]
        path.write_bytes(client.download(files[fmt.value].url))
        print(path)
    return 0


def _follow(client: ServiceClient, events: str, on_event, what: str, job_id: str) -> dict:
    try:
        return client.follow(events, on_event)
    except KeyboardInterrupt:
        print(
            f"\nprp: stopped following; {what} goes on in the service at {client.url} "
            f"(job {job_id}: GET /api/jobs/{job_id}, cancel with POST /api/jobs/{job_id}/cancel)",
            file=sys.stderr,
        )
        raise SystemExit(130) from None
