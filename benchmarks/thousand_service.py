"""The large library served: ``prp serve`` start-up, search and offline-question latency over its API, and
``prp ask`` from the command line through the running service (warm) and without one (cold)."""

from __future__ import annotations

import statistics
import time

import httpx
from retrieval_qasper import load_questions
from service_load import memory
from startup import DEFAULT_PRP, serve_until_healthy, stop, timed

SEARCHES = 200
QUESTIONS = 10
CLI_QUESTIONS = 3


def p50_ms(values: list[float]) -> float:
    return round(1000 * statistics.median(values), 1)


def searches(http: httpx.Client, queries: list[str]) -> dict:
    latencies = []
    for query in queries:
        start = time.perf_counter()
        http.post("/api/search", json={"query": query, "k": 10}).raise_for_status()
        latencies.append(time.perf_counter() - start)
    ordered = sorted(latencies)
    return {
        "searches": len(latencies),
        "p50_ms": p50_ms(latencies),
        "p95_ms": round(1000 * ordered[int(0.95 * len(ordered))], 1),
    }


def questions(http: httpx.Client, queries: list[str]) -> dict:
    """``/api/ask`` to the job's end (its report written), one question at a time."""
    latencies, states = [], []
    for query in queries:
        start = time.perf_counter()
        job = http.post("/api/ask", json={"topic": query}).json()["job"]
        while (state := http.get(f"/api/jobs/{job['job_id']}").json()["state"]) in ("queued", "running"):
            time.sleep(0.01)
        latencies.append(time.perf_counter() - start)
        states.append(state)
    return {
        "questions": len(latencies),
        "p50_ms": p50_ms(latencies),
        "max_ms": round(1000 * max(latencies), 1),
        "states": sorted(set(states)),
    }


def serve_figures(env: dict[str, str]) -> dict:
    queries = [q["query"] for q in load_questions(None)]
    prp = DEFAULT_PRP.split()
    server, url, (start_wall, start_cpu) = serve_until_healthy(prp, env)
    figures: dict = {"start_to_health_s": round(start_wall, 1), "start_cpu_s": round(start_cpu, 1)}
    try:
        with httpx.Client(base_url=url, timeout=300) as http:
            http.post("/api/search", json={"query": queries[0]}).raise_for_status()  # settled
            figures["search"] = searches(http, queries[1 : 1 + SEARCHES])
            figures["ask_api"] = questions(http, queries[-QUESTIONS:])
        asked = queries[-QUESTIONS - CLI_QUESTIONS : -QUESTIONS]
        warm = [timed(prp, ["ask", q, "--quiet"], env) for q in asked]
        figures["prp_ask_warm"] = {
            "wall_s": round(statistics.median(w for w, _ in warm), 2),
            "cpu_s": round(statistics.median(c for _, c in warm), 2),
        }
        figures["served_memory_mb"] = memory(server.pid)
    finally:
        stop(server)
    cold = [timed(prp, ["ask", q, "--quiet"], env) for q in asked]
    figures["prp_ask_cold"] = {
        "wall_s": round(statistics.median(w for w, _ in cold), 2),
        "cpu_s": round(statistics.median(c for _, c in cold), 2),
    }
    for name, value in figures.items():
        print(f"  service {name:18} {value}", flush=True)
    return figures
