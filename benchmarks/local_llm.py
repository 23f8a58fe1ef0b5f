"""The local LLM (llama-cpp-python's server, the local-llm extra): load time, tokens/s, and the wall time
of `prp report` in local LLM mode on the sample corpus.

Tokens/s is the completion tokens the server reports (``usage.completion_tokens``) over the wall time
of one plain chat completion, and of one schema-constrained one (the grammar costs time per token).
The report runs the `prp` command itself, server start and stop included.

    python benchmarks/local_llm.py          (after `make setup-llm`)
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time

from common import ROOT, WORK, save

sys.path.insert(0, str(ROOT))

from openai import OpenAI  # noqa: E402

from config import Settings  # noqa: E402
from strategies.llm.local_server import LocalLLMServer  # noqa: E402
from strategies.llm.strategy import PlanOutput  # noqa: E402
from strategies.llm.structured import response_format  # noqa: E402

TOPIC = "Green roofs in cities: street-level cooling, stormwater retention and installation costs"
PROMPT = "Explain in about 150 words why green roofs can lower the temperature of city streets in summer."


def completion_rate(client: OpenAI, model: str, max_tokens: int = 256, **extra) -> dict:
    start = time.perf_counter()
    reply = client.chat.completions.create(
        model=model, messages=[{"role": "user", "content": PROMPT}], max_tokens=max_tokens, temperature=0, **extra
    )
    seconds = time.perf_counter() - start
    tokens = reply.usage.completion_tokens
    return {
        "completion_tokens": tokens,
        "prompt_tokens": reply.usage.prompt_tokens,
        "seconds": round(seconds, 2),
        "tokens_per_second": round(tokens / seconds, 1),
    }


def main() -> None:
    figures: dict = {}
    server = LocalLLMServer.from_settings(Settings(), log_path=WORK / "llm-server.log")
    with server:
        figures["model"] = server.model_path.name
        figures["threads"] = server.threads
        figures["load_seconds"] = round(server.load_seconds, 2)
        client = OpenAI(base_url=server.base_url, api_key="not-needed")
        completion_rate(client, server.model_name, max_tokens=8)  # warm-up
        figures["plain"] = completion_rate(client, server.model_name)
        figures["json_schema_grammar"] = completion_rate(
            client,
            server.model_name,
            response_format=response_format(PlanOutput, "llama_cpp"),
        )

    env = {
        **os.environ,
        "PRP_DATA_DIR": str(WORK / "sample"),
        "PRP_MODELS_DIR": str(WORK / "models"),
        "LANGSMITH_TRACING": "false",
    }
    prp = [sys.executable, "-m", "ui.cli"]
    subprocess.run(
        [*prp, "ingest", str(ROOT / "sample_corpus" / "docs")], cwd=ROOT, env=env, check=True, capture_output=True
    )
    out = WORK / "local-llm-report.json"
    start = time.perf_counter()
    done = subprocess.run(
        [*prp, "report", TOPIC, "--llm", "local", "--json", str(out), "--out", str(out.with_suffix(".md"))],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    figures["report_wall_seconds"] = round(time.perf_counter() - start, 1)
    if done.returncode != 0:
        sys.exit(f"prp report failed:\n{done.stderr[-3000:]}")
    record = json.loads(out.read_text())
    figures["report_sub_questions"] = len(re.findall(r"^## \d+\. ", record["markdown"], re.M))
    figures["report_citations"] = len(record["citations"])
    figures["report_unverified_claims"] = record["unverified_claims"]

    path = save("local_llm", figures)
    print(f"model {figures['model']}, {figures['threads']} threads: loaded in {figures['load_seconds']} s")
    for name in ("plain", "json_schema_grammar"):
        f = figures[name]
        print(f"{name}: {f['completion_tokens']} tokens in {f['seconds']} s = {f['tokens_per_second']} tokens/s")
    print(
        f"prp report --llm local on the sample corpus: {figures['report_wall_seconds']} s wall "
        f"(server start/stop included), {figures['report_sub_questions']} sub-questions, "
        f"{figures['report_citations']} citations, {figures['report_unverified_claims']} unverified claims"
    )
    print(f"saved {path}")


if __name__ == "__main__":
    main()
