"""Offline answers a reader can take as they stand (issue 31): a lead-in that shows a code or header line
is quoted with it, a scraped menu of dates is no sentence, a list's lead-in relative to an answer given
above it does not lead, and a question on two things answered by two dated entries shows each date
with its entry. Generated documents through the real pipeline (fastembed, embedded Qdrant, LangGraph)."""

from __future__ import annotations

import pytest

from graph.run import run_research
from research.evidence import FindingStatus
from strategies.offline.strategy import OfflineStrategy
from strategies.reading.passages import dates_only, instructs
from strategies.reading.question import parse_question
from strategies.reading.text import is_code_line

AUTH = """# Authentication

Every request to the Orbit API must be authenticated with an access token. Tokens are created on the
Settings page of your workspace and expire after 90 days.

## Passing the token

Pass the token in the Authorization header of each request:

```
Authorization: Bearer <your-token>
```

Requests without a valid token are rejected with a 401 error.

## Rotating tokens

You can rotate a token at any time from the Settings page. The old token stops working one hour after
rotation.
"""

RELEASES = """<!-- source: https://example.org/orbit/release-notes -->

July 2nd, 2025


Orbit exports now include the reviewer's comments and the time each comment was made.


June 18th, 2025


The Orbit scheduler, our most capable planner yet, is now generally available in the web app, the API and the CLI.


May 7th, 2025


Webhooks are now generally available in the web app, the API and the CLI.
Dashboard
Settings
July 2nd, 2025 June 18th, 2025 May 7th, 2025
"""

METRICS = """# Measuring the router

The router is measured by three metrics: accuracy, the 95th percentile latency and the cost per
routed ticket.

On the held-out tickets the router reaches an accuracy of 91.2%, a 95th percentile latency of 1.4
seconds and a cost of $0.0005 per routed ticket.

In addition to considering and measuring these core metrics, you may also consider:

- Consistency of the router across different ticket types
- Handling of ambiguous tickets
- Stability of the system over time
"""


def _answer(library, embedder, question):
    result = run_research(library, OfflineStrategy(embedder), question, single_question=True)
    [finding] = result.state["findings"]
    return result, finding


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Pass the token in the Authorization header of each request:", True),
        ("Set your key as an environment variable:", True),
        ("Tokens expire after 90 days:", False),
        ("Authorization the header:", True),  # the pattern's known reach: only lead-ins are read so
    ],
)
def test_an_imperative_lead_in_is_known_by_its_object(text, expected):
    assert instructs(text) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("June 27th, 2024 June 20th, 2024 May 30th, 2024 May 10th, 2024", True),
        ("June 27th, 2024June 20th, 2024May 30th, 2024", True),
        ("3 May 2024, 2024-06-20", True),
        ("On May 10th, 2024 the prompt generator became available.", False),
    ],
)
def test_a_run_of_dates_is_a_menu_not_a_sentence(text, expected):
    assert dates_only(text) is expected


def test_a_lead_in_is_quoted_with_the_code_line_it_shows(library_of, embedder):
    library = library_of({"auth.md": AUTH})
    result, finding = _answer(library, embedder, "How do you pass the token in a request?")
    assert finding.status is not FindingStatus.GAP
    first = finding.claims[0].text.split("\n")
    assert first == [
        "Pass the token in the Authorization header of each request:",
        "Authorization: Bearer <your-token>",
    ]
    # One citation for the lead-in, one for the code line, each quoting its block verbatim.
    quotes = [m.quote for m in finding.claims[0].citations]
    assert quotes == [
        "Pass the token in the Authorization header of each request:",
        "Authorization: Bearer <your-token>",
    ]


def test_a_menu_of_dates_is_not_quoted_and_each_thing_asked_leads_with_its_own_date(library_of, embedder):
    library = library_of({"releases.md": RELEASES})
    question = "On what date did the Orbit scheduler and webhooks become generally available in the web app, the API and the CLI?"
    result, finding = _answer(library, embedder, question)
    assert finding.status is not FindingStatus.GAP
    assert not any("2025 June" in c.text or "2025 May" in c.text for c in finding.claims)
    leads = {c.answer: c.first_line for c in finding.claims if c.answer}
    assert set(leads) == {"June 18th, 2025", "May 7th, 2025"}
    assert "scheduler" in leads["June 18th, 2025"] and "Webhooks" in leads["May 7th, 2025"]


def test_a_lead_in_relative_to_an_answer_above_it_does_not_lead(library_of, embedder):
    library = library_of({"router.md": METRICS})
    result, finding = _answer(
        library, embedder, "Which core metrics are measured for the router, and what are the results?"
    )
    assert finding.claims
    assert not finding.claims[0].text.startswith("In addition to")


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("On what date did the scheduler and webhooks become available?", ["sched", "webho", "becom", "avail"]),
        # One thing asked: no claim after the first is led by a value of its own.
        ("How much green cover did sedum keep at 60 mm of substrate after the drought?", []),
    ],
)
def test_the_things_a_question_joins_are_the_words_around_its_and(question, expected):
    assert list(parse_question(question).conjuncts)[: len(expected)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            'client = anthropic.Anthropic() def get_completion(prompt: str): message = client.messages.create(model="m",',
            True,
        ),
        ("# Send the prompt to the API:", True),
        ('Use the "x-api-key" header and the "anthropic-version" header:', False),
        ("The Evaluation tool helps you:", False),
    ],
)
def test_a_code_line_ending_in_a_colon_leads_no_list(text, expected):
    assert is_code_line(text) is expected
