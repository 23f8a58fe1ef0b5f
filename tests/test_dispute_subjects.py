"""Disagreements only between documents about the same thing: two plans with two prices, or two
albums of one name, are two things, each value shown with its thing; one plan with two prices is a
disagreement. Real library (fastembed, embedded Qdrant, LangGraph), offline mode."""

from __future__ import annotations

from graph.run import run_research
from strategies.offline.strategy import OfflineStrategy
from strategies.reading.answer_phrase import AnswerType
from strategies.reading.document_answers import changed_value, detail_change
from strategies.reading.question import parse_question
from strategies.reading.subjects import different, subject_of
from strategies.reading.text import stem


def _ask(library_of, embedder, documents: dict[str, str], question: str):
    return run_research(library_of(documents), OfflineStrategy(embedder), question, single_question=True).report


def _leads(report) -> list[str]:
    (section,) = report.sections
    return [c.answer for c in section.claims if c.answer]


def test_two_plans_with_two_prices_are_no_disagreement_and_each_price_names_its_plan(library_of, embedder):
    documents = {
        "relay-pro.txt": (
            "Relay Pro\n\nThe Relay Pro plan is priced at $20 per month for each user. "
            "It includes unlimited projects and priority support for every workspace."
        ),
        "relay-team.txt": (
            "Relay Team\n\nThe Relay Team plan is priced at $30 per month for each user. "
            "It adds shared workspaces and an admin console for the whole organisation."
        ),
    }
    report = _ask(library_of, embedder, documents, "What is the monthly price of a Relay plan?")
    assert report.disagreements == []
    assert "The sources disagree" not in report.markdown
    leads = _leads(report)
    assert any("$20" in a and "Pro" in a for a in leads), leads
    assert any("$30" in a and "Team" in a for a in leads), leads


def test_one_plan_with_two_prices_in_two_documents_is_a_disagreement(library_of, embedder):
    documents = {
        "relay-pricing.txt": (
            "Relay pricing\n\nThe Relay Pro plan is priced at $20 per month for each user. "
            "It includes unlimited projects and priority support for every workspace."
        ),
        "reseller-sheet.txt": (
            "Reseller sheet\n\nThe Relay Pro plan is priced at $35 per month for each user. "
            "It includes unlimited projects and priority support for every workspace."
        ),
    }
    report = _ask(library_of, embedder, documents, "What is the monthly price of the Relay Pro plan?")
    (dispute,) = report.disagreements
    assert "$20" in dispute.explanation and "$35" in dispute.explanation
    (section,) = report.sections
    assert section.disputed and "The sources disagree on this" in report.markdown


ECHOES = {
    "northern-lights.txt": (
        "Echoes (Northern Lights album)\n\nEchoes is the third studio album by the Canadian band Northern "
        "Lights, released in 1984 on Harbor Records. It was recorded in Montreal over six weeks."
    ),
    "mara-vell.txt": (
        "Echoes (Mara Vell album)\n\nEchoes is the debut album by the singer Mara Vell, released in 2009 "
        "on Uptown Records. Its first single reached the national charts."
    ),
}
ECHOES_QUESTION = "Who is the artist of the album Echoes?"


def test_two_albums_of_one_name_are_two_things_not_a_disagreement(library_of, embedder):
    report = _ask(library_of, embedder, ECHOES, ECHOES_QUESTION)
    assert report.disagreements == []
    leads = _leads(report)
    # Each artist is shown with what tells its album apart (its year, its place in a series).
    northern = next(a for a in leads if a.startswith("Northern Lights"))
    mara = next(a for a in leads if a.startswith("Mara Vell"))
    assert "1984" in northern and "third" in northern
    assert "2009" in mara and "debut" in mara


def test_of_three_albums_of_one_name_only_the_two_crediting_one_album_to_two_artists_disagree(library_of, embedder):
    documents = {
        **ECHOES,
        "fan-site.txt": (
            "Echoes\n\nEchoes is the debut album by the singer Lena Frost, released in 2009 on Uptown "
            "Records. Its first single reached the national charts."
        ),
    }
    report = _ask(library_of, embedder, documents, ECHOES_QUESTION)
    (dispute,) = report.disagreements
    assert {dispute.sides[0].answer, dispute.sides[1].answer} == {"Mara Vell", "Lena Frost"}
    # The other album's artist is named as another thing, not as a side.
    assert "Northern Lights" in dispute.explanation and "another thing" in dispute.explanation


def test_the_subject_of_a_value_is_what_its_sentence_names_beside_it():
    question = "What is the context window of Claude 3 Haiku?"
    haiku = subject_of("Claude 3 Haiku has a context window of 200K tokens.", ["200K tokens"], question)
    opus = subject_of("Claude 3 Opus has a context window of 100K tokens.", ["100K tokens"], question)
    assert not haiku.off_question and opus.off_question  # a variant of the asked name: another model
    # Years and ordinals set two things apart; a shared detail or an unqualified side does not.
    then = subject_of("In 2019 the city had 40,000 inhabitants.", ["40,000 inhabitants"], "What is the population?")
    now = subject_of("In 2023 the city had 52,000 inhabitants.", ["52,000 inhabitants"], "What is the population?")
    plain = subject_of("The city has 52,000 inhabitants.", ["52,000 inhabitants"], "What is the population?")
    assert different(then, now) and not different(then, plain)
    # Honorifics and initials: "Justice Ritchie" is the "Roland Almon Ritchie" of both documents.
    born = "When was Justice Ritchie born?"
    one = subject_of("Roland Almon Ritchie (June 19, 1910 – June 5, 1988) was a judge.", ["June 19, 1910"], born)
    two = subject_of("Roland Almon Ritchie (January 1, 1900 – June 5, 1988) was a judge.", ["January 1, 1900"], born)
    assert not (one.off_question or two.off_question or different(one, two))


def test_an_edited_statement_is_a_disagreement_on_a_value_not_on_a_name():
    kind = AnswerType.DATE
    change = detail_change(
        "Harbour Crossing The bridge was opened to traffic in 1932 after eight years of work.",
        "The bridge was opened to traffic in 1951 after eight years of work.",
    )
    assert change == [("1932", "1951")]  # the title glued before one sentence is no change
    assert changed_value(change, kind)
    # One letter apart is a typo, not a change; the year beside it still is.
    assert detail_change(
        "The parish was founded in 1900, the present church building was completed in 1951.",
        "The parish was founded in 1856, the present chuch building was completed in 1951.",
    ) == [("1900", "1856")]
    models = detail_change(
        "Claude 3 Opus offers a context window of 200K tokens for long documents.",
        "Claude 3 Haiku offers a context window of 200K tokens for long documents.",
    )
    assert models == [("Opus", "Haiku")]
    # Another model is another subject: no value of a description question, nor of a quantity one.
    assert not changed_value(models, AnswerType.DESCRIPTION) and not changed_value(models, AnswerType.QUANTITY)


def test_two_copies_of_a_page_spaced_differently_are_one_statement_with_the_place_changed():
    """Punctuation standing alone ("( Dzongkha : … )") is no word, and a changed detail keeps its own
    punctuation ("Thimphu, Bhutan")."""
    change = detail_change(
        "Yangchen School ( Dzongkha : yang chen ) is a co-ed public high school in Thimphu , Bhutan .",
        "Yangchen School (Dzongkha: yang chen) is a co-ed public high school in Kathmandu, Nepal.",
    )
    assert change == [("Thimphu, Bhutan", "Kathmandu, Nepal")]
    assert changed_value(change, AnswerType.PLACE)


def test_one_measure_rounded_or_converted_differently_is_no_edit():
    """Two copies of a page giving a density as "388.5/km²" and "389.3/km 2" round one conversion two
    ways; a year or a count changed is an edit however close ("1885" / "1902")."""
    assert detail_change(
        "The population density was 1,008.4 people per square mile (388.5/km²).",
        "The population density was 1,008.4 inhabitants per square mile ( 389.3/km 2 ) .",
    ) == [("people", "inhabitants")]
    assert not changed_value([("people", "inhabitants")], AnswerType.QUANTITY)
    assert detail_change(
        "The courthouse was completed in 1885 by the county.", "The courthouse was completed in 1902 by the county."
    ) == [("1885", "1902")]
    assert detail_change(
        "The median age in the city was 45.7 years.", "The median age in the city was 30.2 years."
    ) == [("45.7", "30.2")]


def test_a_side_must_state_what_the_question_asks_of_its_subject():
    assert parse_question("In which city did Conry practice law?").relation >= {stem("practice"), stem("law")}
    assert parse_question("What is the population of Madi Municipality?").relation == {stem("population")}
    assert stem("sport") not in parse_question("What sport is Vestri associated with?").relation  # the answer names one


def test_figures_in_the_evidence_of_a_question_the_library_does_not_answer_are_no_disagreement_on_it(
    library_of, embedder
):
    """An unanswered question whose best sentence names nothing it asks about shows no clash between
    figures its evidence happens to hold: a roof's membrane 30 °C cooler and street air 2 °C cooler
    say nothing on insurance premiums, and are two things besides."""
    documents = {
        "membrane.txt": (
            "Roof Surface Temperatures\n\nOn average, the peak daily membrane temperature beneath the green "
            "roof was 30 °C lower than the peak surface temperature of the black bitumen roof."
        ),
        "street.txt": (
            "How Much Do Green Roofs Cool the Street?\n\nClaims that green roofs lower street temperatures "
            "by around 2 °C are not supported by our simulations for a mid-rise city."
        ),
    }
    report = _ask(library_of, embedder, documents, "Do insurers give lower premiums to buildings with green roofs?")
    assert not report.answered_sections()
    assert report.disagreements == [] and "Where sources disagree" not in report.markdown.split("## What")[0]
