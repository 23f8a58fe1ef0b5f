"""Answers a page gives in no sentence (issue 31): the date line heading a release note's entry, a value
under a label naming the asked identifier, a code line setting the asked key. Cases are generated from
a few templates; chunks and blocks are built directly, the embedder is real."""

from __future__ import annotations

import pytest

from corpus.models import Block, BlockKind
from corpus.retrieval import RetrievedChunk
from strategies.offline.strategy import OfflineStrategy
from strategies.reading.passages import Layout
from strategies.reading.question import parse_question
from strategies.reading.value_lines import value_lines
from tests.test_offline_strategy import chunk


def _block(doc: str, seq: int, text: str, section: str = "") -> Block:
    return Block(
        block_id=f"{doc}-{seq:04d}", doc_id=doc, seq=seq, page=1, kind=BlockKind.PARAGRAPH, text=text, section=section
    )


@pytest.fixture(scope="module")
def strategy(embedder) -> OfflineStrategy:
    return OfflineStrategy(embedder)


# Release notes saved without heading markup: a date line, then the entry it dates.
RELEASES = [
    ("March 3rd, 2025", "Batch exports are now generally available in the Acme console and the CLI."),
    ("February 14th, 2025", "Webhooks are now available for every project on the Team plan."),
    ("January 9th, 2025", "Single sign-on is now supported for organisations on the Enterprise plan."),
]
DATED_QUESTIONS = [
    ("When did batch exports become generally available in the Acme console?", 0),
    ("On what date were webhooks made available for projects on the Team plan?", 1),
    ("When was single sign-on supported for Enterprise organisations?", 2),
]


def _release_notes() -> list[RetrievedChunk]:
    blocks = []
    for date, entry in RELEASES:
        blocks += [_block("notes", len(blocks), date), _block("notes", len(blocks) + 1, entry)]
    return [chunk("notes", blocks, title="Release notes")]


@pytest.mark.parametrize(("question", "entry"), DATED_QUESTIONS)
def test_a_date_line_above_an_entry_answers_when(strategy, question, entry):
    date, text = RELEASES[entry]
    judged = strategy.judge(question, _release_notes())
    first = judged.claims[0]
    assert first.answer == date
    # The date stands quoted above the entry it dates, each a verbatim quote of its own block.
    assert first.text.startswith(date) and text in first.text
    assert [c.quote for c in first.citations] == [date, text]


def test_a_question_not_asking_when_is_not_shown_the_date_line(strategy):
    judged = strategy.judge("What is now available on the Team plan?", _release_notes())
    assert judged.claims and all(not c.text.startswith(tuple(d for d, _ in RELEASES)) for c in judged.claims)
    assert all(c.answer is None for c in judged.claims)


def test_a_question_naming_the_date_is_shown_it(strategy):
    judged = strategy.judge("What became available in the Acme console on March 3rd, 2025?", _release_notes())
    assert judged.claims[0].text.startswith("March 3rd, 2025")


def test_a_date_line_dates_neither_what_its_entry_denies_nor_an_identifier_it_does_not_name(strategy):
    blocks = [
        _block("log", 0, "April 14th, 2025"),
        _block("log", 1, "Orbit exports reports as CSV files. Exports to PDF are not supported yet."),
    ]
    evidence = [chunk("log", blocks, title="Changelog")]
    judged = strategy.judge("When did Orbit start exporting reports as PDF?", evidence)
    assert all(c.answer != "April 14th, 2025" for c in judged.claims), judged.claims
    # What the entry states, it dates.
    judged = strategy.judge("When did Orbit start exporting reports as CSV files?", evidence)
    assert judged.claims[0].answer == "April 14th, 2025"


def test_a_date_in_the_sentence_leads_before_the_date_line(strategy):
    blocks = [
        _block("log", 0, "May 2nd, 2024"),
        _block("log", 1, "The mobile app shipped on April 30th, 2024, two days before this note."),
    ]
    judged = strategy.judge("When did the mobile app ship?", [chunk("log", blocks, title="Changelog")])
    assert judged.claims[0].answer == "April 30th, 2024"


def test_a_date_line_not_right_above_the_entry_dates_nothing(strategy):
    blocks = [
        _block("log", 0, "June 1st, 2024"),
        _block("log", 1, "Several fixes landed in the dashboard this month."),
        _block("log", 2, "Exports are now available in the dashboard for every workspace."),
    ]
    layout = Layout([chunk("log", blocks, title="Changelog")])
    assert layout.date_line(blocks[1]) is blocks[0]
    assert layout.date_line(blocks[2]) is None


# A label naming an identifier, and the bare value below it.
LABELLED = [
    ("IPv6", "2001:db8::/32", "What IPv6 address range does the service use?"),
    ("IPv4", "192.0.2.0/24", "Which IPv4 range should the firewall allow?"),
    ("HTTP2Port", "8443", "What is the HTTP2Port of the gateway?"),
]


def _labelled_page(label: str, value: str) -> list[RetrievedChunk]:
    other = "IPv4" if label != "IPv4" else "IPv6"
    blocks = [
        _block("net", 0, other, other),
        _block("net", 1, "198.51.100.0/24", other),
        _block("net", 2, label, label),
        _block("net", 3, f"{value}\nGetting startedVersions", label),
        _block("net", 4, "Contact support to have these ranges allowed on your network.", "Support"),
    ]
    return [chunk("net", blocks, title="Network addresses")]


@pytest.mark.parametrize(("label", "value", "question"), LABELLED)
def test_a_value_under_a_label_naming_the_asked_identifier_answers_it(strategy, label, value, question):
    judged = strategy.judge(question, _labelled_page(label, value))
    assert judged.sufficient
    # The line is the answer, whole: no bold value before it (the question asks for an account).
    assert [(c.text, c.answer) for c in judged.claims] == [(value, None)]
    assert judged.claims[0].citations[0].quote == value


def test_a_label_the_question_does_not_name_answers_nothing():
    layout = Layout(_labelled_page("IPv6", "2001:db8::/32"))
    assert value_lines(parse_question("What address range does the service use?"), layout) == []


# Code setting a key the question asks about.
CODE = [
    ("How do you pass the API key when creating a client?", "apiKey: 'my_key', // defaults to ACME_KEY", "apiKey"),
    ("How do you set the batch size in the training config?", "batch_size = 32", "batch_size"),
    ('How is "max_tokens" set in the request body?', '"max_tokens": 512,', "max_tokens"),
]


@pytest.mark.parametrize(("question", "line", "key"), CODE)
def test_a_code_line_setting_the_asked_key_answers_it(strategy, question, line, key):
    blocks = [
        _block("sdk", 0, "The client reads its settings when it is created.", "Usage"),
        _block("sdk", 1, f"const client = new Client({{\n  {line}\n}});", "Usage"),
    ]
    judged = strategy.judge(question, [chunk("sdk", blocks, title="Client library")])
    assert judged.sufficient
    assert judged.claims[0].text == line.rstrip(",")
    assert judged.claims[0].citations[0].quote in blocks[1].text
    assert key in judged.claims[0].text


@pytest.mark.parametrize(
    ("question", "line"),
    [
        ("What are the installation costs of green roofs?", "cost: 40"),  # a plain word as key
        ("What BLEU score does the model reach?", "BLEU: 32.1"),  # a table's row, not code
        ("What is the timeout of the client?", "retry_count = 3"),  # another key
        ("How do you specify keys?", "apiKey: 'x'"),  # one of the key's words only
        # A key the question names as a condition, not asking how it is set.
        ("How can you list the models available in an AWS region?", 'aws_region="us-west-2"'),
        # A value the question holds already tells it nothing.
        ('What should be passed next when stop_reason is "tool_use"?', '"stop_reason": "tool_use",'),
        # A comment is no value.
        ("How do you set the classification prompt?", "classification_prompt = # filled in below"),
    ],
)
def test_a_line_with_another_or_a_plain_key_answers_nothing(question, line):
    blocks = [_block("cfg", 0, f"settings = {{\n  {line}\n}}", "Settings")]
    assert value_lines(parse_question(question), Layout([chunk("cfg", blocks, title="Settings")])) == []


def test_a_sentence_naming_the_identifier_keeps_the_prose_answer(strategy):
    blocks = [
        _block("api", 0, 'The example below uses "max_tokens" of 1 to get a single token from the model.', "Prefill"),
        _block("api", 1, '{\n  "max_tokens": 1024,\n  "model": "m"\n}', "Prefill"),
    ]
    judged = strategy.judge(
        'What value of "max_tokens" returns a single token?', [chunk("api", blocks, title="Messages")]
    )
    assert judged.claims[0].text.startswith("The example below uses")
    assert all("1024" not in c.text for c in judged.claims)
