"""HTML loader: the page's main content, without navigation, headers, footers, sidebars or banners.

trafilatura finds the main content and renders it as Markdown, which ``load_markdown`` turns into
blocks. Block spans are therefore offsets into that Markdown rendering, not into the HTML source;
re-running the extraction on the same file reproduces the same text, because the extraction is
deterministic: it works on the string it is given, never fetches anything (no URL is passed, and a
string is never treated as one), keeps no state between calls (no deduplication cache), and the date
search has a fixed upper bound instead of "today".

The page's ``<meta>`` tags declare its authors, DOI and venue (``corpus.loaders.meta_tags``); a
field they leave empty comes from the content, as for Markdown (a byline under the title), and
authors last from the page's markup (``corpus.loaders.html_authors``: ``rel="author"``, a byline).

When trafilatura finds no main content, the visible text of ``<body>`` goes to the plain-text
loader instead, with the same span convention (offsets into that text).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import lxml.html
import trafilatura
from lxml import etree

from corpus.errors import LoadError
from corpus.loaders.html_authors import markup_authors
from corpus.loaders.markdown import load_markdown
from corpus.loaders.meta_tags import meta_tag_bibliography, meta_tags
from corpus.loaders.text import load_text
from corpus.loaders.titles import page_title
from corpus.models import Bibliography, LoadedDocument

# htmldate otherwise rejects dates after the current day, which makes the result depend on the clock.
_DATE_CONFIG = {"original_date": True, "extensive_search": True, "max_date": "2099-12-31"}
_ISO_YEAR = re.compile(r"^(19|20)\d\d(?=-)")

# For the fallback only: elements that are never the content, and elements that end a paragraph.
_NOT_CONTENT = "//script|//style|//noscript|//template|//nav|//footer|//aside|//form"
_BLOCK_TAGS = (
    "p",
    "div",
    "section",
    "article",
    "header",
    "main",
    "li",
    "tr",
    "table",
    "blockquote",
    "pre",
    "br",
    "ul",
    "ol",
    "dl",
    "dt",
    "dd",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
)


def load_html(html: str) -> LoadedDocument:
    loaded = html_content(html)
    # The metadata title comes from og:title, a single <h1> or <title>; trafilatura drops the site
    # name from a <title> but not from og:title, so page_title does it for every source.
    metadata = trafilatura.extract_metadata(html, date_config=_DATE_CONFIG)
    year = _ISO_YEAR.match(metadata.date or "")
    root = parse_html(html)
    title = page_title(metadata.title or loaded.title, metadata.sitename, _single_h1(root))
    return loaded.model_copy(
        update={
            "title": title or None,
            "year": int(year.group(0)) if year else loaded.year,
            "bibliography": _bibliography(meta_tags(root), loaded.bibliography, root),
        }
    )


def html_content(html: str) -> LoadedDocument:
    """The blocks of the page's main content (as Markdown), or of its visible text when it has none;
    metadata only as that content states it."""
    markdown = trafilatura.extract(
        html,
        output_format="markdown",
        include_tables=True,
        include_formatting=True,
        include_links=False,
        include_images=False,
        include_comments=False,  # reader comments are not the author's text
        favor_recall=True,
        deduplicate=False,
    )
    if markdown and markdown.strip():
        loaded = load_markdown(markdown)
    else:
        loaded = load_text(_body_text(html))
    if not any(block.text.strip() for block in loaded.blocks):
        raise LoadError("no readable text in the HTML")
    return loaded


def _bibliography(
    tags: dict[str, list[str]], from_text: Bibliography, root: lxml.html.HtmlElement | None
) -> Bibliography:
    """The meta tags' fields, each one they leave empty from the main content (a byline); authors
    last from the page's markup (``corpus.loaders.html_authors``)."""
    declared = meta_tag_bibliography(tags)
    return Bibliography(
        authors=declared.authors or from_text.authors or markup_authors(root),
        venue=declared.venue or from_text.venue,
        doi=declared.doi or from_text.doi,
        arxiv_id=declared.arxiv_id or from_text.arxiv_id,
    )


def _single_h1(root: lxml.html.HtmlElement | None) -> str | None:
    """The text of the page's only ``<h1>``, if it has exactly one."""
    headings = root.xpath("//h1") if root is not None else []
    return " ".join(headings[0].text_content().split()) if len(headings) == 1 else None


def parse_html(html: str) -> lxml.html.HtmlElement | None:
    try:
        # Bytes with an explicit encoding: lxml refuses str input that carries an XML declaration.
        return lxml.html.document_fromstring(
            html.encode("utf-8"), parser=lxml.html.HTMLParser(encoding="utf-8", huge_tree=True)
        )
    except (etree.ParserError, ValueError):
        return None


def _body_text(html: str) -> str:
    """The visible text of ``<body>``, one paragraph per block-level element."""
    root = parse_html(html)
    if root is None or root.body is None or not root.body.text_content().strip():
        # libxml2 drops what lies deeper than 2,048 elements (256 without huge_tree): a tokenizer
        # has no depth to run out of.
        return _tokenized_text(html)
    for element in root.xpath(_NOT_CONTENT):
        element.drop_tree()
    body = root.body
    for element in body.iter(*_BLOCK_TAGS):
        element.tail = "\n\n" + (element.tail or "")
    lines = (" ".join(line.split()) for line in body.text_content().splitlines())
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


class _TextCollector(HTMLParser):
    """Text outside scripts, styles and other non-content elements, a paragraph per block element."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in _SKIPPED_TAGS:
            self.skipping += 1
        elif tag in _BLOCK_TAGS:
            self.parts.append("\n\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED_TAGS:
            self.skipping = max(0, self.skipping - 1)
        elif tag in _BLOCK_TAGS:
            self.parts.append("\n\n")

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(data)


_SKIPPED_TAGS = frozenset({"script", "style", "noscript", "template", "nav", "footer", "aside", "form", "head"})


def _tokenized_text(html: str) -> str:
    collector = _TextCollector()
    collector.feed(html)
    collector.close()
    lines = (" ".join(line.split()) for line in "".join(collector.parts).splitlines())
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
