"""``prp database migrate --to URL``: move a library's registry from its SQLite file to PostgreSQL.

The registry (``corpus.registry_copy``) and the research threads with their checkpoints
(``graph.checkpoint_copy``) move; the index stays where it is (``prp index copy --to`` moves it to a Qdrant server,
which workers sharing the database must share too).
"""

from __future__ import annotations

import argparse

from config import Settings
from corpus.database import PostgresDatabase, SqliteDatabase, unusable, without_password
from corpus.errors import PrpError
from corpus.registry_copy import copy_registry
from graph.checkpoint_copy import copy_threads


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
    print(f"copied to {shown}: {copy_threads(settings, args.to)} research threads")
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
