"""Documents that answer a question differently: the report presents the sides, in both modes, and
never states one as fact. Real library (fastembed, embedded Qdrant, LangGraph); in LLM mode only the
chat model is scripted."""

from __future__ import annotations

from graph.run import run_research
from strategies.llm.strategy import LLMStrategy
from strategies.offline.strategy import OfflineStrategy
from testing_support.llm_fakes import ScriptedChatModel
from testing_support.llm_scripts import sentences_in

DOCUMENTS = {
    "bridge-history.txt": (
        "The Harbour Crossing\n\nThe Harbour Crossing is a steel arch bridge over the estuary. "
        "The Harbour Crossing was opened to traffic in 1932 after eight years of construction. "
        "It carries eight lanes of road traffic and two railway tracks."
    ),
    "city-guide.txt": (
        "Visiting the estuary\n\nThe Harbour Crossing dominates the skyline of the old port. "
        "The Harbour Crossing was opened to traffic in 1932 and is now the city's best-known landmark. "
        "Guided climbs over the arch start every morning."
    ),
    "tourist-leaflet.txt": (
        "Harbour walks\n\nThe Harbour Crossing is the most photographed structure on the waterfront. "
        "The Harbour Crossing was opened to traffic in 1951 after a long delay caused by the war. "
        "Ferries to the islands leave from the quay beneath it."
    ),
}
QUESTION = "When was the Harbour Crossing opened to traffic?"


def _assert_sides_presented(report):
    (section,) = report.sections
    assert section.disputed
    # Two answers, neither stated as fact: no confidence in either above a coin's toss.
    assert section.confidence <= 0.5
    assert {c.answer for c in section.claims} == {"1932", "1951"}
    assert "The sources disagree on this" in report.markdown
    (dispute, *_) = report.disagreements
    assert dispute.kind == "answer" and "(2 documents)" in dispute.explanation
    # Neither year is stated as the answer anywhere outside the presented sides; the answer says why first.
    assert not report.summary and "## Summary" not in report.markdown
    answer = report.markdown.split("## Answer")[1]
    assert answer.index("The sources disagree on this") < answer.index("1932") and "[1]" in answer


def test_offline_report_presents_both_answers_with_their_documents(library_of, embedder):
    library = library_of(DOCUMENTS)
    result = run_research(library, OfflineStrategy(embedder), QUESTION, single_question=True)
    _assert_sides_presented(result.report)


def test_llm_mode_presents_the_sides_even_when_the_model_states_one_as_fact(library_of, embedder):
    library = library_of(DOCUMENTS)
    one_sided = "The Harbour Crossing was opened to traffic in 1951 after a long delay caused by the war."

    def script(step: str, prompt: str):
        if step == "plan":
            return {"sub_questions": [{"question": QUESTION, "rationale": "As asked."}]}
        if step == "rerank":
            return {"scores": []}
        if step == "answer":
            sid = next(s for s, t in sentences_in(prompt).items() if t == one_sided)
            return {
                "claims": [{"text": "It opened in 1951.", "sentence_ids": [sid]}],
                "sufficient": True,
                "confidence": 0.9,
                "next_queries": [],
            }
        if step == "contradictions":
            return {"contradictions": []}  # the model misses the disagreement
        if step == "summary":
            return {"title": QUESTION, "summary": []}
        raise AssertionError(step)

    strategy = LLMStrategy(
        ScriptedChatModel(script=script), "scripted", embedder=embedder, fallback=OfflineStrategy(embedder)
    )
    result = run_research(library, strategy, QUESTION, single_question=True)
    _assert_sides_presented(result.report)
    assert "It opened in 1951." not in result.report.markdown


SHARED_WORD = {
    "league-history.txt": (
        "The Kestrel Shield\n\nThe Kestrel Shield is an amateur rugby union competition for clubs of the "
        "northern valleys. It was first contested in 1921 and is played every spring."
    ),
    "club-handbook.txt": (
        "Club competitions\n\nThe Kestrel Shield is an amateur rugby union competition for valley clubs. "
        "Our first team has reached the final four times."
    ),
    "fan-page.txt": (
        "The Kestrel Shield\n\nThe Kestrel Shield is an amateur cricket competition for clubs of the northern "
        "valleys. It was first contested in 1921 and is played every spring."
    ),
}
AGREEING = {
    "league-history.txt": SHARED_WORD["league-history.txt"],
    "club-handbook.txt": SHARED_WORD["club-handbook.txt"],
    "fan-page.txt": (
        "The Kestrel Shield\n\nThe Kestrel Shield is an amateur rugby competition for clubs of the northern "
        "valleys. It was first contested in 1921 and is played every spring."
    ),
}
SPORT = "What sport is the Kestrel Shield associated with?"


def test_answers_sharing_a_word_beside_a_different_one_are_a_disagreement(library_of, embedder):
    """ "amateur rugby union" and "amateur cricket" share a word, yet name two sports: a dispute, the two
    documents that agree on one side."""
    library = library_of(SHARED_WORD)
    report = run_research(library, OfflineStrategy(embedder), SPORT, single_question=True).report
    (section,) = report.sections
    assert section.disputed
    # Two answers, neither stated as fact: no confidence in either above a coin's toss.
    assert section.confidence <= 0.5
    (dispute, *_) = report.disagreements
    assert "(2 documents)" in dispute.explanation and "cricket" in dispute.explanation


def test_answers_one_of_which_says_more_agree(library_of, embedder):
    """ "rugby union" and "rugby": one answer said more fully, no disagreement."""
    library = library_of(AGREEING)
    report = run_research(library, OfflineStrategy(embedder), SPORT, single_question=True).report
    assert not report.disagreements and not report.sections[0].disputed
