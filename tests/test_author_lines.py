"""Authors on hard first pages, one generated case per pattern: author lines that wrap (inside a
name too), names set apart by wide gaps without commas, superscript affiliation marks (digits,
asterisks, section signs), particles, suffixes, mononyms, "and"/"&" joins, e-mail addresses and
affiliations that are no names, a cover sheet with its names at the foot, corporate authors, family
names an e-mail address spells, names in Korean script; web pages' bylines in their markup and
structured authors in Markdown front matter.

The PDFs are drawn with fpdf2 and read by the real loader (pdfplumber). A line is written in a small
notation: ``{1,*}`` is a raised mark in small type after the word before it, ``|`` a gap of two
ems between names.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fpdf import FPDF

from corpus.loaders.authors import (
    families_from_emails,
    family_name,
    family_names,
    is_person_name,
    metadata_authors,
    name_case,
    split_names,
    strip_marks,
)
from corpus.loaders.front_matter import parse_fields
from corpus.loaders.html import load_html
from corpus.loaders.markdown import load_markdown
from corpus.loaders.pdf import load_pdf

TITLE = "Rooftop Meadows and Summer Runoff"
PROSE = "Green roofs hold back part of the rain that falls on them and release it over the next days."
NAME_SIZE = 12.0


def _write_line(pdf: FPDF, y: float, line: str, size: float = NAME_SIZE, style: str = "") -> None:
    """One author line in the notation of the module's docstring, from the left margin."""
    x = 72.0
    for part in re.split(r"(\{[^}]*\}|\|)", line):
        if not part:
            continue
        if part == "|":
            x += 2 * size
            continue
        raised = part.startswith("{")
        text = part[1:-1] if raised else part
        pdf.set_font("Times", style, size * 0.6 if raised else size)
        width = pdf.get_string_width(text)
        pdf.set_xy(x, y - (size * 0.35 if raised else 0))
        pdf.cell(width, size + 2, text)
        x += width


def _first_page(
    path: Path,
    author_lines: list[str],
    *,
    affiliations: tuple[str, ...] = ("Department of Ecology, University of Eastmere, New Harbour",),
    author_field: str = "",
    prose: bool = True,
    foot_lines: tuple[str, ...] = (),
) -> Path:
    """Page 1 of a paper: the title, ``author_lines``, affiliation lines in smaller italic type,
    then an abstract (or, with ``prose`` off, nothing: a cover sheet) and ``foot_lines`` at the
    foot of the page in the names' type."""
    pdf = FPDF(format="letter", unit="pt")
    if author_field:
        pdf.set_author(author_field)
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 22)
    pdf.set_xy(72, 72)
    pdf.cell(0, 26, TITLE)
    y = 120.0
    for line in author_lines:
        _write_line(pdf, y, line)
        y += 16
    pdf.set_font("Times", "I", 10)
    for line in affiliations:
        pdf.set_xy(72, y)
        pdf.cell(0, 12, line)
        y += 13
    if prose:
        pdf.set_font("Times", "B", 11)
        pdf.set_xy(72, y + 20)
        pdf.cell(0, 14, "Abstract")
        pdf.set_font("Times", "", 10)
        for i in range(20):
            pdf.set_xy(72, y + 40 + 13 * i)
            pdf.cell(0, 12, PROSE)
    for i, line in enumerate(foot_lines):
        _write_line(pdf, 560 + 16 * i, line)
    pdf.output(str(path))
    return path


def _authors(tmp_path: Path, author_lines: list[str], **kwargs) -> list[str]:
    return load_pdf(_first_page(tmp_path / "paper.pdf", author_lines, **kwargs)).bibliography.authors


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        # Superscript affiliation marks: digits, asterisks, a section sign, several after one name.
        (
            ["Jane Q. Doe{1,*}, John Roe{2} and Ana de la Cruz{1,§}"],
            ["Jane Q. Doe", "John Roe", "Ana de la Cruz"],
        ),
        # Two names on a line without commas, set apart by wide gaps.
        (["Jianfeng Gao|Weizhu Chen|Mei Ling Tan"], ["Jianfeng Gao", "Weizhu Chen", "Mei Ling Tan"]),
        # A list that wraps: between names, inside a name, and at a hyphen the break added.
        (
            [
                "Pamela Forner{1}, Anselmo Peñas{2}, Corina",
                "Forascu{3}, Paulo Ro-",
                "cha{4}, and Erik Tjong Kim Sang{5}",
            ],
            ["Pamela Forner", "Anselmo Peñas", "Corina Forascu", "Paulo Rocha", "Erik Tjong Kim Sang"],
        ),
        # A middle line of names between two others is kept.
        (
            ["Amir Sheikhahmadi, Mohammad A. Nematbakhsh,", "Arman Shokrollahi, Bo Qin,", "Shi Xu and Oren Etzioni"],
            ["Amir Sheikhahmadi", "Mohammad A. Nematbakhsh", "Arman Shokrollahi", "Bo Qin", "Shi Xu", "Oren Etzioni"],
        ),
        # Particles, a hyphened one, and "&".
        (
            ["Diego de las Casas, Jan van der Berg, Omar al-Farsi & Hans von Stein"],
            ["Diego de las Casas", "Jan van der Berg", "Omar al-Farsi", "Hans von Stein"],
        ),
        # Suffixes, after a comma or not.
        (
            ["John Roe, Jr., Martin Luther King III and Jane Doe"],
            ["John Roe Jr.", "Martin Luther King III", "Jane Doe"],
        ),
        # A mononym in a list of names.
        (
            ["Stephen Soderland, Shi Xu,", "Mausam, and Oren Etzioni"],
            ["Stephen Soderland", "Shi Xu", "Mausam", "Oren Etzioni"],
        ),
    ],
)
def test_author_lines(tmp_path: Path, lines: list[str], expected: list[str]) -> None:
    assert _authors(tmp_path, lines) == expected


def test_affiliations_and_addresses_are_no_names(tmp_path: Path) -> None:
    """Affiliations and e-mail addresses on the author lines' own type are no authors, and a one-word
    place between institutions is no mononym."""
    lines = ["Jane Doe{1}, John Roe{2}", "CELCT, Trento, Italy", "jane.doe@eastmere.example.edu"]
    assert _authors(tmp_path, lines, affiliations=("Green Roof Institute, Harbour City",)) == ["Jane Doe", "John Roe"]


def test_cover_sheet_names_at_the_foot(tmp_path: Path) -> None:
    """A cover sheet (no prose on page 1) lists its authors one per line at the foot of the page."""
    foot = ("Jim Bainbridge", "Hernando Bedoya", "Tom McKinley")
    assert _authors(tmp_path, [], affiliations=(), prose=False, foot_lines=foot) == list(foot)


def test_names_below_the_top_half_of_a_paper_are_not_authors(tmp_path: Path) -> None:
    """On a page with prose, names far down the page are not author lines."""
    assert _authors(tmp_path, [], affiliations=(), foot_lines=("Jim Bainbridge",)) == []


def test_family_names_an_address_spells(tmp_path: Path) -> None:
    lines = ["Erik Tjong Kim Sang{1}, Ivan Rodriguez Montoya{2} and Mei Ling Tan{3}"]
    affiliations = ("(e.f.tjong.kim.sang@rug.nl) (irodriguez@fis.example.mx) (mltan@example.sg)",)
    authors = _authors(tmp_path, lines, affiliations=affiliations)
    assert family_names(authors) == ["Tjong Kim Sang", "Rodriguez Montoya", "Tan"]


def test_families_from_emails_units() -> None:
    texts = ["e.f.tjong.kim.sang@rug.nl", "rrodriguez@fis.example.mx", "hlin@x.example", "john.michael.smith@a.example"]
    names = ["Erik Tjong Kim Sang", "Ivan Rodriguez Montoya", "Hui Lin Tan", "John Michael Smith", "Jane Doe"]
    assert families_from_emails(names, texts) == [
        "Tjong Kim Sang, Erik",
        "Rodriguez Montoya, Ivan",
        "Hui Lin Tan",  # a short given name is not a family name
        "John Michael Smith",  # an address that spells the given names too settles nothing
        "Jane Doe",
    ]
    assert families_from_emails(names, ["no address here"]) == names


# ---------------------------------------------------------------------------------------------
# Corporate authors


def test_corporate_byline_under_the_title(tmp_path: Path) -> None:
    assert _authors(tmp_path, ["DeepSeek-AI", "research@deepseek.example"], affiliations=()) == ["DeepSeek-AI"]


def test_a_subtitle_word_under_the_title_is_no_corporate_author(tmp_path: Path) -> None:
    assert _authors(tmp_path, ["Preprint"], affiliations=()) == []


def test_organisation_in_the_metadata_printed_on_page_one(tmp_path: Path) -> None:
    field = "U.S. Government Accountability Office, http://www.gao.example"
    lines = ["U.S. Government Accountability Office"]
    assert _authors(tmp_path, lines, affiliations=(), author_field=field) == ["U.S. Government Accountability Office"]
    # A program's or template's name in /Author that page 1 does not print is no author.
    assert _authors(tmp_path, [], affiliations=(), author_field="Microsoft Office User") == []


def test_people_win_over_an_organisation_in_the_metadata(tmp_path: Path) -> None:
    lines = ["Jane Doe and John Roe", "Green Roof Institute"]
    assert _authors(tmp_path, lines, affiliations=(), author_field="Green Roof Institute") == ["Jane Doe", "John Roe"]


# ---------------------------------------------------------------------------------------------
# Names (units)


@pytest.mark.parametrize(
    ("name", "family"),
    [
        ("Diego de las Casas", "de las Casas"),
        ("Jan van der Berg", "van der Berg"),
        ("Omar al-Farsi", "al-Farsi"),
        ("Hans von Stein", "von Stein"),
        ("John Roe Jr.", "Roe"),
        ("Martin Luther King III", "King"),
        ("Amanieu d'Antras", "d'Antras"),
        ("김창호", "김"),
        ("Gemma Team", "Gemma Team"),
        ("DeepSeek-AI", "DeepSeek-AI"),
    ],
)
def test_family_name_patterns(name: str, family: str) -> None:
    assert family_name(name) == family


def test_marks_and_joins() -> None:
    assert strip_marks("Whitcombe†‡") == "Whitcombe"
    assert split_names("Jane Doe*† & John Roe¹ and Ana de la Cruz") == ["Jane Doe", "John Roe", "Ana de la Cruz"]
    assert split_names("John Roe, Jr., and Jane Doe") == ["John Roe Jr.", "Jane Doe"]
    assert name_case("JOHN ROE III") == "John Roe III"
    assert not is_person_name("jane.doe@eastmere.example.edu")
    assert not is_person_name("University of Eastmere")


def test_names_in_korean_script_from_the_metadata() -> None:
    assert metadata_authors("김창호") == ["김창호"]
    assert metadata_authors("东北电气发展股份有限公司") == []  # a company's name in Chinese is no person


# ---------------------------------------------------------------------------------------------
# Web pages and Markdown


def _page(body: str, head: str = "") -> str:
    return f"<html><head><title>Roof Greening in Practice</title>{head}</head><body>{body}</body></html>"


ARTICLE = "<article><h1>Roof Greening in Practice</h1>" + "".join(f"<p>{PROSE} ({i})</p>" for i in range(8))


def test_html_rel_author_and_not_the_commenters() -> None:
    body = (
        '<div class="comments"><p>Posted by <a rel="author" href="/u/p">Alexander Petrov</a></p></div>'
        + '<p class="entry-posted">on March 10 by <a rel="author" href="/author/nm">Nikhil Marathe</a></p>'
        + ARTICLE
        + "</article>"
    )
    assert load_html(_page(body)).bibliography.authors == ["Nikhil Marathe"]


def test_html_byline_element_without_the_editor() -> None:
    body = ARTICLE.replace(
        "</h1>", '</h1><p class="byline author">Written by Rob Ewaschuk<br/>Edited by Betsy Beyer</p>'
    )
    assert load_html(_page(body + "</article>")).bibliography.authors == ["Rob Ewaschuk"]


def test_html_byline_at_the_foot_of_a_post() -> None:
    body = ARTICLE + "<footer><div><p>Posted by Alon Zakai.</p></div></footer></article>"
    assert load_html(_page(body)).bibliography.authors == ["Alon Zakai"]


def test_html_without_a_byline_names_no_author() -> None:
    body = ARTICLE + "<p>Thanks to Jane Doe and John Roe for their review.</p></article>"
    assert load_html(_page(body)).bibliography.authors == []


def test_structured_front_matter_authors() -> None:
    front = (
        "title: A\nauthors:\n  - given-names: Robbie\n    non-dropping-particle: van\n    surname: Leeuwen\n"
        "    affiliation: 1\n  - name: Connor Ferster\n    affiliation: 2\naffiliations:\n"
        "  - name: Independent Researcher, Australia\n    index: 1\n"
    )
    assert parse_fields(front)["authors"] == "Robbie van Leeuwen; Connor Ferster"
    document = load_markdown(f"---\n{front}---\n\n# Summary\n\n{PROSE}\n")
    assert document.bibliography.authors == ["Robbie van Leeuwen", "Connor Ferster"]


def test_a_table_row_at_the_top_is_no_byline() -> None:
    """An infobox rendered as a table ("| Domain: | Eukaryota |") names no author."""
    text = f"# Duck\n\n| Duck |  |\n|---|---|\n| Domain: | Eukaryota |\n| Kingdom: | Animalia |\n\n{PROSE}\n"
    assert load_markdown(text).bibliography.authors == []
