"""A question the library does not answer: the report shows the passages nearest to it, quoted and
cited like any citation, under a part of their own, while the answer stays "not answered" and the
evaluator still reads an abstention."""

from __future__ import annotations

import pytest

from config import Settings
from corpus.library import Library
from evals.metrics import normalize
from graph.run import run_research
from nodes.render import render_report
from research.evidence import CitationMarker, DraftReport, DraftSection, FindingStatus, SubQuestion, marker_key
from research.options import UnresolvedPolicy
from research.report import CLOSEST_HEADING, NOT_ANSWERED
from strategies.llm.strategy import LLMStrategy
from strategies.offline.strategy import OfflineStrategy
from testing_support.llm_fakes import ScriptedChatModel
from testing_support.llm_scripts import script_with
from ui.chat.report_html import report_html

BAKERY = """# Harbour Bakery operations

## Baking

The Harbour Bakery bakes sourdough loaves in a wood-fired oven every morning.

The oven of the Harbour Bakery burns beech logs and reaches 260 degrees before the first loaves go in.

## About this report

In Section 2, we give some details of the Harbour Bakery staff costs.
"""
FLOUR = """# Flour suppliers of the Harbour Bakery

The Harbour Bakery buys stone-ground rye flour from a mill in the valley.
"""
QUESTION = "How much electricity does the Harbour Bakery pay for each month?"
ABOUT_ITSELF = "In Section 2, we give some details"


@pytest.fixture(scope="module")
def not_answered(tmp_path_factory, embedder, models_dir):
    root = tmp_path_factory.mktemp("closest")
    (root / "docs").mkdir()
    (root / "docs" / "bakery.md").write_text(BAKERY, encoding="utf-8")
    (root / "docs" / "flour.md").write_text(FLOUR, encoding="utf-8")
    settings = Settings().updated(
        storage={"data_dir": root / "data"}, index={"qdrant_url": None}, embeddings={"models_path": models_dir}
    )
    with Library(settings, embedder=embedder) as library:
        library.ingest([root / "docs"])
        yield library, run_research(library, OfflineStrategy(embedder), QUESTION, single_question=True)


def test_the_closest_passages_are_cited_and_resolved_but_no_answer(not_answered):
    library, result = not_answered
    report = result.report
    (section,) = report.sections
    assert section.status is FindingStatus.GAP and not section.claims
    assert report.answered_sections() == [] and report.answer_citations() == []
    assert 2 <= len(section.closest) <= 3
    for number in section.closest:
        r = report.citation(number)
        stored = library.registry.blocks(r.block_ids)
        assert set(stored) == set(r.block_ids) and r.page == stored[r.block_ids[0]].page
        assert normalize(r.quote) in normalize(" ".join(b.text for b in stored.values()))
        assert ABOUT_ITSELF not in r.matched_text


def test_the_closest_passages_read_as_evidence_below_a_not_answered_header(not_answered):
    _, result = not_answered
    markdown = result.report.markdown
    header, answer = markdown.split("\n## ", 2)[:2]
    assert NOT_ANSWERED in header and "No citations." in header
    assert answer == f"Answer\n\n{NOT_ANSWERED}\n"
    closest = markdown.split(f"## {CLOSEST_HEADING}\n")[1].split("\n## ")[0]
    assert "**" not in closest and "Answer" not in closest
    quoted = [line for line in closest.splitlines() if line.startswith("- \u201c")]
    assert len(quoted) == len(result.report.sections[0].closest)
    assert ABOUT_ITSELF not in markdown.split("## References")[1]
    html = report_html(result.report, "t1")
    assert CLOSEST_HEADING in html and "#prp-cite=t1:1" in html and "<strong>" not in html.split(CLOSEST_HEADING)[1]


def test_a_closest_passage_that_does_not_resolve_is_never_shown(embedder):
    sub = SubQuestion(id="q1", question="What does the mill charge?", rationale="r")
    marker = CitationMarker(block_id="b1", quote="A sentence no document holds.")
    draft = DraftReport(
        title="t",
        summary=[],
        sections=[
            DraftSection(sub_question=sub, status=FindingStatus.GAP, confidence=0.0, claims=[], closest=[marker])
        ],
        disagreements=[],
        gaps=[],
    )
    reading = OfflineStrategy(embedder).reading(embedder)
    report = render_report(draft, {marker_key(marker): None}, "offline", UnresolvedPolicy.MARK, "t", [], reading)
    assert report.sections[0].closest == [] and not report.citations and CLOSEST_HEADING not in report.markdown


def test_llm_mode_shows_the_closest_passages_too(not_answered):
    library, _ = not_answered
    unanswered = {"claims": [], "sufficient": False, "confidence": 0.0, "next_queries": []}
    model = ScriptedChatModel(script=script_with(answer=lambda _prompt: unanswered))
    strategy = LLMStrategy(model, "scripted", fallback=OfflineStrategy(library.embedder))
    report = run_research(library, strategy, QUESTION, single_question=True).report
    assert report.answered_sections() == [] and report.answer_citations() == []
    assert report.sections[0].closest and f"## {CLOSEST_HEADING}" in report.markdown
