"""How the CLI finds the service serving its data directory: ``prp serve`` writes ``service.json``
there when it starts listening and removes it when it stops. A file left by a process that no longer
runs (a service killed with kill -9, or stopped by a crash or a power cut), or a service that does not
answer, counts as no service, and the next ``prp serve`` replaces it. A process "no longer runs" when
its pid is gone, is a zombie (dead, not yet reaped by its parent), or is this very process (a pid used
again: a container's service is pid 1 at every start), so a stale file never blocks a restart.

The file holds the API token when one is set (readable by its owner only): whoever can read the data
directory can read the library anyway.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from pydantic import BaseModel, ValidationError

from config import Settings

#: Addresses a server listens on that a client reaches through loopback.
_ANY = {"0.0.0.0", "::", "[::]"}


class ServiceRecord(BaseModel):
    url: str
    pid: int
    data_dir: str
    started_at: str
    token: str | None = None


def local_url(url: str) -> str:
    """The URL a client on this machine uses: a server listening on every interface is reached on loopback."""
    parts = urlsplit(url)
    if parts.hostname in _ANY or parts.hostname == "::":
        netloc = f"127.0.0.1:{parts.port}" if parts.port else "127.0.0.1"
        return urlunsplit(parts._replace(netloc=netloc))
    return url.rstrip("/")


def publish(settings: Settings, url: str, token: str | None) -> ServiceRecord:
    record = ServiceRecord(
        url=local_url(url),
        pid=os.getpid(),
        data_dir=str(settings.storage.data_dir.resolve()),
        started_at=datetime.now(UTC).isoformat(timespec="seconds"),
        token=token,
    )
    path = settings.storage.service_file
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(record.model_dump_json(indent=2))
    os.replace(tmp, path)  # readers never see half a file
    return record


def withdraw(settings: Settings) -> None:
    """Remove the file if this process wrote it (a second server never removes the first's)."""
    record = read(settings)
    if record is not None and record.pid == os.getpid():
        settings.storage.service_file.unlink(missing_ok=True)


def read(settings: Settings) -> ServiceRecord | None:
    try:
        return ServiceRecord.model_validate_json(settings.storage.service_file.read_text())
    except (OSError, ValidationError, ValueError):
        return None


def running(settings: Settings) -> ServiceRecord | None:
    """The record of a service whose process is alive (whether it answers is the client's to find out)."""
    record = read(settings)
    if record is None or record.pid == os.getpid() or not _alive(record.pid):
        return None
    return record


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, someone else's
        return True
    return not _zombie(pid)


def _zombie(pid: int) -> bool:
    """Dead but not reaped (signals still reach the pid). Known where ``/proc`` tells: Linux."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[:1] == ["Z"]  # the state follows the name, which may hold ")"
