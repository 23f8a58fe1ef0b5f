"""Which value each document gives, and when two documents' values are a disagreement (issue 31,
conflicting sources): a party or language said as an adjective is an answer; a date is mentioned only
as that date; a name only as that name; a gap is checked on the sentences naming what is asked."""

from __future__ import annotations

import pytest

from corpus.retrieval import RetrievedChunk
from research.evidence import Finding, FindingStatus, SubQuestion
from strategies.reading.answer_phrase import answer_phrase
from strategies.reading.document_answers import answer_conflicts, answer_disputes, things_answered
from strategies.reading.extractive import analyse
from strategies.reading.question import parse_question
from strategies.reading.vectors import Vectors
from tests.test_offline_strategy import block, chunk


@pytest.fixture(scope="module")
def vectors(embedder) -> Vectors:
    return Vectors(embedder)


def _chunk(doc: str, text: str, rank: int) -> RetrievedChunk:
    return chunk(doc, [block(f"{doc}-1", doc, text)], rank)


def _sides(question: str, texts: list[str], vectors: Vectors) -> set[str | None]:
    sub = SubQuestion(id="q1", question=question, rationale="")
    evidence = [_chunk(f"d{i}", t, i) for i, t in enumerate(texts, start=1)]
    conflicts = answer_conflicts(sub, analyse(question, evidence, vectors), evidence, vectors)
    return {a for c in conflicts for a in (c.side_a.answer, c.side_b.answer)}


PEOPLE = ["Ann Verity", "Tomas Kell", "Rosa Imbert"]
# A wiki page's navigation, run into the page's first sentence by a flattening loader.
MENU = " ".join(["Talk English Read Edit View history Tools move to sidebar hide Actions"] * 5)
PARTIES = ["Republican", "Democratic", "Liberal", "Conservative"]


@pytest.mark.parametrize("person", PEOPLE)
@pytest.mark.parametrize("party", PARTIES)
def test_a_party_said_as_an_adjective_answers_what_party(vectors, person, party):
    """ "a Republican legislator": for "what political party" the adjective is the answer, not the
    house the legislator sat in."""
    surname = person.split()[1]
    sentence = f"{surname} served one term as a {party} legislator in the Ardley House of Representatives."
    found = answer_phrase(parse_question(f"What political party was {person} affiliated with?"), sentence, vectors)
    assert found is not None and found.text == party


@pytest.mark.parametrize("band", ["Blitzen Trapper", "Northern Lights", "Kestrel Road"])
def test_a_nationality_before_a_noun_is_still_no_name_asked_for(vectors, band):
    found = answer_phrase(
        parse_question("Who is the artist of the album Seven?"),
        f"Seven is the seventh studio album by American rock band {band}, released in 2013.",
        vectors,
    )
    assert found is not None and found.text == band


@pytest.mark.parametrize(
    ("person", "right", "wrong"),
    [
        ("Maurice Roche", "15 May 1885", "22 October 1900"),
        ("Ann Verity", "3 July 1750", "12 December 1750"),
        ("Tomas Kell", "1 December 1737", "15 June 1745"),
    ],
)
def test_a_date_is_mentioned_only_as_that_date(vectors, person, right, wrong):
    """A page giving the other document's year and day as other figures ("one of 15 children", "moved
    there in 1885") does not mention that date: the two birth dates are a disagreement."""
    day, _, year = right.split()
    texts = [
        f"{person} was born on {right} in Chelsea, London.",
        f"{person} was born on {wrong} in Chelsea, one of {day} children. His family had moved there in {year}.",
    ]
    assert _sides(f"What is the birth date of {person}?", texts, vectors) == {right, wrong}


@pytest.mark.parametrize(
    ("right", "wrong"),
    [
        ("Odakyu Electric Railway", "JR East"),
        ("Kestrel Valley Railway", "Northgate Lines"),
        ("Ardley Tramways", "Port Rail"),
    ],
)
def test_a_name_is_mentioned_only_as_that_name(vectors, right, wrong):
    """The altered page keeps the original's words scattered ("The Odakyu … electric … railway
    operator JR East"); it does not name the original's operator, so the two operators disagree."""
    first = right.split()[0]
    texts = [
        f"The 20000 series is an electric train type operated by the private railway operator {right}.",
        f"The {first} 20000 series is an electric train type operated by the private railway operator {wrong}.",
    ]
    assert _sides("Which private railway operator operates the 20000 series?", texts, vectors) == {right, wrong}


def test_documents_naming_both_values_together_still_agree(vectors):
    texts = [
        "Seven is an album by Blitzen Trapper, released on the Vagrant label in 2013.",
        "Seven was released by Vagrant, the label of Blitzen Trapper, in 2013.",
    ]
    assert _sides("Who is the artist of the album Seven?", texts, vectors) == set()


@pytest.mark.parametrize(
    ("name", "sport", "other"), [("Doak", "chess", "football"), ("Vestri", "basketball", "football")]
)
def test_a_gap_is_checked_on_the_sentences_naming_what_is_asked(vectors, name, sport, other):
    """A gap whose best sentence names nothing the question names is still checked, on the answers of
    the sentences that do name it; sentences that never name it give no side."""
    question = SubQuestion(id="q1", question=f"What sport is {name} associated with?", rationale="")
    evidence = [
        _chunk("a", "Every sport of the region is listed by season, with its clubs and grounds.", 1),
        _chunk("b", f"{name} is widely recognized for exceptional skill in {sport} across the country.", 2),
        _chunk("c", f"{name} is known as the home of a professional {other} club founded in 1986.", 3),
        _chunk("d", "Tennis and golf are played at the municipal grounds by several clubs.", 4),
    ]
    gap = Finding(sub_question=question, evidence=evidence, status=FindingStatus.GAP)
    (dispute,) = answer_disputes([gap], vectors)
    cited = {m.block_id for side in (dispute.side_a, dispute.side_b) for m in side.citations}
    assert cited == {"b-1", "c-1"}


@pytest.mark.parametrize("sport", ["basketball", "football", "cricket", "hockey"])
@pytest.mark.parametrize(
    "template",
    [
        "Despite other sports, {name}'s impact on {sport} has made it one of the most beloved sports here.",
        "{name} is the {sport} department of the {name} sport club and is based in Ardley.",
    ],
)
def test_a_phrase_holding_the_asked_noun_names_the_category_not_a_member(vectors, sport, template):
    """For "what sport", "the most beloved sports" or "the sport club" restate the category; the member
    named beside them is the answer."""
    sentence = template.format(name="Vestri", sport=sport)
    found = answer_phrase(parse_question("What sport is Vestri associated with?"), sentence, vectors)
    assert found is not None and found.text == sport


@pytest.mark.parametrize(("right", "wrong"), [("45.7 years", "30.2 years"), ("41 years", "29 years")])
def test_a_gap_where_two_documents_make_one_statement_with_the_value_changed_is_disputed(vectors, right, wrong):
    """A gap whose sentences say "the city" where the question names the town has no answer from a
    sentence naming it, but two documents making the same statement with the asked value changed are
    the plainest sign of an altered copy: the dispute is shown whether or not the section is answered."""
    question = SubQuestion(id="q1", question="What is the median age in Ardley?", rationale="")
    evidence = [
        _chunk("a", f"The median age in the city was {right}. For every 100 females there were 96.4 males.", 1),
        _chunk("b", f"The median age in the city was {wrong}. For every 100 females there were 96.4 males.", 2),
        _chunk("c", "The town hall was rebuilt after the flood and now houses the library.", 3),
    ]
    gap = Finding(sub_question=question, evidence=evidence, status=FindingStatus.GAP)
    (dispute,) = answer_disputes([gap], vectors)
    assert {m.block_id for side in (dispute.side_a, dispute.side_b) for m in side.citations} == {"a-1", "b-1"}
    assert right.split()[0] in dispute.explanation and wrong.split()[0] in dispute.explanation


def test_a_gap_where_two_documents_name_two_things_in_one_statement_is_no_dispute(vectors):
    """The same statement of two plans (a name changed, not a value) is no disagreement, answered or not."""
    question = SubQuestion(id="q1", question="What is the monthly price of the Relay plan?", rationale="")
    evidence = [
        _chunk("a", "The Starter tier includes five seats and email support for every workspace.", 1),
        _chunk("b", "The Growth tier includes five seats and email support for every workspace.", 2),
    ]
    gap = Finding(sub_question=question, evidence=evidence, status=FindingStatus.GAP)
    assert answer_disputes([gap], vectors) == []


def test_a_run_on_side_is_quoted_by_the_words_around_its_value(vectors):
    """A page's menus and infobox read as one "sentence" are no quote a reader can take in: the side
    quotes the words around its value, verbatim (so it still resolves to its block)."""
    texts = {
        doc: f"{MENU} From Wikipedia, the free encyclopedia KXLT is a radio station in Ardley broadcasting a {value} "
        "format, owned by La Mas Radio since 1960."
        for doc, value in (("a", "Spanish Tropical"), ("b", "Classical Music"))
    }
    question = SubQuestion(id="q1", question="What is the broadcast format of KXLT?", rationale="")
    evidence = [_chunk(doc, text, i) for i, (doc, text) in enumerate(texts.items(), start=1)]
    (dispute,) = answer_conflicts(question, analyse(question.question, evidence, vectors), evidence, vectors)
    for side, doc, value in ((dispute.side_a, "a", "Spanish Tropical"), (dispute.side_b, "b", "Classical Music")):
        quote = side.citations[0].quote
        assert value in quote and quote in texts[doc] and len(quote.split()) <= 32 and "Talk" not in quote


def test_a_gap_asking_for_a_description_gets_no_dispute_from_two_edited_blurbs(vectors):
    """Evidence that never names what is asked shows no disagreement between two menu entries' blurbs
    ("Start prompt engineering" / "Prompt library"): only a changed value of an asked-for type marks an
    altered copy there."""
    question = SubQuestion(
        id="q1",
        question="What are the two interactive tutorials that Acme offers, and how do they differ?",
        rationale="",
    )
    evidence = [
        _chunk("a", "Start prompt engineeringGet inspired by a curated selection of prompts for various tasks.", 1),
        _chunk("b", "Prompt libraryGet inspired by a curated selection of prompts for various tasks.", 2),
    ]
    gap = Finding(sub_question=question, evidence=evidence, status=FindingStatus.GAP)
    assert answer_disputes([gap], vectors) == []


def test_an_answer_for_another_thing_of_the_name_quotes_its_sentence_whole(vectors):
    """Answers for two things of one name stand beside the section's own quotes of the same sentences:
    they quote them whole, so no sentence is shown twice, once cut and once whole."""
    texts = {
        "a": f"{MENU} From Wikipedia, the free encyclopedia Talk Show is the debut album by Ann Verity, released in "
        "1984 on Arden Records.",
        "b": "Talk Show is the debut album by Tom Kell, released in 1999 on Uptown Records.",
    }
    question = "Who is the artist of the album Talk Show?"
    evidence = [_chunk(doc, text, i) for i, (doc, text) in enumerate(texts.items(), start=1)]
    claims = things_answered(analyse(question, evidence, vectors), vectors)
    assert len(claims) == 2 and {c.citations[0].quote for c in claims} == set(texts.values())
