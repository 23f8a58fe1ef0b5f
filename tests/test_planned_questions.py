"""Offline planning writes whole questions: over 50 generated topics (ten subjects, five ways of
wording a topic), every planned sub-question reads as a question and names the topic's subject."""

from __future__ import annotations

import json
import re

import pytest

from strategies.offline.planning import plan_questions, split_topic
from strategies.reading.text import content_words
from tests.paths import SHARED

SUBJECTS = {
    "green roofs": ("cooling", "stormwater retention", "installation costs"),
    "quantization of language models": ("accuracy", "memory use", "latency"),
    "heat pumps": ("running costs", "emissions", "noise"),
    "microplastics in drinking water": ("sources", "health effects", "filtration"),
    "retrieval-augmented generation": ("answer quality", "retrieval errors", "index size"),
    "the effect of sleep on memory": ("consolidation", "sleep deprivation", "age differences"),
    "urban trees": ("shade", "air quality", "maintenance costs"),
    "solid-state batteries": ("energy density", "safety", "manufacturing costs"),
    "remote work": ("productivity", "wellbeing", "office demand"),
    "coral reef restoration": ("survival rates", "costs", "heat stress"),
}
PATTERNS = (
    "{S}: {a}, {b} and {c}",
    "{a} and {b} of {S}",
    "{S}: how {a} changes {b} and {c}",
    "How {S} affect {a} and {b}",
    "{S}: why {a} matters; what limits {b}",
)
TOPICS = [
    p.format(S=s[:1].upper() + s[1:] if p.startswith("{S}") else s, a=a, b=b, c=c)
    for s, (a, b, c) in SUBJECTS.items()
    for p in PATTERNS
]
QUESTION_WORDS = ("What", "Which", "How", "Why", "When", "Where", "Who", "Is", "Are", "Do", "Does", "Can")
AUXILIARIES = set("do does did is are was were can could should would will has have had".split())
# A question does not end on a word that needs something after it.
DANGLING = set("of for in on at to with about and or but the a an how what why when where whether vs".split())
CLAUSE = re.compile(r"\babout ((?:how|why|what|when|where|whether)\b.*)\?$")


def reads_as_question(question: str) -> bool:
    words = question.rstrip("?").split()
    return (
        question.endswith("?")
        and question.count("?") == 1
        and question.startswith(QUESTION_WORDS)
        and any(w.lower() in AUXILIARIES for w in words[:5])  # "What does…", "What measurements … do…"
        and words[-1].lower() not in DANGLING
    )


def test_fifty_topics():
    assert len(TOPICS) == len(set(TOPICS)) == 50


@pytest.mark.parametrize("topic", TOPICS)
def test_every_planned_sub_question_is_a_question_naming_the_subject(topic: str):
    parts = split_topic(topic)
    subject_words = set(content_words(parts.core.lower())) or set(content_words(topic.lower()))
    for q in plan_questions(topic, False, []):
        assert reads_as_question(q.question), (topic, q.question)
        assert subject_words & set(content_words(q.question.lower())), (topic, q.question)
        # A clause asked about is the researcher's own wording, never a fragment cut from it.
        if clause := CLAUSE.search(q.question):
            assert clause.group(1).lower() in topic.lower(), (topic, q.question)


# -- real titles as topics ------------------------------------------------------------------------

# The shared papers' own titles; titles-dev adds 39 more documents' titles when ../shared is present.
PAPER_TITLES = (
    "S2ORC: The Semantic Scholar Open Research Corpus",
    "LongEval: Guidelines for Human Evaluation of Faithfulness in Long-form Summarization",
    "Multi-LexSum: Real-World Summaries of Civil Rights Lawsuits at Multiple Granularities",
    "CiteSee: Augmenting Citations in Scientific Papers with Persistent and Personalized Historical Context",
    "Paper Plain: Making Medical Research Papers Approachable to Healthcare Consumers with Natural Language Processing",
    "PaperMage: A Unified Toolkit for Processing, Representing, and Manipulating Visually-Rich Scientific Documents",
    "SciBERT: A Pretrained Language Model for Scientific Text",
    "Small language models: synthetic training data, knowledge distillation and on-device inference efficiency",
)


def _titles() -> list[str]:
    truth = SHARED / "data" / "titles-dev" / "truth.json"
    extra = [d["title"] for d in json.loads(truth.read_text(encoding="utf-8"))] if truth.is_file() else []
    return list(PAPER_TITLES) + extra


def _name_like(word: str) -> bool:
    return any(c.isdigit() for c in word) or any(c.isupper() for c in word[1:])


@pytest.mark.parametrize("title", _titles())
def test_a_title_as_topic_plans_whole_questions_that_keep_its_names(title: str):
    for q in plan_questions(title, False, []):
        assert reads_as_question(q.question), (title, q.question)
        # "S2ORC", "CiteSee", "Multi-LexSum" are never re-cased ("s2ORC", "citeSee", "multi-lexsum").
        for word in re.findall(r"[\w-]+", title):
            if _name_like(word) and word.lower() in q.question.lower():
                assert word in q.question, (title, q.question)


def test_a_title_tail_that_describes_its_subject_is_not_a_list_of_facets():
    assert [q.question for q in plan_questions(PAPER_TITLES[0], False, [])][:2] == [
        "What are the main findings about S2ORC?",
        "What is S2ORC?",
    ]
    questions = [q.question for q in plan_questions("Outside the web: standalone binaries using a compiler", False, [])]
    assert "What are the main findings about standalone binaries using a compiler?" in questions
    assert not any("outside" in q for q in questions)
    # A list after the colon is still the topic's facets.
    assert split_topic(PAPER_TITLES[-1]).facets == [
        "synthetic training data",
        "knowledge distillation",
        "on-device inference efficiency",
    ]


def test_the_core_of_a_subject_is_never_its_most_frequent_word():
    """ "Small language models": scout passages say "small" more often than the phrase, yet the
    sub-questions ask about small language models, never "… of small?"."""
    scout = ["small models are small", "we use small data", "small language models run on phones"]
    assert split_topic(PAPER_TITLES[-1], scout).core == "small language models"
    # A head that names an activity or a relation is not the core; a thing is.
    assert split_topic("Improving detection of influential nodes").core == "improving detection of influential nodes"
    assert split_topic("Green roofs in cities").core == "green roofs"
    assert split_topic("Dense Passage Retrieval for Open-Domain Question Answering").core.startswith("Dense Passage")


def test_a_title_s_modifiers_joined_by_and_stay_with_their_noun():
    """ "Comparative physiological and metabolomics analysis of X" lists no facets: "comparative
    physiological" is no noun phrase to ask about."""
    questions = [
        q.question for q in plan_questions("Comparative structural and thermal analysis of bridges", False, [])
    ]
    assert "What does the evidence say about comparative structural and thermal analysis of bridges?" in questions
    assert not any("structural of" in q for q in questions)
    # Nouns joined by "and" are still facets.
    assert split_topic("Heat pumps: noise and running costs").facets == ["noise", "running costs"]


def test_a_title_whose_head_says_where_asks_about_its_tail():
    questions = [q.question for q in plan_questions("Beyond the lab: portable sensors using cheap optics", False, [])]
    assert questions[0] == "What are the main findings about portable sensors using cheap optics?"
    assert not any("beyond the lab" in q.lower() for q in questions)


def test_a_description_opening_on_the_article_a_is_asked_about_in_running_text():
    questions = [q.question for q in plan_questions("Roof Gardens: A handbook for owners and tenants", False, [])]
    assert "What does the evidence say about a handbook for owners and tenants?" in questions


def test_facets_of_an_action_stand_in_it():
    """ "Evaluating summaries: datasets and faithfulness" asks about datasets *in* evaluating summaries;
    a thing's facets are still *of* it."""
    questions = [q.question for q in plan_questions("Evaluating summaries: datasets and faithfulness", False, [])]
    assert "What does the evidence say about datasets in evaluating summaries?" in questions
    assert not any(" of evaluating" in q for q in questions)
    questions = [q.question for q in plan_questions("Building codes: costs and safety", False, [])]
    assert "What does the evidence say about costs in building codes?" in questions
    questions = [q.question for q in plan_questions("Heat pumps: noise and running costs", False, [])]
    assert "What does the evidence say about noise of heat pumps?" in questions
