"""Exact identifiers in hybrid search (issue 48): a query holding a DOI, an ISBN, a product code, a
phone number, a hex id, a date or an invoice number finds the document holding that identifier first,
never a look-alike a digit or two away that the dense model ranks as near. The library is generated
(``testing_support.identifier_corpus``: 12 look-alike records per kind); Qdrant and fastembed are real."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from config import EmbeddingSettings, Settings, StorageSettings
from corpus.library import Library
from corpus.retrieval import SearchMode
from testing_support.identifier_corpus import KINDS, PER_KIND, IdentifierRecord, identifier_corpus
from tools.hybrid_search import hybrid_search
from tools.identifiers import holds, holds_lookalike, query_identifiers


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[IdentifierRecord]]:
    folder = tmp_path_factory.mktemp("identifiers") / "docs"
    return folder, identifier_corpus(folder)


@pytest.fixture(scope="module")
def library(records, tmp_path_factory, models_dir, embedder) -> Iterator[Library]:
    settings = Settings(
        storage=StorageSettings(data_dir=tmp_path_factory.mktemp("identifier-library")),
        embeddings=EmbeddingSettings(models_path=models_dir),
    )
    library = Library(settings, embedder=embedder)
    summary = library.ingest([records[0]])
    assert [f.path for f in summary.files if f.outcome.value != "ok"] == []
    yield library
    library.close()


def _first(library: Library, query: str) -> str | None:
    results = hybrid_search(library, query, k=5, mode=SearchMode.HYBRID)
    return Path(library.registry.document(results[0].doc_id).path).name if results else None


@pytest.mark.parametrize("kind", KINDS)
def test_hybrid_search_finds_every_identifier_first(library, records, kind):
    of_kind = [r for r in records[1] if r.kind == kind]
    assert len(of_kind) == PER_KIND
    # As the document writes it, and as a user may type it (spaces for hyphens, another case, dots).
    for query in ("identifier", "typed"):
        missed = [getattr(r, query) for r in of_kind if _first(library, getattr(r, query)) != r.file_name]
        assert missed == [], f"{kind} ({query}): {len(of_kind) - len(missed)}/{PER_KIND} first"


@pytest.mark.parametrize("kind", KINDS)
def test_an_identifier_inside_a_question_is_found_first(library, records, kind):
    missed = [
        r.identifier
        for r in records[1]
        if r.kind == kind and _first(library, f"Which record holds {r.identifier}?") != r.file_name
    ]
    assert missed == []


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("What is the amount on invoice 1081?", ["1081"]),
        ("+1 (415) 555-0142", ["1 415 555-0142"]),
        ("Where is GRM-48213-BK stocked?", ["GRM-48213-BK"]),
        ("doi:10.2377/j.envres.2019.385129.", ["10.2377/j.envres.2019.385129"]),
        # A measure, a name with two digits, a number of days: words of the question, no identifiers.
        ("How much PM10 do plants at 80 mm capture after a 35-day drought?", []),
    ],
)
def test_identifiers_of_a_query(query, expected):
    assert query_identifiers(query) == expected


@pytest.mark.parametrize(
    ("text", "identifier", "held"),
    [
        ("Invoice 1081 Amount due: 5405.29 EUR", "1081", True),
        ("Amount due: 10.81 EUR", "1081", False),  # a short identifier is never split where the query did not
        ("Invoice 10812", "1081", False),
        ("Part 1081-2", "1081", False),
        ("ISBN 978-1-86197-271-2 (paperback)", "978 1 86197 271 2", True),
        ("ISBN 978-1-86197-271-2 (paperback)", "9781861972712", True),
        ("ISBN 978-1-86197-271-2 (paperback)", "9781861972719", False),
        ("Call +1 (415) 555-0142 today.", "+1 415 555 0142", True),
        ("https://doi.org/10.2377/j.envres.2019.385129", "10.2377/J.ENVRES.2019.385129", True),
        ("on 2021-03-14.", "2021.03.14", True),
    ],
)
def test_an_identifier_is_held_exactly(text, identifier, held):
    assert holds(text, identifier) is held


def test_a_look_alike_is_another_record():
    assert holds_lookalike("took place on 2021-03-15.", "2021-03-14")
    assert not holds_lookalike("took place on 2021-03-14.", "2021-03-14")
    assert holds_lookalike("took place on 2034-03-10.", "2021-03-14")
    assert holds_lookalike("Item GRM-48217-BK", "GRM-48213-BK")
    assert holds_lookalike("in 2019", "2022")
    assert not holds_lookalike("costs 1500 EUR", "2022")  # a year and a price share only a shape
