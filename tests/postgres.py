"""A real PostgreSQL server for the tests: one cluster per pytest worker, one fresh database per test.

The cluster is Debian's PostgreSQL (``.ci/run`` installs it), created in a temporary folder and served
on a unix socket only (no TCP port to collide with), with durability off since nothing outlives the
session. PostgreSQL refuses to run as root, so under root (CI's containers) it runs as the
``postgres`` user the Debian package creates. Without PostgreSQL installed the tests that need it skip
and say why, as tests of ``../shared`` data do.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

SUPERUSER = "prp"


def _bin_dir() -> Path | None:
    """Debian keeps the server's programs out of PATH, under /usr/lib/postgresql/<version>/bin."""
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(candidates[-1]).parent if candidates else None


def _as_server_user(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", "postgres", "--", *command]


@dataclass(frozen=True)
class PostgresCluster:
    """A running cluster; ``database()`` makes an empty database and gives its URL."""

    socket_dir: Path

    def url(self, name: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@/{name}?host={self.socket_dir}"

    def database(self) -> str:
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


def start_cluster() -> Iterator[PostgresCluster]:
    """Start a throwaway cluster, yield it, stop it and remove its files."""
    bin_dir = _bin_dir()
    if bin_dir is None:
        pytest.skip("PostgreSQL is not installed (.ci/run installs Debian's postgresql package)")
    root = Path(tempfile.mkdtemp(prefix="prp-pg-"))
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
    data = root / "data"
    run = {"check": True, "capture_output": True, "text": True}
    subprocess.run(
        _as_server_user([str(bin_dir / "initdb"), "-D", str(data), "-A", "trust", "-U", SUPERUSER, "-E", "UTF8"])
        + ["--no-sync"],
        **run,
    )
    options = f"-k {root} -c listen_addresses= -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    subprocess.run(
        _as_server_user([str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(root / "log"), "-w"])
        + ["start"],
        **run,
    )
    try:
        yield PostgresCluster(root)
    finally:
        subprocess.run(_as_server_user([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]), **run)
        shutil.rmtree(root, ignore_errors=True)
