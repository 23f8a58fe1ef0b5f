"""The blocks of an XHTML content document all of which is text (an EPUB chapter), element by element.

A web page goes through trafilatura to find its main content among navigation and banners; a book's
chapter has none of those, and on a short chapter trafilatura falls back to flat text, losing headings
and tables. So each element is read as what it is: ``h1``–``h6`` open sections (``corpus.loaders
.outline``), ``li`` items are list blocks, ``table`` a table block written as every loader writes one,
``caption``/``figcaption`` captions, an EPUB footnote or endnote (``epub:type``) a footnote; any other
element holding no block element is a paragraph. The caller parses the markup as the HTML loader
parses pages (``corpus.loaders.html.parse_html``).
"""

from __future__ import annotations

import lxml.html

from corpus.loaders.outline import Outline, table_text
from corpus.models import BlockKind

_HEADINGS = {f"h{level}": level for level in range(1, 7)}
_SKIPPED = frozenset({"head", "script", "style", "nav", "template", "noscript"})
_CAPTIONS = frozenset({"caption", "figcaption"})
_NOTE_TYPES = frozenset({"footnote", "endnote", "rearnote", "note"})
BLOCK_TAGS = frozenset(
    {"p", "div", "section", "article", "aside", "blockquote", "pre", "ul", "ol", "li", "dl", "dt", "dd"}
    | {"table", "figure", "header", "footer", "main", "body", *_HEADINGS, *_CAPTIONS}
)
# Elements nested deeper than this are read as one paragraph each: no recursion runs out of stack.
MAX_DEPTH = 100


def add_xhtml(outline: Outline, root: lxml.html.HtmlElement | None) -> None:
    """Add the blocks of the parsed document's body to ``outline``."""
    body = root.body if root is not None else None
    if body is not None:
        _element(outline, body, 0)


def first_heading(root: lxml.html.HtmlElement | None) -> str:
    found = root.xpath("//h1|//h2|//h3|//h4|//h5|//h6") if root is not None else []
    return " ".join(found[0].text_content().split()) if found else ""


def _element(outline: Outline, element: lxml.html.HtmlElement, depth: int) -> None:
    tag = element.tag if isinstance(element.tag, str) else ""
    if tag in _SKIPPED or not tag:
        return
    if tag in _HEADINGS:
        outline.heading(_HEADINGS[tag], element.text_content())
    elif tag == "table":
        outline.add(BlockKind.TABLE, table_text(_rows(element)))
    elif (kind := _whole_text_kind(tag, element)) is not None:
        outline.add(kind, _text(element))
    elif depth >= MAX_DEPTH or not _holds_blocks(element):
        outline.add(BlockKind.PARAGRAPH, _text(element))
    else:
        # Text between block elements is a paragraph of its own, between theirs.
        outline.add(BlockKind.PARAGRAPH, " ".join((element.text or "").split()))
        for child in element:
            _element(outline, child, depth + 1)
            outline.add(BlockKind.PARAGRAPH, " ".join((child.tail or "").split()))


def _whole_text_kind(tag: str, element: lxml.html.HtmlElement) -> BlockKind | None:
    """A caption, a note (by its EPUB or ARIA type) or a list item: one block of all its text."""
    if tag in _CAPTIONS:
        return BlockKind.CAPTION
    if _NOTE_TYPES & set((element.get("epub:type") or element.get("role", "").removeprefix("doc-")).split()):
        return BlockKind.FOOTNOTE
    if tag == "li":
        return BlockKind.LIST
    return None


def _holds_blocks(element: lxml.html.HtmlElement) -> bool:
    return any(isinstance(child.tag, str) and child.tag in BLOCK_TAGS for child in element.iterdescendants())


def _text(element: lxml.html.HtmlElement) -> str:
    return " ".join(element.text_content().split())


def _rows(table: lxml.html.HtmlElement) -> list[list[str]]:
    rows = []
    for tr in table.iter("tr"):
        cells: list[str] = []
        for cell in tr:
            if cell.tag in ("td", "th"):
                span = cell.get("colspan", "1")
                cells += [_text(cell)] + [""] * (min(int(span), 100) - 1 if span.isdigit() and int(span) > 1 else 0)
        rows.append(cells)
    return rows
