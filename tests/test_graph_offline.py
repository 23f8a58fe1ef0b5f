"""The research graph end to end in offline mode on the sample corpus (no LLM anywhere)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from evals.metrics import normalize
from graph.run import run_research
from research.evidence import FindingStatus
from strategies.offline.strategy import OfflineStrategy

TOPIC = "Green roofs in cities: street-level cooling, stormwater retention and installation costs"


@pytest.fixture(scope="module")
def offline_run(sample_library):
    strategy = OfflineStrategy(sample_library.embedder)
    first = run_research(sample_library, strategy, TOPIC)
    second = run_research(sample_library, strategy, TOPIC)
    return first, second


def section(markdown: str, heading: str) -> str:
    start = markdown.index(f"## {heading}")
    end = markdown.find("\n## ", start + 3)
    return markdown[start : end if end != -1 else None]


def doc_file(library, doc_id: str) -> str:
    return Path(library.registry.document(doc_id).path).name


def test_report_structure_and_mode_header(offline_run):
    report = offline_run[0].report
    md = report.markdown
    assert md.startswith("# ")
    assert "offline mode" in md.split("\n## ")[0]
    numbered = [line for line in md.splitlines() if line.startswith("## ") and line[3].isdigit()]
    assert len(numbered) >= 3
    for heading in ("Summary", "Where sources disagree", "What the corpus does not answer", "References"):
        assert f"## {heading}" in md


def test_every_citation_quote_is_in_its_resolved_block(offline_run, sample_library):
    report = offline_run[0].report
    assert report.citations
    for c in report.citations:
        r = c.resolution
        assert normalize(r.quote) in normalize(r.block_text)
        stored = sample_library.registry.blocks(r.block_ids)
        assert set(stored) == set(r.block_ids)
        assert normalize(r.matched_text) in normalize(" ".join(stored[b].text for b in r.block_ids))
        assert f"[{c.number}]" in report.markdown
    assert report.unverified_claims == 0


def test_planted_disagreement_is_shown_with_both_documents_cited(offline_run, sample_library):
    result = offline_run[0]
    disagreements = section(result.report.markdown, "Where sources disagree")
    numbers = {c.number: c.resolution for c in result.report.citations}
    cited_docs = {doc_file(sample_library, numbers[int(n)].doc_id) for n in re.findall(r"\[(\d+)\]", disagreements)}
    assert {"harborview_policy_brief_2023.md", "harborview_cooling_model_2022.pdf"} <= cited_docs
    assert "2 °C" in disagreements and "0.3 °C" in disagreements


def test_uncovered_subtopic_is_a_gap_with_its_attempts(offline_run):
    state = offline_run[0].state
    gaps = [f for f in state["findings"] if f.status is FindingStatus.GAP]
    cost_gaps = [f for f in gaps if "cost" in f.sub_question.question.lower()]
    assert cost_gaps, [f.sub_question.question for f in state["findings"]]
    assert len(cost_gaps[0].queries) >= 2  # the original search plus at least one retry
    text = section(offline_run[0].report.markdown, "What the corpus does not answer")
    assert "cost" in text.lower() and "Searches tried" in text and "Next step" in text


def test_covered_subtopics_are_answered(offline_run):
    findings = offline_run[0].state["findings"]
    answered = [f for f in findings if f.status is not FindingStatus.GAP]
    assert any("stormwater" in f.sub_question.question.lower() for f in answered)


def test_same_input_gives_the_same_report(offline_run):
    first, second = offline_run
    assert first.report.markdown == second.report.markdown


def test_single_question_runs_one_sub_question(sample_library):
    result = run_research(
        sample_library,
        OfflineStrategy(sample_library.embedder),
        "How much annual rainfall do extensive green roofs retain?",
        single_question=True,
    )
    assert len(result.state["plan"]) == 1
    assert result.report.citations
    files = {doc_file(sample_library, c.resolution.doc_id) for c in result.report.citations}
    assert files & {"hydrology_review_2019.pdf", "test_rig_retention_report_2018.txt"}


def test_each_line_of_a_quoted_list_carries_its_own_citation(offline_run):
    """The brief's "Key messages:" list is quoted block by block: its lead-in and every item are cited
    where they stand, each number resolving to the block that line quotes."""
    report = offline_run[0].report
    listed = [c for s in report.sections for c in s.claims if c.items and c.line_citations]
    assert listed
    quoted = {c.number: c.resolution.block_text for c in report.citations}
    for claim in listed:
        lines = [claim.first_line, *claim.items]
        for line, number in zip(lines, claim.line_citations, strict=True):
            assert normalize(line) in normalize(quoted[number])
            assert f"{line} [{number}]" in report.markdown
