"""Real public files of each office and book format (tests/data/public, their origin and licence in
its SOURCES.md), read as a reader would check them: title, sections, slides and chapters, tables, the
text kept; then ingested through the real ingest path, searched and asked. They showed faults the files
made by the libraries did not: an OpenDocument with indented XML read as no text, a book whose manifest
lists places in a chapter refused, a creator's e-mail hiding its name, Word's equations dropped (a page
of them refused), a LaTeX source losing its logos and boxed words and misreading x^{2n} and x''. Each
fault is also checked on made-up content. Real Qdrant, fastembed and LangGraph."""

from __future__ import annotations

import hashlib
import re
import zipfile
from pathlib import Path

import pytest
from docx import Document
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls
from ebooklib import epub

from corpus.loaders.latex import load_latex
from corpus.loaders.omml import math_text
from corpus.models import BlockKind, DocType
from corpus.parsing import parse_file
from strategies.offline.strategy import OfflineStrategy
from tests.test_office_formats import answered_where, make_epub, make_odt
from tools.hybrid_search import hybrid_search

PUBLIC = Path(__file__).parent / "data" / "public"
SOURCES = PUBLIC / "SOURCES.md"
MAX_BYTES = 500_000
PUBLIC_FILES = (
    "sample2e.tex",
    "officer-example.docx",
    "officer-example.pptx",
    "live-manual.en.epub",
    "docutils-styles.odt",
    "lm-math-equations.docx",
)


def the_block(blocks, text: str):
    (block,) = [b for b in blocks if text in b.text]
    return block


def test_every_public_file_is_listed_unmodified_and_small() -> None:
    """Each file is the one SOURCES.md names, byte for byte (the LPPL and GPL let it be passed on
    unmodified), and small."""
    section = r"^## `([^`]+)`\n(?:(?!## ).*\n)*?- sha256: `([0-9a-f]{64})`"
    listed = dict(re.findall(section, SOURCES.read_text(), flags=re.MULTILINE))
    files = sorted(p.name for p in PUBLIC.iterdir() if p.name not in ("SOURCES.md", "GPL-3.txt"))
    assert sorted(listed) == files == sorted(PUBLIC_FILES)
    for name in files:
        data = (PUBLIC / name).read_bytes()
        assert len(data) < MAX_BYTES and hashlib.sha256(data).hexdigest() == listed[name], name


def test_lamports_sample_latex_file() -> None:
    parsed = parse_file(PUBLIC / "sample2e.tex")
    doc = parsed.document
    assert (doc.type, doc.title, doc.year, doc.bibliography.authors) == (
        DocType.LATEX,
        "An Example Document",
        1994,
        ["Leslie Lamport"],
    )
    blocks = parsed.blocks
    assert [b.text for b in blocks if b.kind is BlockKind.HEADING] == ["Ordinary Text", "Displayed Text"]
    # The logo and the boxed word are the sentence's own words, not lost.
    logo = the_block(blocks, "makes no difference to LaTeX, but it makes a difference to you.")
    boxed = the_block(blocks, "within a word—especially when the word is a symbol like itemnum that makes little")
    assert logo.section == boxed.section == "Ordinary Text"
    assert the_block(blocks, "“ 'this' is what I just wrote, not 'that' ”").section == "Ordinary Text"
    assert [b.text for b in blocks if b.kind is BlockKind.FOOTNOTE] == ["This is an example of a footnote."]
    # Formulas in the linear form Word's equations are read in: scripts bracketed, primes as primes.
    assert the_block(blocks, "formulas like x-3y + z = 7 or a_1 > x^(2n) + y^(2n) > x' or").section == "Ordinary Text"
    assert the_block(blocks, "Γψ' = x'' + y^2 + z_i^n").section == "Displayed Text"
    nested = the_block(blocks, "LaTeX allows you to nest lists deeper than you really should.")
    assert (nested.kind, nested.section) == (BlockKind.LIST, "Displayed Text")


def test_an_officer_word_document() -> None:
    parsed = parse_file(PUBLIC / "officer-example.docx")
    doc = parsed.document
    assert (doc.type, doc.title, doc.year) == (DocType.DOCX, "document title", 2017)
    headings = [(b.text, b.parents) for b in parsed.blocks if b.kind is BlockKind.HEADING]
    assert headings == [
        ("Title 1", []),
        ("Title 2", []),
        ("Sub title 1", ["Title 2"]),
        ("Sub title 2", ["Title 2"]),
    ]
    lorem = the_block(parsed.blocks, "Phasellus nec nunc vitae nulla interdum volutpat eu ac massa.")
    assert (lorem.section, lorem.parents) == ("Sub title 1", ["Title 2"])
    (table,) = [b for b in parsed.blocks if b.kind is BlockKind.TABLE]
    assert table.section == "Sub title 2" and table.text.startswith("Petals | Internode | Sepal | Bract\n")


def test_the_latin_modern_math_word_page() -> None:
    """Eleven lines of equations and a few words, all of it Word's Office Math: python-docx read no text of it."""
    parsed = parse_file(PUBLIC / "lm-math-equations.docx")
    assert (parsed.document.type, parsed.document.year) == (DocType.DOCX, 2014)
    lines = [b.text for b in parsed.blocks]
    assert len(lines) == 11 and "(x+a)^n=∑_(k=1)^n ∫_(t_1)^(t_2) (n/k)f(x)^ka^(n-k)dx" in lines
    assert "ℵ_0<2^(ℵ_0)<2^(2^(ℵ_0))" in lines and "(1+x)^n=1+(nx)/(1!)+(n(n-1)x^2)/(2!)+…" in lines
    assert lines[-1].endswith("=[π∫_0^∞ e^(-u)du]^(1/2)=√π")
    assert the_block(parsed.blocks, "pięć").text == "aaaaaaaSiedém aaaaapięć"


def test_word_equations_are_text_of_their_paragraph(tmp_path: Path) -> None:
    doc = Document()
    inline = doc.add_paragraph("The runoff is ")
    inline._p.append(
        _equation("<m:f><m:num><m:r><m:t>V</m:t></m:r></m:num><m:den><m:r><m:t>At</m:t></m:r></m:den></m:f>")
    )
    inline.add_run(" on the Orrin roof.")
    square = "<m:sSup><m:e><m:r><m:t>c</m:t></m:r></m:e><m:sup><m:r><m:t>2</m:t></m:r></m:sup></m:sSup>"
    alone = doc.add_paragraph()
    alone._p.append(
        parse_xml(f"<m:oMathPara {nsdecls('m')}><m:oMath><m:r><m:t>E=m</m:t></m:r>{square}</m:oMath></m:oMathPara>")
    )
    cell = doc.add_table(rows=1, cols=1).cell(0, 0).paragraphs[0]
    cell._p.append(
        _equation("<m:rad><m:radPr><m:degHide m:val='1'/></m:radPr><m:deg/><m:e><m:r><m:t>2</m:t></m:r></m:e></m:rad>")
    )
    doc.save(tmp_path / "runoff.docx")
    assert [b.text for b in parse_file(tmp_path / "runoff.docx").blocks] == [
        "The runoff is V/(At) on the Orrin roof.",
        "E=mc^2",
        "√2",
    ]


def test_an_equation_nested_past_any_real_one_is_read_to_a_bounded_depth() -> None:
    inner = "<m:r><m:t>x</m:t></m:r>"
    for _ in range(100):  # lxml refuses XML deeper than 256 elements: this is 200
        inner = f"<m:sSup><m:e><m:r><m:t>e</m:t></m:r></m:e><m:sup>{inner}</m:sup></m:sSup>"
    text = math_text(_equation(inner))
    assert text.startswith("e^(e^(e^(") and "x" not in text and len(text) < 200


def _equation(inner: str):
    return parse_xml(f"<m:oMath {nsdecls('m')}>{inner}</m:oMath>")


def test_an_officer_presentation() -> None:
    parsed = parse_file(PUBLIC / "officer-example.pptx")
    assert (parsed.document.type, parsed.document.page_count) == (DocType.PPTX, 3)
    sections = {(b.page, b.section) for b in parsed.blocks}
    assert sections == {(1, "Title"), (2, "Hi"), (3, "Slide 3")}  # the third slide has no title
    tables = [(b.page, b.text.splitlines()[0]) for b in parsed.blocks if b.kind is BlockKind.TABLE]
    assert tables == [(1, "Header 1 | Header 2 | Header 3"), (3, "a |  |  |  | d")]
    assert the_block(parsed.blocks, "an unordered").kind is BlockKind.LIST


def test_the_live_systems_manual_epub() -> None:
    """Its manifest lists places in chapters ("about-manual.xhtml#o8") as items of their own: ebooklib
    refused the whole book for them."""
    parsed = parse_file(PUBLIC / "live-manual.en.epub")
    doc = parsed.document
    assert (doc.type, doc.title, doc.year, doc.page_count) == (DocType.EPUB, "Live Systems Manual", 2015, 47)
    # Its creator is "Live Systems Project <debian-live@lists.debian.org>": the e-mail made it no name.
    assert doc.bibliography.authors == ["Live Systems Project"]
    kernel = the_block(parsed.blocks, "It uses an unaltered Debian kernel with no additional patches.")
    assert (kernel.page, kernel.section, kernel.kind) == (7, "2. About the Live Systems Project", BlockKind.LIST)
    # The paragraph number the generator prints before a chapter's heading is in that chapter.
    assert {b.section for b in parsed.blocks if b.page == 7} == {"2. About the Live Systems Project"}
    words = sum(len(b.text.split()) for b in parsed.blocks)
    assert words > 20_000  # the whole manual, not its table of contents


def test_the_docutils_opendocument_template() -> None:
    """Written by LibreOffice with indented XML: odfpy took the whitespace before the body for it."""
    parsed = parse_file(PUBLIC / "docutils-styles.odt")
    doc = parsed.document
    assert (doc.type, doc.year, doc.bibliography.authors) == (DocType.ODT, 2006, ["Dave Kuhlman"])
    (table,) = [b for b in parsed.blocks if b.kind is BlockKind.TABLE]
    assert table.text.startswith("Do not change the name of this table. rststyle-table-0 is the default style")
    paragraphs = [b.text for b in parsed.blocks if b.kind is BlockKind.PARAGRAPH]
    assert paragraphs[0] == "Table style 0 (rststyle-table-0) – the default table style"


def test_an_indented_opendocument_is_read(tmp_path: Path) -> None:
    path = make_odt(tmp_path / "meadow.odt")
    _rewrite(path, "content.xml", lambda xml: xml.replace(b"<office:text>", b"<office:text>\n  "))
    _rewrite(path, "content.xml", lambda xml: xml.replace(b"<office:body>", b"<office:body>\n "))
    (finding,) = [b for b in parse_file(path).blocks if "Tessin" in b.text]
    assert finding.section == "Findings"


def test_a_book_listing_places_in_a_chapter_as_items(tmp_path: Path) -> None:
    path = make_epub(tmp_path / "rain.epub")
    place = '<item id="gauges" href="roofs.xhtml#gauges" media-type="application/xhtml+xml"/>'
    _rewrite(path, "EPUB/content.opf", lambda opf: opf.replace(b"</manifest>", place.encode() + b"</manifest>"))
    _rewrite(path, "EPUB/content.opf", lambda opf: opf.replace(b"</spine>", b'<itemref idref="gauges"/></spine>'))
    parsed = parse_file(path)
    assert parsed.document.page_count == 2
    assert [b.section for b in parsed.blocks if "within minutes" in b.text] == ["Roofs"]


def test_what_precedes_a_chapters_heading_is_in_the_chapter_and_creators_lose_their_emails(tmp_path: Path) -> None:
    book = epub.EpubBook()
    book.set_identifier("numbers")
    book.set_title("Numbered Paragraphs")
    book.add_author("Ines Haldane <ines@haldane.example>")
    book.add_author("Tomas Brevik (tomas@brevik.example)")
    chapter = epub.EpubHtml(title="Roofs", file_name="roofs.xhtml")
    chapter.content = "<html><body><p>4</p><h1>Roofs</h1><p>Rooftops shed water within minutes.</p></body></html>"
    book.add_item(chapter)
    book.toc, book.spine = (chapter,), [chapter]
    book.add_item(epub.EpubNcx())
    epub.write_epub(str(tmp_path / "numbers.epub"), book)
    parsed = parse_file(tmp_path / "numbers.epub")
    assert parsed.document.bibliography.authors == ["Ines Haldane", "Tomas Brevik"]
    assert [(b.text, b.section) for b in parsed.blocks] == [
        ("4", "Roofs"),
        ("Roofs", "Roofs"),
        ("Rooftops shed water within minutes.", "Roofs"),
    ]


def test_latex_logos_boxes_quotes_and_scripts_keep_their_words() -> None:
    source = r"""\documentclass{article}\begin{document}
\section{Tools}
Files for \LaTeXe\ and \BibTeX\ are typed in \texttt{vim}; the \mbox{\emph{Orrin}} box stays whole,
\makebox[3cm]{Tessin} too, and `single' quotes read as ``double'' ones do: \(x^{2n} = y''\).
\end{document}
"""
    (heading, body) = load_latex(source).blocks
    assert heading.text == "Tools" and body.text == (
        "Files for LaTeX2e and BibTeX are typed in vim; the Orrin box stays whole, Tessin too, "
        "and 'single' quotes read as “double” ones do: x^(2n) = y''."
    )


QUESTIONS = [
    (
        "What does LaTeX do with the spaces you type in a formula?",
        "sample2e.tex",
        1,
        "Ordinary Text",
        "\u00a7 Ordinary Text",
    ),
    (
        "Which kernel does a Debian live system ship?",
        "live-manual.en.epub",
        7,
        "2. About the Live Systems Project",
        "ch. 7 \u00a7 2. About the Live Systems Project",
    ),
]
# (query, a known passage of the file, its file, the section its citation names)
SEARCHED = [
    ("Phasellus nec nunc vitae nulla", "Phasellus nec nunc", "officer-example.docx", "Sub title 1"),
    ("an unordered list of paragraphs", "an unordered", "officer-example.pptx", "Hi"),
    ("Name all table styles with prefix rststyle-table", "Name all table styles", "docutils-styles.odt", ""),
    ("how many spaces you type", "one is as good as 100", "sample2e.tex", "Ordinary Text"),
    ("iedém aaaaapięć", "pięć", "lm-math-equations.docx", ""),
]


@pytest.fixture
def public_library(make_library, tmp_path: Path):
    folder = tmp_path / "public"
    folder.mkdir()
    for name in PUBLIC_FILES:
        (folder / name).write_bytes((PUBLIC / name).read_bytes())
    library = make_library()
    summary = library.ingest([folder])
    assert {f.outcome.value for f in summary.files} == {"ok"}, [(f.path, f.reason) for f in summary.files]
    return library


def test_public_files_are_searched_and_answered_with_their_sections(public_library) -> None:
    for query, passage, name, section in SEARCHED:
        top = hybrid_search(public_library, query, k=3)[0]
        document = public_library.registry.document(top.doc_id)
        # A citation names its block's section (a short slide's chunk is named for the slide it joins).
        assert (Path(document.path).name, the_block(top.blocks, passage).section) == (name, section), query
    strategy = OfflineStrategy(public_library.embedder)
    for question, name, page, section, where in QUESTIONS:
        answered_where(public_library, strategy, question, (name, page, section, where))


def _rewrite(path: Path, member: str, change) -> None:
    """The package with one member changed, the others as they were (the mimetype first, stored)."""
    with zipfile.ZipFile(path) as package:
        items = [(info, package.read(info)) for info in package.infolist()]
    with zipfile.ZipFile(path, "w") as package:
        for info, data in items:
            package.writestr(info, change(data) if info.filename == member else data)
