"""Tests for the PDF loader: generated PDFs (always run) and the shared real papers (skipped when
``../shared/data/pdfs`` is absent; CI always has them)."""

from __future__ import annotations

import logging
import random
import re
import unicodedata
from pathlib import Path

import pdfplumber
import pytest
from fpdf import FPDF

from corpus.errors import LoadError
from corpus.loaders.pdf import load_pdf
from corpus.loaders.pdf.metadata import metadata_title
from corpus.models import BlockKind, LoadedDocument
from corpus.parsing import parse_file

from .loaded_pdfs import loaded_pdf
from .paths import SAMPLE_DOCS, SHARED

SHARED_PDFS = SHARED / "data" / "pdfs"
EXPECTED_PAGES = {
    "1903.10676.pdf": 1,
    "2020.acl-main.447.pdf": 15,
    "2023.eacl-main.121.pdf": 20,
    "2203.00130v1.pdf": 39,
    "2206.10883v3.pdf": 37,
    "2302.07302v1.pdf": 15,
    "2304.02623v1.pdf": 4,
    "papermage.pdf": 13,
}
ARXIV_STAMPED = {"2203.00130v1.pdf": 2022, "2206.10883v3.pdf": 2022, "2302.07302v1.pdf": 2023, "2304.02623v1.pdf": 2023}


def _shared_missing() -> bool:
    return not all((SHARED_PDFS / name).is_file() for name in EXPECTED_PAGES)


needs_shared = pytest.mark.skipif(
    _shared_missing(),
    reason=f"shared test PDFs not found in {SHARED_PDFS} (PRP_SHARED_DIR points to the shared/ folder)",
)


def loaded(name: str) -> LoadedDocument:
    """Each shared PDF is loaded once per test session (``tests.loaded_pdfs``)."""
    return loaded_pdf(SHARED_PDFS / name)


def texts(doc: LoadedDocument, kind: BlockKind | None = None) -> list[str]:
    return [b.text for b in doc.blocks if kind is None or b.kind is kind]


def index_of(doc: LoadedDocument, snippet: str) -> int:
    for i, b in enumerate(doc.blocks):
        if snippet in b.text:
            return i
    raise AssertionError(f"no block contains {snippet!r}")


_ACCENTS = "\u00a8\u00b4`\u02c6\u02dc\u00b8\u02c7\u02d8\u02d9\u02da\u02dd\u00af"


def compact(text: str) -> str:
    """Comparable form of text: no whitespace, hyphens, cell separators (nor the bars a cell prints,
    written "∣" in a table's text) or accents."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch) and ch not in _ACCENTS)
    return re.sub(r"[\s\-\u2010\u00ad|\u2223]+", "", text)


# ---------------------------------------------------------------------------------------------
# Generated PDFs


def _paper_pdf(path: Path) -> Path:
    """A two-page, two-column 'paper': title, headings, hyphenated line breaks, words set with
    tight gaps and no space characters (as TeX does), a running header, page numbers, references."""
    pdf = FPDF(format="A4", unit="pt")
    pdf.set_auto_page_break(False)

    def header(page: int) -> None:
        pdf.set_font("helvetica", size=8)
        pdf.text(60, 40, "Proceedings of the Workshop on Made-Up Results 2021")
        pdf.text(290, 810, str(page))

    def lines(x: float, y: float, rows: list[str], size: float = 10, pitch: float = 12.5, style: str = "") -> float:
        pdf.set_font("helvetica", style=style, size=size)
        for row in rows:
            pdf.text(x, y, row)
            y += pitch
        return y

    def tight(x: float, y: float, words: list[str], size: float = 10) -> None:
        # One glyph run per word with a 0.25 em gap and no space character between them.
        pdf.set_font("helvetica", size=size)
        for word in words:
            pdf.text(x, y, word)
            x += pdf.get_string_width(word) + 0.25 * size

    pdf.add_page()
    header(1)
    pdf.set_font("helvetica", style="B", size=18)
    pdf.text(120, 90, "A Study of Imaginary Retrieval Systems")
    tight(200, 120, ["Alice", "Zed", "Bob", "Young"])
    left, right = 60, 310
    y = lines(left, 170, ["Abstract"], size=12, style="B")
    y = lines(
        left,
        y + 6,
        [
            "We study left column retrieval in a small",
            "and entirely synthetic corpus of documents",
            "with a dense retriev-",
            "al model that is state-of-the-",
            "art on every benchmark we made up.",
        ],
    )
    y = lines(left, y + 14, ["1 Introduction"], size=12, style="B")
    lines(
        left,
        y + 6,
        [
            "Introduction text sits in the left column",
            "and continues below the abstract before",
            "the reader moves to the right column.",
        ],
    )
    lines(
        right,
        170,
        [
            "Right column text comes after all of the",
            "left column text in reading order even",
            "though it starts higher up on the page,",
            "as a reader of a two-column paper reads",
            "down the left column first and only then",
            "moves over to the top of the right one.",
        ],
    )
    pdf.add_page()
    header(2)
    y = lines(left, 100, ["2 Method"], size=12, style="B")
    y = lines(left, y + 6, ["The method section explains how nothing", "was actually measured in this study."])
    y = lines(left, y + 14, ["References"], size=12, style="B")
    lines(
        left, y + 6, ["Alice Zed. 2020. Retrieval of imaginary", "things. Journal of Nothing, 1:1-2."], size=9, pitch=11
    )
    lines(left, y + 34, ["Bob Young. 2019. More imaginary things.", "Made-Up Press."], size=9, pitch=11)
    pdf.set_title("A Study of Imaginary Retrieval Systems")
    pdf.output(str(path))
    return path


@pytest.fixture(scope="module")
def paper(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, LoadedDocument]:
    path = _paper_pdf(tmp_path_factory.mktemp("pdf") / "paper.pdf")
    return path, load_pdf(path)


def test_generated_paper_metadata(paper: tuple[Path, LoadedDocument]) -> None:
    _, doc = paper
    assert doc.page_count == 2
    assert doc.title == "A Study of Imaginary Retrieval Systems"
    assert doc.year is not None and doc.year >= 2020  # from the PDF's CreationDate


def test_generated_paper_reading_order_and_sections(paper: tuple[Path, LoadedDocument]) -> None:
    _, doc = paper
    order = [
        index_of(doc, "A Study of Imaginary Retrieval Systems"),
        index_of(doc, "We study left column retrieval"),
        index_of(doc, "Introduction text sits in the left column"),
        index_of(doc, "Right column text comes after"),
        index_of(doc, "The method section explains"),
    ]
    assert order == sorted(order)
    intro = doc.blocks[index_of(doc, "Introduction text sits")]
    assert intro.section == "1 Introduction" and intro.kind is BlockKind.PARAGRAPH
    headings = texts(doc, BlockKind.HEADING)
    assert {"Abstract", "1 Introduction", "2 Method", "References"} <= set(headings)


def test_generated_paper_dehyphenation(paper: tuple[Path, LoadedDocument]) -> None:
    _, doc = paper
    abstract = doc.blocks[index_of(doc, "We study left column retrieval")].text
    assert "dense retrieval model that is state-of-the-art on every benchmark" in abstract
    assert "retriev-" not in abstract and "retriev al" not in abstract


def test_generated_paper_tight_word_gaps(paper: tuple[Path, LoadedDocument]) -> None:
    path, doc = paper
    with pdfplumber.open(path) as pdf:  # the trap: pdfplumber's default 3 pt tolerance glues them
        assert "AliceZedBobYoung" in pdf.pages[0].extract_text()
    assert any("Alice Zed Bob Young" in t for t in texts(doc))
    assert not any("AliceZed" in t for t in texts(doc))


def test_generated_paper_headers_page_numbers_references(paper: tuple[Path, LoadedDocument]) -> None:
    _, doc = paper
    assert not any("Made-Up Results" in t for t in texts(doc))  # running header
    assert not any(t.strip() in ("1", "2") for t in texts(doc))  # page numbers
    refs = [b for b in doc.blocks if b.kind is BlockKind.REFERENCE]
    assert [b.text[:10] for b in refs] == ["Alice Zed.", "Bob Young."]
    assert all(b.section == "References" for b in refs)


def test_generated_paper_blocks_inside_bboxes(paper: tuple[Path, LoadedDocument]) -> None:
    path, doc = paper
    assert_blocks_inside_bboxes(path, doc, doc.blocks)


def _report_pdf(path: Path) -> Path:
    """A word-processor style report: single column, real spaces, paragraphs set apart by space
    rather than indents, a grid table drawn as cell boxes, a running header and "Page N of M"."""
    pdf = FPDF(format="letter")
    pdf.set_auto_page_break(False)
    pdf.set_title("Untitled")  # a placeholder title: the visual title is used instead
    for page in range(3):
        pdf.add_page()
        pdf.set_font("helvetica", size=8)
        pdf.set_xy(10, 8)
        pdf.cell(0, 5, "Internal report - draft", align="C")
        pdf.set_xy(10, 265)
        pdf.cell(0, 5, f"Page {page + 1} of 3", align="C")
        pdf.set_xy(10, 25)
        if page == 0:
            pdf.set_font("helvetica", style="B", size=20)
            pdf.multi_cell(0, 10, "Quarterly Findings on Widget Reliability")
            pdf.ln(4)
        pdf.set_font("helvetica", style="B", size=14)
        pdf.multi_cell(0, 8, f"{page + 1}. Findings of part {page + 1}")
        pdf.ln(2)
        pdf.set_font("times", size=11)
        for i in range(2):
            pdf.multi_cell(
                0, 5.5, f"Paragraph {i + 1} of part {page + 1}. " + "Widgets were tested in every factory. " * 8
            )
            pdf.ln(4)
        for item in ("Failures cluster in the winter months.", "Newer machines fail less often than older ones. " * 3):
            pdf.set_x(10)
            pdf.cell(6, 5.5, "-")
            pdf.multi_cell(180, 5.5, item)
        pdf.ln(3)
        if page == 1:
            pdf.set_font("helvetica", size=10)
            with pdf.table() as table:
                for cells in (("Factory", "Units", "Failures"), ("North", "1200", "13"), ("South", "900", "4")):
                    row = table.row()
                    for cell in cells:
                        row.cell(cell)
            pdf.ln(2)
            pdf.set_font("times", style="I", size=10)
            pdf.multi_cell(0, 5, "Table 1: Failures per factory.")
    pdf.output(str(path))
    return path


def test_generated_report(tmp_path: Path) -> None:
    path = _report_pdf(tmp_path / "report.pdf")
    doc = load_pdf(path)
    assert doc.title == "Quarterly Findings on Widget Reliability"
    kinds = [(b.page, b.kind, b.text[:24]) for b in doc.blocks]
    assert (1, BlockKind.HEADING, "Quarterly Findings on Wi") == kinds[0]
    # Headings opening each page at the same height are not taken for running headers.
    assert [t for t in texts(doc, BlockKind.HEADING)][1:] == [f"{n}. Findings of part {n}" for n in (1, 2, 3)]
    paragraphs = texts(doc, BlockKind.PARAGRAPH)
    assert [t.split(".")[0] for t in paragraphs] == [f"Paragraph {i} of part {n}" for n in (1, 2, 3) for i in (1, 2)]
    assert len(texts(doc, BlockKind.LIST)) == 6
    assert texts(doc, BlockKind.TABLE) == ["Factory | Units | Failures\nNorth | 1200 | 13\nSouth | 900 | 4"]
    assert texts(doc, BlockKind.CAPTION) == ["Table 1: Failures per factory."]
    assert not any("Internal report" in t or "of 3" in t for t in texts(doc))
    section = {b.text.split(".")[0]: b.section for b in doc.blocks}
    assert section["Paragraph 2 of part 3"] == "3. Findings of part 3"
    assert_blocks_inside_bboxes(path, doc, doc.blocks)


def _handbook_pdf(path: Path, *, company_at: float, meta_title: str | None, running_head: str) -> Path:
    """A company handbook: the company's name set large on every page (at ``company_at`` mm from
    the top), a running head in body size, the handbook's real title on page 1 below the name."""
    pdf = FPDF(format="letter")
    pdf.set_auto_page_break(False)
    if meta_title:
        pdf.set_title(meta_title)
    pdf.set_author("Dana Whitfield")
    for page in range(4):
        pdf.add_page()
        pdf.set_font("helvetica", style="B", size=22)
        pdf.set_xy(10, company_at)
        pdf.cell(0, 10, "Northwind Traders")
        pdf.set_font("helvetica", size=8)
        pdf.set_xy(10, 3)
        pdf.cell(0, 4, running_head, align="R")
        pdf.set_xy(10, 265)
        pdf.cell(0, 5, f"Page {page + 1}", align="C")
        pdf.set_xy(10, company_at + 25)
        if page == 0:
            pdf.set_font("helvetica", style="B", size=18)
            pdf.multi_cell(0, 9, "Employee Handbook for Warehouse Staff")
            pdf.ln(4)
        pdf.set_font("helvetica", style="B", size=13)
        pdf.set_x(10)
        pdf.multi_cell(0, 7, f"{page + 1}. Policies of part {page + 1}")
        pdf.set_font("times", size=11)
        for i in range(3):
            pdf.set_x(10)
            pdf.multi_cell(0, 5.5, f"Rule {i + 1} of part {page + 1}. " + "Staff wear safety boots on the floor. " * 8)
            pdf.ln(3)
    pdf.output(str(path))
    return path


@pytest.mark.parametrize(
    ("company_at", "meta_title", "running_head"),
    [
        # The company's name is a running header in large type and the metadata's title.
        (8, "Northwind Traders", "Staff handbook"),
        # The running head in body size is the metadata's title.
        (8, "Staff handbook", "Staff handbook"),
        # Below the margins, where no running header is looked for, and no metadata title.
        (40, None, "Staff handbook"),
    ],
)
def test_handbook_title_is_not_its_company_name_or_running_head(
    tmp_path: Path, company_at: float, meta_title: str | None, running_head: str
) -> None:
    path = _handbook_pdf(
        tmp_path / "handbook.pdf", company_at=company_at, meta_title=meta_title, running_head=running_head
    )
    doc = load_pdf(path)
    assert doc.title == "Employee Handbook for Warehouse Staff"
    assert not any(running_head in t for t in texts(doc))
    if company_at < 20:  # in the top margin: a running header, gone from the blocks too
        assert not any("Northwind" in t for t in texts(doc))


def test_a_running_head_that_is_the_title_stays_the_title(tmp_path: Path) -> None:
    # Journals repeat the paper's title at the top of every page: that is still its title.
    path = _handbook_pdf(
        tmp_path / "paper.pdf",
        company_at=40,
        meta_title="Employee Handbook for Warehouse Staff",
        running_head="Employee Handbook for Warehouse Staff",
    )
    assert load_pdf(path).title == "Employee Handbook for Warehouse Staff"


@pytest.mark.parametrize(
    ("meta", "title"),
    [
        ({"Title": "Employee Handbook", "Author": "Northwind Traders"}, "Employee Handbook"),
        ({"Title": "Northwind Traders", "Author": "Northwind  traders"}, None),  # the author's name
        ({"Title": "Microsoft Word - handbook_v3.docx"}, None),
        ({"Title": "handbook_v3"}, None),
    ],
)
def test_metadata_title_is_a_title(meta: dict, title: str | None) -> None:
    assert metadata_title(meta) == title


def test_sample_corpus_table_with_shaded_header_and_unruled_last_row() -> None:
    # fpdf2's HORIZONTAL_LINES tables: a grey header row above the first rule, no rule below the last row.
    path = SAMPLE_DOCS / "hydrology_review_2019.pdf"
    if not path.is_file():
        pytest.skip(f"{path} not found")
    doc = load_pdf(path)
    (table,) = [b for b in doc.blocks if b.kind is BlockKind.TABLE]
    rows = table.text.split("\n")
    assert rows[0].startswith("Climate group | Studies")
    assert rows[-1] == "All studies | 38 | 380-1150 | 56 | 38-78"
    assert not any("All studies" in t for t in texts(doc, BlockKind.PARAGRAPH))
    assert doc.blocks[doc.blocks.index(table) - 1].text.startswith("Table 1: Annual rainfall retention")
    assert_blocks_inside_bboxes(path, doc, [table])


def test_encrypted_pdf_is_a_load_error(tmp_path: Path) -> None:
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    pdf.text(20, 20, "secret")
    pdf.set_encryption(owner_password="owner", user_password="user")
    path = tmp_path / "locked.pdf"
    pdf.output(str(path))
    with pytest.raises(LoadError, match=r"encrypted \(password protected\)"):
        load_pdf(path)


def test_owner_password_only_still_loads(tmp_path: Path) -> None:
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    pdf.text(20, 20, "Readable without a password")
    pdf.set_encryption(owner_password="owner")
    path = tmp_path / "restricted.pdf"
    pdf.output(str(path))
    assert texts(load_pdf(path)) == ["Readable without a password"]


def _plain_pdf_bytes() -> bytes:
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    pdf.text(20, 20, "Hello world")
    return bytes(pdf.output())


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", r"empty"),
        (random.Random(7).randbytes(4096), r"corrupt or not a PDF"),
        (b"%PDF-1.7\n" + bytes(range(256)) * 8, r"corrupt or unreadable"),
        (None, r"corrupt or unreadable"),  # a valid PDF cut in half
    ],
    ids=["empty", "random-bytes", "pdf-header-then-garbage", "truncated"],
)
def test_broken_files_are_load_errors(tmp_path: Path, content: bytes | None, message: str) -> None:
    if content is None:
        data = _plain_pdf_bytes()
        content = data[: len(data) // 2]
    path = tmp_path / "broken.pdf"
    path.write_bytes(content)
    with pytest.raises(LoadError, match=message) as info:
        load_pdf(path)
    assert "Traceback" not in str(info.value) and len(str(info.value)) < 220


def test_a_broken_page_does_not_sink_the_document(tmp_path: Path) -> None:
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    pdf.text(20, 20, "First page, soon unreadable")
    pdf.add_page()
    pdf.text(20, 20, "Second page survives")
    data = bytearray(pdf.output())
    start = data.find(b"stream\n") + 10  # garble the first page's compressed content stream
    data[start : start + 20] = b"A" * 20
    path = tmp_path / "damaged.pdf"
    path.write_bytes(bytes(data))
    doc = load_pdf(path)
    assert doc.page_count == 2
    assert [(b.page, b.text) for b in doc.blocks] == [(2, "Second page survives")]


def test_pdf_without_text_is_a_load_error(tmp_path: Path) -> None:
    pdf = FPDF()
    pdf.add_page()
    pdf.rect(20, 20, 50, 50)
    path = tmp_path / "scan.pdf"
    pdf.output(str(path))
    with pytest.raises(LoadError, match="no text could be extracted"):
        load_pdf(path)


def test_pdfminer_logging_is_quiet(paper: tuple[Path, LoadedDocument]) -> None:
    assert logging.getLogger("pdfminer").getEffectiveLevel() >= logging.ERROR


# ---------------------------------------------------------------------------------------------
# Shared real papers


def assert_blocks_inside_bboxes(path: Path, doc: LoadedDocument, blocks: list) -> None:
    """Each block's words are in pdfplumber's text of its page within its (1 pt padded) bbox.

    The text is that of the characters lying wholly inside the box (``page.within_bbox``, done on
    the page's characters once); ``page.crop`` would also keep the edges of neighbouring lines whose
    glyph boxes overlap, and pdfplumber then interleaves their characters with the block's
    ("1Indsetnruoctetisoens"). Words must also mostly come in order.
    """
    by_page: dict[int, list] = {}
    for b in blocks:
        by_page.setdefault(b.page, []).append(b)
    with pdfplumber.open(path) as pdf:
        for number, page_blocks in sorted(by_page.items()):
            page = pdf.pages[number - 1]
            chars = page.chars
            for b in page_blocks:
                box = (b.bbox.x0 - 1, b.bbox.top - 1, b.bbox.x1 + 1, b.bbox.bottom + 1)
                inside = compact(pdfplumber.utils.extract_text(pdfplumber.utils.within_bbox(chars, box)))
                tokens = [t for t in (compact(t) for t in b.text.split()) if t]
                position = in_order = odd = words = 0
                for token in tokens:
                    if token not in inside:
                        # pdfplumber puts sub- and superscripts on lines of their own ("R-L" / "f1"),
                        # so "R-Lf1" is not there as one piece; its characters must be.
                        odd += 1
                        assert all(ch in inside for ch in token), f"{path.name} p{number}: {token!r} not in its bbox"
                        continue
                    if len(token) < 3 or not any(ch.isalpha() for ch in token):
                        continue  # footnote marks and symbols: pdfplumber may put them on a line of their own
                    words += 1
                    found = inside.find(token, position)
                    if found >= 0:
                        in_order += 1
                        position = found + len(token)
                where = f"{path.name} p{number} {b.text[:80]!r}"
                assert odd <= 1 + 0.1 * len(tokens), f"{where}: {odd} of {len(tokens)} words not in its bbox"
                if b.kind is not BlockKind.TABLE:  # pdfplumber orders table cells its own way
                    assert in_order >= 0.9 * words - 1, f"{where}: words out of order"
            page.close()


@pytest.mark.shared
@needs_shared
@pytest.mark.parametrize("name", sorted(EXPECTED_PAGES))
def test_shared_pdf_loads(name: str) -> None:
    doc = loaded(name)
    assert doc.page_count == EXPECTED_PAGES[name]
    assert doc.blocks
    with pdfplumber.open(SHARED_PDFS / name) as pdf:
        sizes = [(float(p.width), float(p.height)) for p in pdf.pages]
    for b in doc.blocks:
        assert 1 <= b.page <= doc.page_count and b.text.strip() and b.bbox is not None
        width, height = sizes[b.page - 1]
        assert 0 <= b.bbox.x0 <= b.bbox.x1 <= width + 1 and 0 <= b.bbox.top <= b.bbox.bottom <= height + 1


@pytest.mark.shared
@needs_shared
class TestSharedPapers:
    @pytest.mark.parametrize("name", sorted(EXPECTED_PAGES))
    def test_block_text_is_inside_its_bbox(self, name: str) -> None:
        doc = loaded(name)
        # A deterministic sample: every block on the first, the middle and the last page (two pages
        # for long documents, to keep the test quick), and the tables of one more page.
        pages = (
            {1, (doc.page_count + 1) // 2} if doc.page_count > 20 else {1, (doc.page_count + 1) // 2, doc.page_count}
        )
        pages |= set(sorted({b.page for b in doc.blocks if b.kind is BlockKind.TABLE} - pages)[:1])
        sample = [b for b in doc.blocks if b.page in pages]
        assert_blocks_inside_bboxes(SHARED_PDFS / name, doc, sample)

    def test_no_arxiv_side_stamp_in_blocks(self) -> None:
        for name, year in ARXIV_STAMPED.items():
            doc = loaded(name)
            arxiv_id = name.removesuffix(".pdf")
            for text in texts(doc):
                assert "viXra" not in text and f"{arxiv_id} [cs" not in text and "]LC.sc[" not in text
                assert not re.search(r"\]\w\w\.sc\[", text)
            assert doc.year == year, name

    def test_words_are_separated(self) -> None:
        s2orc = loaded("2020.acl-main.447.pdf")
        assert "Kyle Lo" in s2orc.blocks[index_of(s2orc, "Lucy Lu Wang")].text
        plain = loaded("2203.00130v1.pdf")
        assert (
            "healthcare consumers may turn to the research literature"
            in plain.blocks[index_of(plain, "When seeking")].text
        )
        table = loaded("1903.10676.pdf")
        assert index_of(table, "Test performances of all BERT variants on all tasks") >= 0
        for name in EXPECTED_PAGES:
            for text in texts(loaded(name)):
                for glued in ("KyleLo", "LucyLuWang", "healthcareconsumers", "Whenseeking", "Testperformances"):
                    assert glued not in text, (name, text[:100])

    def test_dehyphenation(self) -> None:
        s2orc = loaded("2020.acl-main.447.pdf")
        abstract = s2orc.blocks[index_of(s2orc, "We introduce S2ORC")].text
        assert "The corpus consists of rich metadata" in abstract  # "cor-" / "pus"
        assert "each linked to their corresponding paper objects" in abstract  # "correspond-" / "ing"
        assert "English-language academic papers" in abstract
        conclusion = s2orc.blocks[index_of(s2orc, "We introduce S2ORC, the largest")].text
        assert "the largest publicly-available corpus" in conclusion  # a real hyphen at a line end
        for text in texts(s2orc):  # (a word hyphenated across a column or page break stays split)
            for broken in ("cor- pus", "correspond- ing", "pa- pers", "cor-pus", "correspond-ing", "bibliographypaper"):
                assert broken not in text
        assert any("bibliography-paper pair" in t for t in texts(s2orc))  # both parts are words of their own

    def test_references_are_marked(self) -> None:
        s2orc = loaded("2020.acl-main.447.pdf")
        start = index_of(s2orc, "Riaz Ahmad and Muhammad Tanvir Afzal. 2018")
        heading = s2orc.blocks[start - 1]
        assert heading.kind is BlockKind.HEADING and heading.text == "References"
        appendix = next(i for i, b in enumerate(s2orc.blocks) if b.kind is BlockKind.HEADING and i > start)
        refs = s2orc.blocks[start:appendix]
        assert len(refs) >= 40
        assert all(b.kind is BlockKind.REFERENCE and b.section == "References" for b in refs)
        assert s2orc.blocks[appendix].text == "A Background & Terminology"
        assert all(b.kind is not BlockKind.REFERENCE for b in s2orc.blocks[appendix:])
        citesee = loaded("2302.07302v1.pdf")
        entry = citesee.blocks[index_of(citesee, "[5] Iz Beltagy, Kyle Lo, and Arman Cohan. 2019. SciBERT")]
        assert entry.kind is BlockKind.REFERENCE and entry.section == "References"
        for name in EXPECTED_PAGES:
            if name != "1903.10676.pdf":
                assert len(texts(loaded(name), BlockKind.REFERENCE)) >= 20, name

    def test_tables(self) -> None:
        doc = loaded("1903.10676.pdf")
        tables = [b for b in doc.blocks if b.kind is BlockKind.TABLE]
        assert len(tables) == 2
        assert "BC5CDR" in tables[0].text and "SciCite (Cohan et al., 2019)" in tables[0].text
        assert "BIOBERT" in tables[1].text
        # Table words are not repeated in paragraphs.
        assert not any("JNLPBA (Collier" in t or "88.57" in t for t in texts(doc, BlockKind.PARAGRAPH))
        caption = doc.blocks[index_of(doc, "Table 1: Test performances")]
        assert caption.kind is BlockKind.CAPTION
        s2orc = loaded("2020.acl-main.447.pdf")
        assert any("No authors | 0.3M" in t for t in texts(s2orc, BlockKind.TABLE))

    def test_two_column_reading_order(self) -> None:
        s2orc = loaded("2020.acl-main.447.pdf")
        order = [
            index_of(s2orc, "S2ORC: The Semantic Scholar Open Research Corpus"),  # title
            index_of(s2orc, "Lucy Lu Wang"),  # authors (full width)
            index_of(s2orc, "We introduce S2ORC, 1 a large corpus"),  # abstract, left column
            index_of(s2orc, "Academic papers are an increasingly important"),  # introduction, left
            index_of(s2orc, "Figure 1: Inline citations"),  # right column
            index_of(s2orc, "PubMed Central, 3 CiteSeerX"),  # right column, lower
            index_of(s2orc, "Yet, existing corpora are not without"),  # page 2, left
            index_of(s2orc, "In this paper, we describe the construction"),  # page 2, right
        ]
        assert order == sorted(order)
        citesee = loaded("2302.07302v1.pdf")
        assert index_of(citesee, "When reading a scholarly article") < index_of(
            citesee, "Science builds on the past work"
        )

    def test_headings_and_sections(self) -> None:
        s2orc = loaded("2020.acl-main.447.pdf")
        headings = texts(s2orc, BlockKind.HEADING)
        for expected in ("Abstract", "1 Introduction", "2.1 Processing PDFs", "8 Conclusion", "References"):
            assert expected in headings
        assert s2orc.blocks[index_of(s2orc, "Academic papers are an increasingly")].section == "1 Introduction"
        assert (
            s2orc.blocks[index_of(s2orc, "We process PDFs from the Semantic Scholar")].section == "2.1 Processing PDFs"
        )
        # A run-in paragraph heading ("Selecting PDFs We remove ...") stays in its paragraph.
        assert "Selecting PDFs" not in headings
        for name in ("2302.07302v1.pdf", "2203.00130v1.pdf", "2304.02623v1.pdf"):
            assert "1 INTRODUCTION" in texts(loaded(name), BlockKind.HEADING), name
        for name in ("2023.eacl-main.121.pdf", "papermage.pdf", "2206.10883v3.pdf"):
            assert "1 Introduction" in texts(loaded(name), BlockKind.HEADING), name

    def test_titles_and_years(self) -> None:
        assert loaded("2020.acl-main.447.pdf").title == "S2ORC: The Semantic Scholar Open Research Corpus"
        assert loaded("2020.acl-main.447.pdf").year == 2020
        # No metadata title: the largest text on page 1.
        assert loaded("2023.eacl-main.121.pdf").title == (
            "LONGEVAL: Guidelines for Human Evaluation of Faithfulness in Long-form Summarization"
        )
        assert loaded("papermage.pdf").title.startswith("PaperMage: A Unified Toolkit")

    def test_captions_footnotes_lists(self) -> None:
        s2orc = loaded("2020.acl-main.447.pdf")
        assert s2orc.blocks[index_of(s2orc, "Figure 1: Inline citations")].kind is BlockKind.CAPTION
        footnote = s2orc.blocks[index_of(s2orc, "https://arxiv.org")]
        assert footnote.kind is BlockKind.FOOTNOTE and footnote.page == 1
        item = s2orc.blocks[index_of(s2orc, "• Domain: Beltagy et al. (2019)")]
        assert item.kind is BlockKind.LIST
        # "Table 4. On average, ..." continues a sentence at the top of a column: not a caption.
        assert s2orc.blocks[index_of(s2orc, "Table 4. On average")].kind is BlockKind.PARAGRAPH

    def test_running_headers_removed(self) -> None:
        citesee = loaded("2302.07302v1.pdf")
        assert not any(t.startswith("CHI ’23, April 23–28, 2023, Hamburg, Germany") for t in texts(citesee))
        s2orc = loaded("2020.acl-main.447.pdf")
        assert not any(re.fullmatch(r"49\d\d", t) for t in texts(s2orc))  # proceedings page numbers

    def test_deterministic_through_parse_file(self) -> None:
        name = "2304.02623v1.pdf"
        first = loaded(name)
        parsed = parse_file(SHARED_PDFS / name)  # loads the file again, then assigns ids
        assert (parsed.document.title, parsed.document.page_count, parsed.document.year) == (first.title, 4, 2023)
        again = [(b.page, b.bbox, b.section, b.kind, b.text) for b in parsed.blocks]
        assert again == [(b.page, b.bbox, b.section, b.kind, b.text) for b in first.blocks]
