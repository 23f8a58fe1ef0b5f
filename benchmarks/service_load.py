"""The research service under load: `prp serve` on the sample corpus, on a loopback port.

Prints: search requests/s through the REST API with N concurrent clients (a bounded number of requests,
loopback only) and their latency; the time from POST /api/report to the first progress event and to
the finished report; search latency while an ingest runs; and the served process's memory (RSS now
and peak, from /proc).

    .venv/bin/python benchmarks/service_load.py [--clients 8] [--requests 800] [--reports 5]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
from common import free_port

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_corpus" / "docs"
SHARED_PDFS = ROOT.parent / "shared" / "data" / "pdfs"
QUERIES = [
    "how much rainfall do green roofs retain",
    "street-level cooling from green roofs",
    "installation cost per square metre",
    "substrate depth and drought",
    "structural load of a retrofit",
    "bee species on roofs",
    "air quality and carbon uptake",
    "irrigation in the first year",
]


def memory(pid: int) -> dict[str, float]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM", "RssAnon"):
            fields[key] = int(value.split()[0]) / 1024
    return fields


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def search_load(url: str, clients: int, requests: int) -> dict:
    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()
    per_client = requests // clients

    def client(n: int) -> None:
        nonlocal errors
        with httpx.Client(base_url=url, timeout=60) as http:
            for i in range(per_client):
                t0 = time.perf_counter()
                response = http.post("/api/search", json={"query": QUERIES[(n + i) % len(QUERIES)], "k": 8})
                elapsed = time.perf_counter() - t0
                with lock:
                    latencies.append(elapsed)
                    errors += response.status_code != 200

    started = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(client, range(clients)))
    wall = time.perf_counter() - started
    return {
        "clients": clients,
        "requests": len(latencies),
        "errors": errors,
        "seconds": round(wall, 2),
        "requests_per_s": round(len(latencies) / wall, 1),
        "p50_ms": round(statistics.median(latencies) * 1000, 1),
        "p95_ms": round(percentile(latencies, 0.95) * 1000, 1),
    }


def report_latency(url: str, runs: int) -> dict:
    first, done = [], []
    with httpx.Client(base_url=url, timeout=300) as http:
        for n in range(runs):
            t0 = time.perf_counter()
            run = http.post("/api/report", json={"topic": f"{QUERIES[n % len(QUERIES)]} and its evidence"}).json()
            seen_progress = False
            with http.stream("GET", run["events"]) as response:
                for line in response.iter_lines():
                    if line == "event: progress" and not seen_progress:
                        first.append(time.perf_counter() - t0)
                        seen_progress = True
                    elif line == "event: result":
                        done.append(time.perf_counter() - t0)
    return {
        "runs": runs,
        "first_progress_ms_p50": round(statistics.median(first) * 1000, 1),
        "first_progress_ms_max": round(max(first) * 1000, 1),
        "report_s_p50": round(statistics.median(done), 2),
    }


def search_during_ingest(url: str, folder: Path) -> dict:
    latencies: list[float] = []
    with httpx.Client(base_url=url, timeout=60) as http:
        job = http.post("/api/ingest", json={"paths": [str(folder)]}).json()["job"]
        while True:
            t0 = time.perf_counter()
            assert http.post("/api/search", json={"query": "retrieval evaluation", "k": 8}).status_code == 200
            latencies.append(time.perf_counter() - t0)
            state = http.get(f"/api/jobs/{job['job_id']}").json()
            if state["state"] not in ("queued", "running"):
                break
    return {
        "ingest_seconds": state["seconds"],
        "searches": len(latencies),
        "p50_ms": round(statistics.median(latencies) * 1000, 1),
        "p95_ms": round(percentile(latencies, 0.95) * 1000, 1),
        "state": state["state"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--requests", type=int, default=800, help="searches in all (bounded loop)")
    parser.add_argument("--reports", type=int, default=5)
    parser.add_argument("--ingest-pdfs", type=int, default=4, help="shared PDFs ingested during the search probe")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="prp-service-bench-"))
    env = {
        **os.environ,
        "PRP_DATA_DIR": str(work / "data"),
        "LANGSMITH_TRACING": "false",
        "HF_HUB_OFFLINE": "1",
    }
    prp = [sys.executable, "-m", "ui.cli"]
    subprocess.run([*prp, "ingest", str(SAMPLE)], cwd=ROOT, env=env, check=True, capture_output=True)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    t0 = time.perf_counter()
    server = subprocess.Popen(
        [*prp, "serve", "--port", str(port)], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    figures: dict = {}
    try:
        while True:
            try:
                if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
            if server.poll() is not None:
                raise SystemExit("prp serve exited")
        figures["startup_s"] = round(time.perf_counter() - t0, 1)
        figures["memory_idle_mb"] = memory(server.pid)
        httpx.post(f"{url}/api/search", json={"query": "warm up"}, timeout=60)
        figures["search"] = search_load(url, args.clients, args.requests)
        figures["memory_after_search_mb"] = memory(server.pid)
        figures["report"] = report_latency(url, args.reports)
        pdfs = sorted(SHARED_PDFS.glob("*.pdf"))[: args.ingest_pdfs]
        if pdfs:
            folder = work / "pdfs"
            folder.mkdir()
            for pdf in pdfs:
                shutil.copy(pdf, folder / pdf.name)
            figures["search_during_ingest"] = search_during_ingest(url, folder)
        figures["memory_end_mb"] = memory(server.pid)
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(60)
        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
