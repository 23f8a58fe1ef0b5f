"""The ``prp`` command line: parse, run the command, turn what went wrong into words and an exit code."""

from __future__ import annotations

import argparse
import errno
import os
import signal
import sqlite3
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from corpus.errors import PrpError
from ui.cli.parser import build_parser

if TYPE_CHECKING:
    from config import Settings


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
    settings = _settings()
    try:
        return run(settings, args)
    except PrpError as exc:
        print(f"prp: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (`prp search --json | head`): what it wanted it got. Point stdout at
        # /dev/null so the interpreter's final flush does not raise again, and exit as a pipe writer does.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + signal.SIGPIPE
    except Exception as exc:
        if not isinstance(exc, OSError | sqlite3.OperationalError) or not _out_of_space(exc):
            return _database_error(exc, settings)
        print(
            f"prp: error: could not write to the library at {settings.storage.data_dir.resolve()} ({exc}): the disk "
            "is full, or a file-size or quota limit was reached. Free space and run the command again: an "
            "interrupted ingest is finished, an interrupted report resumed with --thread.",
            file=sys.stderr,
        )
        return 2


def run(settings: Settings, args: argparse.Namespace) -> int:
    """Run the parsed command. Its module is imported only now, so help and usage errors never load
    what a command needs (and a command loads only what it needs)."""
    match args.command:
        case "ingest" | "sync" | "search" | "docs" | "delete":
            from ui.cli import documents as command
        case "ask" | "report":
            from ui.cli import research as command
        case "export":
            from ui.cli import export as command
        case "index":
            from ui.cli import index as command
        case "database":
            from ui.cli import database as command
        case "eval":
            from ui.cli import evaluate as command
        case "serve" | "ui":
            from ui.cli import serve as command
        case "llm":
            from ui.cli import llm as command
        case "mcp":
            from ui.cli import mcp as command
    return command.run(settings, args)


def _settings() -> Settings:
    from config import Settings  # pydantic-settings: loaded for a command, not for help or a usage error

    return Settings()


def _database_error(exc: Exception, settings: Settings) -> int:
    """A PostgreSQL that cannot be reached or refuses (``PRP_DATABASE_URL``), in one line; anything else
    is raised on."""
    from corpus.database import unusable

    message = unusable(exc, settings.storage.database_url)
    if message is None:
        raise exc
    print(f"prp: error: {message}", file=sys.stderr)
    return 2


def _out_of_space(exc: BaseException) -> bool:
    if isinstance(exc, sqlite3.OperationalError):  # SQLite reports a failed write in its own words
        return any(m in str(exc) for m in ("disk I/O error", "database or disk is full"))
    return isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT)
