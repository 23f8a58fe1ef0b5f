"""Start-up of the command line and of the service, on the sample corpus in a data directory of its own.

Prints the median of N runs (wall time, and the CPU time the process used, which the machine's load
does not stretch) of: `prp --help`; a usage error (`prp search q --k 0`); `prp docs` and
`prp search X` opening the library themselves, then through a running `prp serve` (once it has
settled: chat built, one search made); and `prp serve` from its start until `/api/health` answers
(started and stopped N times; its CPU time read from /proc when it answers).

    .venv/bin/python benchmarks/startup.py [--runs 5] [--prp COMMAND]

``--prp`` times another build of prp (a checkout's ``python -m ui.cli``, say) on the same machine.
"""

from __future__ import annotations

import argparse
import os
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from common import ROOT, free_port, save

SAMPLE = ROOT / "sample_corpus" / "docs"
QUERY = "how much rainfall do green roofs retain"
# The console script, as a user runs it (``python -m ui.cli`` where it is not installed).
CONSOLE_SCRIPT = Path(sys.executable).with_name("prp")
DEFAULT_PRP = str(CONSOLE_SCRIPT) if CONSOLE_SCRIPT.exists() else f"{sys.executable} -m ui.cli"


def timed(prp: list[str], args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one ``prp ARGS`` to its end."""
    start = time.perf_counter()
    process = subprocess.Popen([*prp, *args], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(process.pid, 0)
    process.returncode = 0  # reaped above
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime


def median_of(runs: int, measure) -> dict[str, float]:
    samples = [measure() for _ in range(runs)]
    return {
        "wall_s": round(statistics.median(s[0] for s in samples), 2),
        "cpu_s": round(statistics.median(s[1] for s in samples), 2),
    }


def serve_until_healthy(prp: list[str], env: dict[str, str]) -> tuple[subprocess.Popen, str, tuple[float, float]]:
    """The server, its URL, and the (wall, CPU) seconds it took to answer."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    start = time.perf_counter()
    server = subprocess.Popen(
        [*prp, "serve", "--port", str(port)], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    while True:
        try:
            if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                return server, url, (time.perf_counter() - start, cpu_seconds(server.pid))
        except httpx.HTTPError:
            time.sleep(0.05)
        if server.poll() is not None:
            raise SystemExit("prp serve exited before it answered")


def cpu_seconds(pid: int) -> float:
    """User and system time of a running process, all its threads (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def stop(server: subprocess.Popen) -> None:
    server.send_signal(signal.SIGINT)
    server.wait(60)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--prp", default=DEFAULT_PRP, help=f"the command to time (default: {DEFAULT_PRP})")
    args = parser.parse_args()
    runs, prp = args.runs, shlex.split(args.prp)

    work = Path(tempfile.mkdtemp(prefix="prp-startup-bench-"))
    env = {**os.environ, "PRP_DATA_DIR": str(work / "data"), "LANGSMITH_TRACING": "false", "HF_HUB_OFFLINE": "1"}
    subprocess.run([*prp, "ingest", str(SAMPLE)], cwd=ROOT, env=env, check=True, capture_output=True)
    figures: dict = {"load_average_at_start": [round(x, 2) for x in os.getloadavg()], "runs": runs}
    commands = {"docs": ["docs"], "search": ["search", QUERY, "--k", "5"]}
    figures["help"] = median_of(runs, lambda: timed(prp, ["--help"], env))
    figures["usage_error"] = median_of(runs, lambda: timed(prp, ["search", QUERY, "--k", "0"], env))
    for name, args in commands.items():
        figures[f"{name}_opening_the_library"] = median_of(runs, lambda args=args: timed(prp, args, env))

    def serve_once() -> tuple[float, float]:
        server, _, seconds = serve_until_healthy(prp, env)
        stop(server)
        return seconds

    figures["serve_until_health"] = median_of(runs, serve_once)
    server, url, _ = serve_until_healthy(prp, env)
    try:
        httpx.get(f"{url}/chat/", timeout=300)  # settled: the chat built (a request waits for it)
        httpx.post(f"{url}/api/search", json={"query": QUERY}, timeout=300)
        for name, args in commands.items():
            figures[f"{name}_through_the_service"] = median_of(runs, lambda args=args: timed(prp, args, env))
    finally:
        stop(server)
    figures["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    width = max(map(len, figures))
    for name, value in figures.items():
        print(f"{name:{width}}  {value}")
    print(f"saved {save('startup', figures)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
