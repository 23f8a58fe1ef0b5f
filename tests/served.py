"""``prp serve`` in its own process on a free loopback port, as a user starts and stops it."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path

import httpx

from .cli_process import PRP, prp_env
from .paths import ROOT
from .ui_server import free_port

STARTUP = 120.0


def start(data_dir: Path, models_dir: Path, *args: str, **extra: str) -> tuple[subprocess.Popen, str, dict]:
    env = prp_env(data_dir, models_dir, **extra)
    port = free_port()
    process = subprocess.Popen(
        [*PRP, "serve", "--port", str(port), *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        # Its own process group, so a test that kills it as kill -9 does (the process alone) can then
        # end the parse workers it leaves behind (``kill_group``).
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    token = extra.get("PRP_API_TOKEN")
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    deadline = time.monotonic() + STARTUP
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"prp serve exited {process.returncode}: {process.stdout.read()[-3000:]}")
        try:
            if httpx.get(f"{url}/api/health", headers=headers, timeout=2).status_code == 200:
                return process, url, env
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    process.kill()
    raise AssertionError(f"prp serve did not answer in {STARTUP} s: {process.stdout.read()[-3000:]}")


def stop(process: subprocess.Popen) -> str:
    process.send_signal(signal.SIGINT)  # Ctrl-C
    try:
        out, _ = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        out, _ = process.communicate()
        raise AssertionError(f"prp serve did not stop on Ctrl-C: {out[-3000:]}") from None
    return out


def kill_group(process: subprocess.Popen) -> None:
    """Kill -9 what is left of the service's process group (after ``process`` itself was killed)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
