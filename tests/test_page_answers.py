"""Offline sufficiency on documentation pages (issue 31): a question about a page is answered when the
page's sentences state it, though code listings rank above them, its opening line is off the
question, or the page's topic took most of the question's words."""

from __future__ import annotations

import pytest

from corpus.models import BlockKind
from strategies.offline import assessment
from strategies.offline.strategy import OfflineStrategy
from strategies.reading.extractive import analyse, select
from strategies.reading.signals import coverage, read_coverage, signals
from strategies.reading.tuning import TUNING
from tests.test_offline_strategy import block, chunk

ANSWER = "The client reads the API key from the ANTHROPIC_API_KEY environment variable when none is passed to it."


@pytest.fixture(scope="module")
def strategy(embedder) -> OfflineStrategy:
    return OfflineStrategy(embedder)


def test_code_listings_ranked_first_take_no_rank_from_the_passage_that_answers(strategy):
    evidence = [
        chunk("sdk", [block("sdk-0001", "sdk", "client = anthropic.Anthropic(api_key='my_api_key')")], rank=1),
        chunk("sdk", [block("sdk-0002", "sdk", "| Language | Package |\n| Python | anthropic |", BlockKind.TABLE)], 2),
        chunk("sdk", [block("sdk-0003", "sdk", "npm install @anthropic-ai/sdk")], rank=3),
        chunk("sdk", [block("sdk-0004", "sdk", ANSWER)], rank=4),
    ]
    judged = strategy.judge("How does the client find the API key?", evidence)
    # Three chunks down, the only sentence's rank penalty exceeds its relevance: its preference is
    # negative, and a share of it lay above it, so nothing was quoted.
    assert [c.text for c in judged.claims] == [ANSWER]


# One page on image input, in six passages: each names images, formats and requests, so what a
# question about it asks is read from all its words, not from the few the page's topic left over.
PAGE = [
    "Claude supports JPEG, PNG, GIF and WebP image formats in a request.",
    "Each image in a request is resized when its long edge exceeds 1568 pixels, whatever its format.",
    "An image is sent in a request as a base64 source with its media type and format.",
    "An image in a request costs about width times height divided by 750 tokens, in any format.",
    "A request holds at most 100 images, whatever their format.",
    "Put the image before the question in the request for the best results with any format.",
]


def _page_read(embedder, question: str) -> tuple[bool, float, float]:
    """(answered, coverage over the focus terms, coverage over the terms the question is read by) when
    the calibrated model found the evidence short of its threshold."""
    evidence = [
        chunk("vision", [block(f"vision-{i:04d}", "vision", t)], rank=i + 1, title="Vision") for i, t in enumerate(PAGE)
    ]
    # The page's table of sources says "given", which no sentence does: the word is in the evidence.
    table = block("vision-0100", "vision", "| Source | Given as |\n| base64 | data |", BlockKind.TABLE)
    evidence[0] = chunk("vision", [*evidence[0].blocks, table], rank=1, title="Vision")
    strategy = OfflineStrategy(embedder)
    analysis = analyse(question, evidence, strategy.vectors)
    chosen = select(analysis)
    found = signals(analysis, None, chosen)
    answered, _ = assessment.read(analysis, chosen, evidence, found, 0.2, False, strategy.calibration, strategy.meaning)
    return answered, coverage(found), read_coverage(analysis, found)


def test_a_question_whose_words_the_page_took_is_answered_when_its_sentences_state_it(embedder):
    answered, focus_coverage, read = _page_read(embedder, "What image formats can be given in a request?")
    # Its focus term is what the page's topic left over ("given"), which no sentence holds:
    # their coverage fell below the floor and the judge was never asked.
    assert focus_coverage < TUNING.evidence.min_coverage <= read
    assert answered


def test_read_whole_a_question_is_not_answered_when_what_its_page_left_over_is_nowhere(embedder):
    # Read whole, "image formats … in a request" is stated; "refunded" is what it asks and nothing
    # says it (the demo topic's "installation costs" over a brief that says "install green roofs").
    answered, _, read = _page_read(embedder, "What image formats are refunded in a request?")
    assert read >= TUNING.evidence.min_coverage
    assert not answered


# A list answering a question under a lead-in that says the question's frame in its own words: "assumes
# that you have" for what is "recommended … in place", "reasons to consider X over Y" for an
# "advantage". The things the question asks about are still read; only its framing words are not.
FRAMED = [
    (
        "Before your first shift",
        "This checklist assumes that you have:",
        ["A signed employment contract", "A staff badge from the front desk", "Finished the fire safety course"],
        "Before a first shift, what key things does the staff handbook recommend you have in place?",
    ),
    (
        "Heat pumps or gas boilers",
        "Here are some reasons to consider heat pumps over gas boilers for home heating:",
        [
            "Running costs: a heat pump delivers three units of heat for each unit of electricity.",
            "Emissions: a heat pump releases far less carbon dioxide over a year.",
        ],
        "What is one advantage of heat pumps instead of gas boilers for home heating?",
    ),
]


def _framed_read(strategy, framed: tuple[str, str, list[str], str], question: str) -> tuple[bool, list[str]]:
    """(answered, the first claim's lines) when the calibrated model found the evidence short."""
    section, lead_in, items, _ = framed
    heading = block("f-0001", "f", section, BlockKind.HEADING, section)
    listing = block("f-0002", "f", "\n".join([lead_in, *items]), section=section)
    other = block("f-0003", "f", "The front desk opens at seven and closes at six on weekdays.", section=section)
    evidence = [chunk("f", [heading, listing, other], rank=1, title="Staff handbook")]
    analysis = analyse(question, evidence, strategy.vectors)
    chosen = select(analysis)
    found = signals(analysis, None, chosen)
    answered, _ = assessment.read(analysis, chosen, evidence, found, 0.2, False, strategy.calibration, strategy.meaning)
    return answered, strategy.judge(question, evidence).claims[0].text.split("\n")


@pytest.mark.parametrize("framed", FRAMED)
def test_a_list_under_a_lead_in_in_other_words_answers_the_question_it_frames(strategy, framed):
    answered, lines = _framed_read(strategy, framed, framed[3])
    assert answered
    assert lines == [framed[1], *framed[2]]


def test_a_lead_in_excuses_framing_words_not_what_the_question_asks_about(strategy):
    # "grants" is what is asked, and nothing holds it: the list of reasons does not answer it.
    question = "What grants are there for heat pumps instead of gas boilers for home heating?"
    answered, _ = _framed_read(strategy, FRAMED[1], question)
    assert not answered
