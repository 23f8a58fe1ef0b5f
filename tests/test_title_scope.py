"""Finding the documents a query names by title (pure: no index needed)."""

from __future__ import annotations

import pytest

from tools.title_scope import TitleIndex

INDEX = TitleIndex(
    [
        ("sparse", "Adaptively Sparse Transformers"),
        ("roofs", "Urban Green Roofs"),
        ("short", "Green Roofs"),  # 11 characters: too short to be taken for a title
        ("winter", "Urban Green Roofs in Winter: A Study"),
        ("notes", "Notes"),
        ("copy-a", "Equation Embeddings"),
        ("copy-b", "Equation Embeddings"),
    ]
)


@pytest.mark.parametrize(
    ("query", "doc_ids", "rest"),
    [
        ("Adaptively Sparse Transformers: which datasets do they use?", ["sparse"], "which datasets do they use?"),
        ("adaptively sparse TRANSFORMERS - which datasets?", ["sparse"], "which datasets?"),
        ("Which datasets does 'Adaptively Sparse Transformers' use?", ["sparse"], "Which datasets does use?"),
        ("In “Adaptively Sparse Transformers”, what is alpha?", ["sparse"], "In what is alpha?"),
        # The longer title is the one named, not the short title inside it.
        ("Urban Green Roofs in Winter: A Study — snow load", ["winter"], "snow load"),
        ("Urban green roofs: how much rain do they retain?", ["roofs"], "how much rain do they retain?"),
        # Two documents with the same title are both searched.
        ("Equation Embeddings: what is the corpus?", ["copy-a", "copy-b"], "what is the corpus?"),
    ],
)
def test_named_titles_scope_the_query(query: str, doc_ids: list[str], rest: str):
    scope = INDEX.scope(query)
    assert scope is not None and scope.doc_ids == doc_ids and scope.query == rest


@pytest.mark.parametrize(
    "query",
    [
        "green roofs in cities: cooling",  # part of a title is not a title; a short title never is
        "Notes: what do they say?",  # one-word titles are too likely to be ordinary words
        "Adaptively Sparse Transformers",  # nothing left to ask: search for the title itself
        "adaptively sparse transformersXL: what changes?",  # whole words only
        "How do urban green roofs compare with white roofs?",  # a title's words in a sentence name nothing
    ],
)
def test_queries_that_do_not_name_a_document(query: str):
    assert INDEX.scope(query) is None
