"""A value answers for what is asked, read the way a table's reader reads it: a name over a group of
repeated sub-columns names the group; "P", "R" and "R@10" in a header are measures; the counted noun's
head tells two rows apart; a bound is no value when another sentence states it; of two sentences
giving a figure, the one saying it of what is asked leads; a figure counts the asked only when it
counts it (not per sample, not an identifier); a question naming its source ("in Lumen's table") is
answered from that source; the question's compound modifiers ("within-participant") bind; a text's
length is counted in words. Small made-up documents through the offline strategy; the library is real
(Qdrant, fastembed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from corpus.table_text import table_rows
from graph.run import run_research
from strategies.offline.strategy import OfflineStrategy
from strategies.reading.alternatives import alternatives_of
from strategies.reading.answer_phrase import answer_phrase
from strategies.reading.numbers import is_bound
from strategies.reading.question import parse_question
from strategies.reading.question_types import AnswerType, question_type
from strategies.reading.table_cells import cell_answer, own_row
from strategies.reading.text import content_stems, is_statement

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


def _library(make_library, tmp_path: Path, files: dict[str, str]):
    folder = tmp_path / "docs"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text)
    library = make_library()
    library.ingest([folder])
    return library


def _claims(library, question: str):
    report = run_research(library, OfflineStrategy(library.embedder), question, single_question=True).report
    return report.sections[0].claims


def _lead(make_library, tmp_path: Path, markdown: str, question: str):
    claims = _claims(_library(make_library, tmp_path, {"note.md": markdown}), question)
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


@pytest.mark.parametrize(
    ("question", "not_a_count", "a_count", "counted_text"),
    [
        # One of another thing: "1 industry research manager" counts no researchers.
        (
            "How many researchers did the authors recruit for their interviews?",
            "For the interviews we recruited 1 industry research manager and several students.",
            "For the interviews we recruited 12 researchers.",
            "12 researchers",
        ),
        # A number per sample gives a number for each sample, not a number of samples.
        (
            "How many samples does Harbor have?",
            "We report the average number of source documents per sample (which is 1 for Harbor).",
            "Harbor has 3,229 samples (which is 1 source each).",
            "3,229 samples",
        ),
        # A number going on a bracketed series of identifiers names a participant.
        (
            "How many participants skipped the methods section?",
            "All but one of these participants (P2, 5, 10 and 22) skipped the methods section.",
            "Four participants (P2, 5, 10 and 22) skipped the methods section.",
            "Four participants",
        ),
    ],
)
def test_a_figure_counts_the_asked_only_when_it_counts_it(question, not_a_count, a_count, counted_text) -> None:
    asked = parse_question(question)
    assert answer_phrase(asked, not_a_count) is None
    counted = answer_phrase(asked, a_count)
    assert counted is not None and counted.text == counted_text


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


def test_the_document_a_question_names_as_its_source_is_parsed() -> None:
    assert parse_question("What is the mean length of Kestrel in Lumen's table of datasets?").source == ("lumen",)
    assert parse_question("How many papers did the Lumen authors survey?").source == ("lumen",)
    assert parse_question("What's the main table about?").source == ()
    # The owner of a whole document may be its author: a source, no subject; "the Lumen study" names the work.
    owned = parse_question("How many wading birds did Smith's survey count?")
    assert (owned.source, owned.owners, owned.subject) == (("smith",), ("smith",), ())
    assert parse_question("How much water do roofs retain in the Lumen study?").owners == ()
    # The source part's words are no words of what is asked; its name stays a search term.
    asked = parse_question("How many samples does Kestrel have in Lumen's comparison table?")
    assert "comparison" not in asked.terms and "lumen" in asked.terms


def test_a_row_of_another_document_is_no_value_in_the_named_source(make_library, tmp_path: Path) -> None:
    files = {
        "lumen.md": "# Lumen: a survey of long summaries\n\n"
        "Table 1: The long-form datasets we surveyed, with their average lengths.\n\n"
        "| Dataset | Avg. source length | Avg. summary length |\n|---|---|---|\n"
        "| Harbor | 5906 | 163 |\n| Alder | 1284 | 174 |\n",
        "tern.md": "# Tern: summaries of court cases\n\n"
        "Table 2: Tern set against news datasets.\n\n"
        "| Dataset | Samples | Avg. summary length |\n|---|---|---|\n"
        "| Kestrel News | 311,971 | 59.9 |\n| Tern | 4,534 | 646.5 |\n",
    }
    library = _library(make_library, tmp_path, files)
    claims = _claims(library, "What is the average summary length of Kestrel News in Lumen's table of datasets?")
    assert not claims or claims[0].answer is None
    # Asked without naming a source, Tern's row answers.
    claims = _claims(library, "What is the average summary length of Kestrel News?")
    assert claims and claims[0].answer == "59.9"


def test_a_source_no_evidence_names_binds_nothing(make_library, tmp_path: Path) -> None:
    """ "Smith's survey" may name its author, whom the text never mentions: a one-file library answers."""
    note = "# Tidal flats survey\n\nOn the estuary we counted 412 wading birds over the spring tides.\n"
    lead = _lead(make_library, tmp_path, note, "How many wading birds did Smith's survey count?")
    assert lead is not None and lead.answer == "412 wading birds"


def test_an_alternative_s_question_keeps_where_its_values_stand() -> None:
    found = alternatives_of("Which has more samples in Lumen's comparison table: Harbor or Alder?")
    assert [o.question for o in found.options] == [
        "How many samples does Harbor have in Lumen's comparison table?",
        "How many samples does Alder have in Lumen's comparison table?",
    ]
    scored = alternatives_of("Which model scores higher on Ardley in the Vole paper: Alpha or Beta?")
    assert scored.options[0].question == "How high is the scores of Alpha on Ardley in the Vole paper?"


def test_a_short_past_form_makes_a_statement() -> None:
    assert is_statement("A total of eight participants used two early prototypes of Lumen.")
    assert is_statement("The committee met twice in the spring of that year.")
    assert not is_statement("Used Cars and Trucks")


def test_a_compound_modifier_of_the_question_binds_the_value(make_library, tmp_path: Path) -> None:
    """ "the within-participant study" is not the first study of the prototypes: its count is no answer,
    nor a disagreement with the asked study's count."""
    files = {
        "design.md": "# Lark: design notes\n\nA total of eight participants took part in the first study of "
        "Lark's early prototypes. They read two papers each.\n",
        "evaluation.md": "# Evaluating a reader for medical papers\n\nWe measured reading in a timed task. In the "
        "within-participant study, 24 participants took part with Lark or a typical PDF reader.\n",
        "methods.md": "# Study methods\n\nWithin-participant designs need fewer participants than other designs. "
        "Within each task, the order of readers was counterbalanced. Within a session, participants could "
        "take breaks.\n",
    }
    library = _library(make_library, tmp_path, files)
    report = run_research(
        library,
        OfflineStrategy(library.embedder),
        "How many participants took part in Lark's within-participant study?",
        single_question=True,
    ).report
    assert report.sections[0].claims[0].answer == "24 participants"
    assert not report.disagreements


def test_a_text_s_length_is_counted_in_words() -> None:
    """ "How long" of a text is answered in words (or tokens), and of a table's words and sentences
    columns, by the words."""
    question = parse_question("How long are the summaries of Harbor on average?")
    phrase = answer_phrase(question, "The summaries of Harbor are on average 300 words long.")
    assert phrase is not None and phrase.text == "300 words"
    (row,) = table_rows("Dataset | Source Words | Source Sents\nHarbor | 5906.2 | 230.4")
    asked = parse_question("How long are the source documents of Harbor on average?")
    assert cell_answer(asked, row, frozenset()) == "5906.2"
