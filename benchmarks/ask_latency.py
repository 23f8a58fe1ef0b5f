"""`prp ask` latency on the sample corpus (offline mode): cold, the command opening the library itself,
and warm, through a running `prp serve` of the same data directory (which `prp ask` finds by itself).

Prints the median (p50) over a few questions of the wall time of each `prp ask` process and of the
CPU time it used (the machine's load stretches wall time far more than CPU time).

    .venv/bin/python benchmarks/ask_latency.py [--rounds 2] [--prp COMMAND]

``--prp`` times another build of prp (``.venv/bin/prp``: the installed checkout's, say).
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import sys
import tempfile
from pathlib import Path

import httpx
from common import save
from startup import SAMPLE, serve_until_healthy, stop, timed

QUESTIONS = (
    "How much annual rainfall did the test rig retain?",
    "What roof surface temperature reduction did the Harborview model find?",
    "How much does a green roof retrofit add to structural loads?",
)


def p50(prp: list[str], env: dict[str, str], rounds: int) -> dict[str, float]:
    samples = [timed(prp, ["ask", q, "--quiet"], env) for _ in range(rounds) for q in QUESTIONS]
    return {
        "wall_s": round(statistics.median(s[0] for s in samples), 2),
        "cpu_s": round(statistics.median(s[1] for s in samples), 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=2, help="times each question is asked, cold and warm")
    parser.add_argument("--prp", default=f"{sys.executable} -m ui.cli", help="the command to time")
    args = parser.parse_args()
    prp = shlex.split(args.prp)
    work = Path(tempfile.mkdtemp(prefix="prp-ask-bench-"))
    env = {**os.environ, "PRP_DATA_DIR": str(work / "data"), "LANGSMITH_TRACING": "false", "HF_HUB_OFFLINE": "1"}
    env.pop("OPENAI_API_KEY", None), env.pop("OPENAI_BASE_URL", None)  # offline: no model server to time
    timed(prp, ["ingest", str(SAMPLE)], env)
    figures: dict = {"load_average_at_start": [round(x, 2) for x in os.getloadavg()], "questions": len(QUESTIONS)}
    figures["cold"] = p50(prp, env, args.rounds)
    server, url, _ = serve_until_healthy(prp, env)
    try:
        httpx.post(f"{url}/api/search", json={"query": QUESTIONS[0]}, timeout=300)  # settled
        figures["warm_through_the_service"] = p50(prp, env, args.rounds)
    finally:
        stop(server)
    figures["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    for name, value in figures.items():
        print(f"{name:26}  {value}")
    print(f"saved {save('ask_latency', figures)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
