"""Alternative questions ("Which scores higher: A or B?") are answered with one of their alternatives,
or not at all (issue 46): never with a bare figure or an unrelated sentence. The alternatives are read
with their own source stripped, and each alternative's value is looked up and compared."""

from __future__ import annotations

import pytest

from graph.run import run_research
from research.report import ClaimStatus, FinalReport
from strategies.offline.strategy import OfflineStrategy
from strategies.reading.alternatives import Direction, alternatives_of
from strategies.reading.question import parse_question


@pytest.mark.parametrize(
    ("question", "names", "direction"),
    [
        (
            "On Ardley-QA, which scores higher: Vole as reported in the Vole paper or Heron-Vole?",
            ["Vole", "Heron-Vole"],
            "max",
        ),
        (
            "Which corpus has longer documents: Kestrel (the survey's table) or Osprey's legal task?",
            ["Kestrel", "Osprey's legal task"],
            "max",
        ),
        ("Which is smaller between the red sensor and the blue sensor?", ["the red sensor", "the blue sensor"], "min"),
        ("Between Alpha and Beta, which has fewer parameters?", ["Alpha", "Beta"], "min"),
        ("Alpha versus Beta: which study had more participants?", ["Alpha", "Beta"], "max"),
        (
            "On Ardley, which is higher: Wren's result reported in the Wren paper or Heron's result?",
            ["Wren", "Heron"],
            "max",
        ),
        (
            "Which study had more participants: Finch's lab study or Finch's field study?",
            ["lab study", "field study"],
            "max",
        ),
        ("Which model has better perplexity, Alpha or Beta?", ["Alpha", "Beta"], None),
        ("Which is more useful, visual or textual features?", ["visual", "textual features"], None),
    ],
)
def test_alternatives_are_parsed_with_their_sources_stripped(question, names, direction):
    found = parse_question(question).alternatives
    assert found is not None
    assert [o.name for o in found.options] == names
    assert found.direction == (Direction(direction) if direction else None)


@pytest.mark.parametrize(
    "question",
    ["Which city is larger?", "What is the capital of France?", "Which city is in France, Paris or Rome?"],
)
def test_other_questions_have_no_alternatives(question):
    assert alternatives_of(question) is None


def _answer(library_of, embedder, documents: dict[str, str], question: str) -> FinalReport:
    library = library_of(documents)
    return run_research(library, OfflineStrategy(embedder), question, single_question=True).report


STUDIES = (
    "# The Finch reading assistant\n\n"
    "We evaluated Finch in two studies. A controlled lab study with 14 participants measured how quickly "
    "readers found relevant papers. A field deployment with 5 participants followed readers at work for "
    "two weeks.\n\n"
    "Participants in both studies were graduate students in biology.\n"
)


def test_an_alternative_question_is_answered_by_the_alternative_with_more(library_of, embedder):
    report = _answer(
        library_of,
        embedder,
        {"finch.md": STUDIES},
        "Which study had more participants: Finch's controlled lab study or Finch's field deployment?",
    )
    (section,) = report.sections
    lead = section.claims[0]
    assert lead.answer is not None and "controlled lab study" in lead.answer
    assert lead.text.startswith("14") and "against 5" in lead.text and "field deployment" in lead.text
    assert lead.status is ClaimStatus.VERIFIED and len(lead.citations) >= 1


def test_an_alternative_question_is_answered_by_the_alternative_with_fewer(library_of, embedder):
    report = _answer(
        library_of,
        embedder,
        {"finch.md": STUDIES},
        "Which study had fewer participants: Finch's controlled lab study or Finch's field deployment?",
    )
    lead = report.sections[0].claims[0]
    assert lead.answer is not None and "field deployment" in lead.answer


def test_a_missing_value_abstains_and_never_answers_a_figure(library_of, embedder):
    """Only one study's size is stated: the question is not answered, neither by that figure nor by a
    sentence; the value found is shown beside the gap, with its passage, as evidence."""
    only_one = STUDIES.replace(" with 5 participants", "")
    report = _answer(
        library_of,
        embedder,
        {"finch.md": only_one},
        "Which study had more participants: Finch's controlled lab study or Finch's field deployment?",
    )
    assert not report.answered_sections()
    (gap,) = report.gaps
    shown = gap.suggestions[0]
    assert "do not state both values" in shown
    assert "controlled lab study: 14" in shown
