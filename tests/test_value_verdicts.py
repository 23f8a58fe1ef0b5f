"""Scoring by value on a set with page gold (papers-dev's shape): rows with ``gold_docs`` and
``gold_pages`` parse, the scorer agrees with the set's own score.py on made-up answers, and the
summary counts verdicts and fills the reliability table. Made-up rows only: no corpus, no graph."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from evals import evaluators as ev
from evals.datasets import DatasetError, GoldPage, load_dataset
from evals.runner import ExampleResult
from evals.value_report import reliability_table, value_line, value_markdown, value_summary
from evals.value_verdicts import Verdict, cites_gold_page, holds, score, verdict_of

from .paths import shared_data

GOLD_ROW = {
    "id": "pd-014",
    "category": "table",
    "question": "How many samples does the Multi-LexSum D→L task have?",
    "answers": ["4,534"],
    "evidence": ["Multi-LexSum D→L 4,534"],
    "gold_docs": ["2206.10883v3.pdf"],
    "gold_pages": [6],
}
UNANSWERABLE_ROW = {"id": "pd-050", "category": "unanswerable", "question": "What GPU?", "expect": "abstain"}


def _write(tmp_path: Path, *rows: dict) -> Path:
    path = tmp_path / "gold.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


# --- rows -------------------------------------------------------------------------------------------


def test_a_gold_jsonl_row_parses_and_marks_its_set_scored_by_value(tmp_path: Path):
    examples = load_dataset(f"prp:{_write(tmp_path, GOLD_ROW, UNANSWERABLE_ROW)}").examples
    assert examples[0].expected.gold_pages == [GoldPage(doc="2206.10883v3.pdf", page=6)]
    # The unanswerable row has no page, yet belongs to a set scored by value.
    assert [e.expected.by_value for e in examples] == [True, True]
    plain = {k: v for k, v in GOLD_ROW.items() if not k.startswith("gold_")}
    assert not load_dataset(f"prp:{_write(tmp_path, plain)}").examples[0].expected.by_value
    with pytest.raises(DatasetError, match=r"gold\.jsonl:1: .*same length"):
        load_dataset(f"prp:{_write(tmp_path, GOLD_ROW | {'gold_pages': [6, 7]})}")


@pytest.mark.shared
def test_papers_dev_gold_parses():
    examples = load_dataset(f"prp:{shared_data('papers-dev', 'gold.jsonl')}").examples
    assert len(examples) == 52 and all(e.expected.by_value for e in examples)
    assert sum(1 for e in examples if e.expected.gold_pages) == 47


# --- the scorer against score.py --------------------------------------------------------------------

# (category, question, gold answers, answerable, answer, abstained): made-up answers in the shapes the
# reference scorer tells apart.
CASES = [
    ("table", "How many samples does X have?", ["4,534"], True, "**4534 samples**: Table 2 lists 4,534.", False),
    ("table", "How many samples does X have?", ["4,534"], True, "X has 14,534 samples [1]. It has 4,534 too.", False),
    ("table", "What F1 does it reach?", ["83.64"], True, "It reaches 83.640 F1.", False),
    ("text", "How many papers were surveyed?", ["162"], True, "They surveyed 163.131 papers.", False),
    ("text", "Which version of GROBID?", ["v0.6.1"], True, "GROBID v0.6.1 was used.", False),
    ("text", "Which corpus?", ["Semantic Scholar"], True, "Data comes from SemanticScholar's API.", False),
    ("text", "Which model?", ["GPT"], True, "ChatGPT was used.", False),
    ("text", "What is the reduction?", ["\u221212%"], True, "A change of -12 percent, i.e. -12%.", False),
    ("definition", "What is S2ORC?", ["a corpus"], True, "The documents do not answer this. S2ORC is a corpus.", False),
    ("text", "Which year?", ["2020"], True, "Unanswerable", True),
    ("yesno", "Does SciBERT outperform BERT on ChemProt?", ["Yes"], True, "Yes, it does.", False),
    ("yesno", "Does SciBERT outperform BERT on ChemProt?", ["No"], True, "Not in every run.", False),
    (
        "yesno",
        "Does SciBERT outperform BERT on ChemProt?",
        ["Yes"],
        True,
        "SciBERT outperforms BERT on ChemProt.",
        False,
    ),
    ("yesno", "Does SciBERT outperform BERT on ChemProt?", ["No"], True, "SciBERT does not outperform BERT.", False),
    ("comparison", "Which is larger, S2ORC or CORD-19?", ["S2ORC"], True, "S2ORC is larger than CORD-19.", False),
    ("comparison", "Which is larger, S2ORC or CORD-19?", ["S2ORC"], True, "CORD-19 is smaller than S2ORC.", False),
    ("unanswerable", "What GPU?", ["Unanswerable"], False, "An A100 was used.", False),
    ("unanswerable", "What GPU?", ["Unanswerable"], False, "Unanswerable", True),
]
REFERENCE = {"RIGHT": Verdict.RIGHT, "WRONG": Verdict.WRONG, "MISSED": Verdict.MISSED}


def _reference_verdict(ref, category: str, question: str, answers: list[str], answerable: bool, answer: str, abstained):
    """score.py's own verdict, by the lines of its main() that decide it."""
    short = ref.first_sentence(answer)
    answered = bool(ref.clean(answer)) and not abstained and not ref.ABSTAIN_TEXT.search(short)
    if not answerable:
        return Verdict.FALSE_ANSWER if answered else Verdict.ABSTAINED
    if not answered:
        return Verdict.MISSED
    right = {"comparison": ref.comparison_right, "yesno": ref.yesno_right}.get(category)
    ok = any(right(question, short, a) for a in answers) if right else any(ref.contains(short, a) for a in answers)
    return Verdict.RIGHT if ok else Verdict.WRONG


@pytest.mark.shared
def test_the_scorer_agrees_with_score_py_on_made_up_answers():
    spec = importlib.util.spec_from_file_location("papers_dev_score", shared_data("papers-dev", "score.py"))
    ref = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ref)
    for category, question, answers, answerable, answer, abstained in CASES:
        ours = score(
            question=question,
            category=category,
            answers=answers,
            answerable=answerable,
            answer=answer,
            abstained=abstained,
        ).verdict
        assert ours == _reference_verdict(ref, category, question, answers, answerable, answer, abstained), answer
    verdicts = [
        score(question=q, category=c, answers=a, answerable=u, answer=t, abstained=b).verdict
        for c, q, a, u, t, b in CASES
    ]
    # The cases cover every verdict.
    assert set(verdicts) == set(Verdict)


def test_values_are_compared_by_value_on_digit_boundaries():
    assert holds("4534 samples", "4,534") and holds("a 79.270 average", "79.27")
    assert not holds("14,534 samples", "4,534") and not holds("163.131 papers", "163.13")
    assert holds("indexed by (SemanticScholar)", "Semantic Scholar")
    assert not holds("ChatGPT", "GPT")


def test_a_citation_on_a_gold_page():
    gold = [GoldPage(doc="a.pdf", page=3)]
    assert cites_gold_page([("b.pdf", 3), ("a.pdf", 3)], gold)
    assert not cites_gold_page([("a.pdf", 4), ("b.pdf", 3)], gold)


# --- the evaluator and the summary ------------------------------------------------------------------


def _outputs(answer: str, *, abstained: bool = False, confidence: float | None = 0.9, page: int = 6) -> dict:
    citation = {"number": 1, "file": "2206.10883v3.pdf", "page": page, "blocks": [{"block_id": "b", "page": page}]}
    return {
        "error": None,
        "answer": answer,
        "abstained": abstained,
        "confidence": None if abstained else confidence,
        "citations": [] if abstained else [citation],
    }


def _result(row: dict, outputs: dict, tmp_path: Path) -> ExampleResult:
    example = load_dataset(f"prp:{_write(tmp_path, GOLD_ROW, row)}").examples[1]
    inputs = {"example": example.model_dump(mode="json")}
    scored = ev.by_value(inputs, outputs, example.expected.model_dump(mode="json"))["results"]
    return ExampleResult(example=example, outputs=outputs, scores={s["key"]: s["score"] for s in scored}, comments={})


def test_by_value_scores_and_summary(tmp_path: Path):
    results = [
        _result(GOLD_ROW | {"id": "r"}, _outputs("**4,534**: D→L has 4,534 samples.", confidence=0.85), tmp_path),
        _result(GOLD_ROW | {"id": "w"}, _outputs("**403**: BookSum has 403.", confidence=0.82, page=5), tmp_path),
        _result(GOLD_ROW | {"id": "m"}, _outputs("Unanswerable", abstained=True), tmp_path),
        _result(UNANSWERABLE_ROW | {"id": "f"}, _outputs("An A100.", confidence=0.3), tmp_path),
        _result(UNANSWERABLE_ROW | {"id": "a"}, _outputs("Unanswerable", abstained=True), tmp_path),
    ]
    right, wrong, missed, false_answer, abstained = (r.scores for r in results)
    assert right == {"value_right": 1.0, "value_wrong": 0.0, "value_missed": 0.0, "gold_page_cited": 1.0}
    assert wrong["value_wrong"] == 1.0 and wrong["gold_page_cited"] == 0.0
    assert "gold_page_cited" not in missed and missed["value_missed"] == 1.0
    assert false_answer == {"value_abstained": 0.0} and abstained == {"value_abstained": 1.0}
    assert [verdict_of(r.scores) for r in results] == [
        Verdict.RIGHT,
        Verdict.WRONG,
        Verdict.MISSED,
        Verdict.FALSE_ANSWER,
        Verdict.ABSTAINED,
    ]
    # A set without page gold is not scored by value.
    assert ev.by_value({"example": {}}, _outputs("x"), {"by_value": False}) == {"results": []}

    summary = value_summary(results).model_dump()
    total = summary["total"]
    assert (total["answerable"], total["right"], total["wrong"], total["missed"]) == (3, 1, 1, 1)
    assert (total["unanswerable"], total["abstained"], total["false_answer"]) == (2, 1, 1)
    assert (total["cited_gold_page"], total["cite_checked"]) == (1, 2)
    assert set(summary["by_category"]) == {"table", "unanswerable"}
    top = summary["reliability"][-1]
    assert (top["label"], top["answers"], top["right"], top["share_right"]) == ("0.8–1.0", 2, 1, 0.5)
    assert summary["reliability"][1]["answers"] == 1  # the false answer at 0.3
    line = value_line(summary)
    assert line == "by value: right 1/3, wrong 1, missed 1; unanswerable abstained 1/2; cited a gold page 1/2 answered"
    markdown = "\n".join(value_markdown(summary))
    assert "| all | 5 | 1/3 | 1 | 1 | 1/2 | 1/2 |" in markdown and "| 0.8–1.0 | 2 | 1 | 0.50 |" in markdown


def test_reliability_buckets_hold_their_edges():
    rows = reliability_table([(0.0, False), (0.2, True), (0.79, True), (0.8, True), (1.0, False)])
    assert [r.answers for r in rows] == [1, 1, 0, 1, 2]
    assert rows[2].share_right is None and rows[4].share_right == 0.5
