"""The reading core's tuning, as data: every threshold, weight, margin and word-count limit the
readers use, in one frozen model, each with what it decides and the fit that produced it (issue 47.3;
like PaperQA2's ``Settings.from_name``).

Readers read the section they need from the default preset (``TUNING.evidence.min_coverage``); no
function takes the tuning as an argument. A preset is a set of overrides of the defaults below,
validated into the model, so a refit is a change of these figures (with its before → after on every
dev set, docs/evaluation.md), not of the code reading them. "Fit: set by hand" gives the date and commit
that introduced a value; any other fit, the measurement that chose it. Offline mode's sufficiency model
has its own presets (``strategies/offline/calibration.py``, ``PRP_CALIBRATION``).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Section(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Evidence(_Section):
    """Choosing an answer's sentences: relevance weights and priors, the floors, coverage and signals
    (extractive, signals, keyphrases, related_terms, closest, offline assessment)."""

    embedded_sentences: int = Field(
        40,
        description=(
            "Only this many sentences are embedded per answer (the best by lexical overlap, then by rank): "
            "embedding costs ~35 ms a sentence on a laptop CPU. Fit: set by hand, 2026-11-22 (f83a4ec)."
        ),
    )
    w_lexical: float = Field(
        0.5,
        description=(
            "Relevance = w_lexical x sentence-level BM25 + w_dense x cosine + priors. Fit: set by hand, "
            "2026-11-22 (f83a4ec)."
        ),
    )
    w_dense: float = Field(
        0.5,
        description=(
            "Weight of a sentence's cosine with the question in its relevance (beside w_lexical x BM25). Fit:"
            " set by hand, 2026-11-22 (f83a4ec)."
        ),
    )
    bm25_k1: float = Field(
        1.2,
        description=(
            "BM25's term saturation and length normalisation (Robertson's usual k1; a milder b, as sentences "
            "vary less in length than documents). Fit: set by hand, 2026-11-25 (cb02d7f)."
        ),
    )
    bm25_b: float = Field(
        0.5,
        description=(
            "BM25's length normalisation of a sentence's term weights (milder than the usual 0.75: sentences "
            "vary less in length than documents). Fit: set by hand, 2026-11-25 (cb02d7f)."
        ),
    )
    subject_term_weight: float = Field(
        0.25,
        description=(
            "Question terms in most candidates (the general subject) weigh this much of a specific term. Fit:"
            " set by hand, 2026-11-22 (7a0f25d)."
        ),
    )
    off_focus_penalty: float = Field(
        0.1,
        description=(
            "Relevance taken from a sentence holding none of the question's focus terms, when the question "
            "names a general subject. Fit: set by hand, 2026-11-22 (7a0f25d)."
        ),
    )
    about_document_penalty: float = Field(
        0.5,
        description=(
            'A sentence about its document or its authors\' procedure ("This brief proposes…", "We searched '
            'four databases…") states no finding about the subject: unless the question asks about the work '
            "itself, it ranks below every sentence that does (relevance is mostly within 0-1; the chunk-rank "
            "penalty is 0.3 a rank), so it is quoted only when nothing else is. Fit: set by hand, 2026-11-26 "
            "(75cb48d)."
        ),
    )
    about_text_penalty: float = Field(
        1.0,
        description=(
            "A sentence about the text itself (its layout, its authors' plans or release: 'about_the_text') "
            "states nothing about any subject: it drops below every sentence that does, and below the floor "
            'of what is quoted at all, so a topic report\'s finding is never "In Section 2, we give…". Fit: '
            "set by hand, 2026-12-06 (5b6212f)."
        ),
    )
    other_work_penalty: float = Field(
        0.5,
        description=(
            'A sentence whose subject is another, cited work ("Foster et al. devised…", "[12] proposed…") '
            'says what that work did: a question about the document\'s own work ("which corpus did they use") '
            "ranks it below every sentence its authors say of themselves (as 'about_document_penalty' does). "
            "Fit: set by hand, 2026-11-27 (c704a21)."
        ),
    )
    relative_lead_in_penalty: float = Field(
        0.2,
        description=(
            "A list's lead-in relative to something said before it (\"In addition to these core metrics, you "
            'may also consider:") introduces more of something, not the thing asked: its list is what the '
            "page adds to an answer given above it, so it ranks below the sentences that may give that "
            "answer. Fit: set by hand, 2026-11-27 (fe0e261)."
        ),
    )
    defining_bonus: float = Field(
        0.5,
        description=(
            '"What is X?" asks for the sentence that defines X ("We introduce X, a …", "X is a …"): it ranks '
            "above sentences that only use X (by as much as a sentence about the document drops, and more "
            "than a rank of its chunk), and is never taken for a sentence about the document. Fit: set by "
            "hand, 2026-12-06 (ae32364)."
        ),
    )
    named_table_bonus: float = Field(
        0.3,
        description=(
            'A row of the table the question names ("in Table 1") stands before what other passages say. Fit:'
            " set by hand, 2026-12-06 (14b24a9)."
        ),
    )
    section_bonus: float = Field(
        0.03,
        description=(
            "Prior added to a sentence of a findings or results section. Fit: set by hand, 2026-11-22 (7a0f25d)."
        ),
    )
    section_penalty: float = Field(
        0.12,
        description=("Prior taken from a sentence of a methods section. Fit: set by hand, 2026-11-22 (7a0f25d)."),
    )
    quantity_bonus: float = Field(
        0.03,
        description=("Prior added to a sentence holding a quantity. Fit: set by hand, 2026-11-22 (7a0f25d)."),
    )
    chunk_rank_penalty: float = Field(
        0.3,
        description=(
            "Claims prefer the better-ranked chunk: each rank down costs this much relevance (see "
            "'preference'). Fit: set by hand, 2026-11-25 (4a08b72)."
        ),
    )
    mmr_lambda: float = Field(
        0.75,
        description=(
            "MMR trade-off between relevance and novelty, and the weight of covering question terms not yet "
            "covered. Fit: set by hand, 2026-11-22 (f83a4ec)."
        ),
    )
    w_coverage: float = Field(
        0.15,
        description=(
            "Weight, in maximal marginal relevance, of covering question terms no chosen sentence covers yet."
            " Fit: set by hand, 2026-11-25 (cb02d7f)."
        ),
    )
    min_new_coverage: float = Field(
        0.25,
        description=(
            "A sentence adding this share of the question's focus-term weight is chosen even below the "
            "relative floor. Fit: set by hand, 2026-11-25 (cb02d7f)."
        ),
    )
    min_claims: int = Field(
        2,
        description=(
            "Claims chosen before the relative relevance floor applies. Fit: set by hand, 2026-11-22 (f83a4ec)."
        ),
    )
    max_claims: int = Field(
        4,
        description=(
            "At most this many sentences are chosen as an answer's claims. Fit: set by hand, 2026-11-22 (f83a4ec)."
        ),
    )
    absolute_floor: float = Field(
        0.5,
        description=(
            "Every claim needs at least absolute_floor of the best relevance; claims beyond min_claims need "
            "relative_relevance_floor of it. Fit: set by hand, 2026-11-22 (7a0f25d)."
        ),
    )
    relative_relevance_floor: float = Field(
        0.8,
        description=(
            "Every claim needs at least absolute_floor of the best relevance; claims beyond min_claims need "
            "relative_relevance_floor of it. Fit: set by hand, 2026-11-22 (f83a4ec)."
        ),
    )
    duplicate_cosine: float = Field(
        0.9,
        description=(
            "Sentences at least this similar to a chosen one are duplicates, whatever their relevance. Fit: "
            "set by hand, 2026-11-22 (f83a4ec)."
        ),
    )
    subject_share: float = Field(
        0.5,
        description=(
            "A question term found in most of the evidence's documents (titles included) names the general "
            'subject ("green roofs" across a library on green roofs), not what the question asks about it: '
            "with min_shared_documents or more documents, a term in at least subject_share of them; with two,"
            " a term in both. Evidence from one document is judged by its chunks: a term in nearly all of "
            "them (document_subject_share of at least min_subject_chunks) is what the whole document is "
            "about, while a page's own topic words, frequent as they are, are what a question about the page "
            "asks. Fit: set by hand, 2026-11-22 (f83a4ec)."
        ),
    )
    min_shared_documents: int = Field(
        3,
        description=(
            "A question term found in most of the evidence's documents (titles included) names the general "
            'subject ("green roofs" across a library on green roofs), not what the question asks about it: '
            "with min_shared_documents or more documents, a term in at least subject_share of them; with two,"
            " a term in both. Evidence from one document is judged by its chunks: a term in nearly all of "
            "them (document_subject_share of at least min_subject_chunks) is what the whole document is "
            "about, while a page's own topic words, frequent as they are, are what a question about the page "
            "asks. Fit: set by hand, 2026-11-25 (fae744d)."
        ),
    )
    document_subject_share: float = Field(
        0.75,
        description=(
            "A question term found in most of the evidence's documents (titles included) names the general "
            'subject ("green roofs" across a library on green roofs), not what the question asks about it: '
            "with min_shared_documents or more documents, a term in at least subject_share of them; with two,"
            " a term in both. Evidence from one document is judged by its chunks: a term in nearly all of "
            "them (document_subject_share of at least min_subject_chunks) is what the whole document is "
            "about, while a page's own topic words, frequent as they are, are what a question about the page "
            "asks. Fit: set by hand, 2026-11-25 (f91cac6)."
        ),
    )
    min_subject_chunks: int = Field(
        5,
        description=(
            "A question term found in most of the evidence's documents (titles included) names the general "
            'subject ("green roofs" across a library on green roofs), not what the question asks about it: '
            "with min_shared_documents or more documents, a term in at least subject_share of them; with two,"
            " a term in both. Evidence from one document is judged by its chunks: a term in nearly all of "
            "them (document_subject_share of at least min_subject_chunks) is what the whole document is "
            "about, while a page's own topic words, frequent as they are, are what a question about the page "
            "asks. Fit: set by hand, 2026-11-22 (2447192)."
        ),
    )
    coverage_weights: tuple[float, float, float] = Field(
        (0.35, 0.35, 0.30),
        description=(
            "Coverage = these weights x the pool, best and dense signals (the earlier, word-based rule), "
            "held against min_coverage. Fit: set by hand, 2026-11-25 (4a08b72)."
        ),
    )
    min_coverage: float = Field(
        0.45,
        description=(
            "Floor on the coverage of the question's terms by the evidence (coverage_weights over pool, best "
            "and dense) below which evidence does not answer. Fit: set by hand, 2026-11-25 (4a08b72)."
        ),
    )
    agreement_ranks: int = Field(
        3,
        description=(
            "The lexical and dense rankings agree when either's best sentence is within the other's first "
            "this many. Fit: set by hand, 2026-11-25 (4a08b72)."
        ),
    )
    account_lead: float = Field(
        0.5,
        description=(
            "The lead signal of a question asking for an account: between a typed question led by a short "
            "answer (1) and one that found none (0). Fit: set by hand, 2026-11-26 (7b4ad47)."
        ),
    )
    top_sentences: int = Field(
        5,
        description=(
            "Best coverage is measured over this many of the top-ranked sentences. Fit: set by hand, "
            "2026-11-22 (f83a4ec)."
        ),
    )
    related_similarity: float = Field(
        0.5,
        description=(
            "The cosine between two words' embeddings (all-MiniLM-L6-v2, each word embedded alone) from which"
            " the evidence's word stands for the question's. Measured on word pairs: cost/price 0.73, "
            "accuracy/precision 0.78, temperature/heat 0.56, species/wildlife 0.63, population/inhabitants "
            "0.56; below the line, installation/construction 0.28, cost/euro 0.41, dataset/corpus 0.40, "
            "population/city 0.30. Fit: measured as described, 2026-12-07 (33c84d5)."
        ),
    )
    related_candidates: int = Field(
        200,
        description=(
            "The evidence's most frequent words are weighed, at most this many (one embedding batch). Fit: "
            "set by hand, 2026-11-22 (f83a4ec)."
        ),
    )
    related_min_letters: int = Field(
        4,
        description=(
            "Shorter words are mostly abbreviations and units, which a word embedding places poorly. Fit: set"
            " by hand, 2026-11-27 (fe0570c)."
        ),
    )
    keyphrase_words: int = Field(
        3,
        description=("A keyphrase is an n-gram of at most this many words. Fit: set by hand, 2026-11-22 (f83a4ec)."),
    )
    keyphrase_length_bonus: float = Field(
        0.5,
        description=(
            'Each extra word multiplies the score by (1 + keyphrase_length_bonus): "air temperature" beats '
            '"air". Fit: set by hand, 2026-11-22 (f83a4ec).'
        ),
    )
    keyphrase_min_chars: int = Field(
        3,
        description=("A one-word keyphrase has at least this many characters. Fit: set by hand, 2026-11-22 (f83a4ec)."),
    )
    max_closest: int = Field(
        3,
        description=(
            "Enough to compare, few enough not to read as a list of answers. Fit: set by hand, 2026-12-07 (26a4a48)."
        ),
    )
    unnamed_confidence: float = Field(
        0.2,
        description=(
            "The confidence shown at most when a name the question asks about is nowhere in the evidence. "
            "Fit: set by hand, 2026-11-26 (b4e0a90)."
        ),
    )
    prf_chunks: int = Field(
        3,
        description=(
            "Pseudo-relevance feedback reads the top chunks of the evidence. Fit: set by hand, 2026-11-22 (f83a4ec)."
        ),
    )
    prf_phrases: int = Field(
        2,
        description=(
            "Phrases pseudo-relevance feedback adds to the first new query of a round. Fit: set by hand, "
            "2026-11-22 (f83a4ec)."
        ),
    )
    max_next_queries: int = Field(
        2,
        description=(
            "New queries proposed in a round for evidence that does not answer. Fit: set by hand, 2026-11-22 (f83a4ec)."
        ),
    )
    max_related_terms: int = Field(
        6,
        description=(
            "The evidence's words for the question's, tried in a query and suggested for a gap "
            "('related_terms'). Fit: set by hand, 2026-12-07 (33c84d5)."
        ),
    )


class Sentences(_Section):
    """What counts as a sentence, a heading or a list item, and how words are stemmed (text, passages)."""

    stem_length: int = Field(
        5,
        description=(
            'Stems are a light suffix strip cut to this many characters ("installation", "installed" and '
            '"install" all become "insta"); two stems also match when one is a prefix of the other and the '
            'shorter has at least min_prefix_match characters ("cool" ~ "coole"). Fit: set by hand, '
            "2026-11-22 (f83a4ec)."
        ),
    )
    min_prefix_match: int = Field(
        4,
        description=(
            'Stems are a light suffix strip cut to this many characters ("installation", "installed" and '
            '"install" all become "insta"); two stems also match when one is a prefix of the other and the '
            'shorter has at least min_prefix_match characters ("cool" ~ "coole"). Fit: set by hand, '
            "2026-11-22 (f83a4ec)."
        ),
    )
    min_sentence_words: int = Field(
        6,
        description=(
            "A sentence shorter than this many words is a statement only when it ends with a full stop and "
            "has a finite verb. Fit: set by hand, 2026-11-22 (f83a4ec)."
        ),
    )
    min_verb_sentence_words: int = Field(
        4,
        description=(
            'A shorter sentence is a statement when it ends with a full stop and has a finite verb ("Tokens '
            "expire after 30 days.\"); without both it is a label or a heading's fragment. Fit: set by hand, "
            "2026-11-27 (57f9da6)."
        ),
    )
    max_unpunctuated_words: int = Field(
        15,
        description=(
            "A line this long without any punctuation and with many capitalised words is a run of headings. "
            "Fit: set by hand, 2026-11-25 (9ff313a)."
        ),
    )
    long_sentence_words: int = Field(
        20,
        description=(
            "Sentences at least this long are statements even when no verb from the list shows up. Fit: set "
            "by hand, 2026-11-22 (f83a4ec)."
        ),
    )
    max_numeric_share: float = Field(
        0.4,
        description=(
            "A sentence with more than this share of numeric tokens is a table row, not prose. Fit: set by "
            "hand, 2026-11-22 (f83a4ec)."
        ),
    )
    max_symbol_share: float = Field(
        0.06,
        description=(
            "A line with more than this share of code symbols ({}[]()<>=;#`|) is source code, not prose. Fit:"
            " set by hand, 2026-11-25 (cb02d7f)."
        ),
    )
    max_items: int = Field(
        8,
        description=(
            "At most this many items of a list are quoted; a list longer than that is cut (the quote says "
            "so). Fit: set by hand, 2026-11-24 (2925ee5)."
        ),
    )
    max_item_words: int = Field(
        40,
        description=(
            "An item longer than this many words is prose, not a list entry. Fit: set by hand, 2026-11-25 (cb02d7f)."
        ),
    )
    max_fragment_words: int = Field(
        10,
        description=(
            "A line shorter than this many words not ending as a sentence ends is a heading's line or a "
            "cut-off fragment. Fit: set by hand, 2026-11-22 (f83a4ec)."
        ),
    )
    title_case_share: float = Field(
        0.6,
        description=(
            "A line not ending in a full stop with more than this share of capitalised words is a Title "
            "Case heading. Fit: set by hand, 2026-11-25 (4bd4f69)."
        ),
    )
    menu_capitalised_share: float = Field(
        0.25,
        description=(
            "A line of max_unpunctuated_words or more without punctuation and at least this share of "
            "capitalised words is a table of contents or a menu. Fit: set by hand, 2026-11-25 (fae744d)."
        ),
    )


class Question(_Section):
    """Reading a question: how far its parts reach (question, question_types)."""

    conjunct_words: int = Field(
        3,
        description=(
            'The words either side of a question\'s "and" that name the things it joins ("Claude 3.5 Sonnet '
            'and tool use"): at most this many. Fit: set by hand, 2026-11-27 (1f33ec8).'
        ),
    )
    governed_within: int = Field(
        3,
        description=(
            'A verb governs the action of a "to" at most this many words after it (its object between): '
            '"agree to pay", "ordered Corvid to pay". Fit: set by hand, 2026-12-07 (98c3d80).'
        ),
    )
    measured_words: int = Field(
        3,
        description=(
            'The thing a measure is asked of is named in at most this many words ("the size of the training '
            'set"). Fit: set by hand, 2026-12-07 (53968bc).'
        ),
    )
    subject_words: int = Field(
        6,
        description=("A subject is a noun phrase of at most this many words. Fit: set by hand, 2026-11-26 (7cda579)."),
    )
    max_category_words: int = Field(
        3,
        description=(
            "The category a 'which X' question names is at most this many words. Fit: set by hand, 2026-11-25"
            " (cb02d7f)."
        ),
    )
    adverb_min_letters: int = Field(
        5,
        description=(
            'A word in -ly longer than this is read as an adverb ("widely", "mainly"; not "rally" or '
            '"Italy"). Fit: set by hand, 2026-11-27 (fe0570c).'
        ),
    )


class Phrasing(_Section):
    """The short answer a sentence gives and how a subject is shown (answer_phrase, subjects)."""

    proximity_words: int = Field(
        12,
        description=(
            "A candidate farther than this many words from every shared word is hardly the answer to it. Fit:"
            " set by hand, 2026-11-25 (4a08b72)."
        ),
    )
    share_tail_chars: int = Field(
        12,
        description=(
            'A share\'s "percent" or "of 46" follows its figure within this many characters ("41 percent", "19 '
            'out of 46"). Fit: set by hand, 2026-12-08.'
        ),
    )
    max_phrase_words: int = Field(
        3,
        description=(
            "An answer-phrase candidate is a run of at most this many content words. Fit: set by hand, "
            "2026-11-22 (f83a4ec)."
        ),
    )
    max_name_words: int = Field(
        6,
        description=(
            "A name, as a question's answer or a candidate for one, is at most this many words. Fit: set by hand, "
            "2026-11-25 (4a08b72)."
        ),
    )
    w_noun: float = Field(
        0.6,
        description=(
            'For "what <noun>" questions: weight of the cosine to the noun against proximity. Fit: set by '
            "hand, 2026-11-25 (4a08b72)."
        ),
    )
    min_unit_similarity: float = Field(
        0.25,
        description=(
            'A figure whose unit is this unlike the counted noun counts something else ("14 roofs" for "how '
            'many species": cosine 0.15; "3,559 inhabitants" for "population": 0.55, "5,000 people": 0.6). '
            "Fit: set by hand, 2026-11-25 (b82f98a)."
        ),
    )
    length_bonus: float = Field(
        0.05,
        description=(
            'Between equally placed candidates, a fuller name ("Blitzen Trapper" over "American"). Fit: set '
            "by hand, 2026-11-22 (f83a4ec)."
        ),
    )
    clause_weight: float = Field(
        0.2,
        description=(
            "Weight, in choosing among candidates, of the share of the question's words in a candidate's own "
            "clause. Fit: set by hand, 2026-11-27 (6b6e38a)."
        ),
    )
    max_particle_letters: int = Field(
        3,
        description=(
            'A name\'s particles are short ("ni", "del", "van"); "player" of "Gators player Ronald Powell" is '
            "none. Fit: set by hand, 2026-11-27 (f120cb7)."
        ),
    )
    max_shown: int = Field(
        3,
        description=(
            "A subject is shown by at most this many of its details, names of at most max_shown_words words. "
            "Fit: set by hand, 2026-11-25 (194024a)."
        ),
    )
    max_shown_words: int = Field(
        4,
        description=(
            "A subject is shown by at most this many of its details, names of at most max_shown_words words. "
            "Fit: set by hand, 2026-11-25 (194024a)."
        ),
    )


class Judge(_Section):
    """Whether a sentence states a claim or answers a question (judge, answerhood, claim_checks,
    clause_checks, negations, numbers)."""

    state_coverage: float = Field(
        0.55,
        description=(
            "A claim passing the hard checks is stated when more than this share of its content words are in "
            "the sentences (or the question and context): at exactly half, a two-word claim with one word "
            'swapped ("crowdsourcing platform" for "classifier platform") would pass. Fit: calibrated on the '
            "tuning split of the judge's pair set (benchmarks/judge_pairs.py), 2026-11-26 (f87f384): 0.5 -> "
            "0.55 catches 2.4 points more entity and 11 more term swaps for 1.4 points of paraphrases."
        ),
    )
    rescue_cosine: float = Field(
        0.7,
        description=(
            "A claim short of state_coverage is stated when, read by meaning, its cosine with the sentences "
            "reaches this with at least rescue_coverage of its words in them. Fit: calibrated on the tuning "
            "split of the judge's pair set (benchmarks/judge_pairs.py), 2026-11-26 (f87f384): the rescue adds"
            " under a point at any cosine from 0.6 to 0.75 (MiniLM puts one-word-wrong claims as close as "
            "right ones); 0.7 lets the fewest swaps through."
        ),
    )
    rescue_coverage: float = Field(
        0.3,
        description=(
            "The share of a claim's content words the sentences must hold for rescue_cosine to rescue it. "
            "Fit: set by hand with rescue_cosine, 2026-11-26 (f87f384)."
        ),
    )
    question_coverage: float = Field(
        0.6,
        description=(
            "A sentence speaks of a yes/no question when it holds this share of its words, and states the "
            "asked predicate when it holds this share of what the question asks of its subject "
            "('predicate_stems'). Fit: set by hand, 2026-11-26 (d59181b)."
        ),
    )
    predicate_coverage: float = Field(
        0.6,
        description=(
            "A sentence states a yes/no question's predicate when it holds this share of the predicate's "
            "words. Fit: set by hand, 2026-11-26 (d59181b)."
        ),
    )
    posed_share: float = Field(
        0.75,
        description=(
            "The share of a question's content words an indirect question must hold to restate it. Fit: set "
            "by hand, 2026-12-07 (764c7f9)."
        ),
    )
    same_statement: float = Field(
        0.5,
        description=(
            "A polarity flip or a changed figure contradicts only a sentence that otherwise says what the "
            "claim says (this share of the claim's content words); elsewhere the sentence is about something "
            "else. Fit: set by hand, 2026-11-26 (f87f384)."
        ),
    )
    min_anchor: int = Field(
        2,
        description=(
            "Copied words on one side of a change at a claim's start or end that make it a swap, not a "
            "rewording. Fit: set by hand, 2026-12-06 (ead2e75)."
        ),
    )
    min_piece_words: int = Field(
        3,
        description=(
            "A piece of fewer content words than this is read with the piece before it. Fit: set by hand, "
            "2026-11-26 (2329a27)."
        ),
    )
    aligned: float = Field(
        0.5,
        description=(
            "A clause reads against the text's clause only when it shares at least this share of its content "
            "words with it: below, the text's clause is about something else and says nothing for or against."
            " Fit: set by hand, 2026-12-06 (ead2e75)."
        ),
    )
    modal_reach: int = Field(
        4,
        description=(
            'Words after a modal it may govern ("must then carefully *extract*"). Fit: set by hand, '
            "2026-12-06 (ead2e75)."
        ),
    )
    negation_reach: int = Field(
        3,
        description=(
            'Words after a negation it may govern ("does not significantly reduce"). Fit: set by hand, '
            "2026-11-22 (7a0f25d)."
        ),
    )
    exact_tolerance: float = Field(
        0.10,
        description=(
            'Relative tolerance around a value: a stated figure covers +-10%, a hedged one ("about") +-20%. '
            "Fit: set by hand, 2026-11-22 (f83a4ec)."
        ),
    )
    approx_tolerance: float = Field(
        0.20,
        description=(
            "Relative tolerance around a hedged figure ('about 20%'): +-20%. Fit: set by hand, 2026-11-22 (f83a4ec)."
        ),
    )
    min_conflict_ratio: float = Field(
        1.5,
        description=(
            "Intervals must be at least this far apart (ratio of the nearer ends) to be a conflict. Fit: set "
            "by hand, 2026-11-22 (f83a4ec)."
        ),
    )


class Tables(_Section):
    """Answers read from record lines and table rows (identifier_lines, value_lines)."""

    max_span_lines: int = Field(
        3,
        description=(
            "An identifier's record is read over at most this many lines from the one holding it (a table row"
            " is one). Fit: set by hand, 2026-12-06 (f9cfe89)."
        ),
    )
    max_value_tokens: int = Field(
        3,
        description=(
            "A bare value: this many whitespace-separated tokens at most, one with a digit "
            '("160.79.104.0/23"). Fit: set by hand, 2026-11-27 (4090f17).'
        ),
    )


class Disputes(_Section):
    """Where documents answer differently and where sentences contradict (document_answers, offline
    contradictions)."""

    doc_relevance: float = Field(
        0.5,
        description=(
            "A document's answer must come from a sentence at least this share as relevant as the best one. "
            "Fit: set by hand, 2026-11-25 (4a08b72)."
        ),
    )
    sentences_per_document: int = Field(
        5,
        description=(
            "How many of a document's best sentences are tried for an answer phrase. Fit: set by hand, "
            "2026-11-25 (4a08b72)."
        ),
    )
    min_phrase_score: float = Field(
        0.4,
        description=(
            "A weakly placed phrase is no document's answer: a dispute needs answers it is sure of (on "
            "RAMDocs dev, half the phrases scoring below 0.4 were not an answer of either side). Fit: "
            "measured as described, 2026-11-25 (4a08b72)."
        ),
    )
    same_statement_similarity: float = Field(
        0.7,
        description=(
            "Two sentences are one statement when their words match this closely (difflib ratio, leaving out "
            "words before or after the shared part), the shared part is this share of the shorter sentence, "
            "and they differ in at most max_changes places of at most max_changed_words words each. Fit: set "
            "by hand, 2026-11-25 (4a08b72)."
        ),
    )
    max_changes: int = Field(
        2,
        description=(
            "Two sentences are one statement when their words match this closely (difflib ratio, leaving out "
            "words before or after the shared part), the shared part is this share of the shorter sentence, "
            "and they differ in at most max_changes places of at most max_changed_words words each. Fit: set "
            "by hand, 2026-11-25 (4a08b72)."
        ),
    )
    max_changed_words: int = Field(
        4,
        description=(
            "Two sentences are one statement when their words match this closely (difflib ratio, leaving out "
            "words before or after the shared part), the shared part is this share of the shorter sentence, "
            "and they differ in at most max_changes places of at most max_changed_words words each. Fit: set "
            "by hand, 2026-11-25 (4a08b72)."
        ),
    )
    rounding: float = Field(
        0.01,
        description=(
            "Two figures, one written with a decimal part, this close are one measure rounded or converted "
            'differently, not an edit ("388.5/km²" / "389.3/km 2"). Fit: set by hand, 2026-11-27 '
            "(1bb50dc)."
        ),
    )
    edited_relevance: float = Field(
        0.1,
        description=(
            "For a question asking for a value, a statement edited in that value counts from this share of "
            "the best sentence's relevance (see 'edited_statements'). Fit: set by hand, 2026-11-25 (f0945bb)."
        ),
    )
    mention_slack: int = Field(
        3,
        description=(
            "An answer of several words is mentioned when they all stand within its length plus this many "
            "words. Fit: set by hand, 2026-11-27 (b1b1fba)."
        ),
    )
    max_side_words: int = Field(
        60,
        description=(
            "A side's sentence longer than this many words is quoted by the words around its value: so many "
            "before it and after it (a statement's subject and verb usually stand within a dozen words of "
            "it). Fit: set by hand, 2026-11-27 (b399b96)."
        ),
    )
    side_words_before: int = Field(
        20,
        description=(
            "A long side's quote keeps this many words before its value. Fit: set by hand, 2026-11-27 (b399b96)."
        ),
    )
    side_words_after: int = Field(
        10,
        description=(
            "A long side's quote keeps this many words after its value. Fit: set by hand, 2026-11-27 (b399b96)."
        ),
    )
    max_sides: int = Field(
        3,
        description=("A disputed question shows at most this many answers. Fit: set by hand, 2026-11-25 (4a08b72)."),
    )
    max_contradictions: int = Field(
        5,
        description=(
            "At most this many contradictions are reported, one per pair of documents and subject. Fit: set "
            "by hand, 2026-11-22 (f83a4ec)."
        ),
    )
    min_shared_stems: int = Field(
        3,
        description=(
            "Same subject: shared content stems between the two sentences, not counting the stems common to "
            'the whole evidence ("green", "roof" in a corpus about green roofs). Fit: set by hand, '
            "2026-11-22 (f83a4ec)."
        ),
    )
    prefix_slack: int = Field(
        2,
        description=(
            "Stems that prefix matches may add beyond the exact overlap (the cheap bound before matching). "
            "Fit: set by hand, 2026-11-23 (c7f291b)."
        ),
    )
    common_share: float = Field(
        0.5,
        description=(
            "A stem is common when it occurs in at least common_share of the sentences (and min_common_df). "
            "Fit: set by hand, 2026-11-22 (f83a4ec)."
        ),
    )
    min_common_df: int = Field(
        5,
        description=(
            "A stem is common when it occurs in at least common_share of the sentences (and min_common_df). "
            "Fit: set by hand, 2026-11-22 (f83a4ec)."
        ),
    )
    min_shared_context: int = Field(
        2,
        description=(
            "Two figures measure the same thing when the words next to them, within their clauses, overlap: at least "
            "min_shared_context of the head_before/head_after stems around each, including one of the "
            'near_before/near_after closest ("air temperature by about 2 °C" ~ "air temperature was 0.3 °C", '
            'but not "25 mm drainage board" ~ "80 mm of substrate")... Fit: set by hand, 2026-11-22 '
            "(f83a4ec)."
        ),
    )
    head_before: int = Field(
        4,
        description=(
            "Two figures measure the same thing when the words next to them, within their clauses, overlap: at least "
            "min_shared_context of the head_before/head_after stems around each, including one of the "
            'near_before/near_after closest ("air temperature by about 2 °C" ~ "air temperature was 0.3 °C", '
            'but not "25 mm drainage board" ~ "80 mm of substrate")... Fit: set by hand, 2026-11-22 '
            "(f83a4ec)."
        ),
    )
    head_after: int = Field(
        3,
        description=(
            "Two figures measure the same thing when the words next to them, within their clauses, overlap: at least "
            "min_shared_context of the head_before/head_after stems around each, including one of the "
            'near_before/near_after closest ("air temperature by about 2 °C" ~ "air temperature was 0.3 °C", '
            'but not "25 mm drainage board" ~ "80 mm of substrate")... Fit: set by hand, 2026-11-22 '
            "(f83a4ec)."
        ),
    )
    near_before: int = Field(
        2,
        description=(
            "Two figures measure the same thing when the words next to them, within their clauses, overlap: at least "
            "min_shared_context of the head_before/head_after stems around each, including one of the "
            'near_before/near_after closest ("air temperature by about 2 °C" ~ "air temperature was 0.3 °C", '
            'but not "25 mm drainage board" ~ "80 mm of substrate")... Fit: set by hand, 2026-11-22 '
            "(f83a4ec)."
        ),
    )
    near_after: int = Field(
        2,
        description=(
            "Two figures measure the same thing when the words next to them, within their clauses, overlap: at least "
            "min_shared_context of the head_before/head_after stems around each, including one of the "
            'near_before/near_after closest ("air temperature by about 2 °C" ~ "air temperature was 0.3 °C", '
            'but not "25 mm drainage board" ~ "80 mm of substrate")... Fit: set by hand, 2026-11-22 '
            "(f83a4ec)."
        ),
    )
    numeric_cosine: float = Field(
        0.55,
        description=(
            "Two sentences giving different figures of the same thing contradict only at this cosine or more "
            "(and with min_numeric_strength). Fit: set by hand, 2026-11-22 (f83a4ec)."
        ),
    )
    context_weight: float = Field(
        0.05,
        description=(
            "A numeric pair's strength is its cosine + this x the context stems the two figures share. Fit: "
            "set by hand with min_numeric_strength, 2026-11-22 (7a0f25d)."
        ),
    )
    min_numeric_strength: float = Field(
        0.77,
        description=(
            "A numeric pair contradicts when its strength (cosine + context_weight x shared context stems) "
            "reaches this. Fit: measured, 2026-11-22 (2447192): calibrated on the sample corpus (all "
            "sentences of all documents against each other): the planted 2 °C vs 0.3 °C pairs score "
            '0.80-0.94, the strongest false pair ("6% organic matter" vs "60 percent crushed brick") 0.73.'
        ),
    )
    date_cosine: float = Field(
        0.75,
        description=(
            "A pair of sentences giving different dates contradicts at this cosine or more. Fit: set by hand,"
            " 2026-11-22 (f83a4ec)."
        ),
    )
    negation_cosine: float = Field(
        0.7,
        description=(
            "A sentence and its negation contradict at this cosine or more. Fit: set by hand, 2026-11-22 (f83a4ec)."
        ),
    )
    negation_shared_stems: int = Field(
        4,
        description=(
            "Negation pairs need more overlap (the two sentences must say nearly the same thing), and the "
            'word a cue negates ("do not *reduce*") must be asserted, un-negated, by the other sentence. Fit:'
            " set by hand, 2026-11-22 (f83a4ec)."
        ),
    )
    max_embedded: int = Field(
        120,
        description=(
            "Only this many sentences are embedded (those in a lexically plausible pair come first). Fit: set"
            " by hand, 2026-11-22 (f83a4ec)."
        ),
    )
    relevance_share: float = Field(
        0.5,
        description=(
            "Both sides must be this share as relevant to a question as the best sentence of its evidence. "
            "Fit: set by hand, 2026-11-25 (b82f98a)."
        ),
    )
    same_subject_share: float = Field(
        0.3,
        description=(
            "Two contradictions between the same documents whose subjects share this share of stems are one. "
            "Fit: set by hand, 2026-11-22 (f83a4ec)."
        ),
    )
    max_label_chars: int = Field(
        70,
        description=(
            "A contradiction names each document by its main title cut at a word boundary to at most this "
            "many characters. Fit: set by hand, 2026-11-22 (f83a4ec)."
        ),
    )


class Planning(_Section):
    """A topic's sub-questions in offline mode (offline planning)."""

    min_questions: int = Field(
        3,
        description=(
            "A topic's plan has at least this many sub-questions (offline, fallback ones fill it; LLM mode asks "
            "the model for as many). Fit: set by hand, 2026-11-22 (f83a4ec)."
        ),
    )
    max_questions: int = Field(
        6,
        description=(
            "A topic's plan has at most this many sub-questions, in both modes. Fit: set by hand, 2026-11-22 (f83a4ec)."
        ),
    )
    scout_chunks: int = Field(
        8,
        description=(
            "The scout search reads this many chunks for salient keyphrases. Fit: set by hand, 2026-11-22 (f83a4ec)."
        ),
    )
    max_scout_questions: int = Field(
        2,
        description=(
            "At most this many sub-questions come from the scout's keyphrases. Fit: set by hand, 2026-11-22 (f83a4ec)."
        ),
    )
    min_scout_count: int = Field(
        2,
        description=(
            "A scout keyphrase must occur at least this often in the scout chunks to count as salient. Fit: "
            "set by hand, 2026-11-22 (f83a4ec)."
        ),
    )
    duplicate_ratio: int = Field(
        85,
        description=(
            "Two focus phrases at least this similar (token-set ratio, 0-100) ask the same thing. Fit: set by"
            " hand, 2026-11-22 (f83a4ec)."
        ),
    )
    max_phrase_chars: int = Field(
        60,
        description=(
            "A scout keyphrase longer than this many characters is no facet of the topic. Fit: set by hand, "
            "2026-11-22 (f83a4ec)."
        ),
    )
    min_description_words: int = Field(
        4,
        description=(
            "A colon's tail of one phrase this long describes the subject; a shorter one names a facet. Fit: "
            "set by hand, 2026-12-06 (27f9517)."
        ),
    )


class FollowUps(_Section):
    """Reading a follow-up question with the conversation (offline follow_up)."""

    min_standalone_terms: int = Field(
        2,
        description=(
            "A question with fewer content terms than this cannot stand alone: it is read with the "
            "conversation's subject. Fit: set by hand, 2026-11-26 (8b9de20)."
        ),
    )
    max_phrase_words: int = Field(
        6,
        description=(
            "An elliptical remainder longer than this is a question of its own, not a noun phrase. Fit: set "
            "by hand, 2026-11-22 (f83a4ec)."
        ),
    )
    max_title_words: int = Field(
        8,
        description=(
            "A document title standing for a follow-up's subject is cut to this many words. Fit: set by hand,"
            " 2026-11-26 (8b9de20)."
        ),
    )


class Report(_Section):
    """What a report shows (offline strategy, comparison)."""

    max_quote_chars: int = Field(
        160,
        description=(
            "A passage shown beside an unanswered comparison is cut to this many characters. Fit: set by "
            "hand, 2026-12-07 (3e5e018)."
        ),
    )
    max_summary_claims: int = Field(
        4,
        description=(
            "A topic report's summary quotes at most this many sections' answers (the most confident win). "
            "Fit: set by hand, 2026-11-22 (7a0f25d)."
        ),
    )
    max_disagreements: int = Field(
        8,
        description=(
            "A report lists at most this many disagreements (disputes first, then contradictions). Fit: set "
            "by hand, 2026-11-25 (4a08b72)."
        ),
    )
    lead_search: int = Field(
        5,
        description=(
            "When no chosen claim gives a short answer, this many more sentences are tried for one. Fit: set "
            "by hand, 2026-11-25 (4a08b72)."
        ),
    )
    max_title_chars: int = Field(
        120,
        description=(
            "A report's title is cut at a word boundary to at most this many characters. Fit: set by hand, "
            "2026-11-22 (f83a4ec)."
        ),
    )
    max_value_lines: int = Field(
        2,
        description=(
            "A question answered by lines setting a value quotes at most this many (a Python and a TypeScript"
            " example of one setting). Fit: set by hand, 2026-11-27 (4090f17)."
        ),
    )


class Llm(_Section):
    """LLM mode's reading around the model: what it is shown and how its answer is checked (strategies/llm)."""

    max_shown_chars: int = Field(
        1000,
        description=(
            'A "sentence" this long (a table flattened into one line, an unpunctuated page) is shown cut: the'
            " model still cites it by id, and its quote is still the whole stored sentence. Fit: set by hand,"
            " 2026-11-26 (9cce0f8)."
        ),
    )
    max_continued: int = Field(
        8,
        description=(
            "A cited sentence ending in a colon is read with at most this many of the sentences it "
            "introduces. Fit: set by hand, 2026-11-27 (24c2495)."
        ),
    )
    same_text: int = Field(
        90,
        description=(
            "A claim this similar to an earlier one (token-sort ratio) repeats it. Fit: set by hand, "
            "2026-11-26 (d4509af)."
        ),
    )
    leak_words: int = Field(
        8,
        description=(
            "A model's text holding a run of this many words of a prompt's instructions leaks them. Fit: set "
            "by hand, 2026-11-25 (36a4a54)."
        ),
    )
    max_listed: int = Field(
        8,
        description=(
            "Sentences the model may list: enough for an answer and its context, few enough to write quickly."
            " Fit: set by hand, 2026-11-26 (c1a818e)."
        ),
    )
    term_weight: float = Field(
        0.2,
        description=(
            "Weight of the share of the question's content words a sentence holds, beside its cosine: the "
            "question's exact terms (a dataset's name, a metric) that MiniLM blurs (QASPER dev, seed 1: gold "
            "sentence among the best 10 for 23 -> 24 of 29 questions). Fit: measured as described, 2026-11-22 "
            "(7a0f25d)."
        ),
    )
    duplicate_similarity: int = Field(
        88,
        description=(
            "Two sub-questions this similar (token-set ratio, ignoring case and punctuation) ask the same "
            "thing; small models often repeat themselves. Fit: set by hand, 2026-11-22 (f83a4ec)."
        ),
    )
    addressed_terms: float = Field(
        0.5,
        description=(
            "The model's stated claims answer the question on its word when they (with their sentences and "
            "titles) hold this share of the question's terms. Fit: set by hand, 2026-11-26 (56646d7)."
        ),
    )
    beside_the_point: float = Field(
        0.2,
        description=(
            "A model whose best claim's quote is this much less similar than the passage offline mode leads "
            "with answered beside the point. Wider: across passages cosine is a coarse judge (the right "
            'answer to "How many spider species were recorded?", "We recorded 47 spider species … 31 wild bee'
            ' species and 11 bird species", scores 0.10 below a passage about species per roof); the misreads'
            " seen were 0.5-0.7. Fit: set by hand, 2026-11-26 (f61d19b)."
        ),
    )
    grammar_max_items: int = Field(
        3,
        description=(
            "Bounds a grammar puts on a small local model's answer, so that even a model that fills every "
            "list and string to the brim (135M models do, repeating themselves) finishes inside the token cap"
            " of strategies/llm/local_server.py: the largest answer, 3 contradictions of 7 strings, is ~1,100"
            " tokens. Fit: set by hand, 2026-11-24 (2925ee5)."
        ),
    )
    grammar_max_chars: int = Field(
        200,
        description=(
            "A grammar caps every string of a small local model's answer at this many characters. Fit: set by"
            " hand, 2026-11-24 (80b8010)."
        ),
    )


PresetName = Literal["default"]
# Each preset's overrides of the defaults, by section ({"evidence": {"min_coverage": 0.5}}).
PRESETS: dict[PresetName, dict[str, Any]] = {"default": {}}


class Tuning(_Section):
    """Every section of the reading core's tuning."""

    evidence: Evidence = Evidence()
    sentences: Sentences = Sentences()
    question: Question = Question()
    phrasing: Phrasing = Phrasing()
    judge: Judge = Judge()
    tables: Tables = Tables()
    disputes: Disputes = Disputes()
    planning: Planning = Planning()
    follow_ups: FollowUps = FollowUps()
    report: Report = Report()
    llm: Llm = Llm()

    @classmethod
    def from_name(cls, name: PresetName) -> Tuning:
        """A named preset, validated (an unknown field or a wrong type fails here, not in a reader)."""
        return cls.model_validate(PRESETS[name])


TUNING = Tuning.from_name("default")
