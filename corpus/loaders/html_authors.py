"""The authors a web page shows in its markup when its ``<meta>`` tags name none: a link marked
``rel="author"`` (WordPress, hAtom), an element whose class or ``itemprop`` says byline or author,
or a byline paragraph anywhere in the page ("Posted by Alon Zakai.", at the foot of a blog post),
in that order of trust.

Comment threads are skipped (a commenter is a reader, not the author), and so are the page's
navigation and scripts; names are checked like any other (``corpus.loaders.authors``), so "Written
by Rob Ewaschuk" / "Edited by Betsy Beyer" gives the writer alone.
"""

from __future__ import annotations

import re

import lxml.html

from corpus.loaders.authors import MAX_BYLINE_CHARS, byline_authors, explicit_byline, split_names

# Classes and ids of comment threads and of what never holds the article's byline.
_SKIPPED = re.compile(r"comment|repl(?:y|ies)|respon[sd]|discuss|related|sidebar|widget", re.IGNORECASE)
_REL_AUTHOR = '//a[contains(concat(" ", normalize-space(@rel), " "), " author ")]'
_BYLINE_ELEMENTS = (
    '//*[contains(concat(" ", normalize-space(@class), " "), " byline ")'
    ' or contains(concat(" ", normalize-space(@class), " "), " author ")'
    ' or contains(concat(" ", normalize-space(@class), " "), " authors ")'
    ' or @itemprop="author"]'
)
_PARAGRAPHS = "//p|//address|//footer|//span|//div[not(.//p) and not(.//div)]"
# What breaks an element's text into lines.
_LINE_BREAKS = frozenset({"br", "p", "div", "li", "dd", "dt", "address"})


def markup_authors(root: lxml.html.HtmlElement | None) -> list[str]:
    if root is None:
        return []
    for element in root.xpath(_REL_AUTHOR):
        if not _skipped(element) and (names := split_names(element.text_content())):
            return _with_others(names, root)
    for element in root.xpath(_BYLINE_ELEMENTS):
        if not _skipped(element) and (names := byline_authors(_lines(element))):
            return names
    for element in root.xpath(_PARAGRAPHS):
        text = " ".join(element.text_content().split())
        if len(text) <= MAX_BYLINE_CHARS and not _skipped(element) and (names := explicit_byline(text)):
            return names
    return []


def _with_others(names: list[str], root: lxml.html.HtmlElement) -> list[str]:
    """``names`` and the other authors linked with ``rel="author"`` outside comments, in page order."""
    for element in root.xpath(_REL_AUTHOR):
        if not _skipped(element):
            names += [n for n in split_names(element.text_content()) if n not in names]
    return names


def _skipped(element: lxml.html.HtmlElement) -> bool:
    """Whether ``element`` sits in a comment thread, the navigation, a sidebar or a script."""
    for node in (element, *element.iterancestors()):
        if not isinstance(node.tag, str) or node.tag in ("nav", "aside", "script", "style", "template"):
            return True
        if _SKIPPED.search(f"{node.get('class') or ''} {node.get('id') or ''}"):
            return True
    return False


def _lines(element: lxml.html.HtmlElement) -> list[str]:
    """The element's text, a line per ``<br>`` or block element inside it."""
    parts: list[str] = []
    for node in element.xpath(".//text() | .//*"):
        if isinstance(node, str):
            parts.append(node)
        elif node.tag in _LINE_BREAKS:
            parts.append("\n")
    return [line for line in (" ".join(p.split()) for p in "".join(parts).split("\n")) if line]
