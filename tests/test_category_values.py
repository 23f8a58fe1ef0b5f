"""A category question's short answer is never a verb, an adverb's phrase or a participle (issue 31,
conflicting sources). RAMDocs answers read "**became**" for a profession ("then became a professional
basketball player"), "**married**" ("was married to actress ..."), and a disagreement on a sport led
one side with "**widely recognized**" ("Doak is widely recognized for his exceptional skills in chess"):
the phrase next to the subject won on its place, though it names no kind. (The noun phrase next to it,
"exceptional skills", still outranks "chess" on its place: see docs/evaluation.md.) The rule applies
where the value is chosen, so a list's lead-in still answers a question asking for several values."""

from __future__ import annotations

from pathlib import Path

import pytest

from config import EmbeddingSettings, Settings, StorageSettings
from corpus.library import Library
from graph.run import run_research
from research.report import FinalReport
from strategies.offline.strategy import OfflineStrategy
from strategies.reading.answer_phrase import answer_phrase
from strategies.reading.question import parse_question
from strategies.reading.question_types import AnswerType, category_value, fits, question_type
from strategies.reading.vectors import Vectors
from tests.test_offline_strategy import block, chunk


@pytest.fixture(scope="module")
def vectors(embedder) -> Vectors:
    return Vectors(embedder)


@pytest.mark.parametrize("value", ["football", "chess", "ice hockey", "mixed martial arts", "rally", "poetry"])
def test_a_kind_is_a_category_value(value):
    assert category_value(value)


@pytest.mark.parametrize(
    "value", ["widely recognized", "recognized", "highly regarded", "mainly played", "exceptional skills of"]
)
def test_what_is_said_of_the_subject_is_no_category_value(value):
    assert not category_value(value)


@pytest.mark.parametrize(
    ("sentence", "expected", "never"),
    [
        ("Then Wren Halloway became a professional tennis coach at the University of Ardley.", "tennis coach", None),
        ("Halloway was married to actress Mara Lindqvist from 1976 to 1981.", None, None),
        ("In 1970 the comedian Wren Halloway joined the troupe.", "comedian", None),
        ("The page was edited to change the profession of Wren Halloway.", ..., "change"),
    ],
)
def test_a_profession_is_a_kind_the_subject_is_of(vectors, sentence, expected, never):
    """A verb ("became", "change" taking its object) or another person's title ("actress" before her
    name) is no profession of the one asked about."""
    found = answer_phrase(parse_question("What is the profession of Wren Halloway?"), sentence, vectors)
    text = found.text if found else None
    assert (never is None or text != never) and (expected is ... or text == expected)


def test_a_word_inside_a_name_is_no_style(vectors):
    sentence = 'The Ardley Parish Church (Tagalog: "Simbahan ng Parokya ni Ardley"), or Ardley del Sur Church, is old.'
    found = answer_phrase(parse_question("What is the style of the Ardley Parish Church?"), sentence, vectors)
    assert found is None or found.text not in ("ni", "ng", "del")


@pytest.mark.parametrize("noun", ["instruments", "sports", "genres", "professions"])
def test_a_question_asking_for_several_kinds_wants_the_list(noun):
    """ "Which instruments come in the kit?" is answered by the list, not one of its items in bold;
    "what species" and "what series" ask for one."""
    assert question_type(f"Which {noun} does the Ardley kit include?").kind is AnswerType.DESCRIPTION
    assert question_type(f"Which {noun[:-1]} does the Ardley kit include?").kind is AnswerType.THING
    assert question_type("What species is the Ardley owl?").kind is AnswerType.THING


def test_a_list_answers_a_plural_category_question_without_a_bold_value(embedder):
    """The lead-in and its items lead, with no value cut out of the lead-in ("kit includes") nor taken
    from the other sentence ("waterproof case"), and the question is still answered."""
    lines = ["The Ardley field kit includes:", "A soil moisture probe", "A rain gauge with a tipping bucket"]
    other = "The Ardley field kit ships in a waterproof case and weighs four kilograms."
    blocks = [block(f"k-{i:04d}", "k", text) for i, text in enumerate(["\n".join(lines), other], start=1)]
    kit = chunk("k", blocks, title="Field kit")
    judged = OfflineStrategy(embedder).judge(
        "Which instruments, like the rain gauge, come in the Ardley field kit?", [kit]
    )
    assert judged.sufficient
    assert judged.claims[0].text.split("\n") == lines
    assert all(c.answer is None for c in judged.claims)


PEOPLE = ["Wren Halloway", "Ossian Petrie", "Mara Lindqvist"]
SAYINGS = ["widely recognized for", "highly regarded for", "best known for"]


@pytest.mark.parametrize("person", PEOPLE)
@pytest.mark.parametrize("saying", SAYINGS)
@pytest.mark.parametrize("sport", ["chess", "tennis", "golf"])
def test_what_is_said_of_the_subject_is_never_its_short_answer(vectors, person, saying, sport):
    first = person.split()[0]
    sentence = f"{first} is {saying} {sport}, and a celebrated figure in the {sport} community of Ardley."
    question = f"What sport is {person} associated with?"
    found = answer_phrase(parse_question(question), sentence, vectors)
    assert found is not None and found.text == sport
    assert fits(question_type(question), found.text, sentence)


def _report(root: Path, documents: dict[str, str], question: str, models_dir: Path, embedder) -> FinalReport:
    docs = root / "docs"
    docs.mkdir()
    for name, text in documents.items():
        (docs / name).write_text(text, encoding="utf-8")
    library = Library(
        Settings(storage=StorageSettings(data_dir=root / "data"), embeddings=EmbeddingSettings(models_path=models_dir)),
        embedder=embedder,
    )
    try:
        library.ingest([docs])
        return run_research(library, OfflineStrategy(embedder), question, single_question=True).report
    finally:
        library.close()


@pytest.mark.parametrize("person", PEOPLE[:2])
def test_a_disagreement_on_a_sport_is_led_by_category_values(tmp_path, models_dir, embedder, person):
    """The real pipeline on two generated pages that name two sports for one person: each side of the
    disagreement is led by a value of the asked type, a whole phrase of its quote."""
    documents = {
        "club.md": f"# {person}\n\n{person} is a professional football player who has played for the Ardley "
        "Rovers since 2015. He scored twelve goals in his first season.\n",
        "profile.md": f"# {person}, a profile\n\n{person} is widely recognized for chess, making him a "
        "celebrated figure in the chess community of Ardley. He won the county title twice.\n",
    }
    report = _report(tmp_path, documents, f"What sport is {person} associated with?", models_dir, embedder)
    answers = {side.answer for d in report.disagreements for side in d.sides}
    assert len(answers) == 2 and "chess" in answers and any(a.endswith("football") for a in answers)
    for disagreement in report.disagreements:
        for side in disagreement.sides:
            assert side.answer is not None and side.answer in side.text and category_value(side.answer)
