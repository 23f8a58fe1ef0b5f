"""The judge's hard checks as calibrated on the pair set (benchmarks/judge_pairs.py)."""

import pytest

from strategies.reading.claim_checks import holds
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


# --- names: a capital of the claim is a capital of the text -------------------------------------------------

TAGS = "Wrap each document in XML tags and take care to close every tag you open."


def test_a_name_the_text_holds_only_as_a_common_word_is_not_stated():
    # "Care" stands for "XML": the text says "care", in lower case, as a common word.
    verdict = judge("Wrap each document in Care tags and close every tag you open.", [TAGS])
    assert not verdict.states
    assert "Care" in verdict.reason


def test_an_acronym_in_lower_case_in_the_text_is_not_the_acronym():
    text = "The results were exported as a csv file."
    assert not holds(text, "CSV", cased=True)
    assert holds(text, "CSV")  # a question's names are read without their case (answerhood.unheld)
    assert holds("Set the max_tokens parameter.", "max_tokens", cased=True)


@pytest.mark.parametrize(
    ("claim", "sentence"),
    [
        ("GPT-4 scores 86% on MMLU.", "GPT4 scores 86% on MMLU."),  # hyphenated / joined
        ("GPT-4 scores 86% on MMLU.", "GPT 4 scores 86% on MMLU."),  # hyphenated / spaced
        ("GPT4 scores 86% on MMLU.", "GPT-4 scores 86% on MMLU."),  # joined / hyphenated
        ("LLMs answer in Polish from Gdańsk.", "The LLM answers in Polish from Gdansk."),  # plural, accent
        ("The LLM answers in Polish.", "LLMs answer in Polish."),
        ("Python's standard library parses JSON.", "The standard library of Python parses JSON."),  # possessive
        ("The API accepts JPEG and PNG images.", 'The API accepts the "image/jpeg" and "image/png" media types.'),
        ("They trained a Machine Translation model.", "They trained a machine translation model."),
    ],
)
def test_a_name_written_otherwise_is_the_name(claim, sentence):
    verdict = judge(claim, [sentence])
    assert verdict.states, verdict


def test_a_sentence_opening_capital_is_no_name_where_the_text_writes_the_word_in_lower_case():
    sentences = ["Care must be taken with the wrapper.", "Wrap each document in XML tags; take care to close them."]
    assert not judge("Wrap each document in Care tags.", sentences).states
    # Where the text never writes it in lower case, a capital opening its sentence may be the name's.
    sentences = ["Medusa achieves a speedup of up to 49% over standard decoding."]
    assert judge("The speedup of Medusa over standard decoding is up to 49%.", sentences).states


def test_a_part_of_a_longer_name_capitalised_only_where_a_sentence_opens_needs_the_whole_name():
    sentences = ["One provider with a wide variety of options is Voyage AI.", "Sign up on Voyage AI's website."]
    assert not judge("Anthropic recommends Sign AI for embedding models.", sentences).states
    assert judge("One provider with a wide variety of options is Voyage AI.", sentences).states
    # The whole name held where a sentence opens is the name.
    assert judge("The guide recommends Voyage AI.", ["Voyage AI is recommended by the guide."]).states
    # A page's navigation run together capitalises every word: "Pricing" there is a link's title.
    menu = [
        "One provider with a wide variety of options is Voyage AI.",
        "Getting started with Voyage AI Voyage Python package Voyage on the AWS Marketplace FAQ Pricing",
    ]
    asked = "Which provider does Anthropic recommend for embedding models?"
    assert not judge("Anthropic recommends Pricing AI for embedding models.", menu, question=asked).states
    assert judge("One provider with a wide variety of options is Voyage AI.", menu).states


def test_a_claim_opening_word_owes_its_capital_to_its_place():
    sentence = "Extensive green roofs retain 50 to 60 percent of annual rainfall."
    assert judge("Extensive green roofs retain 50 to 60 percent of rainfall a year.", [sentence]).states


def test_the_question_and_titles_name_without_their_case():
    sentence = "It exports the results as a table."
    verdict = judge("The Exporter exports the results as a table.", [sentence], question="what does the exporter do?")
    assert verdict.states, verdict


def test_a_name_standing_where_the_copied_sentence_has_another_is_a_swap_wherever_else_it_is_named():
    sentences = [
        "Combine XML tags with other techniques like chain of thought.",
        "Draft emails to donors asking for contributions to this year's Care for Kids program.",
    ]
    verdict = judge("You can combine Care tags with other techniques like chain of thought.", sentences)
    assert not verdict.states
    assert "'care'" in verdict.reason and "'xml'" in verdict.reason


def test_a_sweeping_word_under_a_negation_or_a_condition_sweeps_nothing():
    sentence = "We use the existence of hashtags in tweets as an additional feature to unigrams."
    assert judge("The feature is whether there is any hashtag in the tweet.", [sentence]).states
    assert not judge("The feature is any hashtag in every tweet.", [sentence]).states


def test_a_typo_or_another_form_of_the_copied_word_is_no_swapped_term():
    sentence = "Each term-sense pair has around 15 samples for testing."
    assert judge("Each term-sanse pair has around 15 samples for testing.", [sentence]).states
    assert not judge("Each term-model pair has around 15 samples for testing.", [sentence]).states


def test_words_the_text_spaces_apart_are_no_name_written_as_one():
    assert not holds("Voyage on the AWS Marketplace FAQ Pricing", "MarketplaceFAQPricing", cased=True)
    assert holds("Voyage on the AWS MarketplaceFAQPricing", "MarketplaceFAQPricing", cased=True)


def test_a_sweeping_word_a_negation_governs_four_words_on_sweeps_nothing():
    pdfs = "Learn how to upload PDFs and have Claude summarize their content, making it easy to digest long documents."
    claim = (
        "You can have Claude summarize PDFs, making long documents easy to digest without having to read everything."
    )
    assert judge(claim, [pdfs]).states
    assert not judge("You can have Claude summarize everything in long documents.", [pdfs]).states


def test_a_list_items_label_is_no_figure_but_a_changed_figure_still_is():
    sentence = (
        'Type in any cell =CLAUDE("Hi", "claude-3-haiku", "max_tokens", 3). Any API parameter can be set this way.'
    )
    asked = "What are two ways to set API parameters?"
    assert judge(
        'Parameters can be set two ways: 1) As arguments of CLAUDE(), like "max_tokens", 3.', [sentence], asked
    ).states
    assert not judge('API parameters can be set as arguments of CLAUDE(), like "max_tokens", 5.', [sentence]).states
    assert not judge('API parameters can be set as arguments of CLAUDE(), like "max_tokens", 1).', [sentence]).states
    assert judge("2) By passing the API parameter to CLAUDE() in any cell.", [sentence], asked).states
    assert not judge("5) By passing the API parameter to CLAUDE() in any cell.", [sentence], asked).states


def test_a_figure_read_with_its_label_and_its_thousands():
    limits = "Yes, there are limits: API: Maximum 5MB per image claude.ai: Maximum 10MB per image."
    assert judge("The API has a maximum of 5MB per image, while claude.ai has a maximum of 10MB.", [limits]).states
    assert not judge("The API has a maximum of 8MB per image, while claude.ai has a maximum of 10MB.", [limits]).states
    assert not judge("The API has a maximum of 10MB per image, while claude.ai has a maximum of 5MB.", [limits]).states
    table = "Gmina: population 14,719; Gniewkowo: population 7,041."
    assert judge("Gniewkowo has a population of 7,041.", [table]).states
    assert not judge("Gniewkowo has a population of 14,719.", [table]).states
    prose = "The gmina has a population of 14,719, of which the town of Gniewkowo has 7,041."
    assert not judge("The population of Gniewkowo is 14,719.", [prose]).states


def test_a_values_spread_states_no_figure_of_its_own_but_to_a_claim_giving_a_spread():
    """ "38.72(0.30)" is a score and its deviation: "+0.30 F1" is not what the row states, while a
    claim giving the score with its spread is."""
    row = "10% | 47.21(0.34) | 23.05(0.17) | 38.72(0.30)"
    assert not judge("The gain is +0.30 F1.", [row]).states
    assert not judge("The gain is +0.93 F1.", ["ChemProt | REL | 83.64 | 84.59 ± 0.93"]).states
    assert judge("ChemProt: 84.59 ± 0.93.", ["ChemProt | REL | 83.64 | 84.59 ± 0.93"]).states
