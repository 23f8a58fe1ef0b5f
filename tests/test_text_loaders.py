"""The Markdown, plain-text and HTML loaders: block kinds, spans, sections, metadata, boilerplate."""

from __future__ import annotations

import json
import re
import socket
import textwrap
from pathlib import Path

import pytest

from corpus.errors import LoadError
from corpus.loaders.html import load_html
from corpus.loaders.markdown import find_year, load_markdown
from corpus.loaders.text import load_text
from corpus.loaders.titles import file_title
from corpus.models import BlockKind, LoadedDocument
from corpus.parsing import parse_file

from .paths import shared_data

MARKDOWN = """# Rooftop Meadows in Lindenport

Published: 16 May 2023

## Methods

We weighed the **drainage tray** every hour, see [the protocol](http://example.org/p) and `tray.csv`.
The tray sat on a load cell.

- Sedum mats on *80 mm* of substrate
- Wildflower plugs
  with a second line

1. Clear the outlets
2. Weigh the tray

| Season | Retention |
|--------|-----------|
| Summer | 80%       |
| Winter | 32%       |

> Green roofs hold back most light showers.

```
retention = 1 - runoff / rainfall
```

## Results

Pollinator visits doubled in the second summer.

## References

- Smith, J. (2020). Roofs and rain. Journal of Roofs.
- Jones, K. (2019). Gutters.

## Appendix

The raw data are in the appendix.
"""

PLAIN = """Beta Notes on Rain Gauges

Owen B. Talley
Date of issue: 19 November 2018

1. Method

We weighed the drainage tray every hour
during eleven storms and logged the weight
on a memory card.

Key steps:
- Clear the outlets
- Weigh the tray

RESULTS

The tray retained most of the light showers and little of the heavy ones.

Table 1. Retention by season

Season     Rainfall (mm)   Retention
Summer     162             80%
Winter     196             32%

Discussion
----------

Light showers matter most.

References

Smith J, 2020, Roofs and gutters
[1] Jones K. Gutters. 2019.
[2] Brown L. Pipes. 2018.
"""

ARTICLE_HTML = """<!DOCTYPE html>
<html lang="en">
<head>
  <title>Rain Gauges on Green Roofs | Roof Knowledge Centre</title>
  <meta name="dcterms.modified" content="2021-06-08">
</head>
<body>
  <div class="cookie-notice"><p>This website uses cookies to improve your browsing experience.</p>
    <button>Accept all cookies</button></div>
  <header><nav class="primary-nav"><ul>
    <li><a href="/">Home</a></li><li><a href="/guides/">Guides catalogue</a></li>
    <li><a href="/contact/">Contact the office</a></li>
  </ul></nav></header>
  <main>
    <article>
      <h1>Rain Gauges on Green Roofs</h1>
      <p>We weighed the drainage tray every hour during eleven storms and compared it with a bare roof
      of the same size and slope next to it on the laboratory building.</p>
      <h2>Findings</h2>
      <p>The tray retained most of the light showers and little of the heavy ones, so the season
      matters more than the build-up for how much rain a green roof holds back over a year.</p>
      <p>Retention was 80 percent in summer and 32 percent in winter over the monitoring year.</p>
    </article>
  </main>
  <aside class="sidebar"><h3>Related articles</h3><ul>
    <li><a href="/news/volunteer-day/">Join our spring volunteer day</a></li></ul></aside>
  <footer><p>Copyright Roof Knowledge Centre. Registered charity 123456.</p>
    <p><a href="/privacy/">Privacy policy</a></p></footer>
</body>
</html>
"""


def words(text: str) -> list[str]:
    # Underscores are Markdown markup (emphasis), so they do not join words here.
    return re.findall(r"[^\W_]+", text.lower())


def assert_spans_cover_text(source: str, doc: LoadedDocument) -> None:
    """Every block's text comes from its span: its words occur there, and spans run in reading order."""
    previous_end = 0
    for block in doc.blocks:
        assert block.page == 1 and block.span is not None
        raw = source[block.span.start : block.span.end]
        assert raw and raw == raw.rstrip(), block
        assert block.span.start >= previous_end, block
        # Substrings of the source without inline markup: stripping "`x`y" joins it into "xy".
        plain = re.sub(r"[`*_~\\]", "", raw).lower()
        missing = [word for word in words(block.text) if word not in plain]
        assert not missing, (missing, block.text, raw)
        previous_end = block.span.end


def kinds_and_texts(doc: LoadedDocument) -> list[tuple[BlockKind, str]]:
    return [(b.kind, b.text) for b in doc.blocks]


def test_markdown_blocks_have_the_right_kinds_and_clean_text():
    doc = load_markdown(MARKDOWN)
    assert kinds_and_texts(doc)[:13] == [
        (BlockKind.HEADING, "Rooftop Meadows in Lindenport"),
        (BlockKind.PARAGRAPH, "Published: 16 May 2023"),
        (BlockKind.HEADING, "Methods"),
        (
            BlockKind.PARAGRAPH,
            "We weighed the drainage tray every hour, see the protocol and tray.csv. The tray sat on a load cell.",
        ),
        (BlockKind.LIST, "Sedum mats on 80 mm of substrate"),
        (BlockKind.LIST, "Wildflower plugs with a second line"),
        (BlockKind.LIST, "1. Clear the outlets"),
        (BlockKind.LIST, "2. Weigh the tray"),
        (BlockKind.TABLE, "Season | Retention\nSummer | 80%\nWinter | 32%"),
        (BlockKind.PARAGRAPH, "Green roofs hold back most light showers."),
        (BlockKind.PARAGRAPH, "retention = 1 - runoff / rainfall"),
        (BlockKind.HEADING, "Results"),
        (BlockKind.PARAGRAPH, "Pollinator visits doubled in the second summer."),
    ]
    assert doc.title == "Rooftop Meadows in Lindenport"
    assert doc.year == 2023
    assert_spans_cover_text(MARKDOWN, doc)
    # The span is the raw source, markup included.
    table = next(b for b in doc.blocks if b.kind is BlockKind.TABLE)
    assert MARKDOWN[table.span.start : table.span.end].startswith("| Season | Retention |")
    assert MARKDOWN[table.span.start : table.span.end].endswith("| Winter | 32%       |")


def test_markdown_sections_and_references():
    doc = load_markdown(MARKDOWN)
    by_text = {b.text: b for b in doc.blocks}
    assert by_text["Methods"].section == "Methods"
    assert by_text["2. Weigh the tray"].section == "Methods"
    assert by_text["Pollinator visits doubled in the second summer."].section == "Results"
    references = [b for b in doc.blocks if b.kind is BlockKind.REFERENCE]
    assert [b.text for b in references] == [
        "Smith, J. (2020). Roofs and rain. Journal of Roofs.",
        "Jones, K. (2019). Gutters.",
    ]
    assert all(b.section == "References" for b in references)
    # A heading of the same level ends the References section.
    assert by_text["The raw data are in the appendix."].kind is BlockKind.PARAGRAPH


def test_markdown_front_matter_is_metadata_not_content():
    source = '---\ntitle: "Green Roof Field Notes"\ndate: 2021-04-03\n---\n\n# A heading\n\nBody text here.\n'
    doc = load_markdown(source)
    assert doc.title == "Green Roof Field Notes"
    assert doc.year == 2021
    assert kinds_and_texts(doc) == [(BlockKind.HEADING, "A heading"), (BlockKind.PARAGRAPH, "Body text here.")]
    assert source[doc.blocks[1].span.start : doc.blocks[1].span.end] == "Body text here."


def test_markdown_spans_index_text_with_windows_line_endings():
    source = MARKDOWN.replace("\n", "\r\n")
    doc = load_markdown(source)
    assert kinds_and_texts(doc) == kinds_and_texts(load_markdown(MARKDOWN))
    assert_spans_cover_text(source, doc)


@pytest.mark.parametrize(
    ("source", "title"),
    [
        ("### Only a small heading\n\nText.\n", "Only a small heading"),
        # Among the headings that open the page, the level-1 one.
        ("## Docs home\n\n# Rain Gauges\n\n## Setup\n\nText.\n", "Rain Gauges"),
        # Comments, rules, breadcrumbs and badges above the heading are not body text.
        ("<!-- source: https://x.org/a -->\n\n---\n\nDocs / Guides / Rain\n\n# Rain Gauges\n\nText.\n", "Rain Gauges"),
        ("[![build](https://x.org/b.svg)](https://x.org)\n\n# Rain Gauges\n\nText.\n", "Rain Gauges"),
        # A heading after body text names a part of the page; a "# " line deep down may be a code comment.
        ("## Notes\n\nText.\n\n# Later top heading\n", None),
        ("Examples\n\nThe following prompts fail:\nPython\n\n# Missing turn\nprompt = 'x'\n", None),
        # A generic section name opening the page is no title either.
        ("## Next steps\n\nRead the guide.\n", None),
        ("# 1. Introduction\n\nText.\n", None),
        ("Just text.\n", None),
    ],
)
def test_markdown_title_is_a_heading_that_opens_the_page(source: str, title: str | None):
    assert load_markdown(source).title == title


@pytest.mark.parametrize(
    ("source", "title"),
    [
        ("Rain Gauges on Green Roofs\n\nWe weighed the tray.\n", "Rain Gauges on Green Roofs"),
        ("Home / Guides / Rain\n\nRain Gauges on Green Roofs\n\nWe weighed the tray.\n", "Rain Gauges on Green Roofs"),
        # The text starts at a section of something longer: the file's name says more.
        ("Introduction\n\nWe weighed the tray.\n", None),
        ("Next steps\n\nWe weighed the tray.\n", None),
        # No heading opens the text: a later heading names a section, not the document.
        ("We weighed the tray every hour\nduring the storms.\n\nResults\n\nIt held water.\n", None),
    ],
)
def test_plain_text_title_is_its_opening_heading(source: str, title: str | None):
    assert load_text(source).title == title


@pytest.mark.parametrize(
    ("name", "title"),
    [
        ("en__docs__build-with-claude__tool-use.md", "Tool use"),
        ("green_roof_faq_2021.md", "Green roof faq 2021"),
        ("API-rate-limits.txt", "API rate limits"),
        ("iOS_setup.md", "iOS setup"),
        ("docs__guide__index.md", "Guide"),
        ("site/guide/index.md", "Guide"),
        ("site/guide/rain-gauges.md", "Rain gauges"),
        ("2020.acl-main.447.pdf", "2020.acl-main.447"),  # an identifier stays whole
    ],
)
def test_file_title(name: str, title: str):
    assert file_title(Path(name)) == title


def test_documents_without_a_title_are_named_after_their_file(tmp_path: Path):
    page = tmp_path / "en__docs__build-with-claude__tool-use.md"
    page.write_text("<!-- source: https://x.org -->\n\nHow tool use works\n\nCall a tool.\n\n# comment\n")
    assert parse_file(page).document.title == "Tool use"


@pytest.mark.parametrize(
    ("text", "year"),
    [
        ("Harborview Office\nPublished: 16 May 2023\n", 2023),
        ("Survey report, February 2016\n", 2016),
        ("© 2019 Green Roof Network\n", 2019),
        ("Updated 2021-06-08\n", 2021),
        # Report numbers and measurements are not years, and neither is a date inside prose.
        ("LABORATORY REPORT HL-2018-07\n\nThe rig held 2018 litres.\n", None),
        ("The candidate list of 2019\n", None),
        ("We study tweets " + "about the election " * 10 + "held in February 2016.\n", None),
    ],
)
def test_year_only_from_dates(text: str, year: int | None):
    assert find_year(text) == year


def test_plain_text_blocks_headings_and_sections():
    doc = load_text(PLAIN)
    assert doc.title == "Beta Notes on Rain Gauges"
    assert doc.year == 2018
    assert kinds_and_texts(doc) == [
        (BlockKind.HEADING, "Beta Notes on Rain Gauges"),
        (BlockKind.PARAGRAPH, "Owen B. Talley\nDate of issue: 19 November 2018"),  # short lines: real breaks
        (BlockKind.HEADING, "1. Method"),
        (
            BlockKind.PARAGRAPH,
            "We weighed the drainage tray every hour during eleven storms and logged the weight on a memory card.",
        ),
        (BlockKind.PARAGRAPH, "Key steps:"),
        (BlockKind.LIST, "Clear the outlets"),
        (BlockKind.LIST, "Weigh the tray"),
        (BlockKind.HEADING, "RESULTS"),
        (BlockKind.PARAGRAPH, "The tray retained most of the light showers and little of the heavy ones."),
        (BlockKind.CAPTION, "Table 1. Retention by season"),
        (BlockKind.TABLE, "Season | Rainfall (mm) | Retention\nSummer | 162 | 80%\nWinter | 196 | 32%"),
        (BlockKind.HEADING, "Discussion"),
        (BlockKind.PARAGRAPH, "Light showers matter most."),
        (BlockKind.HEADING, "References"),
        (BlockKind.REFERENCE, "Smith J, 2020, Roofs and gutters"),
        (BlockKind.REFERENCE, "[1] Jones K. Gutters. 2019."),
        (BlockKind.REFERENCE, "[2] Brown L. Pipes. 2018."),
    ]
    by_text = {b.text: b for b in doc.blocks}
    assert by_text["Weigh the tray"].section == "1. Method"
    assert by_text["Table 1. Retention by season"].section == "RESULTS"  # a caption is not a heading
    assert by_text["Light showers matter most."].section == "Discussion"
    assert_spans_cover_text(PLAIN, doc)
    # The span of a hard-wrapped paragraph covers its raw lines.
    wrapped = doc.blocks[3]
    assert PLAIN[wrapped.span.start : wrapped.span.end].count("\n") == 2


def test_text_with_markdown_headings_goes_to_the_markdown_loader():
    source = "# Alpha study\n\n## Results\n\nRooftop meadows reduced **peak** temperature.\n"
    assert load_text(source) == load_markdown(source)
    assert load_text(source).blocks[-1].text == "Rooftop meadows reduced peak temperature."


DOCS_PARAGRAPH = """Tool use requests are priced the same as any other API request, based on the total number of \
input tokens sent to the model (including in the tools parameter) and the number of output tokens generated.
The additional tokens from tool use come from:
The tools parameter in API requests (tool names, descriptions, and schemas)
tool_use content blocks in API requests and responses
"""

# README-style prose, with markup and a link that overruns the width once wrapped.
README_PROSE = (
    "The rig weighs the **drainage tray** every hour and logs the weight to a memory card, see "
    "[the protocol](https://example.org/protocols/drainage-tray-weighing-and-logging.html) for the "
    "details and `tray.csv` for a sample of the log. Storms larger than 20 mm saturate the substrate "
    "within an hour, after which the tray drains almost as fast as a bare roof would."
)


def wrapped(text: str, width: int) -> str:
    return textwrap.fill(text, width, break_long_words=False, break_on_hyphens=False) + "\n"


@pytest.mark.parametrize("load", [load_markdown, load_text])
def test_docs_lines_without_list_markup_keep_their_breaks(load):
    doc = load(DOCS_PARAGRAPH)
    (block,) = doc.blocks
    assert block.text.split("\n") == [
        "Tool use requests are priced the same as any other API request, based on the total number of input "
        "tokens sent to the model (including in the tools parameter) and the number of output tokens generated.",
        "The additional tokens from tool use come from:",
        "The tools parameter in API requests (tool names, descriptions, and schemas)",
        "tool_use content blocks in API requests and responses",
    ]
    assert_spans_cover_text(DOCS_PARAGRAPH, doc)
    assert DOCS_PARAGRAPH[block.span.start : block.span.end] == DOCS_PARAGRAPH.rstrip()


@pytest.mark.parametrize("width", [72, 80, 100])
def test_wrapped_prose_stays_one_line_of_text(width: int):
    (block,) = load_markdown(wrapped(README_PROSE, width)).blocks
    assert block.text == (
        "The rig weighs the drainage tray every hour and logs the weight to a memory card, see the protocol for "
        "the details and tray.csv for a sample of the log. Storms larger than 20 mm saturate the substrate within "
        "an hour, after which the tray drains almost as fast as a bare roof would."
    )
    (block,) = load_text(wrapped(block.text, width)).blocks
    assert "\n" not in block.text


def test_a_code_span_over_a_line_end_leaves_the_paragraph_as_prose():
    # The source's lines and the paragraph's breaks no longer line up: every break stays a space.
    (block,) = load_markdown("Run `pip\ninstall acme` first.\nThen run it:\nacme --help\n").blocks
    assert block.text == "Run pip install acme first. Then run it: acme --help"


@pytest.mark.shared
def test_qasper_papers_load_as_markdown():
    papers = shared_data("qasper-dev", "papers")
    questions = json.loads((papers.parent / "questions.json").read_text())
    paper_ids = sorted({q["paper_id"] for q in questions})[:40]
    found = total = 0
    for paper_id in paper_ids:
        source = (papers / f"{paper_id}.txt").read_text()
        doc = load_text(source)
        assert doc.title == source.splitlines()[0].removeprefix("# ").strip()
        headings = [b for b in doc.blocks if b.kind is BlockKind.HEADING]
        assert "Abstract" in [h.text for h in headings]
        assert not any(h.text.startswith("#") for h in headings)
        assert_spans_cover_text(source, doc)
        # Gold evidence paragraphs survive as block text (a few differ where Markdown reads LaTeX).
        texts = [b.text for b in doc.blocks]
        for question in (q for q in questions if q["paper_id"] == paper_id):
            for answer in question["answers"]:
                for evidence in answer["evidence"]:
                    if not evidence.startswith("FLOAT SELECTED"):
                        total += 1
                        found += any(evidence.strip() in t for t in texts)
    assert total > 50 and found / total >= 0.95, (found, total)


@pytest.mark.shared
def test_docs_pages_without_a_title_heading_are_named_after_their_file():
    # The docs-dev pages open with a section line ("Examples", "Next steps"), and some hold "# " code
    # comments further down: none of that names the page, its file name (from the page's URL) does.
    pages = sorted(shared_data("docs-dev", "docs").glob("*.md"))
    assert len(pages) >= 40
    for page in pages:
        assert parse_file(page).document.title == file_title(page), page.name


@pytest.mark.shared
def test_docs_pages_keep_their_real_line_breaks():
    page = shared_data("docs-dev", "docs", "en__docs__build-with-claude__tool-use.md")
    source = page.read_text()
    doc = load_markdown(source)
    block = next(b for b in doc.blocks if b.text.startswith("Tool use requests are priced"))
    assert "come from:\nThe tools parameter in API requests (tool names, descriptions, and schemas)\n" in block.text
    # The span still covers the source lines: the same text, line breaks and all.
    assert source[block.span.start : block.span.end] == block.text


def test_html_keeps_the_article_and_drops_the_boilerplate():
    doc = load_html(ARTICLE_HTML)
    assert doc.title == "Rain Gauges on Green Roofs"
    assert doc.year == 2021
    text = "\n".join(b.text for b in doc.blocks)
    for boilerplate in (
        "cookies",
        "Guides catalogue",
        "Contact the office",
        "volunteer day",
        "Privacy policy",
        "Registered charity",
    ):
        assert boilerplate not in text
    assert (BlockKind.HEADING, "Findings") in kinds_and_texts(doc)
    findings = next(b for b in doc.blocks if b.text.startswith("Retention was 80 percent"))
    assert findings.kind is BlockKind.PARAGRAPH and findings.section == "Findings"
    assert any(b.text.startswith("We weighed the drainage tray") for b in doc.blocks)


def test_html_without_markup_falls_back_to_plain_text():
    doc = load_html("Rain gauge notes\n\nThe tray retained most of the light showers.\n")
    assert kinds_and_texts(doc) == [
        (BlockKind.HEADING, "Rain gauge notes"),
        (BlockKind.PARAGRAPH, "The tray retained most of the light showers."),
    ]


@pytest.mark.parametrize(
    "html", ["<html><body></body></html>", "<html><body><script>var a = 1;</script></body></html>"]
)
def test_html_without_text_is_a_load_error(html: str):
    with pytest.raises(LoadError, match="no readable text in the HTML"):
        load_html(html)


def test_loaders_are_deterministic_and_offline(monkeypatch: pytest.MonkeyPatch):
    def no_network(*args, **kwargs):
        raise AssertionError("a loader tried to use the network")

    monkeypatch.setattr(socket, "create_connection", no_network)
    monkeypatch.setattr(socket, "getaddrinfo", no_network)
    monkeypatch.setattr(socket.socket, "connect", no_network)
    for load, source in ((load_html, ARTICLE_HTML), (load_markdown, MARKDOWN), (load_text, PLAIN)):
        assert load(source).model_dump() == load(source).model_dump()
