"""Offline mode answers what a sentence states: a results sentence with a percent sign is a statement
(a verb the list does not hold), and its quote keeps the figure's unit (issue 31)."""

from __future__ import annotations

import pytest

from graph.run import run_research
from research.evidence import FindingStatus
from strategies.offline.strategy import OfflineStrategy
from strategies.offline.text import has_verb, is_statement

ADASD = (
    "AdaSD achieves a speedup of up to 49{unit} over standard speculative decoding while keeping accuracy "
    "degradation below 2{unit}."
)


@pytest.mark.parametrize(
    "sentence",
    [
        ADASD.format(unit="%"),
        "Phi-3-mini scores 69% on MMLU and 8.38 on MT-bench.",
        "The substrate layer absorbs about half of the rain.",
        "The new model can outperform the baseline on four tasks.",
    ],
)
def test_a_verb_the_list_does_not_hold_makes_a_statement(sentence):
    assert has_verb(sentence)
    assert is_statement(sentence)


@pytest.mark.parametrize(
    "line",
    [
        "Installation costs in the region for extensive roofs",
        "Results of the survey across all cities in the region",
        "Statistics of the corpus by language and by source.",
    ],
)
def test_headings_and_labels_are_still_no_statements(line):
    assert not is_statement(line)


@pytest.mark.parametrize("unit", ["%", " percent"])
def test_a_percentage_is_answered_and_quoted_with_its_unit(make_library, tmp_path, unit):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "adasd.md").write_text(f"# AdaSD\n\n{ADASD.format(unit=unit)}\n", encoding="utf-8")
    library = make_library()
    library.ingest([docs])
    result = run_research(
        library, OfflineStrategy(library.embedder), "What speedup does AdaSD achieve?", single_question=True
    )
    [finding] = result.state["findings"]
    assert finding.status is not FindingStatus.GAP
    assert f"49{unit}" in finding.claims[0].text
    [citation] = result.report.citations
    assert citation.resolution.matched_text.endswith(f"below 2{unit}.")
    assert "(answered; confidence" in result.report.markdown
