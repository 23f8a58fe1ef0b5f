"""A definition question ("What is X?") on a crawled documentation site where every page's title ends
"- X" and every page mentions X many times: the overview page that defines X ranks first, and its
defining sentence leads what the search returns from it."""

from __future__ import annotations

from pathlib import Path

import pytest

from graph.run import run_research
from strategies.offline.strategy import OfflineStrategy
from tests.webpages import write_crawled_markdown
from tools.definitions import defines, definition_subject
from tools.hybrid_search import hybrid_search

PAGES = {
    "what-is-acme-router": (
        "Overview",
        "Acme Router is a fully managed service that routes HTTP requests between your services. "
        "You describe routes once and Acme Router applies them in every region.",
    ),
    "quotas": (
        "Quotas",
        "Acme Router is controlled by quotas. What Acme Router allows is set per account: each account "
        "of Acme Router may create 50 routes per region; ask support to raise the Acme Router quota.",
    ),
    "pricing": (
        "Pricing",
        "Acme Router is billed per million requests. Requests that Acme Router rejects are free, and "
        "Acme Router bills data transfer separately.",
    ),
    "logging": (
        "Logging",
        "Acme Router writes one log line per request. Acme Router logs can be sent to storage, and "
        "Acme Router keeps them for seven days.",
    ),
    "routes": (
        "Creating routes",
        "To create a route in Acme Router, open the console. Acme Router checks the route and "
        "Acme Router applies it within a minute.",
    ),
    "security": (
        "Security",
        "Acme Router encrypts traffic in transit. Acme Router supports mutual TLS, and Acme Router "
        "rotates certificates automatically.",
    ),
}


@pytest.mark.parametrize("question", ["What is Acme Router?", "what is acme router", "What does Acme Router do?"])
def test_a_definition_question_ranks_the_page_that_defines_it_first(make_library, tmp_path: Path, question: str):
    library = make_library()
    library.ingest(
        [write_crawled_markdown(tmp_path / "site", PAGES, breadcrumb="Documentation / Acme Router / User Guide")]
    )
    hits = hybrid_search(library, question, k=5)
    assert hits[0].title == "Overview - Acme Router"
    assert "Acme Router is a fully managed service" in hits[0].text


def test_definition_subjects_and_defining_sentences():
    assert definition_subject("What is Acme Router?") == "Acme Router"
    assert definition_subject("What are green roofs?") == "green roofs"
    assert definition_subject("What does the Files API do?") == "Files API"
    assert definition_subject("What is the baseline model used in their experiments?") is None  # not one term
    assert definition_subject("How do I create a route?") is None
    # How a document defines a term asks for its definition; how one defines a thing oneself does not.
    assert definition_subject("How does Paper Plain define section gists?") == "section gists"
    assert definition_subject("How are section gists defined in Paper Plain?") == "section gists"
    assert definition_subject("How do I define a route?") is None
    assert defines("Intro. Acme Router is a fully managed service.", "Acme Router")
    assert defines("The Files API lets you upload files once.", "Files API")
    assert not defines("Acme Router is controlled by quotas.", "Acme Router")
    assert not defines("Unlike Acme Router, Bolt is a proxy.", "Acme Router")


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        ("We introduce Lumen,1 a large corpus of 9.2M field notes.", "Lumen"),  # a footnote marker after the comma
        ("We introduce Lumen, 1 a large corpus of field notes.", "Lumen"),
        ("After the survey, we present BRIGHTEVAL, a set of guidelines for rating summaries.", "BrightEval"),
        ("This paper proposes Lumen, an open-source toolkit for reading scans.", "Lumen"),
        ("We define a gist as a one-line summary of a subsection.", "gist"),
        ("The toolkit provides combinations of readers, called Recipes, for users.", "Recipes"),
        ("Lumen refers to the corpus of field notes.", "Lumen"),
        # A list of features glosses each after a dash or a colon, its number before it.
        ("(2) Section Gists – In-situ plain language summaries of each section.", "section gists"),
        ("Gists: one-line summaries of a subsection.", "gists"),
    ],
)
def test_an_author_introducing_or_naming_a_term_defines_it(sentence: str, term: str):
    assert defines(sentence, term)


@pytest.mark.parametrize(
    "sentence",
    [
        "We train a tagger on Lumen and show that it works.",  # uses the term
        "We introduce Lumen-Tagger in Section 5.",  # introduces another thing
        "We release Lumen to the public.",  # says what was done with it, not what it is
        "While Orbit is a tagger, Lumen differs.",  # defines another term
        "Lumen-based readers help in the clinic.",  # a word built on the term, no gloss
    ],
)
def test_a_sentence_that_only_uses_a_term_does_not_define_it(sentence: str):
    assert not defines(sentence, "Lumen")


def test_a_definition_question_is_answered_by_the_defining_sentence_not_a_use(embedder):
    """The sentence introducing the term leads, though other passages rank higher and use it more."""
    from strategies.offline.strategy import OfflineStrategy
    from tests.test_offline_strategy import block, chunk

    uses = chunk(
        "paper",
        [
            block(
                "paper-0010",
                "paper",
                "To show that Lumen suits pretraining, we train a tagger on Lumen and compare it with "
                "a tagger trained on news text. The Lumen tagger is better on six of seven tasks.",
            )
        ],
        rank=1,
    )
    abstract = chunk(
        "paper",
        [
            block(
                "paper-0002",
                "paper",
                "We introduce Lumen, 1 a large corpus of 9.2M field notes from ecology stations. "
                "The corpus holds notes, maps and resolved references.",
            )
        ],
        rank=2,
    )
    claims = OfflineStrategy(embedder).judge("What is Lumen?", [uses, abstract]).claims
    assert claims and claims[0].text.startswith("We introduce Lumen"), [c.text for c in claims]


def test_a_list_item_defining_the_term_is_quoted_alone(library_of):
    library = library_of(
        {
            "lumen.md": "# Lumen: a reader for medical papers\n\n"
            "Based on feedback from the design sessions, Lumen was designed with the following features:\n\n"
            "- (1) Term Tips – tooltips explain the jargon of a passage.\n"
            "- (2) Section Gists – in-situ plain language summaries support readers in dense sections.\n\n"
            "Participants with the Section Gists read dense passages more easily.\n"
        }
    )
    result = run_research(
        library, OfflineStrategy(library.embedder), "How does Lumen define section gists?", single_question=True
    )
    assert result.report.sections[0].claims[0].text.startswith("(2) Section Gists – in-situ plain language")
