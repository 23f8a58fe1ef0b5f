"""The judge read clause by clause: polarity on the word a negation governs, modals, bounds, a figure in
its own clause and currency, a name the question holds swapped in; and truths a word-level reader
flagged: a common synonym, a number spelled out, a capitalised common word opening the claim."""

import pytest

from evals.judge_shapes import load, score
from research.verdict import Label
from strategies.reading.answerhood import answer_verdict
from strategies.reading.clauses import aligned, clauses
from strategies.reading.judge import judge

PASSES = "The day pass costs $20, and the annual pass costs $30."
LIBRARY = "The city library does not lend rare maps or books that are not catalogued."


def test_clauses_split_at_conjunctions_and_semicolons():
    assert clauses(PASSES) == ["The day pass costs $20", "and the annual pass costs $30."]
    assert aligned("The annual pass costs $30.", [PASSES])[0] == ["and the annual pass costs $30."]


@pytest.mark.parametrize(
    ("claim", "sentence"),
    [
        ("The city library does lend rare maps or books that are not catalogued.", LIBRARY),
        (
            "Residents who do not pay the fee can reserve a garden plot.",
            "Residents who do not pay the fee cannot reserve a garden plot.",
        ),
        ("Caching must reduce latency for repeated requests.", "Caching can reduce latency for repeated requests."),
        ("The battery lasts exactly 12 hours.", "The battery lasts up to 12 hours."),
        ("The day pass costs $30.", PASSES),
        ("The day pass costs €20.", "The day pass costs $20."),
    ],
)
def test_a_lie_one_clause_deep_is_not_stated(claim, sentence):
    assert not judge(claim, [sentence]).states


def test_a_name_of_the_question_swapped_in_is_not_stated():
    verdict = judge("Orion supports offline sync.", ["Vega supports offline sync."], "Does Orion support offline sync?")
    assert verdict.label is Label.NEITHER


@pytest.mark.parametrize(
    ("claim", "sentence"),
    [
        ("The city library does not lend rare maps or uncatalogued books.", LIBRARY),
        ("The annual pass costs $30.", PASSES),
        ("The company provides free storage to small teams.", "The firm offers free storage to small teams."),
        ("The study compares four baselines.", "The study compares 4 baselines on two tasks."),
        ("Staff badges open the side door after 6 pm.", "After 6 pm the side door opens with staff badges."),
        ("The hall seats no fewer than 200 people.", "The hall seats at least 200 people."),
        ("Turnout rose to 49 percent.", "Turnout rose to 49%."),
    ],
)
def test_a_truth_in_other_words_is_stated(claim, sentence):
    assert judge(claim, [sentence]).states


def test_every_lie_shape_is_caught_and_most_truths_kept():
    scores = {s.shape: s for s in score(load())}
    assert all(s.lies_passed == 0 for s in scores.values())
    assert scores["all"].recall >= 0.9


@pytest.mark.parametrize(
    ("claim", "sentence"),
    [
        ("Pets are allowed in the reading room.", "Pets are forbidden in the reading room."),
        ("The trial plan includes offline maps.", "The trial plan excludes offline maps."),
        ("In winter the north gate is unavailable to cyclists.", "The north gate is available to cyclists in winter."),
        ("The filter loses accuracy on noisy scans.", "The filter keeps its accuracy on noisy scans."),
        ("Water use decreased after the new meters.", "Water use increased after the new meters."),
        ("The rule is unfair to late applicants.", "The rule is fair to late applicants."),
        (
            "The deposit is refundable when the booking is not cancelled.",
            "The deposit is non-refundable when the booking is not cancelled.",
        ),
    ],
)
def test_an_opposite_word_with_the_same_polarity_is_not_stated(claim, sentence):
    assert not judge(claim, [sentence]).states


@pytest.mark.parametrize(
    ("claim", "sentence"),
    [
        ("Pets are not allowed in the reading room.", "Pets are forbidden in the reading room."),
        ("Pets are forbidden in the reading room.", "Pets are not allowed in the reading room."),
        ("The trial plan excludes offline maps.", "The trial plan does not include offline maps."),
        ("The filter keeps its accuracy on noisy scans.", "The filter does not lose accuracy on noisy scans."),
        (
            "The north gate is unavailable to cyclists in winter.",
            "The north gate is not available to cyclists in winter.",
        ),
        ("It is impossible to renew a permit online.", "It is not possible to renew a permit online."),
        ("Late buses are not uncommon on the coast road.", "Late buses are common on the coast road."),
        (
            "Unlike the old kettle, the new one does not whistle.",
            "The new kettle does not whistle, unlike the old one.",
        ),
        ("Visitors under 16 enter free on Sundays.", "On Sundays, visitors under 16 enter free."),
        (
            "The vote showed universal support for the plan.",
            "The vote showed universal support among members for the plan.",
        ),
        ("The ferry was none the less delayed by fog.", "The ferry was nonetheless delayed by fog."),
    ],
)
def test_an_opposite_word_with_its_polarity_turned_is_stated(claim, sentence):
    assert judge(claim, [sentence]).states


def test_a_verb_undoing_an_act_is_no_negation_of_it():
    # "unlock" undoes locking; "does not lock" leaves it as it was.
    assert not judge("The night staff unlock the side door.", ["The night staff do not lock the side door."]).states
    assert judge("The side door stays unlocked at night.", ["The side door is not locked at night."]).states


@pytest.mark.parametrize(
    ("claim", "sentence"),
    [
        ("Among the entries, the judges picked three.", "The judges picked three of the entries."),
        ("Multiple volunteers staff the desk on weekends.", "On weekends, volunteers staff the desk."),
        ("However, the desk closes early on holidays.", "The desk closes early on holidays."),
        ("Create the guest list before sending invitations.", "We create the guest list before sending invitations."),
    ],
)
def test_a_common_word_opening_the_claim_is_no_missing_name(claim, sentence):
    assert judge(claim, [sentence]).states


@pytest.mark.parametrize(
    "claim",
    [
        "Among reached the summit before noon.",  # "Among" opens nothing a preposition opens
        "However Ware reached the summit before noon.",  # a connective without its comma
        "Orion the guide reached the summit before noon.",
    ],
)
def test_a_capitalised_word_standing_for_the_subject_is_still_a_missing_name(claim):
    assert not judge(claim, ["Vega reached the summit before noon."]).states


def test_a_parenthesis_glued_to_a_name_is_part_of_its_clause():
    sentence = "Recall on the Books(dev) split is 81%, and recall on the News(test) split is 64%."
    assert judge("Recall on the Books(dev) split is 81%, and it is 64% on the News(test) split.", [sentence]).states
    assert not judge("Recall on the Books(dev) split is 64%, and it is 81% on the News(test) split.", [sentence]).states


@pytest.mark.parametrize(
    ("claim", "sentences"),
    [
        (
            "The museum shop sells printed maps and wool scarves, opening at nine.",
            ["The museum shop opens at nine.", "It sells printed posters and wool scarves."],
        ),
        (
            "Engineers tuned the cooling fans for quiet operation in summer and winter.",
            ["In summer, engineers tuned the cooling pumps for quiet operation."],
        ),
    ],
)
def test_a_term_standing_between_the_words_of_another_is_not_stated(claim, sentences):
    verdict = judge(claim, sentences)
    assert verdict.label is Label.NEITHER
    assert "stands where" in verdict.reason


@pytest.mark.parametrize(
    ("claim", "sentences"),
    [
        (
            "The clinic treats minor injuries without an appointment.",
            ["Minor injuries are treated at the clinic without an appointment."],
        ),
        (
            "The garden grows rare orchids in heated glasshouses.",
            ["In heated glasshouses the garden grows rare orchids."],
        ),
        (
            "The firm offers printed maps to hikers at the lodge.",
            ["At the lodge, the company provides printed maps to hikers."],
        ),
    ],
)
def test_a_word_order_or_a_verb_changed_around_the_terms_is_no_swap(claim, sentences):
    assert judge(claim, sentences).states


def test_a_question_s_terms_in_a_row_have_no_slots() -> None:
    """The offline reading judges a question's terms strung together: their neighbours are no slots, so
    "Lumen" before "prompt engineering" does not stand where a sentence says "consider"."""
    sentences = ["Here are some reasons to consider prompt engineering over finetuning for new tasks."]
    terms = "lumen prompt engineering instead fine tuning new tasks"
    assert "stands where" in judge(terms, sentences).reason
    assert "stands where" not in judge(terms, sentences, ordered=False).reason
    question = (
        "According to the Lumen guide, what is one advantage of prompt engineering over fine-tuning for new tasks?"
    )
    assert answer_verdict(question, sentences, ["Lumen guide"]).states
