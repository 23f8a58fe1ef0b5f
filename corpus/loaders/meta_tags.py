"""The bibliography an HTML page declares in its ``<meta>`` tags.

Publishers' article pages carry Highwire Press tags (``citation_author``, one per author, with
``citation_doi``, ``citation_journal_title`` ...), which Google Scholar reads; other pages Dublin
Core (``DC.creator``) or a plain ``author`` tag. The first family of tags that names a person wins,
in that order; names are checked like any other (``corpus.loaders.authors``), so a tag that holds a
site's or a company's name gives no author.
"""

from __future__ import annotations

from collections.abc import Callable

import lxml.html

from corpus.loaders.authors import split_names
from corpus.loaders.identifiers import normalise_arxiv_id, normalise_doi
from corpus.models import Bibliography

_AUTHOR_TAGS = (("citation_author",), ("dc.creator", "dcterms.creator"), ("author",))
_VENUE_TAGS = ("citation_journal_title", "citation_conference_title", "citation_publisher", "dc.publisher")
_DOI_TAGS = ("citation_doi", "dc.identifier", "prism.doi")
_ARXIV_TAGS = ("citation_arxiv_id",)


def meta_tags(root: lxml.html.HtmlElement | None) -> dict[str, list[str]]:
    """The contents of the page's ``<meta name=...>`` tags by lower-cased name, in page order."""
    tags: dict[str, list[str]] = {}
    if root is None:
        return tags
    for meta in root.iter("meta"):
        name = (meta.get("name") or meta.get("property") or "").strip().lower()
        content = " ".join((meta.get("content") or "").split())
        if name and content:
            tags.setdefault(name, []).append(content)
    return tags


def meta_tag_bibliography(tags: dict[str, list[str]]) -> Bibliography:
    return Bibliography(
        authors=_authors(tags),
        venue=next((tags[name][0] for name in _VENUE_TAGS if name in tags), None),
        doi=_first_valid(tags, _DOI_TAGS, normalise_doi),
        arxiv_id=_first_valid(tags, _ARXIV_TAGS, normalise_arxiv_id),
    )


def _authors(tags: dict[str, list[str]]) -> list[str]:
    """The names of the first group of author tags that has any (the groups are in order of trust)."""
    authors: list[str] = []
    for names in _AUTHOR_TAGS:
        for value in (v for name in names for v in tags.get(name, [])):
            authors += [n for n in split_names(value) if n not in authors]
        if authors:
            break
    return authors


def _first_valid(
    tags: dict[str, list[str]], names: tuple[str, ...], normalise: Callable[[str], str | None]
) -> str | None:
    """The first value among the tags ``names`` that ``normalise`` accepts, normalised."""
    return next((found for name in names for v in tags.get(name, []) if (found := normalise(v))), None)
