"""Tables read as data: a PDF table's rows laid on its grid of columns, every row read with its label
and its columns' names, and a question asking an attribute of a thing answered from the cell at that
row and column, quoted as the row and cited to the table block. Small made-up documents; the PDF is
drawn by fpdf2 and read by pdfplumber, the library is real (Qdrant, fastembed)."""

from __future__ import annotations

from pathlib import Path

from fpdf import FPDF

from corpus.loaders.pdf import load_pdf
from corpus.models import BlockKind
from corpus.table_text import TableRow, indexed_text, table_line, table_rows
from graph.run import run_research
from strategies.offline.strategy import OfflineStrategy
from strategies.reading.question import parse_question
from strategies.reading.question_types import AnswerType, question_type
from strategies.reading.table_cells import cell_answer
from strategies.reading.text import content_stems

RESULTS = """Task | Dataset | Lumen | | Corvid |
 | | Frozen | Tuned | Frozen | Tuned
NER | Alder | 70.1 | 72.3 | 71.0 | 74.9
 | Birch | 60.2 | 61.8 | n/a | 66.4
Average | | 65.2 | 67.1 | 71.0 | 70.7"""


# The row's context as the reader gives it: its document's title and its table's caption.
CAPTIONED = frozenset(content_stems("Lumen. Table 2: F1 on the two datasets."))


def _rows(text: str = RESULTS) -> dict[str, TableRow]:
    return {row.label: row for row in table_rows(text)}


def test_rows_are_read_under_their_columns_names() -> None:
    rows = _rows()
    # An upper header's name carries over the columns the row below names; "n/a" is no value.
    assert (
        rows["NER Alder"].reading()
        == "NER Alder: Lumen Frozen 70.1; Lumen Tuned 72.3; Corvid Frozen 71.0; Corvid Tuned 74.9"
    )
    assert rows["Birch"].reading() == "Birch: Lumen Frozen 60.2; Lumen Tuned 61.8; Corvid Tuned 66.4"
    # The quoted line leaves out the empty cells at its ends, and stands in the block's text.
    assert rows["Birch"].line == "Birch | 60.2 | 61.8 | n/a | 66.4"
    assert RESULTS[rows["Birch"].start :].startswith(rows["Birch"].line)


def test_group_labels_and_broken_header_words() -> None:
    grouped = "Dataset | Samples | Words\nShort | |\nAlpha | 1,200 | 31.5\nLong | |\nBeta | 403 | 1163.1"
    assert [r.reading() for r in table_rows(grouped)] == [
        "Alpha: Samples 1,200; Words 31.5",
        "Beta: Samples 403; Words 1163.1",
    ]
    # A header cell on two lines ("S2ORC-" over "SciBERT") is one name; a one-cell line under a header
    # whose body has no group labels is that second line, not a group.
    broken = "Dataset | SciBERT | Vega-\n | | Mini\nAlder | 83.6 | 84.6"
    assert table_rows(broken)[0].reading() == "Alder: SciBERT 83.6; Vega-Mini 84.6"
    assert table_rows("just a line of prose\nand another") == []


def test_a_table_is_indexed_with_its_columns_names() -> None:
    indexed = indexed_text(RESULTS, RESULTS)
    assert "Birch: Lumen Frozen 60.2; Lumen Tuned 61.8; Corvid Tuned 66.4" in indexed.split("\n")
    # A part of a long table is read with the whole table's header.
    part = RESULTS.split("\n", 3)[3]
    assert indexed_text(part, RESULTS).startswith("Birch: Lumen Frozen 60.2")


def test_the_asked_cell_is_the_answer() -> None:
    rows = _rows()
    context = CAPTIONED  # the document is the Lumen paper; its caption says the table holds F1
    assert cell_answer(parse_question("What F1 does tuned Corvid reach on Birch?"), rows["Birch"], context) == "66.4"
    # The paper's own name is its context, not a column: "in the Lumen paper ... for Corvid".
    assert (
        cell_answer(
            parse_question("What Frozen result does the Lumen paper report for Corvid on Alder?"),
            rows["NER Alder"],
            context,
        )
        == "71.0"
    )
    # Two columns alike ("Lumen" names both Frozen and Tuned): no guess.
    assert cell_answer(parse_question("What score does Lumen get on Alder?"), rows["NER Alder"], frozenset()) is None
    # An abbreviated column answers the words it abbreviates.
    sota = table_rows("Dataset | SOTA | Lumen\nAlder | 67.9 | 70.9")[0]
    assert (
        cell_answer(parse_question("What was the previous state-of-the-art result on Alder?"), sota, frozenset())
        == "67.9"
    )
    # A row with one value gives it, its footnote mark left out.
    single = table_rows("Papers w/ DOIs | 52.2M (64.3%)\nBibliography entries | 27.6 †")
    assert cell_answer(parse_question("How many bibliography entries?"), single[1], frozenset()) == "27.6"


def test_questions_asking_for_a_measure_ask_for_a_value() -> None:
    for question in (
        "What F1 does tuned Corvid reach on Birch?",
        "What is tuned Corvid's average score across all tasks?",
        "What result does the paper report for Corvid on Alder?",
        "On average, how many bibliography entries does a parsed paper have?",
    ):
        assert question_type(question).kind is AnswerType.QUANTITY, question
    assert question_type("What are the results of the study?").kind is AnswerType.DESCRIPTION


def _results_pdf(path: Path) -> Path:
    """A paper's page: a paragraph, then a ruled results table whose model names span two columns
    and whose task label is printed once for two rows."""
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=11)
    pdf.multi_cell(0, 6, "We compare Lumen and Corvid on two datasets. Corvid is our model.")
    pdf.ln(4)
    pdf.set_font("helvetica", size=10)
    with pdf.table(col_widths=(20, 25, 20, 20, 20, 20), text_align="CENTER") as table:
        header = table.row()
        for text, span in (("Task", 1), ("Dataset", 1), ("Lumen", 2), ("Corvid", 2)):
            header.cell(text, colspan=span)
        for cells in (
            ("", "", "Frozen", "Tuned", "Frozen", "Tuned"),
            ("NER", "Alder", "70.1", "72.3", "71.0", "74.9"),
            ("", "Birch", "60.2", "61.8", "62.5", "66.4"),
        ):
            row = table.row()
            for text in cells:
                row.cell(text)
    pdf.ln(2)
    pdf.set_font("helvetica", style="I", size=10)
    pdf.multi_cell(0, 5, "Table 2: F1 of Lumen and Corvid on the two datasets.")
    pdf.output(str(path))
    return path


def test_a_pdf_table_is_laid_on_its_grid(tmp_path: Path) -> None:
    doc = load_pdf(_results_pdf(tmp_path / "results.pdf"))
    (table,) = [b for b in doc.blocks if b.kind is BlockKind.TABLE]
    rows = {row.label: row.reading() for row in table_rows(table.text)}
    assert rows == {
        "NER Alder": "NER Alder: Lumen Frozen 70.1; Lumen Tuned 72.3; Corvid Frozen 71.0; Corvid Tuned 74.9",
        "Birch": "Birch: Lumen Frozen 60.2; Lumen Tuned 61.8; Corvid Frozen 62.5; Corvid Tuned 66.4",
    }


def test_a_value_question_is_answered_from_its_cell_and_cited_to_the_table(make_library, tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    _results_pdf(folder / "results.pdf")
    (folder / "notes.md").write_text(
        "# Lab notes\n\nCorvid trained for two days on one machine. Lumen is the baseline we compare against.\n"
    )
    library = make_library()
    library.ingest([folder])
    result = run_research(
        library, OfflineStrategy(library.embedder), "What F1 does tuned Corvid reach on Birch?", single_question=True
    )
    (section,) = result.report.sections
    lead = section.claims[0]
    assert lead.answer == "66.4"
    assert lead.text == "Birch | 60.2 | 61.8 | 62.5 | 66.4"
    (citation,) = [c for c in result.report.citations if c.number == lead.citations[0]]
    table = [b for b in library.registry.blocks_of(citation.resolution.doc_id) if b.kind is BlockKind.TABLE]
    assert citation.resolution.block_ids == [table[0].block_id]
    assert citation.resolution.page == 1 and citation.resolution.bboxes
    # The table's other rows are about other things: none is quoted beside the answer.
    assert not [c for c in section.claims[1:] if "|" in c.text]


def test_a_reader_cannot_break_the_cell_reading() -> None:
    rows = _rows()
    # A paraphrase asks the same cell.
    assert (
        cell_answer(parse_question("What is the F1 score of tuned Corvid on Birch?"), rows["Birch"], CAPTIONED)
        == "66.4"
    )
    # A measure the table does not report (its caption says F1) is answered by no cell of it.
    assert cell_answer(parse_question("What recall does Corvid reach on Birch?"), rows["Birch"], CAPTIONED) is None
    # A share written out in words is a value as "49%" is.
    shares = table_rows("Site | Retained\nAlder | 49 percent\nBirch | 49%")
    assert [r.reading() for r in shares] == ["Alder: Retained 49 percent", "Birch: Retained 49%"]


def test_a_row_of_another_thing_gives_no_figure() -> None:
    rows = _rows()
    # "Birch" asked, the Alder row read: Alder's figure is not Birch's.
    assert (
        cell_answer(parse_question("What F1 does tuned Corvid reach on Birch?"), rows["NER Alder"], CAPTIONED) is None
    )
    # The source document named in the question is not a column: "the Corvid paper ... for Lumen".
    assert (
        cell_answer(
            parse_question("What tuned result does the Corvid paper report for Lumen on Birch?"),
            rows["Birch"],
            CAPTIONED,
        )
        == "61.8"
    )


def test_a_value_answers_only_for_the_thing_it_is_said_of(make_library, tmp_path: Path) -> None:
    """A sentence's total of everything filtered does not answer how many one filter removed while a
    row of the table names that filter; the row's value leads, cited to the table."""
    claims = _answer_from_note(
        make_library,
        tmp_path,
        "# Building the Harbor corpus\n\n"
        "We filter paper clusters to remove papers with no title, no authors or no abstract text.\n\n"
        "Subsequently, 41.5M paper clusters are filtered out based on these criteria and removed.\n\n"
        "Table 1: Paper clusters removed by each filter.\n\n"
        "| Filter | Paper clusters |\n|---|---|\n| No title | 12.1M |\n| No authors | 14.2M |\n"
        "| Not English | 15.2M |\n",
        "How many paper clusters were removed by the not-English filter?",
    )
    lead = claims[0]
    assert lead.answer == "15.2M"


def _tight_header_pdf(path: Path) -> Path:
    """A booktabs table (three rules, no borders) whose header names stand closer than an em apart, as
    a paper's tight results header often does: on the page they are one run of text, while the
    shorter values under them stand apart."""
    pdf = FPDF(unit="pt", format="A4")
    pdf.add_page()
    pdf.set_font("helvetica", size=10)
    pdf.text(72, 100, "We compare three methods on the harbor scenes.")
    em = 10
    x = [72.0, 150.0]
    for name in ("Train hours", "PSNR (dB)"):  # each next name 0.7 em after the one before
        x.append(x[-1] + pdf.get_string_width(name) + 0.7 * em)
    rows = [
        ("Method", "Train hours", "PSNR (dB)", "SSIM score"),
        ("Alder", "3.5", "23.47", "0.603"),
        ("Birch", "0.2", "26.32", "0.779"),
        ("Cedar", "1.5", "24.43", "0.677"),
    ]
    for i, cells in enumerate(rows):
        for left, text in zip(x, cells, strict=True):
            pdf.text(left, 132 + 16 * i + (4 if i else 0), text)
    for y in (120, 137, 200):
        pdf.line(70, y, x[-1] + 40, y)
    pdf.output(str(path))
    return path


def test_header_names_the_gutter_sets_apart_are_columns_of_their_own(tmp_path: Path) -> None:
    doc = load_pdf(_tight_header_pdf(tmp_path / "tight.pdf"))
    (table,) = [b for b in doc.blocks if b.kind is BlockKind.TABLE]
    assert table.text.split("\n")[0] == "Method | Train hours | PSNR (dB) | SSIM score"
    birch = _rows(table.text)["Birch"]
    assert birch.reading() == "Birch: Train hours 0.2; PSNR (dB) 26.32; SSIM score 0.779"
    assert cell_answer(parse_question("What PSNR does Birch reach?"), birch, frozenset()) == "26.32"


def test_a_bar_printed_in_a_cell_is_no_column_separator() -> None:
    # "|source|" is the length of a source: its bars are the cell's text, not two more columns.
    text = "\n".join(table_line(cells) for cells in (["Dataset", "|source| (words)"], ["Harbor", "7551"]))
    assert text == "Dataset | ∣source∣ (words)\nHarbor | 7551"
    assert [row.reading() for row in table_rows(text)] == ["Harbor: ∣source∣ (words) 7551"]


def test_an_average_asks_for_a_figure_and_a_possessive_in_a_phrase_owns_that_phrase() -> None:
    average = question_type("What is the average source length of Harbor in the Lumen team's survey?")
    assert average.kind is AnswerType.QUANTITY
    assert question_type("What is the median age of the residents?").kind is AnswerType.QUANTITY
    # "Lumen's" owns "capital", inside the phrase of the noun asked: the question asks a population.
    population = question_type("What is the population of Lumen's capital?")
    assert (population.kind, population.noun) == (AnswerType.QUANTITY, "population")
    assert question_type("What is the typical use of a green roof?").kind is AnswerType.DESCRIPTION


def test_an_average_in_a_table_is_answered_from_its_cell(make_library, tmp_path: Path) -> None:
    lead, *beside = _answer_from_note(
        make_library,
        tmp_path,
        "# A survey of long summaries\n\nWe survey the datasets of long-form summarization.\n\n"
        "Table 1: Datasets with their average source and summary lengths.\n\n"
        "| Dataset | \\|source\\| (words) | \\|summary\\| (words) | Papers |\n|---|---|---|---|\n"
        "| Harbor (2021) | 7551 | 547 | 16 |\n| Alder (2019) | 1284 | 174 | 19 |\n\n"
        "## Human evaluation in the survey\n\n"
        "Table 2: How the surveyed papers evaluate long summaries of source documents.\n\n"
        "| Evaluation of the summaries | Surveyed papers | Share of the surveyed papers |\n|---|---|---|\n"
        "| None | 101 | 62% |\n| Short summaries only | 17 | 11% |\n",
        "What is the average source length of Harbor in the survey's table?",
    )
    assert lead.answer == "7551"
    assert lead.text == "Harbor (2021) | 7551 | 547 | 16"
    # The other table's rows are about other things: none is quoted beside the answer.
    assert not [c.text for c in beside if "|" in c.text]


def test_a_column_naming_more_than_the_question_is_another_things() -> None:
    caption = frozenset(content_stems("Table 3: F1 on ChemRel."))
    rows = _rows("Dataset | Corvid | Harbor-Corvid\nChemRel | 83.64 | 84.59 ± 0.93")
    chem = rows["ChemRel"]
    assert cell_answer(parse_question("What F1 does Corvid reach on ChemRel?"), chem, caption) == "83.64"
    assert cell_answer(parse_question("What F1 does Harbor-Corvid reach on ChemRel?"), chem, caption) == "84.59 ± 0.93"
    # Two columns naming the question's thing alike: no value.
    tuned = _rows("Dataset | Corvid Frozen | Corvid Tuned\nChemRel | 80.1 | 83.64")["ChemRel"]
    assert cell_answer(parse_question("What F1 does Corvid reach on ChemRel?"), tuned, caption) is None


def _answer_from_note(make_library, tmp_path: Path, markdown: str, question: str) -> list:
    """The claims of the offline answer to ``question`` over a library of one Markdown note."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "note.md").write_text(markdown)
    library = make_library()
    library.ingest([folder])
    result = run_research(library, OfflineStrategy(library.embedder), question, single_question=True)
    return result.report.sections[0].claims
