"""Titles from the best evidence a document has, on generated cases of each pattern titles-dev shows
(benchmarks/titles_dev.py measures the real documents)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fpdf import FPDF

from corpus.loaders.authors import family_name, is_corporate_name, split_names
from corpus.loaders.markdown import load_markdown
from corpus.loaders.pdf import load_pdf
from corpus.loaders.titles import capitals_title_case, page_title
from corpus.models import TitleSource
from corpus.parsing import parse_file


def _cover(path: Path, lines: list[tuple[str, int]], meta_title: str | None = None, pages: int = 2) -> Path:
    """A booklet: ``lines`` (text, size) on the cover from the top, then body pages."""
    pdf = FPDF(format="letter", unit="pt")
    pdf.set_auto_page_break(False)
    if meta_title:
        pdf.set_title(meta_title)
    pdf.add_page()
    y = 90
    for text, size in lines:
        pdf.set_font("helvetica", "B", size)
        pdf.set_xy(72, y)
        pdf.cell(0, size * 1.2, text)
        y += size * 1.6
    pdf.set_font("times", "", 11)
    for i in range(10):
        pdf.set_xy(72, 420 + 14 * i)
        pdf.cell(0, 12, "Members may claim the costs of care within ninety days of the visit to the clinic.")
    for page in range(pages - 1):
        pdf.add_page()
        pdf.set_font("times", "", 11)
        for i in range(20):
            pdf.set_xy(72, 90 + 14 * i)
            pdf.cell(0, 12, f"Section {page + 2}: the plan pays the share the schedule gives for each service.")
    pdf.output(str(path))
    return path


def test_an_organisation_set_above_the_document_name_leads_it(tmp_path: Path) -> None:
    # Three booklets of one employer: each titled by its own plan, the employer's name leading.
    for plan in ("Dental Plan", "Vision Plan"):
        path = _cover(tmp_path / f"{plan}.pdf", [("Meridian Freight Company", 36), (f"Your {plan} Booklet", 24)])
        doc = load_pdf(path)
        assert doc.title == f"Meridian Freight Company — Your {plan} Booklet"
        assert doc.title_source is TitleSource.TITLE_PAGE


def test_a_document_name_set_far_smaller_than_its_publisher_still_names_it(tmp_path: Path) -> None:
    # A logo's type dwarfs the document's name; the documents of one publisher still differ by it.
    titles = set()
    for name in ("Employee Handbook", "Travel Policy"):
        doc = load_pdf(_cover(tmp_path / f"{name}.pdf", [("Acme Corporation", 40), (name, 15)]))
        assert doc.title == f"Acme Corporation — {name}"
        titles.add(doc.title)
    assert len(titles) == 2


def test_a_journal_masthead_leads_nothing_and_the_metadata_title_is_kept(tmp_path: Path) -> None:
    path = _cover(
        tmp_path / "jss.pdf",
        [("Journal of Applied Roofing", 30), ("Sedum Cover on Shallow Substrates", 18)],
        meta_title="Sedum Cover on Shallow Substrates",
    )
    doc = load_pdf(path)
    assert (doc.title, doc.title_source) == ("Sedum Cover on Shallow Substrates", TitleSource.TITLE_PAGE)


@pytest.mark.parametrize(
    ("meta_title", "title"),
    [
        # Another document's title left behind by a template: the printed title wins.
        ("Plan stratégique du sentier récréatif", "Rooftop Meadows and Summer Runoff"),
        # A report number or the journal added: the printed title holds all that names it.
        ("GAO-23-1, Rooftop Meadows and Summer Runoff", "Rooftop Meadows and Summer Runoff"),
        ("Rooftop Meadows and Summer Runoff - Journal of Roofs", "Rooftop Meadows and Summer Runoff"),
        # A shorter /Title than the printed one.
        ("Meadows and Summer Runoff", "Rooftop Meadows and Summer Runoff"),
    ],
)
def test_the_printed_title_wins_over_a_metadata_title_that_disagrees(tmp_path: Path, meta_title, title) -> None:
    path = _cover(tmp_path / "r.pdf", [("Rooftop Meadows and Summer Runoff", 22)], meta_title=meta_title)
    assert load_pdf(path).title == title


def test_a_title_printed_in_capitals_reads_in_title_case(tmp_path: Path) -> None:
    path = _cover(tmp_path / "caps.pdf", [("OVERVIEW OF THE SEDUM 2008 ROOF TRACK", 18)])
    # "SEDUM" is written in capitals only in the title, so it is a word, not an acronym.
    assert load_pdf(path).title == "Overview of the Sedum 2008 Roof Track"
    assert capitals_title_case("GPTQ: ACCURATE POST-TRAINING QUANTIZATION", frozenset({"GPTQ"})) == (
        "GPTQ: Accurate Post-Training Quantization"
    )
    assert capitals_title_case("Already Mixed CASE") == "Already Mixed CASE"


def test_a_file_name_title_is_the_last_resort_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "1504.06236v2.md"
    path.write_text("Some text without a heading.\n\nMore text.\n")
    document = parse_file(path).document
    assert (document.title, document.title_source) == ("1504.06236v2", TitleSource.FILE_NAME)


def test_toml_front_matter_gives_title_and_authors() -> None:
    loaded = load_markdown(
        '+++\ntitle = "Rust participates in OSPP 2024"\n'
        'authors = ["Amanieu d\'Antras, Jack Huey, and Jakub Beránek"]\n+++\n\nSimilar to our previous posts.\n'
    )
    assert loaded.title == "Rust participates in OSPP 2024"
    assert loaded.bibliography.authors == ["Amanieu d'Antras", "Jack Huey", "Jakub Beránek"]


def test_a_chapter_label_is_not_part_of_a_page_title() -> None:
    assert page_title("Chapter 6 - Monitoring Distributed Systems") == "Monitoring Distributed Systems"
    assert page_title("Part II - Routing") == "Routing"
    assert page_title("Chapter and Verse - A Blog") == "Chapter and Verse - A Blog"


def test_corporate_authors_are_one_name() -> None:
    for name in ("Gemma Team", "DeepSeek-AI", "Microsoft", "Cancer Council Australia", "Cohere For AI"):
        assert is_corporate_name(name) and family_name(name) == name
    for name in ("Ana de la Cruz", "Amanieu d'Antras", "Jane Q. Doe"):
        assert not is_corporate_name(name)
    assert family_name("Amanieu d'Antras") == "d'Antras"
    assert split_names("Amanieu d'Antras, Jack Huey") == ["Amanieu d'Antras", "Jack Huey"]


@pytest.mark.parametrize("suffix", [".md", ".txt"])
def test_crawler_header_lines_are_kept_out_of_the_text_and_the_url_kept(tmp_path: Path, suffix: str) -> None:
    page = tmp_path / f"page{suffix}"
    page.write_text(
        "Source: https://docs.acme.example/router/what-is-acme-router.html\n"
        "Fetched-At: 2026-01-02T10:00:00Z\n\n"
        "Acme Router is a fully managed service that routes requests between your services.\n"
    )
    parsed = parse_file(page)
    assert [b.text for b in parsed.blocks] == [
        "Acme Router is a fully managed service that routes requests between your services."
    ]
    assert parsed.document.bibliography.url == "https://docs.acme.example/router/what-is-acme-router.html"
    # Nothing else names the page: its URL does, before the file's name.
    assert (parsed.document.title, parsed.document.title_source) == ("What is acme router", TitleSource.URL)
    # "Source:" followed by prose is a sentence, not a header line.
    page.write_text("Source: the 2019 census of green roofs in the city.\n\nMore text follows.\n")
    assert parse_file(page).blocks[0].text.startswith("Source: the 2019 census")


@pytest.mark.parametrize(
    "crumb", ["Documentation Acme Router User Guide", "[Documentation](/docs) [Acme Router](/router) [User Guide](/g)"]
)
def test_a_navigation_trail_without_separators_under_the_title_is_kept_out_of_the_text(
    tmp_path: Path, crumb: str
) -> None:
    page = tmp_path / "quotas.md"
    body = "Acme Router is controlled by quotas on requests per second."
    for text in (f"# Quotas\n\n{crumb}\n\n{body}\n", f"# Quotas\n\n{crumb}\n{body}\n"):
        page.write_text(text)
        assert [b.text for b in parse_file(page).blocks] == ["Quotas", body]
    # A line of the page's own (not opening with a site's navigation root, or a sentence) stays.
    for line in ("Home Assistant Integration Guide", "Documentation Is Where Teams Start."):
        page.write_text(f"# Quotas\n\n{line}\n\n{body}\n")
        assert line in [b.text for b in parse_file(page).blocks]


def test_a_page_of_nothing_but_header_lines_keeps_them(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("Source: https://docs.acme.example/x\nFetched-At: 2026-01-02\n")
    assert "Fetched-At: 2026-01-02" in parse_file(page).blocks[0].text


def _byline_paper(path: Path, author_lines: list[str], author_field: str = "") -> Path:
    pdf = FPDF(format="letter", unit="pt")
    pdf.set_auto_page_break(False)
    if author_field:
        pdf.set_author(author_field)
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 20)
    pdf.set_xy(72, 72)
    pdf.cell(0, 24, "Rooftop Meadows and Summer Runoff")
    pdf.set_font("Times", "", 12)
    for i, line in enumerate(author_lines):
        pdf.set_xy(72, 110 + 15 * i)
        pdf.cell(0, 14, line)
    pdf.set_font("Times", "B", 11)
    pdf.set_xy(72, 220)
    pdf.cell(0, 14, "Abstract")
    pdf.set_font("Times", "", 10)
    for i in range(12):
        pdf.set_xy(72, 240 + 13 * i)
        pdf.cell(0, 12, "Green roofs hold back part of the rain that falls on them and release it over the next days.")
    pdf.output(str(path))
    return path


def test_author_lines_that_wrap_inside_a_name_and_family_names_in_capitals(tmp_path: Path) -> None:
    lines = ["Jane Q. Doe, Benjamin Charles Germain", "Lee, Paulo Ro-", "cha and Chris QUIRK"]
    authors = load_pdf(_byline_paper(tmp_path / "p.pdf", lines)).bibliography.authors
    assert authors == ["Jane Q. Doe", "Benjamin Charles Germain Lee", "Paulo Rocha", "Chris Quirk"]


def test_an_author_field_naming_one_author_gives_way_to_the_printed_list(tmp_path: Path) -> None:
    lines = ["Jane Q. Doe, John Roe and Ana de la Cruz"]
    assert load_pdf(_byline_paper(tmp_path / "p.pdf", lines, "John Roe")).bibliography.authors == [
        "Jane Q. Doe",
        "John Roe",
        "Ana de la Cruz",
    ]
    # An /Author page 1 does not print (a template macro glued to it) is not taken.
    assert load_pdf(_byline_paper(tmp_path / "q.pdf", lines, "Jane Doepdftitle")).bibliography.authors == [
        "Jane Q. Doe",
        "John Roe",
        "Ana de la Cruz",
    ]
