"""The ``prp`` command line."""

from __future__ import annotations

import argparse
import errno
import os
import signal
import sqlite3
import sys
import uuid
from collections.abc import Sequence
from pathlib import Path

from corpus.config import Settings
from corpus.errors import PrpError
from corpus.library import Library
from corpus.retrieval import RetrievalOptions
from research.options import ResearchOptions
from tools.hybrid_search import hybrid_search, named_documents
from ui import service_cli
from ui.cli_output import ingest_progress, print_deleted, print_docs, print_ingest, print_search, write_report
from ui.eval_cli import add_eval_parser, cmd_eval
from ui.export_cli import add_export_parser, cmd_export
from ui.exports.report_json import report_json
from ui.index_cli import add_index_parser, cmd_index
from ui.llm_cli import add_llm_parser, cmd_llm
from ui.option_flags import OptionsParser, add_option_flags
from ui.serve_cli import add_serve_parser, cmd_serve
from ui.service.client import ServiceClient


def build_parser() -> argparse.ArgumentParser:
    parser = OptionsParser(prog="prp", description="Personal Research Portal")
    sub = parser.add_subparsers(dest="command", required=True)

    ingest = sub.add_parser("ingest", help="add files or folders (recursive) to the library")
    ingest.add_argument("paths", nargs="+", type=Path)
    ingest.add_argument("--json", action="store_true", help="print the summary as JSON")

    search = sub.add_parser("search", help="hybrid search over the library")
    search.add_argument("query")
    add_option_flags(search, RetrievalOptions)
    search.add_argument("--json", action="store_true")

    for name, help_text, what in (
        ("report", "research a topic and write a cited report", "topic"),
        ("ask", "answer one question with a cited answer (the same graph, one sub-question)", "question"),
    ):
        research = sub.add_parser(name, help=help_text)
        research.add_argument(what)
        add_option_flags(research, ResearchOptions)
        research.add_argument("--thread", help="thread id: resumes that run if it was interrupted")
        research.add_argument("--out", type=Path, help="write the Markdown report here")
        research.add_argument("--json", type=Path, dest="json_out", help="write the report and citations as JSON here")
        research.add_argument("--quiet", action="store_true", help="no progress lines")
        research.add_argument(
            "--llm",
            choices=["auto", "local"],
            help="local: run a local llama.cpp model for this run (default: PRP_LLM, else auto: "
            "OPENAI_* if set, otherwise offline mode)",
        )

    docs = sub.add_parser("docs", help="list the documents in the library")
    docs.add_argument("--json", action="store_true")

    delete = sub.add_parser("delete", help="remove a document (its blocks and chunks too)")
    delete.add_argument("doc_id")
    add_llm_parser(sub)
    add_eval_parser(sub)
    add_serve_parser(sub)
    add_export_parser(sub)
    add_index_parser(sub)
    return parser


def guard_tracing() -> None:
    """Trace to LangSmith only when it is both asked for and possible.

    With tracing on but no API key (or no network) the LangSmith client retries in the background
    and stalls process exit by about 100 s; without a key nothing could be sent anyway.
    """
    wanted = os.environ.get("LANGSMITH_TRACING", "").lower() == "true"
    if wanted and not os.environ.get("LANGSMITH_API_KEY"):
        print("prp: LANGSMITH_TRACING=true but LANGSMITH_API_KEY is not set: tracing off", file=sys.stderr)
        os.environ["LANGSMITH_TRACING"] = "false"


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    guard_tracing()
    try:
        if args.command == "llm":  # needs no library, so it leaves the local store free for other shells
            return cmd_llm(Settings(), args)
        if args.command in ("serve", "ui"):  # the server opens the library in its own modules
            return cmd_serve(Settings(), args)
        if args.command in service_cli.COMMANDS:
            client = ServiceClient.connect(Settings())
            if client is not None:  # `prp serve` holds this library: go through it
                with client:
                    return service_cli.run(client, args)
        with Library(Settings()) as library:
            return COMMANDS[args.command](library, args)
    except PrpError as exc:
        print(f"prp: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (`prp search --json | head`): what it wanted it got. Point stdout at
        # /dev/null so the interpreter's final flush does not raise again, and exit as a pipe writer does.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + signal.SIGPIPE
    except (OSError, sqlite3.OperationalError) as exc:
        if not _out_of_space(exc):
            raise
        print(
            f"prp: error: could not write to the library at {Settings().data_dir.resolve()} ({exc}): the disk "
            "is full, or a file-size or quota limit was reached. Free space and run the command again: an "
            "interrupted ingest is finished, an interrupted report resumed with --thread.",
            file=sys.stderr,
        )
        return 2


def _out_of_space(exc: BaseException) -> bool:
    if isinstance(exc, sqlite3.OperationalError):  # SQLite reports a failed write in its own words
        return any(m in str(exc) for m in ("disk I/O error", "database or disk is full"))
    return isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT)


def cmd_ingest(library: Library, args: argparse.Namespace) -> int:
    from corpus.ingest import discover

    with ingest_progress(len(discover(args.paths))) as progress:
        summary = library.ingest(args.paths, progress)
    return print_ingest(summary, args.json)


def cmd_search(library: Library, args: argparse.Namespace) -> int:
    options: RetrievalOptions = args.options
    filters = options.filters
    results = hybrid_search(library, args.query, options.k, filters, options.search_mode)
    scope = None if args.json else named_documents(library, args.query, filters)
    return print_search(results, scope, args.json)


def cmd_research(library: Library, args: argparse.Namespace) -> int:
    # The graph and the strategies (langchain-openai among them) load only for the commands that
    # run research, so `prp search`, `prp docs` and the others start fast.
    from graph.checkpoints import open_checkpointer
    from graph.run import run_research
    from strategies.select import open_strategy

    single = args.command == "ask"
    options: ResearchOptions = args.options
    settings = library.settings.model_copy(update={"llm": args.llm}) if args.llm else library.settings
    topic = args.question if single else args.topic

    def progress(node: str, line: str) -> None:
        if not args.quiet:
            print(f"[{node}] {line}", file=sys.stderr, flush=True)

    # Named before the run, so a run the model's server breaks off can be resumed by it.
    thread_id = args.thread or uuid.uuid4().hex[:12]
    with open_strategy(settings, library, progress) as strategy, open_checkpointer(settings) as checkpointer:
        print(f"prp {args.command}: {strategy.mode} mode, {settings.describe_store()}", file=sys.stderr)
        try:
            result = run_research(
                library,
                strategy,
                topic,
                single_question=single,
                options=options,
                checkpointer=checkpointer,
                thread_id=thread_id,
                on_progress=progress,
            )
        except PrpError as exc:
            raise PrpError(
                f"{exc}. The steps done so far are saved: rerun with --thread {thread_id} to resume"
            ) from None
    state = result.state
    return write_report(
        args,
        report_json(result.report, result.thread_id, state.get("topic", topic), bool(state.get("single_question"))),
    )


def cmd_docs(library: Library, args: argparse.Namespace) -> int:
    return print_docs(library.registry.documents(), args.json)


def cmd_delete(library: Library, args: argparse.Namespace) -> int:
    return print_deleted(args.doc_id, library.delete(args.doc_id))


COMMANDS = {
    "ingest": cmd_ingest,
    "search": cmd_search,
    "report": cmd_research,
    "ask": cmd_research,
    "docs": cmd_docs,
    "delete": cmd_delete,
    "eval": cmd_eval,
    "export": cmd_export,
    "index": cmd_index,
}

if __name__ == "__main__":
    sys.exit(main())
