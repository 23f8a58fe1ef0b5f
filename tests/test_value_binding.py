"""Readings that bind a value to what the question asks of: a yes/no question about a share of a whole
("Did most of the papers…?") is answered by the share a sentence states, not by its predicate alone; of
a table's rows the one the question names answers, not a sibling row it cannot tell apart from
("Corvid D → S" for a question on "Corvid D→L"); the verb a question asks what a document says with
("does the guide identify") binds no figure. Small made-up documents."""

from __future__ import annotations

import pytest

from graph.run import run_research
from research.report import FindingStatus, ReportClaim
from strategies.offline.strategy import OfflineStrategy
from strategies.reading.answer_phrase import answer_phrase
from strategies.reading.answerhood import about_other_work, polarity
from strategies.reading.question import parse_question
from strategies.reading.question_types import fits
from strategies.reading.table_cells import own_row


def _lead(library_of, documents: dict[str, str], question: str) -> ReportClaim:
    """The first claim of an offline answer to ``question`` over a library of ``documents``."""
    library = library_of(documents)
    result = run_research(library, OfflineStrategy(library.embedder), question, single_question=True)
    return result.report.sections[0].claims[0]


MOST = "Did most of the 120 surveyed summarization papers run a human evaluation?"


@pytest.mark.parametrize(
    ("sentence", "lead"),
    [
        # A share stated of those doing it, and of those not doing it (the negation turns it round).
        ("We find that 90 of the 120 surveyed summarization papers run a human evaluation.", "Yes"),
        ("Only 14 surveyed summarization papers (12%) run a human evaluation.", "No"),
        ("We find that 85 surveyed summarization papers (71%) do not run a human evaluation.", "No"),
        ("In all, 40 percent of the surveyed summarization papers do not run a human evaluation.", "Yes"),
        ("Of the surveyed summarization papers, 61 out of 120 run a human evaluation.", "Yes"),
        # The predicate without a share says nothing of "most"; half and half says neither.
        ("The surveyed summarization papers run a human evaluation of their summaries.", None),
        ("Exactly 50% of the surveyed summarization papers run a human evaluation.", None),
    ],
)
def test_a_question_of_most_is_answered_by_the_stated_share(sentence: str, lead: str | None) -> None:
    assert polarity(parse_question(MOST), sentence) == lead


def test_a_share_question_is_told_from_a_superlative() -> None:
    assert parse_question(MOST).majority is True
    assert parse_question("Were fewer than half of the sessions recorded?").majority is False
    # "the most accurate" ranks; it asks of no share.
    assert parse_question("Is Corvid the most accurate tagger?").majority is None
    superlative = parse_question("Is Corvid the most accurate tagger?")
    assert polarity(superlative, "Corvid is the most accurate tagger, ahead of 80% of the others.") == "Yes"


ROWS = ("Corvid D → S", "Corvid D → L", "Corvid D → T", "XSUM")


@pytest.mark.parametrize(
    ("question", "row"),
    [
        ("How many samples does the Corvid documents-to-long (D→L) task have?", "Corvid D → L"),
        # The document the question reads from is no part of the row's name.
        ("How many samples does XSUM have according to the Corvid dataset table?", "XSUM"),
        # Nothing tells the three Corvid rows apart: none of them answers.
        ("How many samples does the Corvid task have?", None),
    ],
)
def test_the_row_the_question_names_among_its_siblings(question: str, row: str | None) -> None:
    asked = parse_question(question)
    assert [label for label in ROWS if own_row(asked, label, ROWS)] == ([row] if row else [])


def test_a_sibling_rows_figure_is_no_answer(library_of) -> None:
    corvid = (
        "# The Corvid summarization dataset\n\n"
        "Corvid pairs court filings with summaries of three lengths, each a task of its own.\n\n"
        "Table 2: Samples and words per summary of each Corvid task.\n\n"
        "| Task | Samples | Words |\n|---|---|---|\n| Corvid D → S | 3,138 | 130.2 |\n"
        "| Corvid D → L | 4,534 | 646.5 |\n| Corvid D → T | 1,603 | 24.7 |\n"
    )
    question = "How many samples does the Corvid documents-to-long-summary (D→L) task have?"
    assert _lead(library_of, {"corvid.md": corvid}, question).answer == "4,534"


def test_the_source_a_question_names_is_not_what_it_asks() -> None:
    asked = parse_question("How many samples does XSUM have according to the Corvid dataset table?")
    assert asked.unsourced == "How many samples does XSUM have?"


def test_the_verb_a_question_reports_with_binds_no_figure(library_of) -> None:
    guide = (
        "# The Corvid writing guide\n\n"
        "Writers first identify the key facts of each source they read.\n\n"
        "To support writing well, we argue that there are four stages: 1) reading, 2) outlining, "
        "3) drafting and 4) revising.\n"
    )
    question = "How many stages of writing does the Corvid guide identify?"
    assert _lead(library_of, {"guide.md": guide}, question).answer == "four stages"


@pytest.mark.parametrize(
    ("sentence", "other"),
    [
        ("• Domain: Orbit et al. (2019) report a corpus of 18% computer science papers.", True),
        ("Orbit and Vale (2021) report a corpus of 18% computer science papers.", True),
        ("Note: our corpus holds 7.2% computer science papers.", False),
    ],
)
def test_a_figure_said_of_a_cited_work(sentence: str, other: bool) -> None:
    assert about_other_work(sentence) is other


def test_a_value_of_another_documents_thing_is_no_answer(library_of) -> None:
    """The question names the thing it asks about ("for Orbit"): a version stated in a document of
    another thing is not its answer, though it names the same tool."""
    documents = {
        "corvid.md": "# Corvid: a toolkit for reading scans\n\nTo compare parsers, we ran the scans through Lark using v2.1.\n",
        "orbit.md": "# Orbit: an archive of field notes\n\nWe process the scans of the archive with Lark v0.7 and keep its output.\n",
    }
    lead = _lead(library_of, documents, "Which version of Lark was used to process scans for Orbit?")
    assert lead.answer in ("v0.7", "Lark v0.7")


@pytest.mark.parametrize(
    ("question", "verbs"),
    [
        ("How much did Corvid agree to pay in the settlement?", ("agree",)),
        ("How much was Corvid ordered to pay?", ("order",)),
        ("What did the court order Corvid to do?", ("order",)),
        ("How many staff does Corvid plan to hire?", ("plan",)),
        # Need and permission say what was used; "agree to" without an action governs nothing.
        ("How many GPUs are needed to train Corvid?", ()),
        ("What did Corvid agree to?", ()),
    ],
)
def test_the_verbs_a_question_puts_its_action_under(question: str, verbs: tuple[str, ...]) -> None:
    assert parse_question(question).governing == verbs


def test_what_was_ordered_is_not_what_was_agreed(library_of) -> None:
    """ "How much did Corvid agree to pay" is not answered by what a court ordered it to pay, though
    that sentence shares more of the question's words and ranks first."""
    case = (
        "# Orbit v. Corvid Freight\n\n"
        "The court ordered that Corvid Freight pay $1.1 million in the class settlement to cover fees "
        "and costs of monitoring the settlement agreement.\n\n"
        "Under the class settlement, Corvid Freight agreed to pay $8.55 million.\n"
    )
    library = library_of({"case.md": case})
    strategy = OfflineStrategy(library.embedder)
    answers = [
        run_research(library, strategy, question, single_question=True).report.sections[0].claims[0].answer
        for question in (
            "How much did Corvid Freight agree to pay in the class settlement?",
            "How much was Corvid Freight ordered to pay in the class settlement?",
        )
    ]
    assert answers == ["$8.55 million", "$1.1 million"]


@pytest.mark.parametrize(
    ("question", "subject"),
    [
        ("Under which software license is corvidkit released?", ("corvidkit",)),
        ("What dataset was Orbit trained on?", ("orbit",)),
        ("How many papers did the Lumen authors survey?", ("lumen",)),
        # A prepositional phrase may end the question after the verb.
        ("What F1 does Corvid-BERT obtain on ChemRel?", ("corvid", "bert")),
        ("How much did Corvid agree to pay in the settlement?", ("corvid",)),
        # A pronoun or a document names no particular thing; a second question joined on has its own.
        ("Which license does the paper use?", ()),
        ("What license does it use for training?", ()),
        ("What does the evidence say about stormwater retention of green roofs?", ()),
        ("What features came out in May and how do they help users write prompts?", ()),
        ("What are the benefits of green roofs?", ()),
    ],
)
def test_the_subject_a_question_asks_of(question: str, subject: tuple[str, ...]) -> None:
    assert parse_question(question).subject == subject


def test_another_things_licence_is_no_answer(library_of) -> None:
    """A question on a thing no answering document names abstains, however many words another
    document's sentence shares with it ("corvidkit" is no form of "corvid")."""
    documents = {
        "dataset.md": "# The Corvid court dataset\n\nWe released the dataset under the Creative Commons "
        "(CC BY-NC) license, so others may extend the dataset.\n",
        "kit.md": "# corvidkit: a toolkit for reading scans\n\ncorvidkit reads scanned pages into blocks. "
        "It runs on a laptop without a GPU.\n",
    }
    library = library_of(documents)
    result = run_research(
        library,
        OfflineStrategy(library.embedder),
        "Under which software license is corvidkit released?",
        single_question=True,
    )
    section = result.report.sections[0]
    assert section.status is FindingStatus.GAP
    assert section.confidence <= 0.2


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("How much was the city ordered to pay?", "$2 million"),
        ("What share of the repair costs did the city agree to pay?", "49 percent"),
    ],
)
def test_the_value_in_the_clause_of_the_governing_verb(question: str, value: str) -> None:
    sentence = (
        "The city agreed to pay 49 percent of the repair costs, and the court later ordered it to pay $2 million."
    )
    assert answer_phrase(parse_question(question), sentence).text == value


def test_a_version_is_numbered() -> None:
    asked = parse_question("Which version of Lark was used?").type
    assert not fits(asked, "Python", "Before running Lark, we check each file with Python.")
    assert fits(asked, "v0.5.5", "We process PDFs using Lark v0.5.5 (Lopez, 2009).")


def test_a_value_in_a_lists_item_leads_with_the_item(library_of) -> None:
    """The item stating the asked value leads, quoted alone: its list's lead-in holds no value, and a
    cited work's figure in the item above it is not the asked corpus's."""
    lumen = (
        "# Lumen: a corpus of field notes\n\n"
        "Lumen differs from the corpus Orbit was trained on in two ways:\n\n"
        "- Domain: Vale et al. (2019) report a training corpus of 82% biology and 18% physics notes.\n"
        "- Our Lumen corpus is more balanced, such that biology (42.7%) and physics (7.2%) notes are half of it.\n"
    )
    lead = _lead(library_of, {"lumen.md": lumen}, "What percentage of the Lumen corpus are physics notes?")
    assert lead.answer == "7.2%"
    assert lead.text.startswith("Our Lumen corpus")


def test_a_sentence_opening_with_a_lower_case_name_is_read(library_of) -> None:
    """A name written in lower case may open a sentence, mid-paragraph or at a paragraph's head: it
    is a statement of its own, not the tail of one a page break cut."""
    documents = {
        "kit.md": "# corvidkit: a toolkit for reading scans\n\n"
        "corvidkit reads scanned pages into blocks. It runs on a laptop without a GPU. "
        "corvidkit is released under the Apache 2.0 license.\n",
        "dataset.md": "# The Corvid court dataset\n\nThe Corvid dataset holds 4,534 court cases from 1998 to 2021.\n",
    }
    claim = _lead(library_of, documents, "Under which software license is corvidkit released?")
    assert claim.text.startswith("corvidkit is released under the Apache 2.0 license")
    assert "Apache" in (claim.answer or "")


def test_a_name_or_an_account_read_without_a_model_is_shown_below_the_confident_line(library_of) -> None:
    """Measured on the dev sets, a name or a sentence quoted without a model is the right one far less
    often than a figure bound to the question's terms: neither is shown at 0.8 or more."""
    documents = {
        "wren.md": "# Training taggers on field notes\n\nWe train every tagger on the Wren corpus of field notes. "
        "The Wren corpus holds 4,534 notes written by 61 birders between 1998 and 2021.\n",
    }
    library = library_of(documents)
    strategy = OfflineStrategy(library.embedder)
    name = run_research(library, strategy, "Which corpus do they train every tagger on?", single_question=True)
    figure = run_research(library, strategy, "How many notes does the Wren corpus hold?", single_question=True)
    account = run_research(library, strategy, "Why do they train the taggers on field notes?", single_question=True)
    assert name.report.sections[0].claims[0].answer
    assert name.report.sections[0].confidence <= 0.75
    assert account.report.sections[0].confidence <= 0.75
    assert figure.report.sections[0].claims[0].answer == "4,534 notes"
    assert figure.report.sections[0].confidence > 0.75


def test_a_sentence_asking_the_question_is_no_answer(library_of) -> None:
    """An indirect question holding the question's words ("We explore how …", "How much … is still an
    open question") asks it; the sentence stating how is the answer."""
    documents = {
        "frost.md": "# Sensor drift in alpine winters\n\n"
        "We explore how the humidity sensors drift over the alpine winter. "
        "How much the humidity sensors drift over the alpine winter is still an open question for field teams.\n\n"
        "## Results\n\nFrost on the membrane makes the humidity sensors read high, by up to 6 points by March.\n",
    }
    claim = _lead(library_of, documents, "How do the humidity sensors drift over the alpine winter?")
    assert claim.text.startswith("Frost on the membrane")


def test_a_measure_of_another_thing_is_no_answer(library_of) -> None:
    """ "What is the size of the dataset?" is not answered by the sizes of a model's filters, however
    near the sentence ranks; the sentence giving the dataset's size is."""
    documents = {
        "tagger.md": "# A tagger for Nepali news\n\n"
        "For the CNN, we used 30 different filters of sizes 3, 4 and 5.\n\n"
        "The dataset contains 3,606 sentences and 79,087 entities.\n",
    }
    claim = _lead(library_of, documents, "What is the size of the dataset?")
    assert claim.text.startswith("The dataset contains")
    assert claim.answer != "3"


def test_a_name_binds_a_value_through_its_document_not_each_sentence(library_of) -> None:
    # The town's page (plain text: no title or heading names the town) names the town where it locates
    # it, and states its population without the name.
    town = (
        "Elmford is a village in Dover County, Ohio. Elmford is located at (41.2345, -80.1234). "
        "The village lies on the west bank of the river. The population was 912 at the 2010 census. "
        "The population density was 310.5 people per square mile."
    )
    other = "Dover County has 14 villages. Its seat is Marlow, a town on the river."
    lead = _lead(library_of, {"page1.txt": town, "page2.txt": other}, "What is the population of Elmford?")
    assert lead.answer == "912"
