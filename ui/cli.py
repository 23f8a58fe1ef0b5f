"""The ``prp`` command line."""

from __future__ import annotations

import argparse
import errno
import json
import os
import signal
import sqlite3
import sys
import uuid
from collections.abc import Sequence
from pathlib import Path

from corpus.config import Settings
from corpus.errors import PrpError
from corpus.ingest import FileResult, IngestSummary, Outcome
from corpus.library import Library
from corpus.text import page_label
from research.options import ResearchOptions
from tools.hybrid_search import RetrievalOptions, hybrid_search, named_documents
from ui.eval_cli import add_eval_parser, cmd_eval
from ui.export_cli import add_export_parser, cmd_export
from ui.exports.report_json import report_json
from ui.index_cli import add_index_parser, cmd_index
from ui.llm_cli import add_llm_parser, cmd_llm
from ui.option_flags import OptionsParser, add_option_flags
from ui.serve_cli import add_ui_parser, cmd_ui


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
    add_ui_parser(sub)
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
    from tqdm import tqdm

    from corpus.ingest import discover

    total = len(discover(args.paths))
    with tqdm(total=total, unit="file", desc="ingest", file=sys.stderr, disable=None) as bar:

        def progress(result: FileResult) -> None:
            bar.update(1)
            bar.set_postfix_str(f"{result.outcome.value}: {Path(result.path).name}", refresh=False)

        summary = library.ingest(args.paths, progress)
    if args.json:
        print(json.dumps(summary.as_dict(), indent=2))
    else:
        print(format_summary(summary))
    # Non-zero when any file failed, so scripts notice; the other files are ingested regardless.
    return 1 if summary.count(Outcome.FAILED) else 0


def format_summary(summary: IngestSummary) -> str:
    lines = [
        f"documents: {summary.count(Outcome.OK)} ok, {summary.count(Outcome.SKIPPED)} skipped, "
        f"{summary.count(Outcome.FAILED)} failed",
        f"pages: {summary.pages}  blocks: {summary.blocks}  chunks: {summary.chunks}  time: {summary.seconds:.1f}s",
    ]
    for f in summary.files:
        if f.outcome is not Outcome.OK:
            lines.append(f"  {f.outcome.value}: {f.path}: {f.reason}")
    return "\n".join(lines)


def cmd_search(library: Library, args: argparse.Namespace) -> int:
    options: RetrievalOptions = args.options
    filters = options.filters
    results = hybrid_search(library, args.query, options.k, filters, options.search_mode)
    if args.json:
        print(json.dumps([r.model_dump(mode="json") for r in results], indent=2))
        return 0
    scope = named_documents(library, args.query, filters)
    if scope is not None:
        print(f"searching {'; '.join(scope.titles)} for: {scope.query}")
    if not results:
        print("no results")
    for r in results:
        print(f"{r.rank}. [{r.score:.4f}] {r.title} ({r.year or 'n.d.'}) {page_label(r.pages)} · {r.section}")
        print(f"   blocks: {', '.join(b.block_id for b in r.blocks)}")
        snippet = " ".join(r.text.split())
        print(f"   {snippet[:300]}{'…' if len(snippet) > 300 else ''}")
    return 0


def cmd_research(library: Library, args: argparse.Namespace) -> int:
    # The graph and the strategies (langchain-openai among them) load only for the commands that
    # run research, so `prp search`, `prp docs` and the others start fast.
    from graph.checkpoints import open_checkpointer
    from graph.run import run_research
    from strategies.select import open_strategy

    single = args.command == "ask"
    options: ResearchOptions = args.options
    settings = library.settings.model_copy(update={"llm": args.llm}) if args.llm else library.settings

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
                args.question if single else args.topic,
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
    print(f"thread: {result.thread_id} (resume or revisit with --thread {result.thread_id})", file=sys.stderr)
    if args.out:
        args.out.write_text(result.report.markdown)
        print(f"wrote {args.out}", file=sys.stderr)
    if args.json_out:
        args.json_out.write_text(json.dumps(report_json(result.report, result.thread_id), indent=2))
        print(f"wrote {args.json_out}", file=sys.stderr)
    if not args.out:
        print(result.report.markdown)
    return 0


def cmd_docs(library: Library, args: argparse.Namespace) -> int:
    docs = library.registry.documents()
    if args.json:
        print(json.dumps([d.model_dump(mode="json") for d in docs], indent=2))
        return 0
    for d in docs:
        print(f"{d.doc_id}  {d.type.value:8} {d.page_count:3}p {d.n_chunks:4} chunks  {d.year or '    '}  {d.title}")
    print(f"{len(docs)} documents")
    return 0


def cmd_delete(library: Library, args: argparse.Namespace) -> int:
    if library.delete(args.doc_id):
        print(f"deleted {args.doc_id}")
        return 0
    print(f"prp: error: no document {args.doc_id}", file=sys.stderr)
    return 1


COMMANDS = {
    "ingest": cmd_ingest,
    "search": cmd_search,
    "report": cmd_research,
    "ask": cmd_research,
    "docs": cmd_docs,
    "delete": cmd_delete,
    "eval": cmd_eval,
    "ui": cmd_ui,
    "export": cmd_export,
    "index": cmd_index,
}

if __name__ == "__main__":
    sys.exit(main())
