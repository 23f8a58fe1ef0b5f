"""A value answers for what is asked, read the way a table's reader reads it: a name over a group of
repeated sub-columns names the group; "P", "R" and "R@10" in a header are measures; the counted noun's
head tells two rows apart; a bound is no value when another sentence states it; of two sentences
giving a figure, the one saying it of what is asked leads. Small made-up documents through the
offline strategy; the library is real (Qdrant, fastembed)."""

from __future__ import annotations

from pathlib import Path

from corpus.table_text import table_rows
from graph.run import run_research
from strategies.offline.strategy import OfflineStrategy
from strategies.reading.answer_phrase import answer_phrase
from strategies.reading.numbers import is_bound
from strategies.reading.question import parse_question
from strategies.reading.question_types import AnswerType, question_type
from strategies.reading.table_cells import cell_answer, own_row
from strategies.reading.text import content_stems

# Centred over their three columns, the systems' names stand over the middle one, or one to the right.
GROUPED = """Category | Lark |  |  |  | Wren |  |  | Finch |
Measure | P | R | F1 | P | R | F1 | P | R | F1
Title | 81.9 | 89.1 | 85.3 | 85.3 | 89.8 | 87.5 | 97.4 | 98.3 | 97.8"""


def test_a_name_over_repeated_sub_columns_names_its_whole_group() -> None:
    (row,) = table_rows(GROUPED)
    names = [name for name, _ in row.cells]
    assert names == [f"{system} {m}" for system in ("Lark", "Wren", "Finch") for m in ("P", "R", "F1")]
    # The row labels' heading names no column of values.
    (model,) = table_rows("Model | Full | \n | P | R\nLark | 40.6 | 38.3")
    assert [name for name, _ in model.cells] == ["Full P", "Full R"]


def test_abbreviated_measures_and_measures_at_a_cut_off_name_their_columns() -> None:
    (row,) = table_rows(GROUPED)
    context = frozenset(content_stems("Table 3: results by category"))
    assert cell_answer(parse_question("What precision does Wren get on the Title category?"), row, context) == "85.3"
    assert cell_answer(parse_question("What recall does Finch have on Title?"), row, context) == "98.3"
    reached = question_type("What R@10 does Lark reach in the hint evaluation?")
    assert (reached.kind, reached.noun) == (AnswerType.QUANTITY, "r@10")
    (lark,) = table_rows("Algorithm | R@3 | R@5 | R@10\nLark (1995) | 0.38 | 0.46 | 0.56")
    assert cell_answer(parse_question("What R@10 does Lark reach?"), lark, frozenset()) == "0.56"
    # A plain noun reached is no measure: "what goal" asks for an account.
    assert question_type("What goal did the team reach?").kind is AnswerType.DESCRIPTION


def test_the_counted_noun_s_head_tells_two_rows_apart() -> None:
    question = parse_question("How many paper cards did participant P3 open?")
    labels = ("Paper Opens", "Card Opens", "Paper Saves")
    assert [own_row(question, label, labels) for label in labels] == [False, True, False]


def test_a_bound_is_not_a_value() -> None:
    assert is_bound("at least 150 words") and is_bound("up to 600 ms")
    assert not is_bound("163") and not is_bound("about 40 words")


def _lead(make_library, tmp_path: Path, markdown: str, question: str):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "note.md").write_text(markdown)
    library = make_library()
    library.ingest([folder])
    report = run_research(library, OfflineStrategy(library.embedder), question, single_question=True).report
    claims = report.sections[0].claims
    return claims[0] if claims else None


def test_a_dataset_s_value_is_its_row_not_the_survey_s_threshold(make_library, tmp_path: Path) -> None:
    lead = _lead(
        make_library,
        tmp_path,
        "# A survey of long summaries\n\n"
        "We consider summarization datasets with an average summary length of at least 150 words, "
        "such as Harbor and Alder.\n\n"
        "Table 1: The datasets of the survey, with their average lengths.\n\n"
        "| Dataset | Source words | Summary words | Papers |\n|---|---|---|---|\n"
        "| Harbor (2018) | 5906 | 163 | 55 |\n| Alder (2019) | 1284 | 174 | 19 |\n",
        "What is the average summary length of Harbor in the survey's table of datasets?",
    )
    assert lead.answer == "163"


def test_the_figure_said_of_what_is_asked_leads(make_library, tmp_path: Path) -> None:
    lead = _lead(
        make_library,
        tmp_path,
        "# How papers evaluate summaries\n\n"
        "In our survey, we found the background of the annotators is often not given (16 / 43 papers).\n\n"
        "## Agreement\n\n"
        "While 33 papers use several annotators per summary, only 12 report inter-annotator agreement.\n",
        "In the survey, how many of the 44 papers report inter-annotator agreement?",
    )
    assert lead.answer == "12"


def test_a_word_a_table_shortens_names_its_row() -> None:
    question = parse_question("On average, how many linked bibliography entries does a paper have?")
    labels = ("Bibliography entries", "Linked bib. entries")
    assert [own_row(question, label, labels) for label in labels] == [False, True]
    # Of two labels holding as many of the question's words, the one adding none is asked.
    entries = parse_question("On average, how many bibliography entries does a paper have?")
    assert [own_row(entries, label, labels) for label in labels] == [True, False]


def test_one_of_another_thing_is_no_count_of_the_asked() -> None:
    question = parse_question("How many researchers did the authors recruit for their interviews?")
    sentence = "For the interviews we recruited 1 industry research manager and several students."
    assert answer_phrase(question, sentence) is None
    counted = answer_phrase(question, "For the interviews we recruited 12 researchers.")
    assert counted is not None and counted.text == "12 researchers"


def test_a_count_of_things_with_or_without_something_is_said_of_it(make_library, tmp_path: Path) -> None:
    lead = _lead(
        make_library,
        tmp_path,
        "# Building the Harbor corpus\n\n"
        "We filter the paper clusters of the Harbor corpus. Subsequently, 95.5M paper clusters are filtered "
        "out based on the criteria below and removed from the corpus.\n\n"
        "Table 2: Paper clusters removed by each filter.\n\n"
        "| Filter | Paper clusters removed |\n|---|---|\n| No title | 20k |\n| No authors | 0.3M |\n",
        "How many paper clusters did Harbor remove for having no title?",
    )
    assert lead.answer == "20k"


def test_a_sentence_naming_none_of_the_asked_names_gives_no_value_of_them(make_library, tmp_path: Path) -> None:
    lead = _lead(
        make_library,
        tmp_path,
        "# Harbor: long legal summaries\n\n"
        "Booklet is the closest dataset to ours. However, it has far fewer samples (403) than Harbor does "
        "(4,500).\n\nWe compare the datasets' sources and summaries.\n",
        "How many samples does Alder have?",
    )
    assert lead is None or lead.answer is None
