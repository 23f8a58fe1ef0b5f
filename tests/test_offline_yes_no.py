"""A yes/no question answered by an instruction (issue 31): "Never send the token in the query string"
answers "Should the token go in the query string?" with a bold No quoting it, "Always pass the token in
the Authorization header" answers Yes, and the lead comes only from a sentence that states or denies
the asked predicate, never from a negation of something else. Generated documents through the real
pipeline (fastembed, embedded Qdrant, LangGraph)."""

from __future__ import annotations

import pytest

from graph.run import run_research
from research.evidence import FindingStatus
from strategies.offline.strategy import OfflineStrategy
from strategies.reading.answerhood import polarity
from strategies.reading.question import parse_question
from strategies.reading.text import is_statement, spelled_out

AUTH = """# Authentication

Every request to the Orbit API must be authenticated with an access token.

## Passing the token

Always pass the token in the Authorization header of each request. Never send the token in the query
string: URLs end up in server logs.

## Rotating tokens

Do not share a token between applications, and rotate it every 90 days.
"""

QUERY = "Should the token go in the query string?"


@pytest.mark.parametrize(
    "sentence",
    [
        "Never send the token in the query string.",
        "Don't send the token in the query string.",
        "Avoid sending the token in the query string.",
        "Always pass the token in the Authorization header.",
    ],
)
def test_a_marked_instruction_is_a_statement(sentence):
    assert is_statement(sentence)


@pytest.mark.parametrize(
    ("question", "sentence", "lead"),
    [
        # A denial in the imperative, in the question's words or with another verb of placing.
        (QUERY, "Never send the token in the query string: URLs end up in logs.", "No"),
        (QUERY, "Do not send the token in the query string.", "No"),
        (QUERY, "Avoid sending the token in the query string.", "No"),
        (QUERY, "Tokens are never sent in the query string.", "No"),
        ("Can I put the token in the URL query?", "Don't put the token in the URL query.", "No"),
        ("Can I put the token in the URL query?", "Do not send the token in the query string.", "No"),
        ("Does prompt caching reprocess the prompt?", "Prompt caching avoids reprocessing the prompt.", "No"),
        (
            "Can Claude identify people in images?",
            "Claude cannot be used to identify (i.e., name) people in images and will refuse to do so.",
            "No",
        ),
        # An instruction states it.
        (QUERY, "You should send the token in the query string.", "Yes"),
        (
            "Should the token go in the Authorization header?",
            "Always send the token in the Authorization header.",
            "Yes",
        ),
        (
            "Should the token go in the Authorization header?",
            "The token must be sent in the Authorization header.",
            "Yes",
        ),
        # "Never" in another clause, about something else, denies nothing asked.
        (QUERY, "Send the token in the query string, but never share it with anyone.", "Yes"),
        (QUERY, "Never share your password with anyone, and send the token in the query string.", "Yes"),
        ("Should the token go in the Authorization header?", "Never send the token in the query string.", None),
        # A denial of the asked verb in one clause is no denial of what another clause says.
        (
            "Can I store API keys in environment variables?",
            "Never store API keys in your source code; use environment variables.",
            "Yes",
        ),
        (
            "Can I store API keys in my source code?",
            "Never store API keys in your source code; use environment variables.",
            "No",
        ),
        # Another action denied of the asked things neither states nor denies what is asked.
        (QUERY, "Tokens sent in the query string are not encrypted.", None),
        (QUERY, "You don't need to send the token in the query string.", None),
        (QUERY, "Never log the token in the query string.", None),
        ("Can I cache the token in the query string?", "Never send the token in the query string.", None),
        # A negated question: the denial agrees with it.
        ("Should I never send the token in the query string?", "Never send the token in the query string.", "Yes"),
        ("Should I never send the token in the query string?", "You should send the token in the query string.", "No"),
        ("Should I avoid sending the token in the query string?", "Never send the token in the query string.", "Yes"),
        ("Should I avoid putting the token in the URL query?", "Never send the token in the query string.", "Yes"),
    ],
)
def test_an_instruction_answers_the_yes_no_question_on_its_predicate(question, sentence, lead):
    assert polarity(parse_question(question), sentence) == lead


@pytest.mark.parametrize(
    ("question", "lead", "quoted"),
    [
        (QUERY, "No", "Never send the token in the query string"),
        ("Can I put the token in the URL query?", "No", "Never send the token in the query string"),
        # The page also says "Never" and "Do not" of other things: the answer is still Yes.
        ("Should the token go in the Authorization header?", "Yes", "Always pass the token in the Authorization"),
        ("Should I rotate the token every 90 days?", "Yes", "Do not share a token between applications, and rotate"),
        ("Can a token be shared between applications?", "No", "Do not share a token between applications"),
    ],
)
def test_a_yes_no_question_is_answered_by_the_instruction_that_states_or_denies_it(
    library_of, embedder, question, lead, quoted
):
    result, first = _answer(library_of({"auth.md": AUTH}), embedder, question)
    assert first.answer == lead and first.text.startswith(quoted)
    assert f"**{lead}**" in result.report.markdown and "does not answer" not in result.report.markdown


def _answer(library, embedder, question: str):
    """The offline run of ``question`` on ``library`` and its first claim; the question must be answered."""
    result = run_research(library, OfflineStrategy(embedder), question, single_question=True)
    [finding] = result.state["findings"]
    assert finding.status is not FindingStatus.GAP
    return result, finding.claims[0]


LIMITS = """# Limits

Each token may make up to 600 requests per minute. Requests above the limit receive HTTP 429.

Tokens expire after 30 days. The service was launched in 2021.
"""


@pytest.mark.parametrize(
    ("question", "sentence", "lead"),
    [
        # Another figure of the asked thing answers No, never Yes; the same figure in other words Yes.
        ("Do tokens expire after 60 days?", "Tokens expire after 30 days.", "No"),
        ("Do tokens expire after 30 days?", "Tokens expire after 30 days.", "Yes"),
        ("Does AdaSD achieve a 49% speedup?", "AdaSD achieves a speedup of up to 49 percent.", "Yes"),
        ("Does AdaSD achieve a 60% speedup?", "AdaSD achieves a speedup of up to 49 percent.", "No"),
        ("Does the plan cover 20 visits?", "The plan covers 12 visits per year.", "No"),
        ("Was the service launched in 2019?", "The service was launched in 2021.", "No"),
        ("Was the service launched in 2021?", "The service was launched in 2021.", "Yes"),
        # What is possible: a bound answers both ways; a bounded question or a minimum below it, neither.
        ("Can a token make 1000 requests per minute?", "Each token may make up to 600 requests per minute.", "No"),
        ("Can a token make 500 requests per minute?", "Each token may make up to 600 requests per minute.", "Yes"),
        ("Can a token make more than 700 requests?", "Each token may make up to 600 requests per minute.", None),
        ("Can it run with 4 GB of memory?", "It can run with at least 8 GB of memory.", "No"),
        ("Can it run with 16 GB of memory?", "It can run with at least 8 GB of memory.", None),
        # "7 of the 9 tasks" counts 7 tasks; the 9 is their whole, not the figure stated of them.
        ("Does RoBERTa outperform BERT on 7 tasks?", "RoBERTa outperforms BERT on 7 of the 9 tasks.", "Yes"),
        ("Does RoBERTa outperform BERT on 9 tasks?", "RoBERTa outperforms BERT on 7 of the 9 tasks.", "No"),
        # A year naming a thing: another year names another thing, which neither states nor denies.
        ("Is the 2020 policy still in force?", "The 2018 policy is still in force.", None),
        ("Is the 2020 policy still in force?", "The 2020 policy is still in force.", "Yes"),
        ("Did the 2019 survey find a decline?", "In 2019 the survey found a decline in membership.", "Yes"),
    ],
)
def test_a_figure_answers_a_yes_no_question_by_its_value(question, sentence, lead):
    assert polarity(parse_question(question), sentence) == lead


@pytest.mark.parametrize(
    ("question", "sentence", "lead"),
    [
        # Another term where the question has its own: the sentence speaks of another thing or act.
        ("Does the plan cover physical therapy?", "The plan covers massage therapy.", None),
        ("Is the token logged in the query string?", "The token is sent in the query string.", None),
        ("Do green roofs cut cooling costs?", "Green roofs cut heating costs.", None),
        # The asked terms themselves, with more beside them, still answer.
        ("Does the plan cover physical therapy?", "The plan covers physical therapy up to 20 visits.", "Yes"),
        ("Do green roofs cut cooling costs?", "Green roofs cut cooling costs by a fifth.", "Yes"),
    ],
)
def test_a_sentence_swapping_an_asked_term_gives_no_lead(question, sentence, lead):
    assert polarity(parse_question(question), sentence) == lead


def test_a_plural_subject_takes_its_verb_in_the_base_form():
    assert is_statement("Tokens expire after 30 days; rotate them before then.")
    assert is_statement("Users need an API key to call the service.")
    assert not is_statement("Headers and footers in the document.")


@pytest.mark.parametrize(
    ("question", "lead", "quoted"),
    [
        ("Can a token make 1000 requests per minute?", "No", "Each token may make up to 600 requests"),
        ("Can a token make 500 requests per minute?", "Yes", "Each token may make up to 600 requests"),
        ("Do tokens expire?", "Yes", "Tokens expire after 30 days"),
    ],
)
def test_a_one_page_library_answers_by_the_figure_it_states(library_of, embedder, question, lead, quoted):
    _, first = _answer(library_of({"limits.md": LIMITS}), embedder, question)
    assert first.answer == lead and first.text.startswith(quoted)


@pytest.mark.parametrize(
    ("question", "sentence", "lead"),
    [
        # An abbreviation stands for the question's words: "SOTA" is "state of the art".
        (
            "Does Vega achieve a new state of the art on Alder?",
            "In addition, Vega achieves new SOTA results on Alder.",
            "Yes",
        ),
        ("Does Vega achieve a new state of the art on Alder?", "Vega did not achieve new SOTA results on Alder.", "No"),
        ("Is a large language model used for grading?", "An LLM is used for grading.", "Yes"),
    ],
)
def test_an_abbreviation_reads_as_the_words_it_stands_for(question, sentence, lead):
    assert polarity(parse_question(question), sentence) == lead


def test_an_abbreviation_stands_for_a_run_from_content_word_to_content_word():
    assert spelled_out("Is artificial intelligence used?", "AI is used.") == "artificial intelligence is used."
    assert spelled_out("Is an image shown?", "AI is shown.") == "AI is shown."  # "an image" is no run
