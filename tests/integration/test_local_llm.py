"""LLM mode against a real local model: the default, Qwen2.5-Coder-0.5B-Instruct (Q4_K_M), behind
llama-cpp-python's server.

Run with `make test-llm` (needs the local-llm extra, `make setup-llm`); `make test` never collects it.
Nothing is faked. A 0.5B model writes weak research, so these tests check the contracts that must
hold whatever the model says: the schema-constrained answers parse, every displayed citation resolves
to the stored block it quotes, the report has its sections, and each run ends within its retry budget
with the server stopped.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import socket
import subprocess
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage, SystemMessage

from config import EmbeddingSettings, Settings, StorageSettings
from corpus.library import Library
from graph.build import build_graph
from graph.checkpoints import open_checkpointer
from prompts.answer import ANSWER
from prompts.common import SYSTEM
from prompts.plan import PLAN
from research.report import UNVERIFIED
from strategies.llm.client import make_chat_model
from strategies.llm.local_server import DEFAULT_MODEL, LocalLLMError, LocalLLMServer
from strategies.llm.strategy import AnswerOutput, PlanOutput
from strategies.llm.structured import structured_call
from tools.citations.index import BlockIndex
from tools.citations.match import ACCEPT_SCORE
from tools.citations.normalise import normalise
from tools.citations.resolve import resolve_citation

from ..cli_process import run_prp
from ..paths import SAMPLE_DOCS

pytestmark = pytest.mark.llm_local

# The Makefile's DEMO_TOPIC: a cooling disagreement, stormwater evidence and an uncovered sub-topic.
TOPIC = "Green roofs in cities: street-level cooling, stormwater retention and installation costs"
QUESTION = "How much do green roofs cool the street-level air in summer?"
# Seconds. Qwen2.5-Coder-0.5B writes ~10 tokens/s on 2 idle cores (SmolLM2-135M wrote ~100), so one
# structured call takes a minute or two and a report (about ten calls, queued) can take 20-30 minutes;
# on a loaded machine much longer.
RUN_TIMEOUT = 3600
CALL_TIMEOUT = 1200  # a test of a few direct calls (plan and answer)


@pytest.fixture(scope="module", autouse=True)
def installed() -> None:
    if importlib.util.find_spec("llama_cpp") is None:
        pytest.fail("llama-cpp-python is not installed: run `make setup-llm` (this suite is `make test-llm`)")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    log = tmp_path_factory.mktemp("llm") / "server.log"
    with LocalLLMServer.from_settings(Settings(), log_path=log) as running:
        yield running


@pytest.fixture(scope="module")
def cli_env(tmp_path_factory: pytest.TempPathFactory, models_dir: Path) -> dict[str, str]:
    """A data directory holding the sample corpus, ingested by `prp ingest` itself."""
    env = {
        **os.environ,
        "PRP_DATA_DIR": str(tmp_path_factory.mktemp("data")),
        "PRP_MODELS_DIR": str(models_dir),
        "LANGSMITH_TRACING": "false",
        "HF_HUB_OFFLINE": "1",
    }
    done = prp(env, "ingest", str(SAMPLE_DOCS), timeout=600)
    assert done.returncode == 0, done.stderr
    return env


def prp(env: dict[str, str], *args: str, timeout: float = RUN_TIMEOUT) -> subprocess.CompletedProcess:
    return run_prp(args, env, timeout, stdin=subprocess.DEVNULL)


@pytest.mark.timeout(CALL_TIMEOUT)
def test_schema_constrained_answers_parse(server):
    llm = make_chat_model(server.client_settings(Settings()))
    prompt = PLAN.format(topic=TOPIC, min_questions=3, max_questions=6)
    plan = structured_call(
        llm, PlanOutput, [SystemMessage(content=SYSTEM), HumanMessage(content=prompt)], "plan", "llama_cpp"
    )
    assert plan.sub_questions and all(q.question.strip() for q in plan.sub_questions)
    evidence = (
        "<evidence>\n[b1] Roof study, p. 1\nb1.s1 Extensive green roofs retained 45 % of annual rainfall in the "
        "three-year field study.\n</evidence>"
    )
    prompt = ANSWER.format(
        question="How much rainfall do green roofs retain?", queries="rainfall retention", evidence=evidence
    )
    answer = structured_call(
        llm, AnswerOutput, [SystemMessage(content=SYSTEM), HumanMessage(content=prompt)], "answer", "llama_cpp"
    )
    assert 0.0 <= answer.confidence <= 1.0


def test_a_broken_model_file_fails_with_the_server_log(tmp_path):
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(b"GGUF" + bytes(64))
    with pytest.raises(LocalLLMError, match=r"exited \(code") as failure:
        LocalLLMServer(broken, log_path=tmp_path / "server.log", start_timeout=120).start()
    assert "its log" in str(failure.value)


@pytest.mark.timeout(RUN_TIMEOUT + 600)  # the run itself, plus ingesting the sample corpus first
@pytest.mark.parametrize(
    ("command", "subject", "max_retries"), [("ask", QUESTION, 1), ("report", TOPIC, 2)], ids=["ask", "report"]
)
def test_cli_run_in_local_llm_mode_keeps_the_contracts(cli_env, embedder, tmp_path, command, subject, max_retries):
    out = tmp_path / "report.json"
    done = prp(
        cli_env,
        command,
        subject,
        "--llm",
        "local",
        "--max-retries",
        str(max_retries),
        "--json",
        str(out),
        "--out",
        str(tmp_path / "report.md"),
    )
    assert done.returncode == 0, done.stderr[-4000:]
    record = json.loads(out.read_text())
    markdown = record["markdown"]
    assert record["mode"] == f"llm ({DEFAULT_MODEL.label})"  # the assembled default model
    assert "Written in **LLM mode**" in markdown

    # The server was started for the run, on loopback, and is gone once prp has exited.
    port = int(re.search(r"ready at http://127\.0\.0\.1:(\d+)/v1", done.stderr).group(1))
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()

    # Sections: summary, one per sub-question, disagreements, gaps.
    sections = re.findall(r"^## (\d+)\. ", markdown, re.M)
    assert sections == [str(i) for i in range(1, len(sections) + 1)] and sections
    if command == "ask":
        assert len(sections) == 1
    for heading in ("## Summary", "## Where sources disagree", "## What the corpus does not answer"):
        assert heading in markdown

    # Every displayed citation marker is a numbered citation that resolves to the block it quotes.
    numbers = [c["number"] for c in record["citations"]]
    assert numbers == list(range(1, len(numbers) + 1))
    body = markdown.split("\n## References")[0]
    assert {int(n) for n in re.findall(r"\[(\d+)\]", body)} <= set(numbers)
    assert markdown.count(UNVERIFIED) == record["unverified_claims"]
    with Library(
        Settings(
            storage=StorageSettings(data_dir=cli_env["PRP_DATA_DIR"]),
            embeddings=EmbeddingSettings(models_path=cli_env["PRP_MODELS_DIR"]),
        ),
        embedder=embedder,
    ) as library:
        index = BlockIndex.from_registry(library.registry)
        for c in record["citations"]:
            stored = library.registry.blocks(c["block_ids"])
            assert set(stored) == set(c["block_ids"])
            assert {b.doc_id for b in stored.values()} == {c["doc_id"]}
            assert "\n".join(stored[b].text for b in c["block_ids"]) == c["block_text"]
            assert normalise(c["matched_text"]) in normalise(c["block_text"])
            assert c["score"] >= ACCEPT_SCORE
            again = resolve_citation(c["quote"], c["block_ids"][0], index)
            assert again is not None and again.block_ids == c["block_ids"]

        # The run ended within its retry budget.
        with open_checkpointer(library.settings) as saver:
            state = build_graph(saver).get_state({"configurable": {"thread_id": record["thread_id"]}}).values
    assert state["findings"] and len(state["findings"]) == len(sections)
    for finding in state["findings"]:
        assert finding.retries <= max_retries
        assert len(finding.queries) <= 1 + max_retries
