"""LLM mode's "gold sentence shown to the model": the evidence sentences of the answer prompts, read by
the cost meter, scored against the gold evidence."""

from langchain_core.messages import HumanMessage, SystemMessage

from evals.cost import _evidence_sentences
from evals.evaluators import retrieval

GOLD = "Extensive green roofs retain 50 to 60 percent of annual rainfall across the studies reviewed."
PROMPT = (
    "Sub-question: How much rainfall do green roofs retain?\n<evidence>\n[b1] Review, p. 1\n"
    "b1.s1 Thirty-eight studies met the inclusion criteria.\n"
    "b1.s2 Extensive green roofs retain 50 to 60 percent of annual rainfall across the studies reviewed.\n"
    "</evidence>"
)


def outputs(shown: list[str]) -> dict:
    chunk = {"text": "Thirty-eight studies met the inclusion criteria."}
    return {"error": None, "retrieved": [chunk], "evidence": [chunk], "cost": {"shown": shown}}


def scores(result: dict) -> dict:
    return {r["key"]: r["score"] for r in result["results"]}


def test_the_evidence_sentences_of_a_prompt_are_read():
    messages = [[SystemMessage(content="system"), HumanMessage(content=PROMPT)]]
    assert _evidence_sentences(messages) == [
        "Thirty-eight studies met the inclusion criteria.",
        "Extensive green roofs retain 50 to 60 percent of annual rainfall across the studies reviewed.",
    ]


def test_gold_shown_is_scored_in_llm_mode_only():
    reference = {"evidence": [GOLD]}
    assert scores(retrieval(outputs([GOLD]), reference))["gold_shown"] == 1.0
    assert (
        scores(retrieval(outputs(["Thirty-eight studies met the inclusion criteria."]), reference))["gold_shown"] == 0
    )
    assert "gold_shown" not in scores(retrieval(outputs([]), reference))
