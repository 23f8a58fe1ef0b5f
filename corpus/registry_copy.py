"""Copy a library's registry (documents, blocks, chunks and the rest, with its ingest roots) from one
database to another: ``prp database migrate`` moves a SQLite library to PostgreSQL with it.

The target must hold no library yet: a copy is never merged into another library, and a second run of
the same migration is refused rather than doubling anything. Both are brought to the current schema
first (as opening them would), then every table is copied in one transaction on the target, so an
interrupted copy leaves it empty and the migration can simply be run again.
"""

from __future__ import annotations

from corpus.database import Connection, Database
from corpus.errors import PrpError
from corpus.ingest_roots import IngestRoots
from corpus.registry import Registry

#: The tables copied, parents before the tables that refer to them.
TABLES = (
    "documents",
    "blocks",
    "chunks",
    "fingerprints",
    "tombstones",
    "remark_queue",
    "metadata_overrides",
    "meta",
    "ingest_roots",
)
#: Rows read and written at a time: a library's blocks need not fit in memory at once.
BATCH = 2000


def copy_registry(source: Database, target: Database) -> dict[str, int]:
    """Copy every table of ``source``'s registry into ``target``'s, which must hold none of a library's
    rows (PrpError otherwise). Returns the rows copied per table."""
    with target.connect() as db:
        held = {table: n for table in TABLES if table != "meta" and (n := _count(target, db, table))}
    if held:
        counts = ", ".join(f"{n} {table}" for table, n in held.items())
        raise PrpError(f"{target.describe()} already holds a library ({counts}): migrate only into an empty database")
    for database in (source, target):  # the current schema on both (the source's migrations too)
        Registry(database)
        IngestRoots(database)
    copied: dict[str, int] = {}
    with source.connect() as read, target.connect() as write:
        write.execute("DELETE FROM meta")  # what opening the empty target wrote; the source's replaces it
        for table in TABLES:
            copied[table] = _copy_table(read, write, table, sorted(source.columns(read, table)))
    return copied


def _count(database: Database, db: Connection, table: str) -> int:
    if not database.columns(db, table):
        return 0  # not created yet
    return db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]


def _copy_table(read: Connection, write: Connection, table: str, columns: list[str]) -> int:
    listed = ", ".join(columns)
    insert = f"INSERT INTO {table} ({listed}) VALUES ({', '.join('?' * len(columns))})"
    rows = read.execute(f"SELECT {listed} FROM {table}")
    copied = 0
    while batch := rows.fetchmany(BATCH):
        write.executemany(insert, [tuple(row) for row in batch])
        copied += len(batch)
    return copied
