"""``prp ingest``, ``sync``, ``search``, ``docs`` and ``delete``: the library's documents, through the core."""

from __future__ import annotations

import argparse
from contextlib import ExitStack

from corpus.config import Settings
from corpus.errors import PrpError
from corpus.ingest import FileResult
from ui.cli.follow import follow
from ui.cli.output import ingest_progress, print_deleted, print_docs, print_ingest, print_search, print_sync
from ui.core.connect import open_portal
from ui.core.jobs import JobEvent
from ui.core.models import SearchRequest
from ui.core.portal import Portal


def run(settings: Settings, args: argparse.Namespace) -> int:
    command = {"ingest": ingest, "sync": sync, "search": search, "docs": docs, "delete": delete}[args.command]
    with open_portal(settings) as portal:
        return command(portal, args)


def ingest(portal: Portal, args: argparse.Namespace) -> int:
    with ExitStack() as bars:
        progress = None

        def on_event(event: JobEvent) -> None:
            nonlocal progress
            if event.event == "started":
                progress = bars.enter_context(ingest_progress(event.data["files"]))
            elif event.event == "file" and progress is not None:
                progress(FileResult.model_validate(event.data))

        outcome = follow(portal, portal.ingest(args.paths), on_event, "the ingest")
    if outcome.summary is None:
        raise PrpError(f"the ingest stopped: {outcome.job.error or outcome.job.state}")
    return print_ingest(outcome.summary, args.json)


def sync(portal: Portal, args: argparse.Namespace) -> int:
    with ExitStack() as bars:
        progress = None

        def on_event(event: JobEvent) -> None:
            nonlocal progress
            if event.event == "started" and event.data["files"]:
                progress = bars.enter_context(ingest_progress(event.data["files"]))
            elif event.event == "file" and progress is not None:
                progress(FileResult.model_validate(event.data))

        outcome = follow(portal, portal.sync(dry_run=args.dry_run), on_event, "the sync")
    if outcome.sync is None:
        raise PrpError(f"the sync stopped: {outcome.job.error or outcome.job.state}")
    return print_sync(outcome.sync, args.json)


def search(portal: Portal, args: argparse.Namespace) -> int:
    response = portal.search(SearchRequest(query=args.query, **args.options.model_dump()))
    return print_search(response.results, None if args.json else response.scope, args.json)


def docs(portal: Portal, args: argparse.Namespace) -> int:
    return print_docs(portal.documents(), args.json)


def delete(portal: Portal, args: argparse.Namespace) -> int:
    return print_deleted(args.doc_id, portal.delete(args.doc_id) is not None)
