"""Word, PowerPoint, EPUB, OpenDocument and LaTeX files, each made in the test by its own library (or written out, for
LaTeX): headings as sections, tables as table blocks, footnotes and speaker notes apart, the metadata
the file declares; then ingested through the real ingest path and asked a question whose citation
names the section, slide or chapter that answers it. Real Qdrant, fastembed and LangGraph."""

from __future__ import annotations

import datetime
import html
import zipfile
from pathlib import Path

import pptx
import pytest
from docx import Document
from docx.opc.constants import CONTENT_TYPE, RELATIONSHIP_TYPE
from docx.opc.packuri import PackURI
from docx.opc.part import Part
from docx.oxml import OxmlElement
from docx.oxml.ns import nsdecls, qn
from ebooklib import epub
from odf import dc, meta
from odf.opendocument import OpenDocumentText
from odf.table import CoveredTableCell, Table, TableCell, TableColumn, TableRow
from odf.text import H, Note, NoteBody, NoteCitation, P
from pptx.util import Inches

from corpus.errors import LoadError
from corpus.models import BlockKind, DocType, TitleSource
from corpus.parsing import parse_file
from graph.run import run_research
from strategies.offline.strategy import OfflineStrategy
from ui.chat.evidence import citation_panel
from ui.core.citation_view import block_resolution, citation_view
from ui.core.passages import cite
from ui.core.report_json import JsonReport
from ui.mcp.results import cite_text

FOOTNOTE = "Measured with the tipping-bucket gauge on the east roof."


def make_docx(path: Path) -> Path:
    doc = Document()
    properties = doc.core_properties
    properties.title, properties.author = "Sedum Roofs in Lindenport", "Clara Oduya; Peter Lindqvist"
    properties.created = datetime.datetime(2022, 4, 1)
    doc.add_heading("Sedum Roofs in Lindenport", 0)
    doc.add_heading("Retention trial", 1)
    found = doc.add_paragraph("The Lindenport trial found that sedum roofs retained 62 percent of summer rainfall.")
    _footnote(doc, found, FOOTNOTE)
    doc.add_paragraph("Drains were sealed before each storm", style="List Bullet")
    doc.add_heading("Costs by site", 2)
    table = doc.add_table(rows=3, cols=3)
    for r, row in enumerate([["Site", "Cost", ""], ["Alder", "12", "14"], ["Birch", "9", "11"]]):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    table.cell(0, 1).merge(table.cell(0, 2))
    doc.save(path)
    return path


def _footnote(doc, paragraph, text: str) -> None:
    """A footnote, which python-docx cannot write: its part, its relationship and its mark in the text."""
    xml = (
        f"<w:footnotes {nsdecls('w')}><w:footnote w:type='separator' w:id='-1'><w:p><w:r><w:separator/></w:r>"
        f"</w:p></w:footnote><w:footnote w:id='1'><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:footnote></w:footnotes>"
    )
    part = Part(PackURI("/word/footnotes.xml"), CONTENT_TYPE.WML_FOOTNOTES, xml.encode(), doc.part.package)
    doc.part.relate_to(part, RELATIONSHIP_TYPE.FOOTNOTES)
    mark = OxmlElement("w:footnoteReference")
    mark.set(qn("w:id"), "1")
    paragraph.add_run()._r.append(mark)


def make_pptx(path: Path) -> Path:
    deck = pptx.Presentation()
    deck.core_properties.author = "Mira Castellanos"
    deck.core_properties.created = datetime.datetime(2023, 9, 12)
    opening = deck.slides.add_slide(deck.slide_layouts[0])
    opening.shapes.title.text = "Harbourside Roof Upkeep"
    bullets = deck.slides.add_slide(deck.slide_layouts[1])
    bullets.shapes.title.text = "Maintenance"
    body = bullets.placeholders[1].text_frame
    body.text = "Gutters on the Harbourside roofs are cleared twice a year by the Orrin crew.\nMoss is left in place."
    bullets.notes_slide.notes_text_frame.text = "Mention the storm in March."
    costs = deck.slides.add_slide(deck.slide_layouts[5])
    costs.shapes.title.text = "Budget"
    table = costs.shapes.add_table(3, 2, Inches(1), Inches(2), Inches(4), Inches(1)).table
    for r, row in enumerate([["Item", "Cost"], ["Gutters", "4,200"], ["Moss", "800"]]):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    deck.save(path)
    return path


def make_epub(path: Path) -> Path:
    book = epub.EpubBook()
    book.set_identifier("rain-book")
    book.set_title("Rain in the City")
    book.set_language("en")
    book.add_author("Ines Haldane")
    book.add_metadata("DC", "date", "2019-03-01")
    roofs = epub.EpubHtml(title="Roofs", file_name="roofs.xhtml", lang="en")
    roofs.content = (
        "<html><body><h1>Roofs</h1><p>Rooftops shed water within minutes of a storm.</p><h2>Gauges</h2>"
        "<table><tr><th>Gauge</th><th>Reading</th></tr><tr><td>East</td><td>14</td></tr></table></body></html>"
    )
    trees = epub.EpubHtml(title="Street Trees", file_name="trees.xhtml", lang="en")
    trees.content = (
        "<html><body><p>Street trees along Quillon Avenue cool the pavement by four degrees.</p></body></html>"
    )
    for chapter in (roofs, trees):
        book.add_item(chapter)
    book.toc = (roofs, trees)
    book.add_item(epub.EpubNcx())
    book.add_item(epub.EpubNav())
    book.spine = ["nav", roofs, trees]
    epub.write_epub(str(path), book)
    return path


def make_odt(path: Path) -> Path:
    doc = OpenDocumentText()
    doc.meta.addElement(dc.Title(text="Meadow Roofs"))
    doc.meta.addElement(dc.Creator(text="Lena Hartmann"))
    doc.meta.addElement(meta.CreationDate(text="2018-02-03T10:00:00"))
    doc.text.addElement(H(outlinelevel=1, text="Meadow Roofs"))
    doc.text.addElement(H(outlinelevel=2, text="Findings"))
    found = P(text="Meadow roofs on the Tessin depot were mown once a year by the Halden crew.")
    note, body = Note(id="ftn1", noteclass="footnote"), NoteBody()
    note.addElement(NoteCitation(text="1"))
    body.addElement(P(text="Gauge on the north side."))
    note.addElement(body)
    found.addElement(note)
    doc.text.addElement(found)
    table = Table(name="Costs")
    table.addElement(TableColumn(numbercolumnsrepeated=3))
    for values in (["Site", "Cost", None], ["Alder", "12", "14"]):
        row = TableRow()
        for value in values:
            cell = CoveredTableCell() if value is None else TableCell(numbercolumnsspanned=2 if value == "Cost" else 1)
            if value is not None:
                cell.addElement(P(text=value))
            row.addElement(cell)
        table.addElement(row)
    doc.text.addElement(table)
    doc.save(str(path))
    return path


LATEX = r"""\documentclass{article}
\usepackage{booktabs}
% a private comment: the reviewers' names
\title{Substrate Depth and Drought\thanks{Funded by the roof fund.}}
\author{Tomas Brevik\\ Lindenport University \and Anna Sorel}
\date{June 2020}
\begin{document}
\maketitle
\begin{abstract}
We grew sedum on three substrate depths.
\end{abstract}
\section{Results}
Plants on the 120 mm substrate of the Varga beds survived the drought of 2019~\cite{smith2020,lee2018}.\footnote{Survival counted in September.}
\begin{table}
\begin{tabular}{lrr}\toprule
Depth & Survival & Cover \\ \midrule
60 mm & 41\% & 30\% \\
120 mm & 88\% & 75\% \\ \bottomrule
\end{tabular}
\caption{Survival by depth.}
\end{table}
\end{document}
"""


@pytest.fixture
def office_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "office"
    folder.mkdir()
    make_docx(folder / "sedum.docx")
    make_pptx(folder / "upkeep.pptx")
    make_epub(folder / "rain.epub")
    make_odt(folder / "meadow.odt")
    (folder / "drought.tex").write_text(LATEX, encoding="utf-8")
    return folder


def kinds(parsed, kind: BlockKind) -> list[str]:
    return [b.text for b in parsed.blocks if b.kind is kind]


def test_word_headings_tables_footnotes_and_properties(tmp_path: Path) -> None:
    parsed = parse_file(make_docx(tmp_path / "sedum.docx"))
    doc = parsed.document
    assert (doc.type, doc.title, doc.title_source, doc.year) == (
        DocType.DOCX,
        "Sedum Roofs in Lindenport",
        TitleSource.PROPERTIES,
        2022,
    )
    assert doc.bibliography.authors == ["Clara Oduya", "Peter Lindqvist"]
    (finding,) = [b for b in parsed.blocks if "62 percent" in b.text]
    assert finding.section == "Retention trial" and FOOTNOTE not in finding.text
    assert kinds(parsed, BlockKind.FOOTNOTE) == [FOOTNOTE]
    (table,) = [b for b in parsed.blocks if b.kind is BlockKind.TABLE]
    # The merged header cell is written once, over its first column, as Markdown and HTML tables are.
    assert table.text == "Site | Cost | \nAlder | 12 | 14\nBirch | 9 | 11"
    assert (table.section, table.parents) == ("Costs by site", ["Sedum Roofs in Lindenport", "Retention trial"])
    assert kinds(parsed, BlockKind.LIST) == ["Drains were sealed before each storm"]


def test_powerpoint_slides_are_sections_and_pages(tmp_path: Path) -> None:
    parsed = parse_file(make_pptx(tmp_path / "upkeep.pptx"))
    doc = parsed.document
    assert (doc.title, doc.page_count, doc.year, doc.bibliography.authors) == (
        "Harbourside Roof Upkeep",
        3,
        2023,
        ["Mira Castellanos"],
    )
    by_text = {b.text: b for b in parsed.blocks}
    gutters = by_text["Gutters on the Harbourside roofs are cleared twice a year by the Orrin crew."]
    assert (gutters.page, gutters.section, gutters.kind) == (2, "Maintenance", BlockKind.LIST)
    notes = by_text["Mention the storm in March."]
    assert (notes.kind, notes.page) == (BlockKind.NOTES, 2)
    (table,) = [b for b in parsed.blocks if b.kind is BlockKind.TABLE]
    assert (table.text, table.page, table.section) == ("Item | Cost\nGutters | 4,200\nMoss | 800", 3, "Budget")


def test_an_epub_under_drm_and_a_locked_word_file_are_refused_by_name(tmp_path: Path) -> None:
    path = make_epub(tmp_path / "locked.epub")
    with zipfile.ZipFile(path, "a") as package:
        package.writestr(
            "META-INF/encryption.xml", '<encryption><CipherReference URI="EPUB/roofs.xhtml"/></encryption>'
        )
    with pytest.raises(LoadError, match="encrypted with DRM"):
        parse_file(path)
    # Office writes a password-protected document in its old binary container.
    (tmp_path / "locked.docx").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504))
    with pytest.raises(LoadError, match="password-protected"):
        parse_file(tmp_path / "locked.docx")


def test_epub_chapters_are_sections_and_pages(tmp_path: Path) -> None:
    parsed = parse_file(make_epub(tmp_path / "rain.epub"))
    doc = parsed.document
    assert (doc.title, doc.year, doc.bibliography.authors, doc.page_count) == (
        "Rain in the City",
        2019,
        ["Ines Haldane"],
        2,
    )
    sections = [(b.page, b.section, b.parents, b.kind) for b in parsed.blocks]
    assert sections == [
        (1, "Roofs", [], BlockKind.HEADING),
        (1, "Roofs", [], BlockKind.PARAGRAPH),
        (1, "Gauges", ["Roofs"], BlockKind.HEADING),
        (1, "Gauges", ["Roofs"], BlockKind.TABLE),
        (2, "Street Trees", [], BlockKind.PARAGRAPH),  # a chapter without a heading: named by the contents
    ]
    assert kinds(parsed, BlockKind.TABLE) == ["Gauge | Reading\nEast | 14"]


def test_opendocument_headings_tables_footnotes_and_metadata(tmp_path: Path) -> None:
    parsed = parse_file(make_odt(tmp_path / "meadow.odt"))
    doc = parsed.document
    assert (doc.type, doc.title, doc.year, doc.bibliography.authors) == (
        DocType.ODT,
        "Meadow Roofs",
        2018,
        ["Lena Hartmann"],
    )
    (finding,) = [b for b in parsed.blocks if "Tessin" in b.text]
    assert (finding.section, finding.parents) == ("Findings", ["Meadow Roofs"]) and "north" not in finding.text
    assert kinds(parsed, BlockKind.FOOTNOTE) == ["Gauge on the north side."]
    assert kinds(parsed, BlockKind.TABLE) == ["Site | Cost | \nAlder | 12 | 14"]


def test_latex_sections_metadata_citations_and_tables(tmp_path: Path) -> None:
    (tmp_path / "drought.tex").write_text(LATEX, encoding="utf-8")
    parsed = parse_file(tmp_path / "drought.tex")
    doc = parsed.document
    assert (doc.type, doc.title, doc.year, doc.bibliography.authors) == (
        DocType.LATEX,
        "Substrate Depth and Drought",
        2020,
        ["Tomas Brevik", "Anna Sorel"],
    )
    texts = [b.text for b in parsed.blocks]
    assert not any("reviewers" in t or "booktabs" in t or "GIVEN" in t for t in texts)  # comments, preamble
    (finding,) = [b for b in parsed.blocks if "Varga" in b.text]
    assert finding.section == "Results" and finding.text.endswith("drought of 2019 [smith2020, lee2018].")
    assert kinds(parsed, BlockKind.FOOTNOTE) == ["Survival counted in September."]
    assert kinds(parsed, BlockKind.TABLE) == ["Depth | Survival | Cover\n60 mm | 41% | 30%\n120 mm | 88% | 75%"]
    assert kinds(parsed, BlockKind.CAPTION) == ["Survival by depth."]
    assert [b.section for b in parsed.blocks if b.kind is BlockKind.PARAGRAPH][0] == "Abstract"


QUESTIONS = [
    (
        "How much summer rainfall did sedum roofs retain in the Lindenport trial?",
        "sedum.docx",
        1,
        "Retention trial",
        "\u00a7 Retention trial",
    ),
    (
        "How often are the gutters on the Harbourside roofs cleared?",
        "upkeep.pptx",
        2,
        "Maintenance",
        "slide 2 \u00a7 Maintenance",
    ),
    (
        "By how much do street trees along Quillon Avenue cool the pavement?",
        "rain.epub",
        2,
        "Street Trees",
        "ch. 2 \u00a7 Street Trees",
    ),
    ("Which substrate depth survived the drought in the Varga beds?", "drought.tex", 1, "Results", "\u00a7 Results"),
    ("How often were the meadow roofs on the Tessin depot mown?", "meadow.odt", 1, "Findings", "\u00a7 Findings"),
]


def answered_where(library, strategy, question: str, expected: tuple[str, int | None, str, str]):
    """The question asked offline; its lead's citation is to file ``name``, ``page`` and ``section``, and
    the report names it ``where``. Returns the result, that citation and its block."""
    name, page, section, where = expected
    result = run_research(library, strategy, question, single_question=True)
    lead = result.report.sections[0].claims[0]
    (citation,) = [c for c in result.report.citations if c.number == lead.citations[0]]
    document = library.registry.document(citation.resolution.doc_id)
    block = library.registry.blocks(citation.resolution.block_ids[:1])[citation.resolution.block_ids[0]]
    assert (Path(document.path).name, citation.resolution.page, block.section) == (name, page, section), question
    assert f"{document.title}, {where}, block {block.block_id}" in result.report.markdown, question
    return result, citation, block


def test_ingested_office_files_answer_with_citations_naming_their_section(make_library, office_folder: Path) -> None:
    (office_folder / "~$sedum.docx").write_bytes(b"\x05Clara" + b"\0" * 150)  # Word's lock file: not read
    library = make_library()
    summary = library.ingest([office_folder])
    assert [Path(p).name for p in summary.hidden] == ["~$sedum.docx"]
    assert {Path(f.path).name: f.outcome.value for f in summary.files} == dict.fromkeys(
        ["drought.tex", "meadow.odt", "rain.epub", "sedum.docx", "upkeep.pptx"], "ok"
    )
    strategy = OfflineStrategy(library.embedder)
    for question, name, page, section, where in QUESTIONS:
        result, citation, block = answered_where(library, strategy, question, (name, page, section, where))
        # Named so wherever the citation is shown: the report, its JSON, the evidence view, MCP's cite.
        assert "p. 1" not in result.report.markdown.split("## References")[1], question
        cited = JsonReport.of("t", question, True, result.report).citations
        assert [c.where for c in cited if c.number == citation.number] == [where]
        view = citation_view(library.registry, citation.number, citation.resolution, images=False)
        assert f"<b>{html.escape(where)}</b>" in citation_panel(view).header
        passage = cite(library, block.block_id)
        by_id = citation_view(library.registry, None, block_resolution(passage), images=False)
        assert passage.where == by_id.where == where and f", {where}, characters " in cite_text(by_id)
    # Ingesting again parses nothing: every file is unchanged.
    again = library.ingest([office_folder])
    assert {f.reason for f in again.files} == {"unchanged"}
