"""Which line breaks in a paragraph are real and which only wrap prose (``corpus.loaders.line_breaks``)."""

from __future__ import annotations

import textwrap

import pytest

from corpus.loaders.line_breaks import join_lines, real_breaks

PROSE = (
    "Extensive green roofs retained between 40 and 80 percent of the yearly rainfall in the studies we "
    "reviewed, and more in warm climates than in cold ones. Retention fell steeply for storms larger than "
    "20 mm, when the substrate was already wet, and the outflow peak arrived later and lower than on a "
    "bare roof. The water that did run off carried more phosphorus in the first year after planting; "
    "see the protocol at https://example.org/retention/protocols/2019/field-methods-long-version.html "
    "for how the samples were taken and kept cold until they reached the laboratory."
)

# A scraped documentation page: one statement or item per line, no list markup.
DOCS = [
    "Tool use requests are priced the same as any other API request, based on the total number of input "
    "tokens sent to the model (including in the tools parameter) and the number of output tokens generated.",
    "The additional tokens from tool use come from:",
    "The tools parameter in API requests (tool names, descriptions, and schemas)",
    "tool_use content blocks in API requests and responses",
    "tool_result content blocks in API requests",
    "When you use tools, we also automatically include a special system prompt for the model.",
]


@pytest.mark.parametrize("width", [50, 60, 72, 80, 100, 120])
def test_prose_wrapped_at_a_fixed_width_reads_as_one_line(width: int):
    lines = textwrap.wrap(PROSE, width, break_long_words=False, break_on_hyphens=False)
    assert len(lines) > 3
    assert join_lines(lines) == PROSE


def test_a_line_stopping_short_in_wrapped_prose_is_a_real_break():
    lines = textwrap.wrap(PROSE, 72, break_long_words=False, break_on_hyphens=False)
    short = ["Dear reviewers,", *lines]
    assert real_breaks(short)[0] and not any(real_breaks(short)[1:])


def test_docs_lines_keep_their_breaks():
    assert real_breaks(DOCS) == [True] * 5
    assert join_lines(DOCS) == "\n".join(DOCS)


@pytest.mark.parametrize(
    ("lines", "breaks"),
    [
        # A colon introduces what follows; a bullet glyph starts an item.
        (["Install the package with pip and then check its version:", "pip install acme"], [True]),
        (["The rig measured three things during each storm event", "• rainfall", "• runoff"], [True, True]),
        # Short lines are items, names, an address, unless one goes on in lower case.
        (["Python", "TypeScript"], [True]),
        (["Owen B. Talley", "Date of issue: 19 November 2018"], [True]),
        (["Acme Router routes requests", "to backends."], [False]),
        # Three lines or more, each after the first opening with a capital: an author block.
        (
            [
                "Hydraulics Laboratory, Department of Civil Engineering, Brackwater University",
                "Authors: Nadia F. Quensel and Owen B. Talley",
                "Date of issue: 19 November 2018",
            ],
            [True, True],
        ),
        # TeX math: the breaks are the formula's.
        (["The loss is defined as follows: $", "L = \\sum_i (y_i - \\hat{y}_i)^2", "$"], [False, False]),
        (["$$\\begin{aligned}", "a &= b + c \\\\", "d &= e", "\\end{aligned}$$"], [False, False, False]),
    ],
)
def test_real_breaks(lines: list[str], breaks: list[bool]):
    assert real_breaks(lines) == breaks


def test_prices_are_not_math():
    lines = ["Claude 3 Haiku", "$0.25 / MTok input", "$1.25 / MTok output"]
    assert real_breaks(lines) == [True, True]
