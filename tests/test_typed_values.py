"""Short answers only for typed values: which questions ask for one, which phrases are one, and the eval's
fragment check that holds every shown short answer to it."""

from __future__ import annotations

import pytest

from evals.typed_values import fragment_reason
from strategies.reading.answer_phrase import answer_phrase
from strategies.reading.question import parse_question
from strategies.reading.question_types import AnswerType, Entity, question_type
from strategies.reading.vectors import Vectors


@pytest.fixture(scope="module")
def vectors(embedder) -> Vectors:
    return Vectors(embedder)


@pytest.mark.parametrize(
    "question",
    [
        "What support does the vendor offer for enterprise customers?",
        "What are the key points of the migration guide?",
        "What services does the plan include?",
        "How can you create multiple test cases for an evaluation?",
        "What happens if a prompt is missing the required turns?",
        # A leading clause is looked past: this asks for factors, not a date.
        "When deciding whether to use chain-of-thought for a task, what are two key factors to consider?",
        # Two values asked at once, a comparison, a list of several, a place in a product.
        "What embeddings provider does Anthropic recommend, and what capabilities does it offer?",
        "What is the maximum number of images per request compared to the web interface?",
        "What two methods does the guide recommend for learning prompt engineering?",
        "Where can you view your organization's current rate limits?",
        "What header and value can you use to limit the response to one token?",
    ],
)
def test_questions_asking_for_an_account_get_no_short_answer_type(question):
    assert question_type(question).kind is AnswerType.DESCRIPTION


@pytest.mark.parametrize(
    ("question", "kind", "entity"),
    [
        ("When will the new console features be available?", AnswerType.DATE, None),
        ("What is the birth date of Maurice Roche?", AnswerType.DATE, None),
        ("What is the monthly price of a Relay plan?", AnswerType.QUANTITY, None),
        ("How many images can a single API request include?", AnswerType.QUANTITY, None),
        # A threshold is a value ("above 0.8"), however the question names what it thresholds.
        ("What similarity threshold is required to link two records?", AnswerType.QUANTITY, None),
        ("Which Claude model has the fastest latency?", AnswerType.THING, Entity.PRODUCT),
        ("Which embeddings provider does the vendor recommend?", AnswerType.THING, Entity.ORGANISATION),
        ("What dataset do they evaluate on?", AnswerType.THING, Entity.METHOD),
        ("What sport is Jane Doe associated with?", AnswerType.THING, Entity.CATEGORY),
        ("100 Squadron was formed in which country?", AnswerType.PLACE, None),
        ("Is tool use priced like any other request?", AnswerType.YES_NO, None),
    ],
)
def test_questions_asking_for_a_typed_value(question, kind, entity):
    found = question_type(question)
    assert (found.kind, found.entity) == (kind, entity) and found.typed


@pytest.mark.parametrize(
    ("question", "sentence", "expected"),
    [
        # A sentence's capitalised first word is no name; a name inside the sentence is.
        ("Which company does the guide recommend?", "Tool use requests are priced like any other request.", None),
        ("Which embeddings provider does the guide recommend?", "We recommend Voyage AI for embeddings.", "Voyage AI"),
        # Lower-case identifiers name models and versions.
        (
            "Which model has the fastest latency?",
            "The fastest model is claude-3-haiku-20240307 in every comparison.",
            "claude-3-haiku-20240307",
        ),
        # A time spelled out in words is one, its range whole.
        (
            "How long does it typically take a student to summarize a case?",
            "For a simple case it typically takes one to two hours for a student to summarize it.",
            "one to two hours",
        ),
        # "How much did X pay": an auxiliary, not a counted thing, follows "how much".
        ("How much did Corvid agree to pay in the settlement?", "Corvid agreed to pay $8.55 million.", "$8.55 million"),
        # A table that lost its spaces runs a name into the word before it: that run is no name.
        ("Which Orbit model is the fastest?", "Orbit 3.5 LarkOrbit 3 Wren is the fastest of them.", "Wren"),
        # A version follows the name of what it versions.
        ("Which version of Lark was used?", "We process PDFs using Lark v0.5.5 (Lopez, 2009).", "v0.5.5"),
        # A figure in brackets is one; a list's "1)" is not.
        (
            "What percentage of the Corvid corpus are computer science papers?",
            "In the Corvid corpus, biomedical (42.7%) and computer science (7.2%) papers are half of it.",
            "7.2%",
        ),
        ("How many stages does the guide list?", "The guide lists four stages: 1) reading, 2) writing.", "four stages"),
        # A date with an ordinal day is one whole date.
        (
            "When will the new tabs be available?",
            "The new tabs will be available on June 27th, 2024.",
            "June 27th, 2024",
        ),
    ],
)
def test_short_answers_are_whole_values_of_the_asked_for_type(vectors, question, sentence, expected):
    phrase = answer_phrase(parse_question(question), sentence, vectors)
    assert (phrase.text if phrase else None) == expected


@pytest.mark.parametrize(
    ("question", "answer", "sentence"),
    [
        ("When was the courthouse built?", "1932", "The courthouse was built in 1932 of local stone."),
        ("How many layers does the encoder have?", "6 layers", "The encoder has 6 layers with 512 units."),
        ("Who is the artist of the album Seven?", "Blitzen Trapper", "Seven is an album by Blitzen Trapper, 2013."),
        ("Is tool use priced like any other request?", "Yes", "Tool use requests are priced the same."),
        ("What sport is Jane Doe associated with?", "football", "Jane Doe is a former American football linebacker."),
        ("Which model has the fastest latency?", "claude-3-haiku", "The fastest is claude-3-haiku by far."),
        # What tells one thing of a name from another is a label, not part of the value.
        ("Who is the artist of the album Seven?", "Blitzen Trapper (2013)", "Seven is by Blitzen Trapper, 2013."),
        # A comparison names one of its alternatives, whichever row it leads.
        ("Which study had more participants: the lab study or the field study?", "lab study", "Lab | 10 | 6"),
    ],
)
def test_typed_values_pass_the_fragment_check(question, answer, sentence):
    assert fragment_reason(question, answer, sentence) is None


@pytest.mark.parametrize(
    ("question", "answer", "sentence", "reason"),
    [
        # Any lead on a question asking for an account.
        (
            "What support does X offer for enterprises?",
            "X offers support",
            "X offers support through a dedicated team.",
            "account",
        ),
        ("What are the key points of the guide?", "important", "It is important to test prompts.", "account"),
        # Wrong shape for the type.
        ("When was the courthouse built?", "local stone", "The courthouse was built of local stone.", "date"),
        # A word a month's name opens is no month.
        ("When was the vote held?", "the decision", "The vote was held after the decision.", "date"),
        ("How many layers does it have?", "services includes", "The services includes many layers.", "quantity"),
        ("Who founded the company?", "following services cover", "The following services cover it.", "name"),
        ("What sport does she play?", "the following", "She plays the following sport.", "category"),
        # Cut out of a longer name, or not a whole phrase of its sentence.
        ("Who is the artist of the album Seven?", "Blitzen", "Seven is an album by Blitzen Trapper.", "longer name"),
        ("How many units does the encoder have?", "51", "The encoder has 512 units.", "whole phrase"),
    ],
)
def test_fragments_are_caught(question, answer, sentence, reason):
    found = fragment_reason(question, answer, sentence)
    assert found is not None and reason in found
