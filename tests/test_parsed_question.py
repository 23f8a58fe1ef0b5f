"""What the parsed question takes as its terms: the words sentences are ranked by, not the source it
names nor the light verb of a verb of two words."""

from __future__ import annotations

import pytest

from strategies.reading.question import parse_question


@pytest.mark.parametrize(
    ("question", "terms"),
    [
        ("How many people took part in the Corvid field study?", ("peopl", "parti", "corvi", "field", "study")),
        ("Which tests were carried out on the Corvid samples?", ("test", "perfo", "corvi", "sampl")),
        ("How many samples does XSUM have according to the Corvid dataset table?", ("sampl", "xsum")),
    ],
)
def test_the_terms_a_question_is_read_by(question: str, terms: tuple[str, ...]) -> None:
    assert parse_question(question).terms == terms
