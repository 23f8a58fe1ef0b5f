"""Real mounts for the tests of unmounted drives and full disks: a tmpfs of a given size, a bind mount.
Both need root (or CAP_SYS_ADMIN); where the system refuses, the test skips saying why. Every mount
is unmounted on the way out, whatever the test did."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def _mount(args: list[str]) -> None:
    if os.geteuid() != 0:
        pytest.skip("mounting a filesystem needs root (tmpfs, bind mounts): not root here")
    done = subprocess.run(["mount", *args], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"this system refuses `mount {' '.join(args)}`: {done.stderr.strip()}")


def mounted(point: Path) -> bool:
    """Whether something is mounted on ``point`` (a bind mount of a folder of the same filesystem
    included, which ``os.path.ismount`` does not see)."""
    with open("/proc/self/mountinfo", encoding="utf-8") as mounts:
        return any(line.split()[4] == str(point) for line in mounts)


def unmount(point: Path) -> None:
    """Unmount ``point`` (lazily if it is busy: a test must never leave a mount behind)."""
    done = subprocess.run(["umount", str(point)], capture_output=True, text=True)
    if done.returncode != 0:
        subprocess.run(["umount", "-l", str(point)], check=True)


@contextmanager
def tmpfs(point: Path, size_mb: int = 16) -> Iterator[Path]:
    """A tmpfs of ``size_mb`` MB mounted on ``point`` (made if needed) while the block runs."""
    point.mkdir(parents=True, exist_ok=True)
    _mount(["-t", "tmpfs", "-o", f"size={size_mb}m", "tmpfs", str(point)])
    try:
        yield point
    finally:
        while mounted(point):
            unmount(point)


@contextmanager
def bind(source: Path, point: Path) -> Iterator[Path]:
    """``source`` bind-mounted over ``point`` while the block runs."""
    _mount(["--bind", str(source), str(point)])
    try:
        yield point
    finally:
        while mounted(point):
            unmount(point)
