"""Parse workers die with the process that started them (issue 48, item 9, first part). Reported: a parse
worker outlived ``kill -9`` of the service (ppid 1, 180 MB), waiting forever on a pipe it holds both
ends of. ``corpus.worker_lifetime``: ``PR_SET_PDEATHSIG`` on Linux, and a watch of the parent's pid.
Real processes: ``prp serve`` with an ingest job, and ``prp ingest``, each killed with SIGKILL while
their parse worker is alive."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from testing_support.hostile_corpus import paragraph, text_pdf

from ..cli_process import PRP, prp_env
from ..paths import ROOT
from ..served import kill_group, start

TOPICS = ("river deltas", "glacier retreat", "peat bogs", "coral bleaching", "salt marshes", "kelp forests")
#: Seconds a worker may take to go once its parent is killed (the watch looks every second).
WITHIN = 10.0


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory) -> Path:
    """Enough PDFs that the ingest parses in a worker for a while."""
    folder = tmp_path_factory.mktemp("workers") / "pdfs"
    folder.mkdir()
    for i in range(40):
        text_pdf(folder / f"report{i:02d}.pdf", [paragraph(f"marker{i}", topic) * 6 for topic in TOPICS])
    return folder


def parse_workers(parent: int) -> list[int]:
    """The pids of ``parent``'s children that are multiprocessing's spawned workers."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        if int(stat.rpartition(")")[2].split()[1]) == parent and b"spawn_main" in cmdline:
            found.append(int(entry))
    return found


def alive(pid: int) -> bool:
    """Running (a zombie nobody reaped, as under a container's init, counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_for_workers(process: subprocess.Popen, limit: float = 180) -> list[int]:
    deadline = time.monotonic() + limit
    while not (workers := parse_workers(process.pid)):
        assert process.poll() is None, "the process ended before it started a parse worker"
        assert time.monotonic() < deadline, "no parse worker started"
        time.sleep(0.1)
    return workers


def assert_gone_after_kill(process: subprocess.Popen, workers: list[int]) -> None:
    process.send_signal(signal.SIGKILL)  # kill -9, the process alone
    process.wait()
    started = time.monotonic()
    while any(alive(w) for w in workers):
        left = [w for w in workers if alive(w)]
        assert time.monotonic() - started < WITHIN, f"parse workers {left} outlived their parent (was: for ever)"
        time.sleep(0.1)


@pytest.mark.timeout(300)
def test_the_parse_workers_die_with_a_killed_service(pdfs, tmp_path, models_dir):
    process, url, _ = start(tmp_path / "data", models_dir, PRP_PARSE_WORKERS="1")
    try:
        assert httpx.post(f"{url}/api/ingest", json={"paths": [str(pdfs)]}).status_code == 202
        workers = wait_for_workers(process)
        assert_gone_after_kill(process, workers)
    finally:
        kill_group(process)
        process.stdout.close()


@pytest.mark.timeout(300)
def test_the_parse_workers_die_with_a_killed_prp_ingest(pdfs, tmp_path, models_dir):
    process = subprocess.Popen(
        [*PRP, "ingest", str(pdfs)],
        cwd=ROOT,
        env=prp_env(tmp_path / "data", models_dir, PRP_PARSE_WORKERS="1"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own group: whatever is left is killed at the end
    )
    try:
        workers = wait_for_workers(process)
        time.sleep(1)  # the worker parsing, the ingest embedding
        assert_gone_after_kill(process, workers)
    finally:
        kill_group(process)
