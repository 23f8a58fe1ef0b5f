"""The judge's hard checks as calibrated on the pair set (benchmarks/judge_pairs.py)."""

from strategies.reading.judge import judge

SENTENCE = "Extensive green roofs retain 50 to 60 percent of annual rainfall in temperate climates."


def test_a_claim_over_two_sentences_is_read_piece_by_piece():
    sentences = [
        "More than 2,100 texts were paired with 15 questions each.",
        "For 13% of the questions, the workers did not agree on one of the categories.",
    ]
    claim = (
        "More than 2,100 texts were paired with 15 questions each. For 13% of the questions the workers did not agree."
    )
    assert judge(claim, sentences).states


def test_without_is_no_negation():
    sentence = "We used the Reuters-8 dataset without stop words from an earlier study."
    assert judge("The Reuters-8 dataset was used without stop words.", [sentence]).states


def test_a_sweeping_word_the_text_does_not_say_is_not_stated():
    verdict = judge("Extensive green roofs retain 50 to 60 percent of annual rainfall in every case.", [SENTENCE])
    assert not verdict.states
    assert "every" in verdict.reason


def test_an_opening_common_word_in_another_form_is_no_name():
    sentence = "We build a bilingual language model and learn the target language's parameters."
    assert judge("Build a bilingual language model and learn the target parameters.", [sentence]).states


def test_an_opening_name_the_text_does_not_hold_is_not_stated():
    sentence = "Medusa achieves a speedup of up to 49% over standard decoding."
    assert not judge("Llama achieves a speedup of up to 49% over standard decoding.", [sentence]).states


def test_half_the_words_of_a_short_claim_is_not_enough():
    sentence = "Annotators were recruited through a crowdsourcing platform."
    assert not judge("classifier platform", [sentence], question="What was used?").states
