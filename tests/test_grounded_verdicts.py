"""Grounded-right on a set with gold evidence but no page gold (docs-dev, QASPER, RAMDocs): the verdict on
made-up answers, the evaluator, the summary's reliability table and the report it writes. Made-up
records only: no corpus, no graph."""

from __future__ import annotations

import json
from pathlib import Path

from evals import evaluators as ev
from evals.datasets import DatasetKind, EvalDataset, EvalExample, Expected
from evals.grounded_report import grounded_line, grounded_markdown, grounded_summary, high_confidence
from evals.grounded_verdicts import GroundedVerdict, Lead, lead_cites_gold, references, verdict, verdict_of
from evals.report import write_results
from evals.runner import EvalRun, ExampleResult, RunConfig

GOLD = "Rate limits. You can see the current limits of your team on the Limits tab of the console."
QUESTION = "Where can you see your team's limits?"


def _lead(text: str, answer: str | None = None) -> Lead:
    return Lead(text=text, answer=answer, citations=[1])


def _citation(text: str, label: str = "", number: int = 1) -> dict:
    return {"number": number, "label": label, "blocks": [{"block_id": f"b{number}", "page": 1, "text": text}]}


def test_the_lead_must_cite_gold_in_a_correct_document():
    lead = _lead("You can see the current limits of your team on the Limits tab of the console.")
    assert lead_cites_gold(lead, [_citation(GOLD)], [GOLD])
    assert not lead_cites_gold(lead, [_citation("Billing happens monthly.")], [GOLD])
    # A misinformation copy of the gold text overlaps it, but is no gold.
    assert not lead_cites_gold(lead, [_citation(GOLD, label="misinfo")], [GOLD])
    assert lead_cites_gold(lead, [_citation(GOLD, label="correct")], [GOLD])
    # Only the lead's own citations count, not another claim's.
    assert not lead_cites_gold(lead, [_citation("Billing.", number=1), _citation(GOLD, number=2)], [GOLD])


def _verdict(question: str, answers: list[str], lead: Lead, *, answerable: bool = True, cites: bool = True):
    return verdict(question=question, answers=answers, answerable=answerable, lead=lead, cites_gold=cites)


def test_an_account_must_say_something_the_reference_says():
    reference = ["On the Limits tab of the console."]
    right = _lead("You can see the current limits of your team on the Limits tab of the console.")
    assert _verdict(QUESTION, reference, right) is GroundedVerdict.RIGHT
    # Grounded in the gold section, but only the question's own words: a heading is no answer.
    heading = _lead("Rate limits. See your team's limits.")
    assert _verdict(QUESTION, reference, heading) is GroundedVerdict.UNLIKE
    assert _verdict(QUESTION, reference, right, cites=False) is GroundedVerdict.UNGROUNDED
    assert _verdict(QUESTION, ["Unanswerable"], right, answerable=False) is GroundedVerdict.FALSE_ANSWER


def test_a_typed_value_must_hold_a_short_reference():
    question = "How many samples does the Corvid task have?"
    assert _verdict(question, ["4,534"], _lead("The Corvid task has 4534 samples.")) is GroundedVerdict.RIGHT
    assert _verdict(question, ["4,534"], _lead("The Corvid task has 403 samples.")) is GroundedVerdict.UNLIKE
    # The short answer shown is what is read, not another figure of its sentence.
    shown = _lead("Corvid has 4,534 samples and Magpie 403.", answer="403")
    assert _verdict(question, ["4,534"], shown) is GroundedVerdict.UNLIKE
    # A sentence is read whole: an abbreviation's full stop ends no sentence.
    born = _lead("Howe was born in St. Albans on February 19, 1873.")
    assert _verdict("When was Judge Howe born?", ["February 19, 1873"], born) is GroundedVerdict.RIGHT
    # QASPER's placeholders are no part of a value; a second annotator's "Unanswerable" is no reference.
    assert references(["Europarl BIBREF31", "Unanswerable"]) == ["Europarl"]
    dataset = _lead("We train on Europarl.")
    assert _verdict("Which dataset do they use?", ["Europarl BIBREF31"], dataset) is GroundedVerdict.RIGHT
    # A reference listing values is held by a sentence naming each of them, in its own words around them.
    both = _lead("We train on MultiUN and on Europarl.")
    assert (
        _verdict("Which datasets do they use?", ["Europarl BIBREF31, MultiUN BIBREF32"], both) is GroundedVerdict.RIGHT
    )
    assert _verdict("Which datasets do they use?", ["Europarl, MultiUN"], dataset) is GroundedVerdict.UNLIKE


def test_a_yes_no_reference_is_held_by_its_polarity():
    question = "Do they evaluate on other datasets?"
    assert _verdict(question, ["No", "No"], _lead("We do not evaluate on other datasets.")) is GroundedVerdict.RIGHT
    assert _verdict(question, ["No"], _lead("They evaluate on two datasets.", answer="Yes")) is GroundedVerdict.UNLIKE


# --- the evaluator, the summary and the report ------------------------------------------------------


def _outputs(lead: Lead | None, confidence: float | None, cited: str = GOLD) -> dict:
    citation = _citation(cited) | {"title": "Limits", "file": "limits.md", "block_ids": ["b1"], "page": 1}
    citation |= {"quote": cited, "in_store": True, "blocks": [{"block_id": "b1", "page": 1, "text": cited}]}
    return {
        "error": None,
        "answer": lead.text if lead else "Unanswerable",
        "abstained": lead is None,
        "confidence": confidence,
        "lead": lead.model_dump() if lead else None,
        "claims": [],
        "queries": [QUESTION],
        "citations": [citation] if lead else [],
        "retrieved": [],
        "evidence": [],
        "disagreements": [],
        "unverified_claims": 0,
        "cost": {"seconds": 0.1, "node_seconds": {}},
    }


def _result(outputs: dict, *, evidence: bool = True, answerable: bool = True, category: str = "factual"):
    expected = Expected(
        answerable=answerable,
        evidence=[GOLD] if evidence and answerable else [],
        answers=["On the Limits tab of the console."] if answerable else ["Unanswerable"],
    )
    example = EvalExample(id=category, category=category, question=QUESTION, expected=expected)
    inputs = {"example": example.model_dump(mode="json")}
    scored = ev.grounded(inputs, outputs, expected.model_dump(mode="json"))["results"]
    return ExampleResult(example=example, outputs=outputs, scores={s["key"]: s["score"] for s in scored}, comments={})


RIGHT_LEAD = _lead("You can see the current limits of your team on the Limits tab of the console.")


def _results() -> list[ExampleResult]:
    results = [
        _result(_outputs(RIGHT_LEAD, 0.9)),
        _result(_outputs(RIGHT_LEAD, 0.85, cited="Billing happens monthly.")),
        _result(_outputs(_lead("Rate limits. See your team's limits."), 0.5)),
        _result(_outputs(RIGHT_LEAD, 0.95), answerable=False, category="unanswerable"),
        _result(_outputs(None, None)),
        _result(_outputs(RIGHT_LEAD, None)),
        _result(_outputs(RIGHT_LEAD, 0.7), evidence=False),
    ]
    return [
        r.model_copy(update={"example": r.example.model_copy(update={"id": f"q{i}"})}) for i, r in enumerate(results)
    ]


def test_the_evaluator_scores_answers_shown_and_reads_back():
    right, ungrounded, unlike, false_answer, abstained, unconfident, no_gold = (r.scores for r in _results())
    assert right == {"grounded_right": 1.0, "grounded_cited": 1.0}
    assert [verdict_of(s) for s in (right, ungrounded, unlike, false_answer)] == list(GroundedVerdict)
    assert abstained == {} and no_gold == {} and unconfident["grounded_right"] == 1.0
    # A set with page gold is scored by value instead.
    assert ev.grounded({"example": {}}, _outputs(RIGHT_LEAD, 0.9), {"by_value": True, "evidence": [GOLD]}) == {
        "results": []
    }


def test_the_summary_counts_verdicts_and_fills_the_reliability_table():
    summary = grounded_summary(_results()).model_dump()
    total = summary["total"]
    assert (total["answers"], total["right"], total["ungrounded"], total["unlike"], total["false_answer"]) == (
        5,
        2,
        1,
        1,
        1,
    )
    assert (summary["unchecked"], summary["unconfident"]) == (1, 1)
    assert set(summary["by_category"]) == {"factual", "unanswerable"}
    top = summary["reliability"][-1]
    assert (top["answers"], top["right"]) == (3, 1) and high_confidence(summary) == (1, 3)
    assert grounded_line(summary) == (
        "grounded-right 2/5 answers shown (lead cites no gold 1, unlike the references 1, answered unanswerable 1); "
        "at confidence ≥ 0.8: 1/3"
    )
    markdown = "\n".join(grounded_markdown(summary))
    assert summary["definition"] in markdown and "| all | 5 | 2/5 | 1 | 1 | 1 |" in markdown
    assert "| 0.8–1.0 | 3 | 1 | 0.33 |" in markdown
    # A set whose rows give no gold evidence has no grounded table.
    assert grounded_summary([_result(_outputs(RIGHT_LEAD, 0.9), evidence=False)]) is None


def test_the_report_shows_the_grounded_table_and_chart(tmp_path: Path):
    results = _results()
    dataset = EvalDataset(
        name="docs", kind=DatasetKind.PRP, source=Path("docs.jsonl"), examples=[r.example for r in results], total=7
    )
    run = EvalRun(dataset, RunConfig(name="offline"), "offline", results, {}, 1.0, "exp", uploaded=False)
    summary = write_results(tmp_path, [run], "run")["configs"]["offline"]
    assert summary["grounded"]["total"]["right"] == 2 and summary["by_value"] is None
    report = (tmp_path / "report.md").read_text()
    assert "## Grounded-right (gold evidence, no page gold)" in report and "![reliability](reliability.png)" in report
    assert (tmp_path / "reliability.png").exists()
    records = [json.loads(line) for line in (tmp_path / "examples-offline.jsonl").read_text().splitlines()]
    assert [r["grounded"] for r in records[:2]] == ["grounded-right", "lead cites no gold"]
    assert records[0]["lead"]["citations"] == [1]
