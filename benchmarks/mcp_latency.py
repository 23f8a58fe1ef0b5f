"""Latency through MCP, as an assistant sees it: ``prp mcp`` spawned on stdio by the SDK's client, on
the sample corpus (ingested once into benchmarks/.data/mcp, offline mode).

Prints the median of N runs of: start-up (spawn until ``tools/list`` answers, wall and CPU time; the
library opens only afterwards), the first ``search`` (the library opening), then warm ``search`` and ``ask`` calls end to
end (request to result, a new research run each time).

    .venv/bin/python benchmarks/mcp_latency.py [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import anyio
from common import ROOT, WORK, save
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

SAMPLE = ROOT / "sample_corpus" / "docs"
QUERY = "how much rainfall do green roofs retain"
QUESTION = "How much stormwater do green roofs retain?"
PRP = [sys.executable, "-m", "ui.cli"]


def environment() -> dict[str, str]:
    data = WORK / "mcp"
    env = {
        **os.environ,
        "PRP_DATA_DIR": str(data),
        "LANGSMITH_TRACING": "false",
        "HF_HUB_OFFLINE": "1",
    }
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "PRP_LLM"):  # offline mode: the figure is prp's own
        env.pop(name, None)
    if not (data / "registry.sqlite").exists():
        subprocess.run([*PRP, "ingest", str(SAMPLE)], cwd=ROOT, env=env, check=True, capture_output=True)
    return env


async def calls(env: dict[str, str], runs: int) -> dict[str, list[float]]:
    params = StdioServerParameters(command=PRP[0], args=[*PRP[1:], "mcp"], env=env, cwd=str(ROOT))
    times: dict[str, list[float]] = {"first_search": [], "search": [], "ask": []}
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        await session.list_tools()
        for name, call, arguments in (
            ("first_search", "search", {"query": QUERY}),
            *[("search", "search", {"query": QUERY})] * runs,
            *[("ask", "ask", {"question": QUESTION})] * runs,
        ):
            started = time.perf_counter()
            result = await session.call_tool(call, arguments)
            times[name].append(time.perf_counter() - started)
            assert not result.isError, result.content[0].text
    return times


def startup(env: dict[str, str]) -> tuple[float, float]:
    """(wall, CPU) seconds from spawning ``prp mcp`` until its answer to ``tools/list``, spoken as raw
    JSON-RPC lines so the server's CPU time can be read from /proc as it answers (the machine's load
    stretches the wall time, not the CPU time)."""
    start = time.perf_counter()
    process = subprocess.Popen(
        [*PRP, "mcp"], cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )

    def send(message: dict) -> None:
        process.stdin.write((json.dumps({"jsonrpc": "2.0", **message}) + "\n").encode())
        process.stdin.flush()

    client = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}
    send({"id": 1, "method": "initialize", "params": client})
    process.stdout.readline()
    send({"method": "notifications/initialized"})
    send({"id": 2, "method": "tools/list"})
    assert json.loads(process.stdout.readline())["result"]["tools"]
    wall = time.perf_counter() - start
    fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime
    process.stdin.close()
    process.wait(timeout=60)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    env = environment()
    times = anyio.run(calls, env, args.runs)
    starts = [startup(env) for _ in range(args.runs)]
    times["startup"] = [wall for wall, _ in starts]
    times["startup_cpu"] = [cpu for _, cpu in starts]
    figures = {name: round(statistics.median(values), 3) for name, values in times.items()}
    figures |= {"runs": args.runs, "load_average_1min": round(os.getloadavg()[0], 2)}
    print(f"prp mcp on stdio, sample corpus, offline, median of {args.runs} runs:")
    print(f"  start-up until tools/list answers   {figures['startup']:.2f} s (CPU {figures['startup_cpu']:.2f} s)")
    print(f"  first search (the library opening)  {figures['first_search']:.2f} s")
    print(f"  search, warm                        {figures['search']:.3f} s")
    print(f"  ask, warm, end to end               {figures['ask']:.3f} s")
    print(f"  (1-minute load average {figures['load_average_1min']} on {os.cpu_count()} cores)")
    print(f"wrote {save('mcp_latency', figures)}")


if __name__ == "__main__":
    main()
