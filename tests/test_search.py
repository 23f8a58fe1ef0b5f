"""Hybrid retrieval over the sample corpus: known queries, modes, filters and the LangChain tool."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest

from corpus.models import DocType
from corpus.retrieval import SearchFilters, SearchMode
from tools.hybrid_search import hybrid_search, make_hybrid_search_tool

KNOWN_QUERIES = [
    ("spider species found on green roofs", "biodiversity_survey_2016.txt"),
    ("peak membrane temperature compared with a black bitumen roof", "roof_temperature_energy_2017.pdf"),
    ("annual rainfall retention measured on a green roof test rig", "test_rig_retention_report_2018.txt"),
    ("pedestrian-level air temperature reduction from city-wide roof greening", "harborview_cooling_model_2022.pdf"),
    ("Green Crown programme target of 40 hectares of green roofs by 2030", "riverton_green_crown_news_2024.html"),
    (
        "drought survival of sedum versus grass-forb mixtures at different substrate depths",
        "substrate_plant_drought_2021.pdf",
    ),
    (
        "saturated weight and structural reserve capacity when retrofitting post-war flat roofs",
        "retrofit_structural_loads_2024.pdf",
    ),
    ("routine maintenance and irrigation of established green roofs", "maintenance_irrigation_guide_2020.md"),
]


def doc_name(library, doc_id: str) -> str:
    return Path(library.registry.document(doc_id).path).name


@pytest.mark.parametrize(("query", "expected"), KNOWN_QUERIES)
def test_hybrid_returns_the_expected_document_first(sample_library, query: str, expected: str):
    results = hybrid_search(sample_library, query, k=5)
    assert doc_name(sample_library, results[0].doc_id) == expected


def test_results_carry_blocks_pages_bboxes_and_titles(sample_library):
    results = hybrid_search(sample_library, "peak membrane temperature of a bitumen roof", k=5)
    assert [r.rank for r in results] == list(range(1, len(results) + 1))
    assert all(a.score >= b.score for a, b in pairwise(results))
    pdf_hit = next(r for r in results if r.doc_type is DocType.PDF)
    assert pdf_hit.title and pdf_hit.blocks
    for block in pdf_hit.blocks:
        assert block.bbox is not None and block.page in pdf_hit.pages
    text_hit = hybrid_search(sample_library, "spider species found on green roofs", k=1)[0]
    assert all(b.span is not None for b in text_hit.blocks)


@pytest.mark.parametrize("mode", list(SearchMode))
def test_every_mode_finds_a_distinctive_document(sample_library, mode: SearchMode):
    results = hybrid_search(sample_library, "spider species found on green roofs", k=3, mode=mode)
    assert doc_name(sample_library, results[0].doc_id) == "biodiversity_survey_2016.txt"


def test_filters(sample_library):
    docs = {Path(d.path).name: d for d in sample_library.registry.documents()}
    only = docs["hydrology_review_2019.pdf"].doc_id
    results = hybrid_search(sample_library, "green roof temperature", k=10, filters=SearchFilters(doc_ids=[only]))
    assert results and {r.doc_id for r in results} == {only}

    recent = hybrid_search(sample_library, "green roofs", k=20, filters=SearchFilters(year_min=2022))
    assert recent and all(r.year is not None and r.year >= 2022 for r in recent)

    old = hybrid_search(sample_library, "green roofs", k=20, filters=SearchFilters(year_max=2018))
    assert old and all(r.year <= 2018 for r in old)

    html = hybrid_search(sample_library, "green roofs", k=20, filters=SearchFilters(types=[DocType.HTML]))
    assert html and all(r.doc_type is DocType.HTML for r in html)


def test_reference_sections_are_left_out_unless_asked(sample_library):
    default = hybrid_search(sample_library, "Journal of references et al. proceedings", k=30)
    assert all(not any(b.kind.value == "reference" for b in r.blocks) for r in default)
    with_refs = hybrid_search(
        sample_library, "Journal of references et al. proceedings", k=30, filters=SearchFilters(include_references=True)
    )
    assert any(b.kind.value == "reference" for r in with_refs for b in r.blocks)


def test_stopword_only_and_empty_queries(sample_library):
    assert hybrid_search(sample_library, "   ", k=5) == []
    assert hybrid_search(sample_library, "the of and", k=5, mode=SearchMode.SPARSE) == []
    assert hybrid_search(sample_library, "the of and", k=3)  # dense still answers


def test_langchain_tool(sample_library):
    tool = make_hybrid_search_tool(sample_library)
    assert tool.name == "hybrid_search"
    out = tool.invoke({"query": "spider species found on green roofs", "k": 2})
    assert len(out) == 2 and out[0]["blocks"][0]["block_id"]
    assert doc_name(sample_library, out[0]["doc_id"]) == "biodiversity_survey_2016.txt"


@pytest.mark.parametrize("mode", list(SearchMode))
def test_a_query_naming_a_document_searches_that_document(sample_library, mode: SearchMode):
    docs = {Path(d.path).name: d for d in sample_library.registry.documents()}
    named = docs["hydrology_review_2019.pdf"]
    query = f"{named.title.upper()}: how much do green roofs cool the street?"  # case does not matter
    scoped = hybrid_search(sample_library, query, k=10, mode=mode)
    assert scoped and {r.doc_id for r in scoped} == {named.doc_id}
    everywhere = hybrid_search(
        sample_library, query, k=30, mode=mode, filters=SearchFilters(scope_to_named_documents=False)
    )
    assert len({r.doc_id for r in everywhere}) > 1
    # Explicit document filters win over a title in the query.
    other = docs["harborview_cooling_model_2022.pdf"].doc_id
    chosen = hybrid_search(sample_library, query, k=5, mode=mode, filters=SearchFilters(doc_ids=[other]))
    assert {r.doc_id for r in chosen} == {other}


def test_cli_search_says_which_document_it_searched(sample_library, capsys):
    from ui.cli.documents import search
    from ui.cli.parser import build_parser
    from ui.core.local import LocalPortal

    title = next(d.title for d in sample_library.registry.documents() if d.path.endswith("hydrology_review_2019.pdf"))
    with LocalPortal(sample_library) as portal:
        search(portal, build_parser().parse_args(["search", f"{title}: peak flow", "--k", "2"]))
    assert f"searching {title} for: peak flow" in capsys.readouterr().out
