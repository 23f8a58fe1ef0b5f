"""A topic report a researcher would keep: findings about the topic, never about their own document;
model-written claims cut by the grammar's cap end at a whole sentence."""

from __future__ import annotations

import pytest

from graph.run import run_research
from nodes.synthesize import _on_topic
from research.evidence import CitationMarker, Claim, Finding, FindingStatus, SubQuestion
from strategies.llm.strategy import LLMStrategy, whole_sentences
from strategies.offline.strategy import OfflineStrategy
from strategies.reading.about_the_topic import about_its_document
from strategies.reading.tuning import TUNING
from testing_support.llm_fakes import ScriptedChatModel
from testing_support.llm_scripts import script_with

ABOUT_THE_DOCUMENT = [
    "In Section 2, we give some details of our training process.",
    "This paper is organized as follows.",
    "Table 3 shows the results of the distillation experiments.",
    "We will also continue to enhance the synthetic data pipeline.",
    "In future work, we would like to study larger teachers.",
    "We release our code at https://example.org/code.",
    "Recent works provide mixed but increasingly nuanced answers.",
    "So far, we have focused on design decisions on the teacher side of distillation.",
    "We further comment on teacher selection as it pertains to distillation in Appendix §C.",
    "We envision the dataset can also be used for the following scenarios.",
]
ABOUT_THE_TOPIC = [
    "Table 3 shows that distillation raises accuracy to 61.2%.",
    "Prior work has shown that distillation helps small models.",
    "Small language models trained on synthetic data matched larger models on four of six benchmarks.",
    "Recent studies on TinyStories report fluent text from models under 10M parameters.",
    "In Section 2, we found that most surveyed papers call human evaluation costly.",
]


@pytest.mark.parametrize("sentence", ABOUT_THE_DOCUMENT)
def test_a_sentence_about_its_document_is_no_topic_finding(sentence):
    assert about_its_document(sentence)


@pytest.mark.parametrize("sentence", ABOUT_THE_TOPIC)
def test_a_finding_about_the_topic_stays(sentence):
    assert not about_its_document(sentence)


def _finding(*texts: str) -> Finding:
    claims = [Claim(text=t, citations=[CitationMarker(quote=t)]) for t in texts]
    question = SubQuestion(id="q1", question="What does the evidence say about knowledge distillation?", rationale="")
    return Finding(sub_question=question, claims=claims, status=FindingStatus.ANSWERED, confidence=0.8)


def test_a_topic_finding_keeps_only_its_claims_about_the_topic(embedder):
    # A model's claims: the render node's judge reads them, so their lead is not judged here.
    strategy = LLMStrategy(ScriptedChatModel(script=script_with()), "scripted", fallback=OfflineStrategy(embedder))
    reading = strategy.reading(embedder)
    kept = _on_topic(_finding(ABOUT_THE_DOCUMENT[2], ABOUT_THE_TOPIC[0]), reading)
    assert [c.text for c in kept.claims] == [ABOUT_THE_TOPIC[0]] and kept.status is FindingStatus.ANSWERED
    # With nothing about the topic left, the sub-question is not answered (the header counts it so).
    emptied = _on_topic(_finding(ABOUT_THE_DOCUMENT[0], ABOUT_THE_DOCUMENT[6]), reading)
    assert not emptied.claims and emptied.status is FindingStatus.GAP and emptied.confidence == 0.0


def test_a_topic_section_is_answered_only_when_the_judge_finds_its_lead_answers_it(embedder):
    """Quoted sentences are their own words to the render node's judge: the lead is judged against
    the sub-question, its framing words ("What does the evidence say about") left out."""
    reading = OfflineStrategy(embedder).reading(embedder)
    off_topic = _on_topic(_finding("We believe future reading aids will help readers find information."), reading)
    assert off_topic.status is FindingStatus.GAP and not off_topic.claims
    lead = "Knowledge distillation from a larger teacher raised accuracy to 61.2%."
    assert _on_topic(_finding(lead), reading).status is FindingStatus.ANSWERED


PAPER = """# Distilling small language models

## Results

Recent works on knowledge distillation for small language models provide mixed but increasingly nuanced answers.

Knowledge distillation from a larger teacher raised the accuracy of small language models to 61.2% on the
reasoning benchmark, from 54.0% without a teacher.
"""


def test_a_topic_report_over_a_paper_quotes_no_sentence_about_the_paper(library_of, embedder):
    library = library_of({"paper.md": PAPER})
    topic = "Small language models: knowledge distillation"
    report = run_research(library, OfflineStrategy(embedder), topic).report
    quoted = [claim.text for _, claim in report.parts()]
    assert quoted and not any("nuanced" in text for text in quoted)
    assert any("61.2%" in text for text in quoted)


def test_a_claim_cut_by_the_grammar_ends_at_its_last_whole_sentence():
    cut = ("Distillation helps small models. " + "The gains on device are only suggestive (and " * 10)[
        : TUNING.llm.grammar_max_chars
    ]
    assert whole_sentences(cut) == "Distillation helps small models."
    assert whole_sentences("the start of one long sentence " * 10) == ""
    assert whole_sentences("A short claim without a full stop") == "A short claim without a full stop"
