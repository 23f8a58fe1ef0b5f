"""The registry's database: the SQLite file under the data directory, or PostgreSQL (``PRP_DATABASE_URL``).

The registry (``corpus.registry``) and the ingest roots (``corpus.ingest_roots``) write their SQL once,
in the form both engines accept (``?`` placeholders, ``ON CONFLICT`` upserts, ``DOUBLE PRECISION``),
and run it on the connection ``Database.connect`` gives: a sqlite3 connection as before, or one that
speaks the same subset (``execute``, ``executemany``, ``executescript``, rows read by column name or
index) over psycopg. What cannot be said the same way lives here: the schema's ``WITHOUT ROWID``, the
columns a migration asks about, and the cross-process work locks (``claim``).

SQLite lets one writer in at a time and the registry's transactions were written for that; on
PostgreSQL a transaction takes one advisory lock at its first write, so writers from several
``prp serve`` processes still take turns (readers never wait). A claim is a session-level advisory
lock held on a connection of its own, so a worker that dies releases it with its connection.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
import sys
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urlsplit, urlunsplit

from corpus.errors import PrpError

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import ConnectionPool

    from config.settings import StorageSettings

#: The advisory lock every PostgreSQL write transaction takes first (any fixed number; "prp" in ASCII).
WRITE_LOCK = 0x707270
#: Seconds a PostgreSQL connection attempt may take before it is reported as unreachable.
CONNECT_TIMEOUT = 10
#: The URL schemes libpq reads as PostgreSQL.
SCHEMES = ("postgresql", "postgres")
_WRITES = re.compile(r"\s*(INSERT|UPDATE|DELETE|CREATE|ALTER|DROP)\b", re.IGNORECASE)


class Cursor(Protocol):
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...
    def fetchmany(self, size: int) -> list[Any]: ...
    def __iter__(self) -> Iterator[Any]: ...


class Connection(Protocol):
    """What the registry asks of a connection: the part of sqlite3's that both engines give."""

    def execute(self, sql: str, parameters: Sequence[Any] = ..., /) -> Cursor: ...
    def executemany(self, sql: str, rows: Iterable[Sequence[Any]], /) -> Any: ...
    def executescript(self, script: str, /) -> Any: ...


class Database(ABC):
    """Where the registry lives; ``connect`` gives one transaction, committed unless it raises."""

    dialect: str

    @abstractmethod
    def connect(self) -> Any:
        """A context manager yielding a ``Connection`` in a transaction."""

    @abstractmethod
    def create(self, db: Connection, schema: str) -> None:
        """Run ``schema`` (CREATE ... IF NOT EXISTS statements, in SQLite's words)."""

    @abstractmethod
    def columns(self, db: Connection, table: str) -> set[str]:
        """The columns ``table`` has (none when it does not exist yet)."""

    @abstractmethod
    def add_column(self, db: Connection, table: str, column: str, kind: str) -> None:
        """Add a column unless it is there (another process may have added it just now)."""

    @abstractmethod
    def claim(self, key: str, wait: bool = False) -> Any:
        """A context manager yielding whether this process holds the work named ``key`` until it exits:
        False when another process holds it (with ``wait``, it waits its turn instead)."""

    @abstractmethod
    def describe(self) -> str:
        """Where it is, for messages (a URL without its password)."""

    @abstractmethod
    def close(self) -> None:
        """Release what it holds open."""


class SqliteDatabase(Database):
    """The registry file under the data directory; one process owns the library, so claims always succeed."""

    dialect = "sqlite"

    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)

    @contextmanager
    def connect(self) -> Iterator[sqlite3.Connection]:
        # A connection per transaction: cheap for SQLite, and it keeps the registry usable from
        # Gradio's worker threads and from a second process (WAL lets readers run beside a writer).
        db = sqlite3.connect(self.path, timeout=30)
        db.row_factory = sqlite3.Row
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("PRAGMA journal_mode = WAL")
        try:
            with db:
                yield db
        finally:
            db.close()

    def create(self, db: Connection, schema: str) -> None:
        db.executescript(schema)

    def columns(self, db: Connection, table: str) -> set[str]:
        return {row[1] for row in db.execute(f"PRAGMA table_info({table})")}

    def add_column(self, db: Connection, table: str, column: str, kind: str) -> None:
        try:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
        except sqlite3.OperationalError as exc:  # another process migrated it just now
            if "duplicate column" not in str(exc):
                raise

    @contextmanager
    def claim(self, key: str, wait: bool = False) -> Iterator[bool]:
        yield True

    def describe(self) -> str:
        return str(self.path)

    def close(self) -> None:
        """Nothing to release: each transaction closed its own connection."""


class Row(tuple):
    """A PostgreSQL row read as sqlite3.Row is: by index, by column name, and as a mapping (``dict(row)``)."""

    names: dict[str, int]

    def __getitem__(self, key: Any) -> Any:  # type: ignore[override]
        return tuple.__getitem__(self, self.names[key] if isinstance(key, str) else key)

    def keys(self) -> list[str]:
        return list(self.names)


def _rows(cursor: psycopg.Cursor[Any]) -> Any:
    names = {column.name: i for i, column in enumerate(cursor.description or [])}

    def make(values: Sequence[Any]) -> Row:
        row = Row(values)
        row.names = names
        return row

    return make


def _placeholders(sql: str) -> str:
    """sqlite3's ``?`` as psycopg's ``%s`` (a literal ``%`` doubled). The registry's SQL holds no ``?``
    inside a string literal."""
    return sql.replace("%", "%%").replace("?", "%s")


class PostgresConnection:
    """A psycopg connection in one transaction, with sqlite3's calls; its first write takes WRITE_LOCK."""

    def __init__(self, connection: psycopg.Connection[Any]):
        self.connection = connection
        self.writing = False

    def _before(self, sql: str) -> None:
        if not self.writing and _WRITES.match(sql):
            self.connection.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
            self.writing = True

    def execute(self, sql: str, parameters: Sequence[Any] = ()) -> Any:
        self._before(sql)
        return self.connection.execute(_placeholders(sql), parameters)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        rows = list(rows)
        if rows:
            self._before(sql)
            with self.connection.cursor() as cursor:
                cursor.executemany(_placeholders(sql), rows)

    def executescript(self, script: str) -> None:
        self._before(script)
        self.connection.execute(script)  # type: ignore[arg-type]  # no parameters: sent as it is


class PostgresDatabase(Database):
    """A PostgreSQL database several prp processes share, through a small pool of connections."""

    dialect = "postgresql"

    def __init__(self, url: str):
        import psycopg
        from psycopg_pool import ConnectionPool

        if urlsplit(url).scheme not in SCHEMES:
            raise PrpError(f"not a PostgreSQL URL: {without_password(url)} (PRP_DATABASE_URL takes postgresql://…)")
        self.url = url
        # Connect once first: an unreachable or refusing server is a psycopg.OperationalError now, in
        # its own words, not a pool's timeout later.
        psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT).close()
        self.pool: ConnectionPool = ConnectionPool(
            url,
            min_size=1,
            max_size=8,
            kwargs={"connect_timeout": CONNECT_TIMEOUT},
            configure=_configure,
            timeout=60,
            name="prp-registry",
            open=True,
        )

    @contextmanager
    def connect(self) -> Iterator[PostgresConnection]:
        with self.pool.connection() as connection, connection.transaction():
            yield PostgresConnection(connection)

    def create(self, db: Connection, schema: str) -> None:
        db.executescript(schema.replace("WITHOUT ROWID", ""))

    def columns(self, db: Connection, table: str) -> set[str]:
        rows = db.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND table_name = ?",
            (table,),
        )
        return {row[0] for row in rows}

    def add_column(self, db: Connection, table: str, column: str, kind: str) -> None:
        db.execute(f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {column} {kind}")

    @contextmanager
    def claim(self, key: str, wait: bool = False) -> Iterator[bool]:
        number = lock_number(key)
        with self.pool.connection() as connection:
            connection.autocommit = True
            try:
                if wait:
                    connection.execute("SELECT pg_advisory_lock(%s)", (number,))
                    held = True
                else:
                    held = bool(connection.execute("SELECT pg_try_advisory_lock(%s)", (number,)).fetchone()[0])
                yield held
            finally:
                # This connection is ours alone while the claim lasts; back in the pool it holds no lock.
                connection.execute("SELECT pg_advisory_unlock_all()")
                connection.autocommit = False

    def describe(self) -> str:
        return without_password(self.url)

    def close(self) -> None:
        self.pool.close()


def _configure(connection: psycopg.Connection[Any]) -> None:
    connection.row_factory = _rows  # type: ignore[assignment]


def lock_number(key: str) -> int:
    """A PostgreSQL advisory lock's number (a signed 64-bit integer) for a name of work."""
    return int.from_bytes(hashlib.sha256(f"prp:{key}".encode()).digest()[:8], "big", signed=True)


def without_password(url: str) -> str:
    """``url`` with any password replaced by ``***`` (in the authority or a ``password=`` parameter)."""
    parts = urlsplit(url)
    netloc = parts.netloc
    if parts.password is not None:
        netloc = netloc.replace(f":{parts.password}@", ":***@", 1)
    query = re.sub(r"(password=)[^&]*", r"\1***", parts.query)
    return urlunsplit(parts._replace(netloc=netloc, query=query))


def unusable(exc: BaseException, url: str | None) -> str | None:
    """What to tell of ``exc`` when it is PostgreSQL at ``url`` not answering or refusing (unreachable,
    a wrong password, no such database, a pool that got no connection): one line naming the server, its
    password left out. None for any other error. psycopg is not imported for this: without it loaded,
    nothing came from PostgreSQL."""
    psycopg, pool = sys.modules.get("psycopg"), sys.modules.get("psycopg_pool")
    kinds = tuple(kind for kind in (psycopg and psycopg.OperationalError, pool and pool.PoolTimeout) if kind)
    if url is None or not kinds or not isinstance(exc, kinds):
        return None
    detail = " ".join(str(exc).split())
    password = urlsplit(url).password
    if password:
        detail = detail.replace(password, "***")
    return f"cannot use the PostgreSQL database {without_password(url)} (PRP_DATABASE_URL): {detail}"


def open_database(storage: StorageSettings) -> Database:
    """PostgreSQL when ``PRP_DATABASE_URL`` is set, else the registry file under the data directory."""
    if storage.database_url:
        return PostgresDatabase(storage.database_url)
    return SqliteDatabase(storage.registry_path)


def as_database(where: Database | Path | str) -> Database:
    """A Database given as one, or as the path of a registry file (tests and benchmarks use those)."""
    return where if isinstance(where, Database) else SqliteDatabase(Path(where))
