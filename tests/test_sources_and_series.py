"""A value is read where the question says to read it, and only figures that count the asked thing
count it: a question naming its source ("in Lumen's table") is answered only from a document that
names that source; an alternative's own question keeps where its values stand; a number given per
sample is no count of samples, nor is a number going on a series of identifiers ("(P2, 5, 10)"); a
sentence whose verb is a short past form ("used", "made") is a statement. Small made-up documents
through the offline strategy; the library is real (Qdrant, fastembed)."""

from __future__ import annotations

from pathlib import Path

from graph.run import run_research
from strategies.offline.strategy import OfflineStrategy
from strategies.reading.alternatives import alternatives_of
from strategies.reading.answer_phrase import answer_phrase
from strategies.reading.question import parse_question
from strategies.reading.text import is_statement


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


def test_the_document_a_question_names_as_its_source_is_parsed() -> None:
    assert parse_question("What is the mean length of Kestrel in Lumen's table of datasets?").source == ("lumen",)
    assert parse_question("How many papers did the Lumen authors survey?").source == ("lumen",)
    assert parse_question("What's the main table about?").source == ()
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


def test_an_alternative_s_question_keeps_where_its_values_stand() -> None:
    found = alternatives_of("Which has more samples in Lumen's comparison table: Harbor or Alder?")
    assert [o.question for o in found.options] == [
        "How many samples does Harbor have in Lumen's comparison table?",
        "How many samples does Alder have in Lumen's comparison table?",
    ]
    scored = alternatives_of("Which model scores higher on Ardley in the Vole paper: Alpha or Beta?")
    assert scored.options[0].question == "How high is the scores of Alpha on Ardley in the Vole paper?"


def test_a_number_per_sample_is_no_count_of_samples() -> None:
    question = parse_question("How many samples does Harbor have?")
    sentence = "We report the average number of source documents per sample (which is 1 for Harbor)."
    assert answer_phrase(question, sentence) is None
    counted = answer_phrase(question, "Harbor has 3,229 samples (which is 1 source each).")
    assert counted is not None and counted.text == "3,229 samples"


def test_a_number_going_on_a_series_of_identifiers_counts_nothing() -> None:
    question = parse_question("How many participants skipped the methods section?")
    sentence = "All but one of these participants (P2, 5, 10 and 22) skipped the methods section."
    assert answer_phrase(question, sentence) is None
    counted = answer_phrase(question, "Four participants (P2, 5, 10 and 22) skipped the methods section.")
    assert counted is not None and counted.text == "Four participants"


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
