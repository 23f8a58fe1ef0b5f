"""``prp ingest``, ``search``, ``docs`` and ``delete``: the library's documents, through the core."""

from __future__ import annotations

import argparse
from contextlib import ExitStack

from corpus.config import Settings
from corpus.errors import PrpError
from corpus.ingest import FileResult
from ui.cli.follow import follow
from ui.cli.output import ingest_progress, print_deleted, print_docs, print_ingest, print_search
from ui.core.connect import open_portal
from ui.core.jobs import JobEvent
from ui.core.models import SearchRequest
from ui.core.portal import Portal


def run(settings: Settings, args: argparse.Namespace) -> int:
    command = {"ingest": ingest, "search": search, "docs": docs, "delete": delete}[args.command]
    with open_portal(settings) as portal:
        return command(portal, args)


def ingest(portal: Portal, args: argparse.Namespace) -> int:
    if not args.paths and not args.bib:
        raise PrpError("name files or folders to ingest, or a reference manager's export with --bib")
    with ExitStack() as bars:
        progress = None

        def on_event(event: JobEvent) -> None:
            nonlocal progress
            if event.event == "started":
                progress = bars.enter_context(ingest_progress(event.data["files"]))
            elif event.event == "file" and progress is not None:
                progress(FileResult.model_validate(event.data))

        outcome = follow(portal, portal.ingest(args.paths, args.bib), on_event, "the ingest")
    if outcome.summary is None:
        raise PrpError(f"the ingest stopped: {outcome.job.error or outcome.job.state}")
    return print_ingest(outcome.summary, args.json)


def search(portal: Portal, args: argparse.Namespace) -> int:
    response = portal.search(SearchRequest(query=args.query, **args.options.model_dump()))
    return print_search(response.results, None if args.json else response.scope, args.json)


def docs(portal: Portal, args: argparse.Namespace) -> int:
    return print_docs(portal.documents(), args.json)


def delete(portal: Portal, args: argparse.Namespace) -> int:
    return print_deleted(args.doc_id, portal.delete(args.doc_id) is not None)
