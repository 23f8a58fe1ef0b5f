"""A finding is a claim about the subject, never a sentence about the text itself: how the document
is laid out, what its authors plan or hope, where they release their work. Such sentences answer only
a question that asks for exactly that."""

from __future__ import annotations

import pytest

from strategies.offline.strategy import OfflineStrategy
from tests.test_offline_strategy import block, chunk

QUESTION = "What does the evidence say about synthetic training data of small language models?"
FINDING = "Small language models trained on synthetic data matched larger models on four of six reasoning benchmarks."
ABOUT_THE_TEXT = [
    "In Section 2, we give some details of our synthetic training data for small language models.",
    "We will also continue to enhance the synthetic training data of our small language models.",
    "Our hope with the release of the synthetic training data is to help small language models.",
    "The synthetic training data for small language models is publicly available at https://example.org.",
]


@pytest.fixture(scope="module")
def strategy(embedder) -> OfflineStrategy:
    return OfflineStrategy(embedder)


def _evidence(*texts: str) -> list:
    return [chunk("paper", [block(f"paper-{i:04d}", "paper", t)], rank=i + 1) for i, t in enumerate(texts)]


@pytest.mark.parametrize("sentence", ABOUT_THE_TEXT)
def test_a_sentence_about_the_text_is_never_a_finding(strategy, sentence: str):
    claims = strategy.judge(QUESTION, _evidence(sentence, FINDING)).claims
    assert [c.text for c in claims][:1] == [FINDING]
    assert all(sentence not in c.text for c in claims)


def test_alone_it_answers_nothing(strategy):
    assert not strategy.judge(QUESTION, _evidence(ABOUT_THE_TEXT[0])).claims


def test_a_question_about_the_release_is_answered_by_it(strategy):
    question = "Where is the synthetic training data for small language models available?"
    claims = strategy.judge(question, _evidence(ABOUT_THE_TEXT[3], FINDING)).claims
    assert claims and ABOUT_THE_TEXT[3] in claims[0].text


def test_a_finding_that_names_its_section_is_still_a_finding(strategy):
    sentence = "In Section 4 we show that synthetic training data lets small language models match larger ones."
    claims = strategy.judge(QUESTION, _evidence(sentence)).claims
    assert claims and sentence in claims[0].text
