"""``prp database migrate --to URL``: move a library's registry from its SQLite file to PostgreSQL.

Only the registry moves (``corpus.registry_copy``) and, once the threads' copy is wired in, the
research threads: the index stays where it is (``prp index copy --to`` moves it to a Qdrant server,
which workers sharing the database must share too).
"""

from __future__ import annotations

import argparse

from config import Settings
from corpus.database import PostgresDatabase, SqliteDatabase, unusable, without_password
from corpus.errors import PrpError
from corpus.registry_copy import copy_registry


def run(settings: Settings, args: argparse.Namespace) -> int:
    source = settings.storage.registry_path
    if not source.is_file():
        raise PrpError(f"no library at {settings.storage.data_dir.resolve()} (no {source.name}) to migrate")
    target = _target(args.to)
    try:
        copied = copy_registry(SqliteDatabase(source), target)
    finally:
        target.close()
    shown = without_password(args.to)
    print(
        f"copied to {shown}: {copied['documents']} documents, {copied['blocks']} blocks, {copied['chunks']} "
        f"chunks, {copied['ingest_roots']} ingest roots, {copied['metadata_overrides']} metadata edits"
    )
    threads = copy_threads(settings, args.to)
    if threads is not None:
        print(f"copied to {shown}: {threads} research threads")
    print(f"use it: PRP_DATABASE_URL={shown}")
    return 0


def _target(url: str) -> PostgresDatabase:
    """The PostgreSQL database at ``url``; one that cannot be reached or refuses is a PrpError naming it."""
    try:
        return PostgresDatabase(url)
    except Exception as exc:
        message = unusable(exc, url)
        if message is None:
            raise
        raise PrpError(message) from None


def copy_threads(settings: Settings, url: str) -> int | None:
    """The hook for the research threads' copy (``graph.checkpoint_copy.copy_threads``, written apart):
    the number copied, or None while that copy is not part of prp yet."""
    return None
