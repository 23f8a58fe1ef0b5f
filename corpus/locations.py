"""Where a citation is, in its document's own units: the one place a location is written.

A PDF's page, as printed ("p. 3"); a presentation's slide and a book's chapter, with the section it
opens ("slide 4 § Quarterly results", "ch. 2 § Rivers > Tributaries"); in a text without pages
(Markdown, HTML, plain text, Word, OpenDocument, LaTeX), whose blocks are all on "page 1", the
headings it sits under ("§ Installation > Linux"), or nothing when it sits under none. The report,
its exports, the chat, the REST API, MCP and the CLI all write locations through ``location`` (or
``unit``, where the section is shown apart), so they name the same place the same way.

An unknown kind (a citation stored before citations kept their document's kind) is located by page,
as it was then.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from corpus.models import DocType
from corpus.text import counted, page_label, page_range

# Formats whose page number is a unit of their own: (one, several).
_UNITS = {DocType.PPTX: ("slide", "slides"), DocType.EPUB: ("ch.", "chs.")}
# The name a loader gives a slide or chapter with no title of its own: the unit says it already.
_UNTITLED = {DocType.PPTX: "slide {}", DocType.EPUB: "chapter {}"}
# The units of a document's extent, for its description ("12 slides").
_EXTENT = {DocType.PDF: "page", DocType.PPTX: "slide", DocType.EPUB: "chapter"}
_PATH_SEPARATOR = " > "


def _key(heading: str) -> str:
    return " ".join(heading.split()).casefold()


def unit(kind: DocType | None, pages: Iterable[int]) -> str:
    """ "p. 3", "pp. 3–5", "slide 4", "slides 4–5", "ch. 2"; "" for a text without pages."""
    distinct = sorted(set(pages))
    if kind is None or kind is DocType.PDF:
        return page_label(distinct)
    if not distinct or kind not in _UNITS:
        return ""
    one, several = _UNITS[kind]
    return f"{one if len(distinct) == 1 else several} {page_range(distinct)}"


def heading_path(kind: DocType | None, page: int, section: str, parents: Sequence[str] = (), title: str = "") -> str:
    """The headings a block sits under, outermost first, joined by " > ": without the document's own
    title (a Markdown file's first heading is its title, over every section) and without the name a
    loader gave an untitled slide or chapter ("Slide 4")."""
    skip = {_key(title)} if title else set()
    if kind in _UNTITLED:
        skip.add(_UNTITLED[kind].format(page))
    headings: list[str] = []
    for heading in (" ".join(h.split()) for h in (*parents, section)):
        if heading and _key(heading) not in skip and (not headings or _key(headings[-1]) != _key(heading)):
            headings.append(heading)
    return _PATH_SEPARATOR.join(headings)


def location(
    kind: DocType | None,
    pages: Iterable[int],
    section: str = "",
    parents: Sequence[str] = (),
    title: str = "",
) -> str:
    """Where a block (or two adjacent ones) is: its unit, and where a page does not say it all, the
    section: "p. 3", "slide 4 § Quarterly results", "ch. 2 § Rivers", "§ Installation > Linux", ""."""
    distinct = sorted(set(pages))
    where = unit(kind, distinct)
    if kind is None or kind is DocType.PDF or len(distinct) != 1:
        return where  # a page locates a PDF's block; a span of slides or chapters has no one section
    path = heading_path(kind, distinct[0], section, parents, title)
    return " ".join(part for part in (where, f"\u00a7 {path}" if path else "") if part)


def extent(kind: DocType, count: int) -> str:
    """A document's length in its units ("12 pages", "1 slide", "3 chapters"); "" for a text without pages."""
    name = _EXTENT.get(kind)
    return counted(count, name) if name else ""
