"""A chunk's title field: the words that name where it sits, indexed apart from its text.

A reader names a page by its title or its URL and a passage by its heading; in the body's BM25 those
words are a few among hundreds and count for little, so each point also carries a sparse BM25 vector
of its document's title, its URL's path and its section's heading path (``corpus.index.schema.TITLE``),
searched as a ranking of its own and fused with the body's (``tools.retrievers``).

A title suffix every page of a site repeats ("… - Acme Router") needs no list to be ignored: the
field's vector is weighted by the engine's IDF over the live collection, like the body's, so a term in
the title field of most points weighs next to nothing, and the retriever counts a title match only
when its score says a rarer term matched (``tools.retrievers.MIN_TITLE_SCORE``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import PurePosixPath
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

from qdrant_client import models

from corpus.index import schema
from corpus.loaders.titles import repeats_title
from corpus.models import Document

if TYPE_CHECKING:
    from corpus.embeddings import Embedder

# URL path segments that name no page: a site's language and a folder's index file.
_NO_NAME = frozenset({"en", "index", "docs", "doc", "html", "htm"})


def url_words(url: str | None) -> str:
    """The words of a URL's path ("https://x.example/en/docs/what-is-x.html" -> "what is x"), host
    and file extension left out."""
    if not url:
        return ""
    path = PurePosixPath(unquote(urlsplit(url).path))
    words = re.split(r"[\W_]+", str(path.with_suffix("") if path.suffix else path))
    return " ".join(w for w in words if w and w.lower() not in _NO_NAME)


def field_text(document: Document, headings: Sequence[str]) -> str:
    """The title field of a chunk of ``document`` under ``headings`` (the headings its section sits
    under, then its own): title, URL path words, heading path. A heading above the section that repeats
    the title or a part of it (a page's level-1 heading) is left out: it would count the title's words
    twice."""
    *parents, section = headings or [""]
    path = [h for h in parents if not repeats_title(h, document.title)]
    parts = [document.title, url_words(document.bibliography.url), *path, section]
    return "\n".join(p for p in parts if p)


def title_vectors(
    embedder: Embedder, document: Document, headings: Sequence[Sequence[str]]
) -> list[models.SparseVector]:
    """The title field's BM25 vector for each chunk's ``headings`` (``schema.headings``), each distinct
    field embedded once."""
    texts = [field_text(document, h) for h in headings]
    distinct = sorted(set(texts))
    vectors = dict(zip(distinct, embedder.embed_sparse_passages(distinct), strict=True))
    return [schema.sparse_vector(vectors[t]) for t in texts]
