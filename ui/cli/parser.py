"""What ``prp`` accepts: every command, its arguments and its help.

Kept apart from what the commands do, and importing only the options models and the names of the
export formats, so that ``prp --help`` and a usage error answer before anything heavy is loaded.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from corpus.parsing import SUFFIX_TYPES
from corpus.retrieval import RetrievalOptions
from research.options import ResearchOptions
from ui.cli.option_flags import OptionsParser, add_option_flags
from ui.core.exports.formats import ExportFormat

DEFAULT_PORT = 8400
DEFAULT_EVAL_OUT = Path("evals/results")
LLM_CHOICES = ["auto", "local"]


def build_parser() -> argparse.ArgumentParser:
    parser = OptionsParser(prog="prp", description="Personal Research Portal")
    sub = parser.add_subparsers(dest="command", required=True)
    for add in (
        _ingest,
        _sync,
        _search,
        _research,
        _docs,
        _delete,
        _llm,
        _eval,
        _serve,
        _mcp,
        _export,
        _index,
        _database,
    ):
        add(sub)
    return parser


def _ingest(sub: argparse._SubParsersAction) -> None:
    ingest = sub.add_parser(
        "ingest",
        help="add files or folders (recursive) to the library, or a reference manager's library (--bib)",
        description="Add files or folders (recursive) to the library. Reads "
        f"{' '.join(sorted(SUFFIX_TYPES))}; other files are named and skipped.",
    )
    ingest.add_argument("paths", nargs="*", type=Path)
    ingest.add_argument(
        "--bib",
        action="append",
        type=Path,
        default=[],
        metavar="EXPORT",
        help="a BibTeX (.bib) or CSL-JSON (.json) export, e.g. Zotero's: each entry's attached file is "
        "ingested with the entry's title, authors, year, venue, DOI and arXiv id, which win over what is "
        "extracted (repeatable)",
    )
    ingest.add_argument(
        "--zotero",
        action="append",
        type=Path,
        dest="bib",
        metavar="FOLDER",
        help="Zotero's data folder (~/Zotero): its items' stored and linked files, with their metadata, as "
        "for --bib; zotero.sqlite is read from a copy, never written (repeatable)",
    )
    ingest.add_argument("--json", action="store_true", help="print the summary as JSON")


def _sync(sub: argparse._SubParsersAction) -> None:
    sync = sub.add_parser(
        "sync",
        help="bring the library in step with the folders and files it was ingested from",
        description="Add the new files in every folder (and file) ingested before, index changed ones again "
        "and remove the documents whose files are gone. A folder that is missing (a drive not mounted) is "
        "reported and its documents kept.",
    )
    sync.add_argument("--dry-run", action="store_true", help="change nothing: say what a sync would do")
    sync.add_argument("--json", action="store_true", help="print the summary as JSON")


def _search(sub: argparse._SubParsersAction) -> None:
    search = sub.add_parser("search", help="hybrid search over the library")
    search.add_argument("query")
    add_option_flags(search, RetrievalOptions)
    search.add_argument("--json", action="store_true")


def _docs(sub: argparse._SubParsersAction) -> None:
    docs = sub.add_parser("docs", help="list the documents in the library (or edit one: prp docs edit)")
    docs.add_argument("--json", action="store_true")
    actions = docs.add_subparsers(dest="docs_command")
    edit = actions.add_parser(
        "edit",
        help="set a document's bibliographic fields; they win over extraction on every later ingest",
        description="Set the fields given (an empty value clears one); the others stay as they are.",
    )
    edit.add_argument("doc_id")
    edit.add_argument(
        "--author",
        action="append",
        dest="authors",
        metavar="NAME",
        help='"Given Family", once per author in order; replaces the author list (--author "" clears it '
        'and marks it reviewed). A corporate author is one name: --author "{Gemma Team}" (a team, company or '
        "other body is recognised without the braces too)",
    )
    edit.add_argument("--year", help="year of publication (an empty value clears it)")
    edit.add_argument("--title")
    edit.add_argument("--venue", help="journal, proceedings or publisher")
    edit.add_argument("--doi")
    edit.add_argument("--arxiv", dest="arxiv_id", metavar="ID", help='arXiv identifier, e.g. "2101.01234"')
    edit.add_argument(
        "--type",
        dest="entry_type",
        metavar="KIND",
        help="the kind of work, as BibTeX names it (article, inproceedings, phdthesis, techreport, misc, ...); "
        "an empty value lets the exports tell it from the venue",
    )
    edit.add_argument("--json", action="store_true", help="print the edited document as JSON")


def _delete(sub: argparse._SubParsersAction) -> None:
    delete = sub.add_parser("delete", help="remove a document (its blocks and chunks too)")
    delete.add_argument("doc_id")


def _research(sub: argparse._SubParsersAction) -> None:
    for name, help_text, what in (
        ("report", "research a topic and write a cited report", "topic"),
        ("ask", "answer one question with a cited answer (the same graph, one sub-question)", "question"),
    ):
        research = sub.add_parser(name, help=help_text)
        research.add_argument(what)
        add_option_flags(research, ResearchOptions)
        research.add_argument(
            "--thread",
            help="thread id: resumes that run if it was interrupted; if it finished, a new question continues "
            "its conversation (a follow-up such as 'and what does it cost?' is read against it)",
        )
        research.add_argument("--out", type=Path, help="write the Markdown report here")
        research.add_argument("--json", type=Path, dest="json_out", help="write the report and citations as JSON here")
        research.add_argument("--quiet", action="store_true", help="no progress lines")
        research.add_argument(
            "--llm",
            choices=LLM_CHOICES,
            help="local: run a local llama.cpp model for this run (default: PRP_LLM, else auto: "
            "OPENAI_* if set, otherwise offline mode)",
        )


def _llm(sub: argparse._SubParsersAction) -> None:
    llm = sub.add_parser("llm", help="a local LLM (llama.cpp, the local-llm extra)")
    actions = llm.add_subparsers(dest="llm_command", required=True)
    serve = actions.add_parser("serve", help="serve a GGUF model on a loopback port until Ctrl-C")
    serve.add_argument(
        "--model-path",
        type=Path,
        help="a GGUF file (default: PRP_LOCAL_MODEL, else Qwen2.5-Coder-0.5B-Instruct from `make setup-llm`)",
    )
    serve.add_argument("--port", type=int, help="loopback port (default: a free one)")


def _eval(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "eval",
        help="evaluate prp on a dataset (prp:FILE, qasper:DIR, ramdocs:FILE)",
        description="Runs every example through the research graph via langsmith.evaluate, scores "
        "retrieval, citations, answers, abstention, contradictions and cost, and writes "
        "evals/results/<run-id>/ (JSONL, summary JSON, Markdown report with charts). Nothing is "
        "uploaded unless LANGSMITH_API_KEY is set.",
    )
    parser.add_argument("dataset", help="prp:FILE (JSONL), qasper:DIR or ramdocs:FILE")
    parser.add_argument(
        "--limit", type=int, help="only N examples (the first N, or a random sample with --sample-seed)"
    )
    parser.add_argument("--sample-seed", type=int, help="seed for a reproducible random sample of --limit examples")
    parser.add_argument(
        "--compare",
        action="store_true",
        help="also run dense, sparse, no retries (and offline vs LLM when an LLM is configured); one table",
    )
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument(
        "--corpus",
        type=Path,
        action="append",
        help="for prp: datasets, ask a cached eval collection of these documents instead of the library",
    )
    add_option_flags(parser, ResearchOptions)
    parser.add_argument(
        "--no-judge",
        dest="judge",
        action="store_false",
        help="in LLM mode, skip the LLM-judged groundedness and relevance scores",
    )
    parser.add_argument(
        "--out", type=Path, default=DEFAULT_EVAL_OUT, help=f"results folder (default {DEFAULT_EVAL_OUT})"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bars")


def _serve(sub: argparse._SubParsersAction) -> None:
    for name, help_text in (
        ("serve", "serve the library: research chat, REST API and LangGraph API in one process"),
        ("ui", "the same as prp serve (the research chat is at /chat)"),
    ):
        serve = sub.add_parser(name, help=help_text)
        serve.add_argument(
            "--host",
            default="127.0.0.1",
            help="interface to listen on (default 127.0.0.1: this machine only; any other needs PRP_API_TOKEN)",
        )
        serve.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
        serve.add_argument(
            "--watch",
            action="store_true",
            help="watch the folders the library was ingested from and sync what changes in them (PRP_WATCH)",
        )
        serve.add_argument(
            "--llm",
            choices=LLM_CHOICES,
            help="local: run a local llama.cpp model while the service runs (default: PRP_LLM, else auto)",
        )


def _mcp(sub: argparse._SubParsersAction) -> None:
    mcp = sub.add_parser(
        "mcp",
        help="serve the library to an assistant (Claude Desktop, Claude Code, Cursor) as an MCP server on stdio",
        description="Tools search, ask, report, documents and cite, and each document and finished run as a "
        "resource, through the running prp serve if there is one (which also serves them at /mcp over HTTP). "
        "Read-only unless --allow-ingest.",
    )
    mcp.add_argument("--allow-ingest", action="store_true", help="add the ingest tool (files and folders by path)")


def _export(sub: argparse._SubParsersAction) -> None:
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
    export.add_argument(
        "--thread",
        dest="conversation",
        metavar="ID",
        help="the whole conversation ID (every finished turn; a run's thread id names its conversation), "
        "citations numbered through it",
    )
    export.add_argument("--out", type=Path, help="folder to write to (default ./prp-export-THREAD)")
    export.add_argument(
        "--with-notes",
        action="store_true",
        help="BibTeX entries carry a note naming their prp document (styles print it; off by default)",
    )
    export.add_argument("--list", action="store_true", help="list recent research threads and exit")


def _index(sub: argparse._SubParsersAction) -> None:
    index = sub.add_parser("index", help="show the index engine and its size; copy the index to or from a server")
    action = index.add_subparsers(dest="index_command")
    copy = action.add_parser(
        "copy",
        help="copy the embedded index to a Qdrant server (--to URL) or a server's back (--from URL)",
    )
    where = copy.add_mutually_exclusive_group(required=True)
    where.add_argument("--to", metavar="URL", help="Qdrant server to copy the embedded index to")
    where.add_argument("--from", dest="source", metavar="URL", help="Qdrant server to copy into the embedded index")
    copy.add_argument("--api-key", help="the server's API key (default: QDRANT_API_KEY)")


def _database(sub: argparse._SubParsersAction) -> None:
    database = sub.add_parser("database", help="move the library's registry to PostgreSQL (PRP_DATABASE_URL)")
    action = database.add_subparsers(dest="database_command", required=True)
    migrate = action.add_parser(
        "migrate",
        help="copy the library's SQLite registry (documents, blocks, chunks, ingest roots) into an empty "
        "PostgreSQL database, for PRP_DATABASE_URL",
    )
    migrate.add_argument("--to", required=True, metavar="URL", help="the PostgreSQL database, postgresql://…")
