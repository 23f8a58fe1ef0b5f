"""Each LLM step's own model (``PRP_LLM_PLANNING_MODEL``, ...): the real OpenAI client against the
scripted HTTP stub, which records the ``model`` every request asked for."""

from __future__ import annotations

from config import STEPS, LLMSettings, Settings
from graph.run import run_research
from research.conversation import Turn
from strategies.llm.local_server import LocalLLMServer
from strategies.llm.strategy import LLMStrategy
from strategies.select import select_strategy
from testing_support.llm_fakes import OpenAIStub, step_of
from testing_support.llm_scripts import script_with

TOPIC = "Green roofs in cities"


def _with_condense(step: str, prompt: str):
    if step == "condense":
        return {"question": "How much carbon do green roofs store?"}
    return script_with()(step, prompt)


def _models_by_step(stub: OpenAIStub) -> dict[str, set[str]]:
    by_step: dict[str, set[str]] = {}
    for request in stub.requests:
        prompt = next(m["content"] for m in request["messages"] if m["role"] == "user")
        by_step.setdefault(step_of(prompt), set()).add(request["model"])
    return by_step


def test_each_step_asks_for_its_own_model(sample_library, monkeypatch):
    monkeypatch.setenv("PRP_LLM_MODEL", "base")
    monkeypatch.setenv("PRP_LLM_PLANNING_MODEL", "planner")
    monkeypatch.setenv("PRP_LLM_RERANKING_MODEL", "ranker")
    monkeypatch.setenv("PRP_LLM_CONDENSING_MODEL", "condenser")
    with OpenAIStub(_with_condense) as stub:
        # The endpoint given, the models from the environment.
        settings = Settings(llm=LLMSettings(base_url=stub.base_url))
        strategy = select_strategy(settings, sample_library)
        assert isinstance(strategy, LLMStrategy)
        # One client per distinct model.
        assert len({id(llm) for llm in strategy.step_llms.values()}) == 4
        assert strategy.mode == "llm (base, condenser, planner, ranker)"
        result = run_research(sample_library, strategy, TOPIC)
        strategy.condense(
            "and how much carbon do they store?", [Turn(asked="Do green roofs help?", question="Do green roofs help?")]
        )
    assert result.report.citations
    by_step = _models_by_step(stub)
    assert by_step["plan"] == {"planner"}
    assert by_step["rerank"] == {"ranker"}
    assert by_step["condense"] == {"condenser"}
    assert by_step["answer"] == by_step["summary"] == by_step["read"] == {"base"}


def test_the_answering_model_writes_the_report_and_the_rest_default_to_the_model(sample_library, monkeypatch):
    monkeypatch.setenv("PRP_LLM_ANSWERING_MODEL", "writer")
    with OpenAIStub(script_with()) as stub:
        settings = Settings(llm=LLMSettings(base_url=stub.base_url, model="base"))
        strategy = select_strategy(settings, sample_library)
        run_research(sample_library, strategy, TOPIC)
    by_step = _models_by_step(stub)
    assert by_step["plan"] == by_step["rerank"] == {"base"}
    assert by_step["answer"] == by_step["summary"] == {"writer"}


def test_the_local_model_answers_every_step(tmp_path):
    server = LocalLLMServer(tmp_path / "tiny.gguf", port=8123)
    local = server.client_settings(Settings(llm=LLMSettings(planning_model="big", reranking_model="fast")))
    assert {local.llm.model_for(step) for step in STEPS} == {"tiny"}
