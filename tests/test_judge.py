"""The judge of what a sentence states (``strategies.reading.judge``), tried as a reader would break it:
a paraphrase, a changed figure, a symbol for a word, a negation, a name swapped, a sweeping claim, a
figure moved to another subject. The embedder runs for real."""

from __future__ import annotations

import pytest

from graph.run import run_research
from research.report import ClaimStatus
from research.verdict import Label
from strategies.llm.strategy import LLMStrategy
from strategies.offline.strategy import OfflineStrategy
from strategies.reading.judge import judge, read_again
from strategies.reading.vectors import Meaning, Vectors
from testing_support.llm_fakes import ScriptedChatModel
from testing_support.llm_scripts import sentences_in

ADASD = (
    "AdaSD achieves a speedup of up to 49% over standard speculative decoding while keeping accuracy "
    "degradation below 2%."
)
ROOFS = "Across these studies, extensive green roofs retain 50 to 60 percent of annual rainfall, with a median of 56 percent."


@pytest.fixture(scope="module")
def meaning(embedder) -> Meaning:
    return Meaning(Vectors(embedder))


@pytest.mark.parametrize(
    "claim",
    [
        ADASD,  # verbatim
        "AdaSD achieves a speedup of up to 49 percent.",  # a word for the symbol
        "AdaSD speeds up standard speculative decoding by up to 49%.",  # a paraphrase
        "Extensive green roofs retain a median of 56% of annual rainfall.",
        "Green roofs hold back between 50 and 60 percent of the rain that falls in a year.",
    ],
)
def test_what_the_sentence_says_is_stated(claim, meaning):
    verdict = judge(claim, [ADASD, ROOFS], meaning=meaning)
    assert verdict.states, verdict


@pytest.mark.parametrize(
    ("claim", "label"),
    [
        ("AdaSD achieves a speedup of up to 63% over standard speculative decoding.", Label.CONTRADICTS),
        ("AdaSD achieves a speedup of more than 49% over standard speculative decoding.", Label.CONTRADICTS),
        ("AdaSD does not speed up standard speculative decoding.", Label.CONTRADICTS),
        ("Medusa achieves a speedup of up to 49% over standard speculative decoding.", Label.NEITHER),
        ("Extensive green roofs retain 80 percent of annual rainfall.", Label.CONTRADICTS),
        ("Green roofs eliminate all stormwater runoff permanently in every city.", Label.NEITHER),
    ],
)
def test_a_changed_figure_name_polarity_or_sweep_is_not_stated(claim, label, meaning):
    verdict = judge(claim, [ADASD, ROOFS], meaning=meaning)
    assert verdict.label is label, verdict
    assert verdict.score < 0.5 and verdict.reason


def test_a_figure_given_to_another_subject_is_not_stated(meaning):
    sentence = "The gmina has a population of 14,719, of which the town of Gniewkowo has 7,041."
    assert not judge("The population of Gniewkowo is 14,719.", [sentence], meaning=meaning).states
    assert judge("Gniewkowo has a population of 7,041.", [sentence], meaning=meaning).states
    # A study's size ("N=10") names no subject: the list number "(3)" before it is no figure of N.
    study = "(3) A controlled lab study (N=10) focusing on paper discovery during reading."
    assert judge(study, [study], meaning=meaning).states


def test_a_term_swapped_inside_copied_words_is_not_stated(meaning):
    sentence = "We used a classifier to filter the noisy labels before training."
    verdict = judge("We used crowdsourcing to filter the noisy labels before training.", [sentence], meaning=meaning)
    assert verdict.label is Label.NEITHER and "crowdsourcing" in verdict.reason


def test_a_negation_of_a_word_the_claim_does_not_use_denies_nothing_of_it(meaning):
    sentence = "The EGL method in [3] is almost the same as Eq. (8), except the gradient's norm is not squared in [3]."
    # An abbreviation ends no piece of the claim, and the sentence's "not squared" is not the claim's.
    assert judge("The EGL method is almost the same as Eq. (8) in [3].", [sentence], meaning=meaning).states
    assert judge(sentence.replace("The EGL", "Reducing variance, the EGL"), [sentence], meaning=meaning).states
    # A negation of the claim's own word still contradicts it.
    verdict = judge("The EGL method squares the gradient's norm, almost as Eq. (8) does.", [sentence], meaning=meaning)
    assert not verdict.states, verdict


def test_contrasted_clauses_are_read_for_polarity_each_against_its_own_sentence(meaning):
    sentences = [
        "We find that the political handles do not change their usernames at all.",
        "Their followers change their usernames many times over the election.",
    ]
    claim = "The political handles do not change their usernames, while their followers change their usernames."
    assert judge(claim, sentences, meaning=meaning).states
    swapped = "The political handles change their usernames, while their followers do not change their usernames."
    assert not judge(swapped, sentences, meaning=meaning).states


def test_the_question_and_title_may_hold_what_the_sentence_leaves_implicit(meaning):
    sentence = "It achieves 69% on MMLU and 8.38 on MT-bench."
    claim = "phi-3-mini scores 69% on MMLU."
    assert not judge(claim, [sentence], meaning=meaning).states
    assert judge(claim, [sentence], question="What is phi-3-mini's MMLU score?", meaning=meaning).states
    assert judge(claim, [sentence], context=["Phi-3 Technical Report: phi-3-mini"], meaning=meaning).states


def test_without_the_embedder_a_paraphrase_needs_the_sentences_words():
    assert judge("AdaSD speeds up speculative decoding by up to 49%.", [ADASD]).states
    assert not judge(
        "Green roofs hold back between 50 and 60 percent of the rain that falls in a year.", [ROOFS]
    ).states
    assert not judge("anything", []).states


SWEEPING = "Green roofs eliminate all stormwater runoff permanently in every city."


def _liar(step: str, prompt: str):
    """A confident model citing a real sentence for a claim it does not state."""
    sentences = sentences_in(prompt)
    sid = next(s for s, t in sentences.items() if "half of annual rainfall" in t)
    if step == "answer":
        claims = [{"text": SWEEPING, "sentence_ids": [sid]}]
        return {"claims": claims, "sufficient": True, "confidence": 0.9, "next_queries": []}
    if step == "rerank":
        return {"scores": []}
    raise AssertionError(step)


def test_a_sweeping_claim_cited_to_a_sentence_that_says_otherwise_is_flagged_never_answered(make_library, tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "retention.md").write_text(
        "# Rainfall retention on roofs\n\nExtensive green roofs capture around half of annual rainfall in "
        "temperate climates, and less in wet winters.\n",
        encoding="utf-8",
    )
    library = make_library("liar")
    library.ingest([docs])
    strategy = LLMStrategy(
        ScriptedChatModel(script=_liar), "liar", embedder=library.embedder, fallback=OfflineStrategy(library.embedder)
    )
    report = run_research(
        library, strategy, "How much annual rainfall do green roofs capture?", single_question=True
    ).report
    flagged = [c for _, c in report.parts() if c.text == SWEEPING]
    assert flagged and all(c.status is ClaimStatus.UNSUPPORTED and c.confidence is None for c in flagged)
    assert "'all'" in flagged[0].reason
    assert "0.90" not in report.markdown and "All runoff" not in report.markdown
    [section] = report.sections
    # Answered only by the documents' own sentence (verified), never by the model's claim.
    verified = [c for c in section.claims if c.status is ClaimStatus.VERIFIED]
    assert all(SWEEPING != c.text for c in verified)
    if section.status.value.startswith("answered"):
        assert section.extractive and verified
    assert "1 claim flagged unsupported" in report.markdown


def test_a_second_reader_may_rescue_a_synonym_and_doubt_a_paraphrase_but_never_overrule_the_text():
    swap = judge(
        "We used crowd workers to filter the noisy labels.", ["We used annotators to filter the noisy labels."]
    )
    assert swap.label is Label.NEITHER and not swap.firm
    assert read_again(swap, Label.STATES).states  # the model reads "crowd workers" as the annotators
    words = judge("AdaSD speeds up speculative decoding by up to 49%.", [ADASD])
    assert words.states and not read_again(words, Label.CONTRADICTS).states
    figure = judge("AdaSD achieves a speedup of up to 63%.", [ADASD])
    assert figure.firm and read_again(figure, Label.STATES) == figure  # a changed figure stays contradicted
    assert read_again(judge(ADASD, [ADASD]), Label.NEITHER).states  # a verbatim quote stays stated


def test_the_model_reads_its_claims_again_in_one_call_and_the_citation_node_keeps_its_reading(make_library, tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "labels.md").write_text(
        "# Label cleaning\n\nWe used annotators to filter the noisy labels before training the tagger.\n",
        encoding="utf-8",
    )
    library = make_library("reader")
    library.ingest([docs])
    claim = "We used crowd workers to filter the noisy labels before training the tagger."

    def reader(step: str, prompt: str):
        if step == "rerank":
            return {"scores": []}
        if step == "answer":
            sid = next(s for s, t in sentences_in(prompt).items() if "annotators" in t)
            return {"claims": [{"text": claim, "sentence_ids": [sid]}], "sufficient": True, "confidence": 0.9}
        if step == "read":
            assert "Claim 1: " + claim in prompt
            return {"verdicts": [{"claim": 1, "verdict": "states"}]}
        raise AssertionError(step)

    model = ScriptedChatModel(script=reader)
    strategy = LLMStrategy(
        model, "reader", embedder=library.embedder, fallback=OfflineStrategy(library.embedder), reader=True
    )
    report = run_research(library, strategy, "Who filtered the noisy labels?", single_question=True).report
    [section] = report.sections
    assert [c.text for c in section.claims if c.status is ClaimStatus.VERIFIED] == [claim]
    assert [s for s, _ in model.calls].count("read") == 1
