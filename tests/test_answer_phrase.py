"""Short answers without a model: the answer type of a question, the phrase a sentence gives to it,
yes/no polarity, and disagreements between documents found by comparing what each one answers."""

from __future__ import annotations

import pytest

from corpus.models import Block, BlockKind, DocType
from corpus.retrieval import RetrievedChunk
from nodes.synthesize import _section
from research.evidence import Finding, FindingStatus, SubQuestion
from strategies.reading.answer_phrase import answer_phrase
from strategies.reading.answerhood import polarity
from strategies.reading.document_answers import answer_conflicts, answer_disputes, same_answer
from strategies.reading.extractive import analyse
from strategies.reading.question import parse_question
from strategies.reading.question_types import AnswerType, fits, question_type
from strategies.reading.vectors import Vectors


@pytest.fixture(scope="module")
def vectors(embedder) -> Vectors:
    return Vectors(embedder)


@pytest.mark.parametrize(
    ("question", "kind", "noun"),
    [
        ("When was the courthouse built?", AnswerType.DATE, ""),
        ("In what year did the survey start?", AnswerType.DATE, ""),
        ("How many layers does the encoder have?", AnswerType.QUANTITY, "layers"),
        ("What is the population of Springfield?", AnswerType.QUANTITY, "population"),
        ("Who is the artist of the album?", AnswerType.NAME, "artist"),
        ("Where is the museum located?", AnswerType.PLACE, ""),
        ("In which city did she practise law?", AnswerType.PLACE, ""),
        ("What sport is Jane Doe associated with?", AnswerType.THING, "sport"),
        ("What political party was he affiliated with?", AnswerType.THING, "political party"),
        ("A Study of Parsers: Do they use attention?", AnswerType.YES_NO, ""),
        ("Why do green roofs cool streets?", AnswerType.DESCRIPTION, ""),
        ("What is known about maintenance?", AnswerType.DESCRIPTION, ""),
        ("What are the main findings about green roofs?", AnswerType.DESCRIPTION, ""),
        ("What is the price per square metre of a sedum mat?", AnswerType.QUANTITY, "price"),
    ],
)
def test_question_types_come_from_question_grammar(question, kind, noun):
    found = question_type(question)
    assert (found.kind, found.noun) == (kind, noun)


@pytest.mark.parametrize(
    ("question", "sentence", "expected"),
    [
        (
            "What sport is Jane Doe associated with?",
            "Jane Doe (born May 3, 1980) is a former American football linebacker.",
            "football",
        ),
        (
            "What is the population of Springfield?",
            "As of the census of 2010, there were 3,559 people, 1,575 households and 909 families in the city.",
            "3,559 people",
        ),
        (
            "When was General Smith born?",
            "General Smith (February 8, 1900 – June 5, 1988) was an officer.",
            "February 8, 1900",
        ),
        (
            "Who is the artist of the album Seven?",
            "Seven is the seventh studio album by American rock band Blitzen Trapper, released in 2013.",
            "Blitzen Trapper",
        ),
        (
            "Where is the Chopin House located?",
            "The Chopin House is a historic house in Cloutierville, Louisiana.",
            "Cloutierville, Louisiana",
        ),
        ("How many layers does the encoder have?", "The encoder has 6 layers with 512 hidden units.", "6 layers"),
        # A count is no measurement, and a figure counting other things ("14 green roofs") is no answer.
        (
            "How many spider species were recorded on the roofs?",
            "On 14 green roofs with 60 to 80 mm of substrate, traps caught spiders of 47 species.",
            "47 species",
        ),
        # A population is no percentage; the word after a figure is its unit only if it is no function word.
        (
            "What is the population of Wadi?",
            "About 14% of the district lives in Wadi, which had 120,000 at the last census.",
            "120,000",
        ),
        # A figure belongs to the subject its clause names: the town's, not the district's.
        (
            "What is the population of Pilzno?",
            "As of 2006 the district's total population is 17,289 (out of which the population of Pilzno amounts"
            " to 4,411, and the population of the rural part is 12,878).",
            "4,411",
        ),
        # A year dating a noun counts nothing; a bare figure the asked noun introduces is its value.
        ("What is the population of Blue Lake?", "As of the 2000 census, the township population was 428.", "428"),
        (
            "What is the population of Qorveh?",
            "At the 2006 census, its population was 2,772, in 720 families.",
            "2,772",
        ),
        # A density is a rate, not a population.
        (
            "What is the estimated population of Handa?",
            "In 2015 the city had an estimated population of 117,088 and a density of 2,470 persons per km².",
            "117,088",
        ),
        ("How many employees does Acme have?", "In 2019 Acme had 1,200 employees and 12 offices.", "1,200 employees"),
        # In a comparison the figure after "than" is the compared thing's, the one before it the subject's.
        ("How many samples does Alder have?", "Harbor has far fewer samples (403) than Alder does (4,500).", "4,500"),
        ("How many samples does Harbor have?", "Harbor has far fewer samples (403) than Alder does (4,500).", "403"),
        ("How many samples does Alder have?", "Harbor has 403 samples, far fewer than Alder with 4,500.", "4,500"),
        # A gain is stated by its plus sign or named before the figure; the sign is part of the answer.
        (
            "What F1 gain does the new vocabulary give?",
            "On average we observe +0.60 F1 with the new vocabulary.",
            "+0.60",
        ),
        ("What average F1 gain does the new vocabulary give?", "We observe a gain of 0.60 F1 with it.", "0.60"),
        # A place is named where the sentence locates something; the subject running on is no part of it.
        (
            "Where was Justice Dunn born?",
            "Born in Houghton County, Michigan, Dunn attended the public schools.",
            "Houghton County, Michigan",
        ),
        (
            "Where was Airways International based?",
            "Airways International, which flew Shorts 330 aircraft, was an airline based in Anchorage, Alaska.",
            "Anchorage, Alaska",
        ),
    ],
)
def test_answer_phrase_is_the_part_of_the_sentence_the_question_asks_for(vectors, question, sentence, expected):
    phrase = answer_phrase(parse_question(question), sentence, vectors)
    assert phrase is not None and phrase.text == expected
    assert sentence[phrase.start : phrase.end] == expected


def test_a_sentence_that_locates_nothing_names_no_place(vectors):
    question = "Where was Airways International based?"
    sentence = "Throughout its history, Airways operated a fleet of Shorts 330 and Convair 580 aircraft."
    assert answer_phrase(parse_question(question), sentence, vectors) is None
    assert (
        answer_phrase(
            parse_question("Where was Justice Dunn born?"), "Charles J. Dunn (1872 – 1939) was a jurist.", vectors
        )
        is None
    )
    # A place name describing a noun ("the Maine bar") is not where anything is.
    phrase = answer_phrase(
        parse_question("Where did he work?"), "He was admitted to the Maine bar and worked in Orono, Maine.", vectors
    )
    assert phrase is not None and phrase.text == "Orono, Maine"


def test_a_place_with_its_region_may_lead_but_a_list_of_names_may_not():
    sentence = "The Chopin House is a historic house in Cloutierville, Louisiana."
    assert fits(question_type("Where is the Chopin House located?"), "Cloutierville, Louisiana", sentence)
    assert not fits(question_type("Who wrote it?"), "Smith, Jones", "It was written by Smith, Jones and Brown.")


def test_a_capitalised_function_word_is_no_name(vectors):
    question = 'Who is the artist of the album "Crazy for You"?'
    sentence = "Crazy for You (Best Coast album) Crazy for You is the debut studio album by the duo Best Coast."
    phrase = answer_phrase(parse_question(question), sentence, vectors)
    assert phrase is not None and phrase.text == "Best Coast"
    sentence = "\"There's a Kind of Hush\", a cover of a 1960s song, was a hit for Herman's Hermits."
    phrase = answer_phrase(parse_question("Who recorded the song?"), sentence, vectors)
    assert phrase is not None and phrase.text == "Herman's Hermits"


@pytest.mark.parametrize(
    ("question", "sentence"),
    [
        # A share is no count of the asked things ("65%" faster is no number of GPUs).
        ("How many GPUs are used for training?", "On CPU, InferSent is about 65% faster than SBERT."),
        # A figure a measure of the asked noun introduces measures it ("layer size"), counts no layers.
        (
            "How many layers does the model have?",
            "We select the LSTM layer size (16, 32, 64) and the batch size (4, 8, 16) by search.",
        ),
    ],
)
def test_a_count_is_a_figure_counting_the_asked_things(vectors, question, sentence):
    assert answer_phrase(parse_question(question), sentence, vectors) is None


def test_a_count_still_takes_the_figure_its_noun_introduces(vectors):
    phrase = answer_phrase(
        parse_question("How many layers does the model have?"),
        "The number of layers is 12, each of width 512.",
        vectors,
    )
    assert phrase is not None and phrase.text == "12"
    phrase = answer_phrase(
        parse_question("How many GPUs are used for training?"), "The model is trained on 8 GPUs for a day.", vectors
    )
    assert phrase is not None and phrase.text == "8 GPUs"
    phrase = answer_phrase(
        parse_question("How many of the roofs were green?"), "Of the surveyed roofs, 65% were green.", vectors
    )
    assert phrase is not None and phrase.text == "65%"


def test_a_figure_that_states_no_change_does_not_answer_a_question_on_a_change(vectors):
    assert answer_phrase(parse_question("What F1 gain does the new vocabulary give?"), "It scored 0.60 F1.") is None
    # A "+" joining two names is no sign.
    assert answer_phrase(parse_question("What F1 gain does the vocabulary give?"), "BERT+2 scored 0.60 F1.") is None


def test_description_questions_have_no_short_answer(vectors):
    assert (
        answer_phrase(
            parse_question("Why do roofs cool streets?"), "Plants evaporate water, which cools the air.", vectors
        )
        is None
    )


def test_yes_no_follows_the_sentence_polarity():
    question = "Paper: Do they evaluate on English data?"
    assert polarity(parse_question(question), "We evaluate the model on English data from three newspapers.") == "Yes"
    assert polarity(parse_question(question), "We do not evaluate on English data; all corpora are German.") == "No"
    assert polarity(parse_question(question), "The tokenizer splits words into subword units.") is None


def test_same_answer_compares_words_and_figures():
    assert same_answer("American football", "football")
    assert not same_answer("Blitzen Trapper", "The Beatles")
    assert same_answer("3,559 people", "3559")
    assert not same_answer("3,559 people", "10,000 people")
    # One answer says all the other does, or they are two: a shared word beside a different one.
    assert same_answer("1885", "15 May 1885")
    assert not same_answer("22 October 1885", "15 May 1885")
    assert not same_answer("Indian Finnish-language", "Indian Assamese-language")


def _chunk(doc: str, text: str, rank: int) -> RetrievedChunk:
    block = Block(block_id=f"{doc}-b1", doc_id=doc, seq=0, page=1, kind=BlockKind.PARAGRAPH, text=text)
    return RetrievedChunk(
        chunk_id=f"{doc}-c1",
        doc_id=doc,
        title=f"Document {doc}",
        doc_type=DocType.TEXT,
        year=None,
        pages=[1],
        section="",
        text=text,
        score=1.0 / rank,
        rank=rank,
        blocks=[block],
    )


def test_documents_answering_differently_are_a_disagreement_with_both_sides_led(vectors):
    question = SubQuestion(id="q1", question="Who is the artist of the album Seven?", rationale="")
    evidence = [
        _chunk("a", "Seven is the seventh studio album by American rock band Blitzen Trapper, released in 2013.", 1),
        _chunk("b", "Seven is the seventh studio album by the band Northern Lights, released in 2013.", 2),
        _chunk("c", "Seven is the seventh studio album by American rock band Blitzen Trapper, out in 2013.", 3),
    ]
    (conflict,) = answer_conflicts(question, analyse(question.question, evidence, vectors), evidence, vectors)
    assert conflict.sub_question_id == "q1" and conflict.kind == "answer"
    assert {conflict.side_a.answer, conflict.side_b.answer} == {"Blitzen Trapper", "Northern Lights"}
    assert conflict.side_a.answer == "Blitzen Trapper"  # two documents say so: the larger side first
    assert "2 documents" in conflict.explanation


def test_documents_naming_each_others_answer_do_not_disagree(vectors):
    question = SubQuestion(id="q1", question="Who is the artist of the album Seven?", rationale="")
    evidence = [
        _chunk("a", "Seven is an album by Blitzen Trapper, released on the Vagrant label in 2013.", 1),
        _chunk("b", "Seven was released by Vagrant, the label of Blitzen Trapper, in 2013.", 2),
    ]
    assert answer_conflicts(question, analyse(question.question, evidence, vectors), evidence, vectors) == []


def test_a_gap_whose_documents_answer_differently_is_disputed_not_unanswered(vectors):
    """Documents answering differently lower every sufficiency signal: the question is shown as
    disputed (the sides, cited), not listed among the gaps; a gap whose evidence never mentions what is
    asked stays a gap."""
    question = SubQuestion(id="q1", question="Who is the artist of the album Seven?", rationale="")
    evidence = [
        _chunk("a", "Seven is the seventh studio album by American rock band Blitzen Trapper, released in 2013.", 1),
        _chunk("b", "Seven is the seventh studio album by the band Northern Lights, released in 2013.", 2),
    ]
    gap = Finding(sub_question=question, evidence=evidence, status=FindingStatus.GAP)
    disputes = answer_disputes([gap], vectors)
    assert [c.kind for c in disputes] == ["answer"]
    section = _section(gap, disputes)
    assert section.disputed and section.status is FindingStatus.DISPUTED
    unrelated = SubQuestion(id="q2", question="Who painted the cover of the album Seven?", rationale="")
    other = Finding(
        sub_question=unrelated,
        evidence=[
            _chunk("c", "Ferries leave the quay every hour, said Ann Lee.", 1),
            _chunk("d", "The harbour was dredged in 1990 by Port Works.", 2),
        ],
        status=FindingStatus.GAP,
    )
    assert answer_disputes([other], vectors) == []


def test_an_edited_copy_is_set_against_its_original_first(vectors):
    """Three documents, three populations: the two making the same statement with the figure changed are
    the first dispute; the figure of another statement ("speaking Welsh") does not displace them."""
    question = SubQuestion(id="q1", question="What is the population of Ardley?", rationale="")
    evidence = [
        _chunk("a", "The population of Ardley speaking Welsh at home is 22,795 people.", 1),
        _chunk("b", "With a population of about 50,000, Ardley is the fifth largest town of the district.", 2),
        _chunk("c", "With a population of about 10,000, Ardley is the fifth largest town of the district.", 3),
    ]
    first, *_ = answer_conflicts(question, analyse(question.question, evidence, vectors), evidence, vectors)
    assert {first.side_a.answer, first.side_b.answer} == {"about 50,000", "about 10,000"}  # hedged as written


def test_a_question_asking_how_much_money_is_answered_by_an_amount_of_money():
    question = "How much money do building owners spend on green roof upkeep each year?"
    depth = "This guidance covers the upkeep of extensive green roofs: roofs with 50 to 150 mm of substrate."
    assert answer_phrase(parse_question(question), depth) is None  # a depth is no amount of money
    found = answer_phrase(parse_question(question), "Owners spend about €12 per square metre on upkeep each year.")
    assert found is not None and found.text.startswith("about €12")  # hedged as written


@pytest.mark.parametrize(
    ("question", "sentence", "expected"),
    [
        ("When did Ann Verity die?", "Ann Verity (15 May 1885 – 8 July 1955) was a British politician.", "8 July 1955"),
        (
            "When was Ann Verity born?",
            "Ann Verity (15 May 1885 – 8 July 1955) was a British politician.",
            "15 May 1885",
        ),
        (
            "What is the birth date of Ann Verity?",
            "Ann Verity (3 September 1717 – 17 July 1793), until 1762 Ann Ashcroft, was a diplomat.",
            "3 September 1717",
        ),
        ("When did Ann Verity die?", "Ann Verity (1650–1701) was a printer in Leiden.", "1701"),
        # A span in running text is no life: the date beside the asked event is chosen as before.
        ("When did Ann Verity die?", "Ann Verity died in 1701, after printing from 1650 to 1699.", "1701"),
        # ... and a life's dates answer no other event.
        ("When did Ann Verity print in Leiden?", "Ann Verity (1650–1701) printed in Leiden from 1680.", "1680"),
        ("When did Ann Verity print in Leiden?", "Ann Verity (1650–1701) was a printer in Leiden.", None),
        # A date keeps the hedge its source puts on it.
        ("When was the Verity house built?", "The house was built about 1820 in the Federal style.", "about 1820"),
        ("When did Ann Verity die?", "Ann Verity (c. 1650 – 1701) was a printer in Leiden.", "1701"),
    ],
)
def test_a_life_span_in_brackets_gives_the_birth_first_and_the_death_second(vectors, question, sentence, expected):
    phrase = answer_phrase(parse_question(question), sentence, vectors)
    assert (phrase.text if phrase else None) == expected


@pytest.mark.parametrize(
    ("question", "sentence", "expected"),
    [
        # A figure keeps the hedge its source puts on it: the source is not sure of it, nor is the answer.
        (
            "How many kiln hours were used to fire all the sample tiles?",
            "The total kiln hours logged for firing all the sample tiles sum to roughly 120 hours.",
            "roughly 120 hours",
        ),
        ("How much did the survey cost?", "The survey cost about $4,300 in all.", "about $4,300"),
        ("How much did the survey cost?", "The survey cost $4,300 in all.", "$4,300"),
        # ... and the bound: "more than 1,000" is not 1,000.
        ("How many people attended the fair?", "More than 1,000 people attended the fair.", "More than 1,000 people"),
        ("How many people attended the fair?", "At least 1,000 people attended the fair.", "At least 1,000 people"),
        # A frequency is no figure to hedge.
        ("How often are the tiles fired?", "The tiles are fired about twice a year.", "twice a year"),
    ],
)
def test_a_figure_keeps_its_hedge_and_its_bound(vectors, question, sentence, expected):
    phrase = answer_phrase(parse_question(question), sentence, vectors)
    assert (phrase.text if phrase else None) == expected


@pytest.mark.parametrize(
    ("question", "sentence", "expected"),
    [
        # A figure with its magnitude, given with the whole of the counted noun.
        (
            "How many citation links does the index resolve?",
            "Using the parsed bibliographies, we resolve a total 380.5M citation links between papers.",
            "380.5M citation links",
        ),
        ("How many papers in the corpus have DOIs?", "There are 52.2M papers with DOIs in the corpus.", "52.2M papers"),
        # A study's size as papers print it counts who took part.
        (
            "How many participants took part in the lab study?",
            "(2) A controlled lab study (N=12) focusing on note taking during reading.",
            "12",
        ),
    ],
)
def test_a_count_as_papers_print_it(vectors, question, sentence, expected):
    phrase = answer_phrase(parse_question(question), sentence, vectors)
    assert phrase is not None and phrase.text == expected


def test_a_verb_after_the_counted_noun_is_not_the_noun():
    assert question_type("How many participants took part in the study?").noun == "participants"
    assert question_type("How many training samples were used?").noun == "training samples"
    assert question_type("How many people attended the fair?").noun == "people"
    assert question_type("How many people live in Elmford?").noun == "people"
    assert question_type("How many papers released their data?").noun == "papers"
    assert question_type("How many spider species live on the roof?").noun == "spider species"
    assert question_type("How many GPU hours were used?").noun == "gpu hours"


def test_the_digits_of_a_name_are_no_figure(vectors):
    found = answer_phrase(
        parse_question("How many parameters does the tagger have?"),
        "We adapted our GPT-3 prompt and generation parameters from one of the preset examples.",
        vectors,
    )
    assert found is None


def test_the_documents_own_authors_are_no_search_term():
    """ "the LongEval authors" names the source document, like "the LongEval paper": no term a sentence
    must hold (a survey's "we" says who surveyed)."""
    terms = parse_question("How many papers did the Harbor authors survey?").terms
    assert "autho" not in terms and "harbo" in terms


@pytest.mark.parametrize(
    ("question", "sentence", "expected"),
    [
        # Where a value stands is no value: a table, a section, a converted paper's citation placeholder.
        ("Which datasets do they train on?", "Table 4 lists the datasets we train on.", None),
        ("Which architecture does the encoder use?", "The encoder follows a standard architecture BIBREF10 .", None),
        ("Which tool do they compare to?", "We compare to Wrenkit BIBREF6 on all tasks.", "Wrenkit"),
        ("Which benchmark do they compare to?", "Section SECREF5 compares the benchmark results.", None),
        # A section heading in capitals is no name of a method.
        (
            "Which classes are the sentences sorted into?",
            "Sentences are sorted into classes such as INTRODUCTION.",
            None,
        ),
        # An evaluation measure answers a question asking for one, and no other.
        ("What is the strongest baseline?", "Our model gains 2.1 BLEU over the strongest baseline.", None),
        ("Who were the human judges?", "Automatic measures like ROUGE-L miss what human judges see.", None),
        ("Which evaluation metric is reported?", "The evaluation metric we report is ROUGE-L.", "ROUGE-L"),
        # An abbreviation of the question's own words restates it.
        ("Which model is used for speech recognition?", "We study large end-to-end ASR systems.", None),
        ("Which model is used for reading comprehension?", "We use the Wren model for RC in all runs.", "Wren model"),
    ],
)
def test_a_short_answer_names_a_thing_of_the_asked_kind(vectors, question, sentence, expected):
    found = answer_phrase(parse_question(question), sentence, vectors)
    assert (found.text if found else None) == expected


def test_a_name_its_documents_call_another_kind_of_thing_is_no_answer(vectors):
    """ "Which dataset" is not answered by a name the evidence only ever calls an approach or a model;
    a name it calls a corpus, or one it never calls anything, may answer."""
    from strategies.reading.name_kinds import NameKinds

    kinds = NameKinds(
        [
            "This work studies the Heron Sampling (HS) approach to active learning.",
            "We train on the Wren corpus. The Lark model is our baseline.",
        ]
    )
    asked = parse_question("Which dataset do they use?")
    found = answer_phrase(asked, "On 20% of the unlabeled dataset, HS halves the error.", vectors, kinds)
    assert found is None
    found = answer_phrase(asked, "The Lark model is trained on the Wren dataset splits.", vectors, kinds)
    assert found is not None and found.text.startswith("Wren")
    model = parse_question("Which model is the baseline?")
    found = answer_phrase(model, "The baseline is Lark, trained on Wren.", vectors, kinds)
    assert found is not None and found.text == "Lark"


@pytest.mark.parametrize(
    ("question", "sentence", "expected"),
    [
        # A margin is not the value of the measure, but answers a question on the change.
        ("What F1 score does the Wren tagger reach?", "The Wren tagger beats the baseline by 1.5% F1.", None),
        ("What F1 score does the Wren tagger reach?", "The Wren tagger reaches 63.1 F1, 1.5 points higher.", "63.1"),
        (
            "By how much does the Wren tagger beat the baseline?",
            "The Wren tagger beats the baseline by 1.5% F1.",
            "1.5%",
        ),
        # ... and only a change does: a count of days says nothing of by how much a thing fell.
        ("By how much did the roof cut the hut's cooling power?", "We compared two huts over 92 summer days.", None),
        ("By how much did the roof cut the hut's cooling power?", "Cooling power fell 38 percent.", "38 percent"),
        # A change from one figure to another is given whole; a denied change is none.
        ("How much did the hut's cooling power fall?", "It fell from 100 kW to 62 kW.", "from 100 kW to 62 kW"),
        (
            "By how much did accuracy improve?",
            "Accuracy rose from 71.2 to 75.0 with the roof data.",
            "from 71.2 to 75.0",
        ),
        ("By how much did the roof cut the cooling power?", "The roof did not cut cooling power by 38 percent.", None),
        # A count followed by another plural counts that.
        ("How many annotators took part?", "The task gives a set of 15,000 annotated forum posts.", None),
        ("How many annotators took part?", "Of the 15,000 posts, 3 annotators checked each one.", "3 annotators"),
        ("How many participants took part?", "In all, 24 people took part in the study.", "24 people"),
        # A figure in a paper's inline maths is no amount of dollars.
        ("How many posts were collected?", "We collected $19,300$ posts in all.", "19,300"),
        ("How much did the survey cost?", "The survey cost $19,300 in all.", "$19,300"),
        # A population counts whole people: a coordinate is none, nor a figure counting something else.
        ("What is the population of Elmford?", "Elmford is located at (41.2345, -80.1234).", None),
        ("What is the population of Elmford?", "Elmford had 912 households and 2,004 people.", "2,004 people"),
        ("What is the population of Elmford?", "Of its young population, 255 male and 260 female.", None),
        ("What is the population of Elmford?", "Elmford had a population of 1.2 million in 2010.", "1.2 million"),
        # ... but an average of a count may have a fraction.
        (
            "What is the average number of words per sentence?",
            "The average number of words per sentence is 23.4.",
            "23.4",
        ),
    ],
)
def test_a_figure_is_the_asked_measure_of_the_asked_things(vectors, question, sentence, expected):
    found = answer_phrase(parse_question(question), sentence, vectors)
    assert (found.text if found else None) == expected
