"""``prp ingest``, ``sync``, ``search``, ``docs`` and ``delete``: the library's documents, through the core."""

from __future__ import annotations

import argparse
from functools import partial

from pydantic import ValidationError

from config import Settings
from corpus.errors import PrpError
from corpus.models import MetadataOverride
from ui.cli.follow import follow
from ui.cli.output import (
    print_deleted,
    print_docs,
    print_document,
    print_ingest,
    print_search,
    print_sync,
)
from ui.cli.progress import ingest_progress
from ui.core.connect import open_portal
from ui.core.models import SearchRequest
from ui.core.portal import Portal


def run(settings: Settings, args: argparse.Namespace) -> int:
    every = settings.ingest.progress_seconds
    commands = {"ingest": partial(ingest, every=every), "sync": partial(sync, every=every)}
    command = commands.get(args.command) or {"search": search, "docs": docs, "delete": delete}[args.command]
    with open_portal(settings) as portal:
        return command(portal, args)


def ingest(portal: Portal, args: argparse.Namespace, every: float) -> int:
    """``every``: seconds between progress lines when stderr is not a terminal."""
    if not args.paths and not args.bib:
        raise PrpError("name files or folders to ingest, or a reference manager's export with --bib")
    with ingest_progress(every) as on_event:
        outcome = follow(portal, portal.ingest(args.paths, args.bib), on_event, "the ingest")
    if outcome.summary is None:
        raise PrpError(f"the ingest stopped: {outcome.job.error or outcome.job.state}")
    return print_ingest(outcome.summary, args.json)


def sync(portal: Portal, args: argparse.Namespace, every: float) -> int:
    with ingest_progress(every) as on_event:
        outcome = follow(portal, portal.sync(dry_run=args.dry_run), on_event, "the sync")
    if outcome.sync is None:
        raise PrpError(f"the sync stopped: {outcome.job.error or outcome.job.state}")
    return print_sync(outcome.sync, args.json)


def search(portal: Portal, args: argparse.Namespace) -> int:
    response = portal.search(SearchRequest(query=args.query, **args.options.model_dump()))
    return print_search(response.results, None if args.json else response.scope, args.json)


def docs(portal: Portal, args: argparse.Namespace) -> int:
    if args.docs_command == "edit":
        return edit(portal, args)
    return print_docs(portal.documents(), args.json)


def edit(portal: Portal, args: argparse.Namespace) -> int:
    given = {f: getattr(args, f) for f in ("title", "year", "authors", "venue", "doi", "arxiv_id", "entry_type")}
    given = {f: v for f, v in given.items() if v is not None}
    if not given:
        raise PrpError("prp docs edit: give at least one of --author, --year, --title, --venue, --doi, --arxiv, --type")
    if "year" in given:
        given["year"] = given["year"].strip() or None
    try:
        record = portal.edit_document(args.doc_id, MetadataOverride(**given))
    except ValidationError as exc:
        raise PrpError("; ".join(f"--{_flag(e['loc'])}: {e['msg']}" for e in exc.errors())) from None
    except ValueError as exc:  # a DOI or arXiv id that is not one
        raise PrpError(str(exc)) from None
    return print_document(record, args.json)


def _flag(loc: tuple) -> str:
    """The option a validation error is about (a model-level error is the title's)."""
    field = str(loc[0]) if loc else "title"
    return {"authors": "author", "arxiv_id": "arxiv", "entry_type": "type"}.get(field, field)


def delete(portal: Portal, args: argparse.Namespace) -> int:
    return print_deleted(args.doc_id, portal.delete(args.doc_id) is not None)
