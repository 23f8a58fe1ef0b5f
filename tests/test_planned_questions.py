"""Offline planning writes whole questions: over 50 generated topics (ten subjects, five ways of
wording a topic), every planned sub-question reads as a question and names the topic's subject."""

from __future__ import annotations

import re

import pytest

from strategies.offline.planning import plan_questions, split_topic
from strategies.reading.text import content_words

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
