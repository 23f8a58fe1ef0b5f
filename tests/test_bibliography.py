"""Bibliographic metadata at ingest: names, identifiers and venues (units), the text formats' front
matter, bylines and meta tags, and the PDF extractor measured on the 13 PDFs at hand.

The expected values for the PDFs were read by hand off each first page (pdfplumber's text of page
1 and the arXiv side stamp): the 8 shared papers (skipped without ../shared) and the 5 sample ones.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from fpdf import FPDF

from corpus.loaders.authors import (
    byline_authors,
    family_name,
    family_names,
    is_person_name,
    metadata_authors,
    name_case,
    split_names,
)
from corpus.loaders.front_matter import parse_fields
from corpus.loaders.html import load_html
from corpus.loaders.identifiers import find_arxiv_id, find_doi, normalise_arxiv_id, normalise_doi
from corpus.loaders.markdown import load_markdown
from corpus.loaders.pdf import load_pdf
from corpus.loaders.text import load_text
from corpus.loaders.venues import find_venue
from corpus.models import LoadedDocument
from corpus.parsing import parse_file

from .loaded_pdfs import loaded_pdf
from .paths import SAMPLE_DOCS, SHARED

# ---------------------------------------------------------------------------------------------
# Names


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Kyle Lo ; Lucy Lu Wang ; Daniel Weld", ["Kyle Lo", "Lucy Lu Wang", "Daniel Weld"]),
        (
            "Daniel O. Whitcombe, Leila Farahani, Jonas P. Strand",
            ["Daniel O. Whitcombe", "Leila Farahani", "Jonas P. Strand"],
        ),
        ("A. Chang, Amy X. Zhang, and Daniel S. Weld", ["A. Chang", "Amy X. Zhang", "Daniel S. Weld"]),
        ("Lucia Fernhill & Gregor Abernathy", ["Lucia Fernhill", "Gregor Abernathy"]),
        ("Lo, Kyle and Wang, Lucy Lu", ["Kyle Lo", "Lucy Lu Wang"]),
        ("Lo, Kyle; Wang, Lucy Lu", ["Kyle Lo", "Lucy Lu Wang"]),
        ("Weld, Daniel S.", ["Daniel S. Weld"]),
        ("Miriam K. Halvorsen*, Tobias R. Aldana†", ["Miriam K. Halvorsen", "Tobias R. Aldana"]),
        ("TAL AUGUST, University of Washington, USA", ["Tal August"]),
        ("Ludwig van Beethoven and Ana de la Cruz", ["Ludwig van Beethoven", "Ana de la Cruz"]),
        ("Kofi Mensah-Darko, Kofi Mensah-Darko", ["Kofi Mensah-Darko"]),
    ],
)
def test_split_names(text: str, names: list[str]) -> None:
    assert split_names(text) == names


@pytest.mark.parametrize(
    "text",
    ["Amy X. Zhang", "Hui Lin Tan", "MARTI A. HEARST", "Rosalind A. Achterberg", "Ana de la Cruz", "Seán O’Brien"],
)
def test_person_names(text: str) -> None:
    assert is_person_name(text)


@pytest.mark.parametrize(
    "text",
    [
        "Allen Institute for AI",
        "University of Washington",
        "Seattle",
        "Microsoft Office User",
        "GRPN Technical Group",
        "Kyle",
        "X. Zhang S.",
        "Smith J",
        "A Systematic Review",
        "Proceedings of ACL",
        "kyle lo",
        "Kyle Lo 2020",
        "head@seas.upenn.edu",
    ],
)
def test_not_person_names(text: str) -> None:
    assert not is_person_name(text)


@pytest.mark.parametrize(
    ("raw", "names"),
    [
        ("Kyle Lo ; Lucy Lu Wang", ["Kyle Lo", "Lucy Lu Wang"]),
        ("Whitcombe, Daniel O.", ["Daniel O. Whitcombe"]),
        ("Microsoft Office User", []),
        ("admin", []),
        ("Administrator", []),
        ("Acme Corporation", []),
        ("LaTeX with hyperref", []),
        ("Kyle Lo; admin", []),  # a list with one placeholder in it is not trusted at all
        ("Published 16 May 2023", []),
        ("", []),
    ],
)
def test_metadata_author_sanity_check(raw: str, names: list[str]) -> None:
    assert metadata_authors(raw) == names


def test_family_names_and_case() -> None:
    assert family_names(["Daniel S. Weld", "Joseph Chee Chang", "Ludwig van Beethoven", "Martin Luther King Jr."]) == [
        "Weld",
        "Chang",
        "van Beethoven",
        "King",
    ]
    assert family_name("Lo, Kyle") == "Lo"
    assert name_case("MARTI A. HEARST") == "Marti A. Hearst"
    assert name_case("Kofi Mensah-Darko") == "Kofi Mensah-Darko"


def test_byline_authors() -> None:
    assert byline_authors(["By Jane Doe and John Roe"]) == ["Jane Doe", "John Roe"]
    assert byline_authors(["Survey report", "Clara M. Oduya (1) and Peter J. Lindqvist (2)"]) == [
        "Clara M. Oduya",
        "Peter J. Lindqvist",
    ]
    # A title that happens to hold a name-shaped phrase, and a date line: no byline.
    assert byline_authors(["Rainfall Retention and Runoff Attenuation of a Test Rig", "Published: 16 May 2023"]) == []
    assert byline_authors(["By 2030 the city plans forty hectares"]) == []


# ---------------------------------------------------------------------------------------------
# Identifiers and venues


@pytest.mark.parametrize(
    ("raw", "doi"),
    [
        ("https://doi.org/10.1145/3544548.3580847", "10.1145/3544548.3580847"),
        ("doi:10.18653/v1/2020.acl-main.447.", "10.18653/v1/2020.acl-main.447"),
        ("(DOI: 10.1000/ABC.def);", "10.1000/abc.def"),
        ("see 10.1016/S0140-6736(20)30183-5, table 2", "10.1016/s0140-6736(20)30183-5"),
        ("version 10.2 of the tool", None),
        ("10.1234/", None),
    ],
)
def test_doi(raw: str, doi: str | None) -> None:
    assert normalise_doi(raw) == doi


@pytest.mark.parametrize(
    ("text", "arxiv_id"),
    [
        ("arXiv:2203.00130v1 [cs.HC] 28 Feb 2022", "2203.00130v1"),
        ("2202 luJ 22 ]LC.sc[ 3v38801.6022:viXra", "2206.10883v3"),  # the side stamp, read reversed
        ("Preprint at https://arxiv.org/abs/hep-th/9901001v2.", "hep-th/9901001v2"),
        ("arXiv: math.AG/0601001", "math.AG/0601001"),
        ("arXiv:1501.00001", "1501.00001"),
        ("Table 2203.00130 shows", None),  # a bare number is not an identifier
    ],
)
def test_arxiv_id(text: str, arxiv_id: str | None) -> None:
    assert find_arxiv_id([text]) == arxiv_id


def test_declared_arxiv_id() -> None:
    assert normalise_arxiv_id("2101.01234") == "2101.01234"
    assert normalise_arxiv_id("hep-th/9901001") == "hep-th/9901001"
    assert normalise_arxiv_id("https://arxiv.org/pdf/2101.01234v2") == "2101.01234v2"
    assert normalise_arxiv_id("soon") is None


@pytest.mark.parametrize(
    ("text", "venue"),
    [
        (
            "Proceedings of the 58th Annual Meeting of the Association for Computational Linguistics, pages 4969–4983",
            "Proceedings of the 58th Annual Meeting of the Association for Computational Linguistics",
        ),
        (
            "Weld. 2023. CiteSee. In Proceedings of the 2023 CHI Conference on Human Factors (CHI ’23), April",
            "Proceedings of the 2023 CHI Conference on Human Factors",
        ),
        ("Urban Climate Dynamics - Vol. 8 (2022), pp. 45-58", "Urban Climate Dynamics"),
        (
            "IEEE Transactions on Pattern Analysis and Machine Intelligence, 42(3)",
            "IEEE Transactions on Pattern Analysis and Machine Intelligence",
        ),
        ("Building Retrofit Technical Notes - TN-14 (2024)", "Building Retrofit Technical Notes"),
        ("Page 1 of 2", None),
        ("A Systematic Review of Roof Greening", None),
        ("We thank the reviewers of the conference for their comments.", None),
    ],
)
def test_venue(text: str, venue: str | None) -> None:
    assert find_venue([text]) == venue


def test_long_text_is_searched_in_linear_time() -> None:
    """Page 1 of a hostile PDF can be one block of many thousand capitalised words."""
    started = time.monotonic()
    assert find_venue(["A " * 20000, "Journal " * 20000]) is None
    assert split_names("Kyle Lo, " * 5000) == ["Kyle Lo"]
    assert find_doi(["10." * 20000]) is None
    assert time.monotonic() - started < 2


# ---------------------------------------------------------------------------------------------
# Text formats: front matter, bylines, meta tags


def test_front_matter_lists() -> None:
    fields = parse_fields("title: A\nauthors:\n  - Jane Doe\n  - 'John Roe'\ntags: [x, y]\n")
    assert fields == {"title": "A", "authors": "Jane Doe; John Roe", "tags": "x; y"}


def test_markdown_front_matter_bibliography() -> None:
    text = (
        "---\ntitle: Roofs\nauthor: [Jane Doe, John Roe]\ndate: 2021-03-01\ndoi: https://doi.org/10.1000/XYZ.1\n"
        "journal: Urban Roofs\narxiv: 2101.01234v2\n---\n# Roofs\n\nBody text.\n"
    )
    loaded = load_markdown(text)
    assert loaded.year == 2021
    bib = loaded.bibliography
    assert (bib.authors, bib.doi, bib.venue, bib.arxiv_id) == (
        ["Jane Doe", "John Roe"],
        "10.1000/xyz.1",
        "Urban Roofs",
        "2101.01234v2",
    )


def test_markdown_and_text_bylines() -> None:
    markdown = load_markdown(
        "# Guidelines\n\n*Authors: Lucia Fernhill and Gregor Abernathy, GRPN Technical Committee*\n\nText.\n"
    )
    assert markdown.bibliography.authors == ["Lucia Fernhill", "Gregor Abernathy"]
    text = load_text(
        "Carbon Uptake on Roofs\n\nIngrid S. Novak, Rafael Quintero-Mills and Yusuf Adebayo-Clarke\n\nBody.\n"
    )
    assert text.bibliography.authors == ["Ingrid S. Novak", "Rafael Quintero-Mills", "Yusuf Adebayo-Clarke"]
    # A title that is a person's name is not its own author.
    assert load_text("Ada Lovelace\n\nA life in letters, told by those who knew her.\n").bibliography.authors == []


def test_html_meta_tags() -> None:
    html = (
        "<html><head><title>Green roofs</title>"
        '<meta name="citation_author" content="Doe, Jane"><meta name="citation_author" content="John Roe">'
        '<meta name="author" content="Example Press"><meta name="citation_doi" content="10.1000/Roof.7">'
        '<meta name="citation_journal_title" content="Urban Roofs"></head>'
        "<body><article><h1>Green roofs</h1><p>By Someone Else</p>"
        "<p>Green roofs retain rainfall and cool the street below them in summer.</p></article></body></html>"
    )
    bib = load_html(html).bibliography
    assert (bib.authors, bib.doi, bib.venue) == (["Jane Doe", "John Roe"], "10.1000/roof.7", "Urban Roofs")


def test_html_author_tag_that_is_no_person() -> None:
    html = (
        '<html><head><title>FAQ</title><meta name="author" content="Green Roof Knowledge Centre"></head>'
        "<body><article><h1>FAQ</h1><p>Green roofs retain rainfall and cool the street below them.</p>"
        "</article></body></html>"
    )
    assert load_html(html).bibliography.authors == []


def test_bibliography_reaches_the_parsed_document() -> None:
    document = parse_file(SAMPLE_DOCS / "riverton_green_crown_news_2024.html").document
    assert document.bibliography.authors == ["Aisha Delacroix"]


# ---------------------------------------------------------------------------------------------
# The 13 PDFs at hand, checked by hand


@dataclass(frozen=True)
class Expected:
    path: Path
    families: frozenset[str]  # the authors' family names; empty where the document names none
    year: int
    doi: str | None = None
    arxiv_id: str | None = None
    venue: str | None = None
    year_miss: str = ""  # why the extractor gets the year wrong, when it does (an xfail)


SHARED_PDFS = SHARED / "data" / "pdfs"
ACL = "Association for Computational Linguistics"
EXPECTED = [
    Expected(
        SHARED_PDFS / "1903.10676.pdf",
        frozenset(),  # a single page that is one table: no title, no authors
        2019,
        year_miss="a page re-printed in 2021 (its CreationDate) that states no year of its own; the paper is from 2019",
    ),
    Expected(
        SHARED_PDFS / "2020.acl-main.447.pdf",
        frozenset({"Lo", "Wang", "Neumann", "Kinney", "Weld"}),
        2020,
        venue=f"Proceedings of the 58th Annual Meeting of the {ACL}",
    ),
    Expected(
        SHARED_PDFS / "2023.eacl-main.121.pdf",
        frozenset({"Krishna", "Bransom", "Kuehl", "Iyyer", "Dasigi", "Cohan", "Lo"}),
        2023,
        venue=f"Proceedings of the 17th Conference of the European Chapter of the {ACL}",
    ),
    Expected(
        SHARED_PDFS / "2203.00130v1.pdf",
        frozenset({"August", "Wang", "Bragg", "Hearst", "Head", "Lo"}),
        2022,
        arxiv_id="2203.00130v1",
        venue="arXiv preprint",
    ),
    Expected(
        SHARED_PDFS / "2206.10883v3.pdf",
        frozenset({"Shen", "Lo", "Yu", "Dahlberg", "Schlanger", "Downey"}),
        2022,
        arxiv_id="2206.10883v3",
        venue="arXiv preprint",
    ),
    Expected(
        SHARED_PDFS / "2302.07302v1.pdf",
        frozenset({"Chang", "Zhang", "Bragg", "Head", "Lo", "Downey", "Weld"}),
        2023,
        doi="10.1145/3544548.3580847",
        arxiv_id="2302.07302v1",
        venue="Proceedings of the 2023 CHI Conference on Human Factors in Computing Systems",
    ),
    Expected(
        SHARED_PDFS / "2304.02623v1.pdf",
        frozenset({"Shen", "August", "Siangliulue", "Lo", "Bragg", "Hammerbacher", "Downey", "Chang", "Sontag"}),
        2023,
        arxiv_id="2304.02623v1",
        venue="arXiv preprint",
    ),
    Expected(
        SHARED_PDFS / "papermage.pdf",
        frozenset(
            "Lo Shen Newman Chang Authur Bransom Candra Chandrasekhar Huff Kuehl Singh Wilhelm Zamarron Hearst "
            "Weld Downey Soldaini".split()
        ),
        2023,
    ),
    Expected(
        SAMPLE_DOCS / "harborview_cooling_model_2022.pdf",
        frozenset({"Whitcombe", "Farahani", "Strand"}),
        2022,
        venue="Urban Climate Dynamics",
    ),
    Expected(
        SAMPLE_DOCS / "hydrology_review_2019.pdf",
        frozenset({"Halvorsen", "Aldana", "Venkataraman"}),
        2019,
        venue="Journal of Urban Hydrology and Ecology",
    ),
    Expected(
        SAMPLE_DOCS / "retrofit_structural_loads_2024.pdf",
        frozenset({"Cole", "Wisniewski", "Bankole"}),
        2024,
        venue="Building Retrofit Technical Notes",
    ),
    Expected(
        SAMPLE_DOCS / "roof_temperature_energy_2017.pdf",
        frozenset({"Marchetti", "Oyelaran"}),
        2017,
        venue="Proceedings of the Symposium on Building Envelope Performance 2017",
    ),
    Expected(
        SAMPLE_DOCS / "substrate_plant_drought_2021.pdf",
        frozenset({"Achterberg", "Mensah-Darko", "Tan"}),
        2021,
        venue="Horticulture and Urban Landscapes",
    ),
]


def _loaded(path: Path) -> LoadedDocument:
    if not path.exists():
        pytest.skip(f"{path} not found: ../shared/data is only present in development and CI")
    return loaded_pdf(path)


def _ids(expected: Expected) -> str:
    return expected.path.name


def _year_case(expected: Expected) -> object:
    marks = [pytest.mark.xfail(reason=expected.year_miss, strict=True)] if expected.year_miss else []
    return pytest.param(expected, marks=marks, id=_ids(expected))


@pytest.mark.shared
@pytest.mark.parametrize("expected", EXPECTED, ids=_ids)
def test_pdf_authors(expected: Expected) -> None:
    assert set(family_names(_loaded(expected.path).bibliography.authors)) == expected.families


@pytest.mark.shared
@pytest.mark.parametrize("expected", [_year_case(e) for e in EXPECTED])
def test_pdf_year(expected: Expected) -> None:
    assert _loaded(expected.path).year == expected.year


@pytest.mark.shared
@pytest.mark.parametrize("expected", EXPECTED, ids=_ids)
def test_pdf_identifiers_and_venue(expected: Expected) -> None:
    bib = _loaded(expected.path).bibliography
    assert (bib.doi, bib.arxiv_id, bib.venue) == (expected.doi, expected.arxiv_id, expected.venue)


@pytest.mark.shared
def test_pdf_targets() -> None:
    """The issue's targets on the 13 PDFs: authors right for at least 11, the year for at least 12."""
    if not SHARED_PDFS.exists():
        pytest.skip(f"{SHARED_PDFS} not found: ../shared/data is only present in development and CI")
    loaded = [(e, _loaded(e.path)) for e in EXPECTED]
    authors_right = sum(set(family_names(d.bibliography.authors)) == e.families for e, d in loaded)
    years_right = sum(d.year == e.year for e, d in loaded)
    assert authors_right >= 11, f"authors right on {authors_right}/13"
    assert years_right >= 12, f"year right on {years_right}/13"


def _paper(path: Path, author_field: str) -> Path:
    """A one-page paper: title, a title-case subtitle, author and affiliation lines, abstract, and a
    footer with its DOI."""
    pdf = FPDF(format="letter", unit="pt")
    pdf.set_author(author_field)
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 20)
    pdf.set_xy(72, 72)
    pdf.cell(0, 24, "Rooftop Meadows and Summer Runoff")
    pdf.set_font("Helvetica", "", 14)
    pdf.set_xy(72, 104)
    pdf.cell(0, 18, "A Systematic Review of Roof Greening")
    pdf.set_font("Times", "", 12)
    pdf.set_xy(72, 136)
    pdf.cell(0, 14, "Jane Q. Doe*, John Roe and Ana de la Cruz")
    pdf.set_font("Times", "I", 10)
    pdf.set_xy(72, 152)
    pdf.cell(0, 12, "Department of Ecology, University of Eastmere, New Harbour")
    pdf.set_xy(72, 166)
    pdf.cell(0, 12, "jane.doe@eastmere.example.edu")
    pdf.set_font("Times", "B", 11)
    pdf.set_xy(72, 200)
    pdf.cell(0, 14, "Abstract")
    pdf.set_font("Times", "", 10)
    for i in range(12):
        pdf.set_xy(72, 220 + 13 * i)
        pdf.cell(0, 12, "Green roofs hold back part of the rain that falls on them and release it over the next days.")
    pdf.set_font("Times", "", 8)
    pdf.set_xy(72, 740)
    pdf.cell(0, 10, "* Corresponding author. Published under https://doi.org/10.5555/Roof.2024.7.")
    pdf.output(str(path))
    return path


def test_pdf_layout_authors_when_the_metadata_holds_a_placeholder(tmp_path: Path) -> None:
    bib = load_pdf(_paper(tmp_path / "paper.pdf", "Microsoft Office User")).bibliography
    assert bib.authors == ["Jane Q. Doe", "John Roe", "Ana de la Cruz"]
    assert bib.doi == "10.5555/roof.2024.7"
    assert bib.arxiv_id is None and bib.venue is None


def test_pdf_metadata_authors_come_first(tmp_path: Path) -> None:
    bib = load_pdf(_paper(tmp_path / "paper.pdf", "Doe, Jane Q.; Roe, John; de la Cruz, Ana")).bibliography
    assert bib.authors == ["Jane Q. Doe", "John Roe", "Ana de la Cruz"]
