"""Offline mode answers what a sentence states: a results sentence with a percent sign is a statement
(a verb the list does not hold), and its quote keeps the figure's unit (issue 31)."""

from __future__ import annotations

import pytest

from corpus.retrieval import RetrievedChunk
from graph.run import run_research
from research.evidence import FindingStatus
from strategies.offline.contradictions import _opposed
from strategies.offline.strategy import OfflineStrategy
from strategies.reading.answerhood import (
    about_other_work,
    about_the_document,
    asks_about_own_work,
    asks_about_the_work,
    polarity,
)
from strategies.reading.extractive import analyse
from strategies.reading.negations import negated_terms
from strategies.reading.question import parse_question
from strategies.reading.text import has_verb, is_statement, lemma
from tests.test_offline_strategy import block, chunk

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
        # A verb making a named thing act, then "to" and its verb.
        "Prefilling { forces Claude to skip the preamble and directly output the JSON object.",
        # A verb of amounting after a long subject, before its figure.
        "The total kiln hours logged for firing all the sample tiles sum to roughly 120 hours.",
        "The fees charged for the whole survey came to $4,300.",
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
        "Comparisons of Claude to other assistants",
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
    assert result.report.answered_sections() and "The library does not answer" not in result.report.markdown


CACHING = "Can I directly apply prompt caching through an API call?"


@pytest.mark.parametrize(
    ("sentence", "lead"),
    [
        ("You can apply prompt caching directly through an API call by adding cache_control.", "Yes"),
        ("Prompt caching cannot be applied directly through an API call.", "No"),
        ("There is no way to apply prompt caching directly through an API call.", "No"),
        # A negation of something else in the API's own reference page is no "No".
        ("The API call does not need a header, and prompt caching is applied to it directly.", "Yes"),
        # The question's words without what it asks of them: no lead.
        ("Prompt caching is listed on the pricing page.", None),
    ],
)
def test_yes_no_comes_from_the_asked_predicate(sentence, lead):
    assert polarity(parse_question(CACHING), sentence) == lead


def test_not_all_denies_a_sweep_not_the_predicate():
    assert negated_terms("The insurer does not cover all physical therapy services.") == frozenset()
    assert negated_terms("Green roofs do not significantly reduce runoff.") == {lemma("reduce")}


@pytest.mark.parametrize(
    ("a", "b", "opposed"),
    [
        (
            "Extensive green roofs reduce peak stormwater runoff from large summer storms in dense districts.",
            "Extensive green roofs do not reduce peak stormwater runoff from large summer storms in dense districts.",
            True,
        ),
        # Two subjects (a plan, an insurer), and a denied sweep: no disagreement.
        (
            "With the Gold Plan, you can have physical therapy covered.",
            "Aetna does not cover physical therapy services.",
            False,
        ),
    ],
)
def test_a_negation_disagreement_needs_one_subject_and_predicate(a, b, opposed):
    assert _opposed(a, b) is opposed


@pytest.mark.parametrize(
    ("sentence", "about"),
    [
        ("This brief proposes that the City make green roofs a standard feature of new buildings.", True),
        ("We searched four bibliographic databases for records from 2000 to 2018.", True),
        ("In this paper, we propose a new model for parsing.", True),
        ("Extensive green roofs retain 50 to 60 percent of annual rainfall.", False),
        ("This study shows that green roofs reduce runoff by half.", False),
    ],
)
def test_sentences_about_the_document_are_told_apart(sentence, about):
    assert about_the_document(sentence) is about


def test_a_question_about_the_work_is_told_apart():
    assert asks_about_the_work("Which databases did the authors search?")
    assert asks_about_the_work("Paper: What dataset do they use?")
    assert not asks_about_the_work("How much stormwater do green roofs retain?")


@pytest.mark.parametrize(
    ("sentence", "other"),
    [
        ("Foster et al. devised a tool for generating errors from an annotated corpus.", True),
        ("Finally, Smith and Jones et al. predicted the class of Twitter users.", True),
        ("Foster2009 devised a tool for generating errors.", True),
        ("[12] proposed a template-based action space.", True),
        ("Smith (2019) showed that word order matters.", True),
        ("Previous work has shown that embeddings help.", True),
        ("We evaluate our approach on two public datasets, Europarl [31] and MultiUN [32].", False),
        ("The GermEval shared task focused on German tweets.", False),
        ("Claude 3 Opus is the most capable model.", False),
    ],
)
def test_sentences_about_another_cited_work_are_told_apart(sentence, other):
    assert about_other_work(sentence) is other


def test_a_question_about_the_documents_own_work_is_told_apart():
    assert asks_about_own_work("Paper: Which annotated corpus did they use?")
    assert not asks_about_own_work("Paper: What is the approach of previous work?")
    assert not asks_about_own_work("Which annotated corpus is used by the tagger?")


def test_a_question_about_their_work_quotes_what_the_authors_did(strategy):
    page = _page(
        "errors",
        "Foster et al. used an annotated corpus of learner essays to generate errors.",
        "Our models were trained on the public FCE training set, annotated by examiners.",
    )
    ranked = analyse("Which annotated corpus did they use?", [page], strategy.vectors).scored
    assert ranked[0].sentence.text.startswith("Our models")
    # Asked of the cited work, its sentence is not held back.
    ranked = analyse("Which annotated corpus did Foster et al. use?", [page], strategy.vectors).scored
    assert ranked[0].sentence.text.startswith("Foster")


def test_a_procedure_in_the_passive_is_about_the_document():
    assert about_the_document("Studies were included if they examined systems with 150 mm of substrate or less.")
    assert about_the_document("Green roofs are presented in this brief as a frontline heat measure.")
    assert not about_the_document("Green roofs were installed on 14 buildings in 2010.")


@pytest.fixture(scope="module")
def strategy(embedder) -> OfflineStrategy:
    return OfflineStrategy(embedder)


def _page(doc_id: str, *texts: str) -> RetrievedChunk:
    blocks = [block(f"{doc_id}-{i:04d}", doc_id, t) for i, t in enumerate(texts, 1)]
    return chunk(doc_id, blocks, title="Network addresses")


def test_a_name_the_evidence_never_holds_is_not_answered(strategy):
    page = _page(
        "net",
        "Our API is served from a fixed range of IPv4 addresses listed on this page.",
        "Requests from other addresses are accepted as long as they carry a valid key.",
    )
    judged = strategy.judge("What is the IPv6 address range used by the API?", [page])
    assert not judged.sufficient and judged.confidence <= 0.2
    judged = strategy.judge("What is the IPv4 address range used by the API?", [page])
    assert judged.claims


DEMO_TOPIC = "Green roofs in cities: street-level cooling, stormwater retention and installation costs"


def test_the_demo_report_leads_with_findings_not_with_what_a_document_does(sample_library):
    result = run_research(sample_library, OfflineStrategy(sample_library.embedder), DEMO_TOPIC)
    markdown = result.report.markdown
    summary = markdown.split("## Summary", 1)[1].split("\n## ", 1)[0]
    assert "This brief proposes" not in summary and "We searched" not in summary
    stormwater = next(f for f in result.state["findings"] if "stormwater" in f.sub_question.question)
    assert stormwater.claims[0].text.startswith("Extensive green roofs retain 50 to 60 percent")


def test_a_count_no_sentence_gives_is_not_answered(strategy):
    page = _page(
        "labels",
        "The annotators labelled every tweet of the corpus for sarcasm and irony.",
        "Disagreements between annotators were resolved by discussion.",
    )
    question = "How many annotators labelled the corpus?"
    assert not strategy.judge(question, [page]).sufficient
    counted = _page("labels", "The corpus was labelled by 8 annotators.", *page.text.split("\n\n"))
    judged = strategy.judge(question, [counted])
    assert judged.sufficient and judged.claims[0].answer == "8 annotators"


def test_only_a_count_or_a_date_question_goes_unanswered_without_its_value(
    make_library, copy_sample, tmp_path, embedder
):
    """On the sample's carbon paper (with its neighbour) the discussion of carbon storage ranks first and
    gives no figure: "how much" is still answered by it (a measure may be stated in words: "half of the
    total was stored in the first year"); a count the sentences do not give is not answered."""
    # The two files test_follow_ups's library holds, in its order: one ingest of them serves both.
    copy_sample(tmp_path / "data", ("carbon_air_quality_2025.txt", "test_rig_retention_report_2018.txt"))
    library = make_library()
    strategy = OfflineStrategy(embedder)
    result = run_research(library, strategy, "How much carbon do green roofs store?", single_question=True)
    [finding] = result.state["findings"]
    assert finding.status is not FindingStatus.GAP
    result = run_research(library, strategy, "How many people visited the Millbank roof?", single_question=True)
    [finding] = result.state["findings"]
    assert finding.status is FindingStatus.GAP
