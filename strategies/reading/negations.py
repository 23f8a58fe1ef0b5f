"""What a sentence denies: the words its negations govern.

Read by the judge's polarity check (a negation the claim's words do not reach denies nothing of the
claim), the yes/no lead, the extractive answer's choice and the offline disagreement check.
"""

from __future__ import annotations

import re

from corpus.text import stopwords
from strategies.reading.lexicon.function_words import AUXILIARIES
from strategies.reading.lexicon.negation import CONTRACTED_NEGATIONS, LIGHT, NOT_NEGATION, NOUN_NEGATION, PARTIAL
from strategies.reading.lexicon.word_forms import IRREGULAR_BASE, NOT_ADVERBS
from strategies.reading.text import lemma, stem, words
from strategies.reading.tuning import TUNING


def negated_terms(sentence: str) -> frozenset[str]:
    """The words a sentence denies, as ``lemma``s: the first content word after a verbal negation ("do
    not *reduce*", "cannot *apply*") or a negated noun ("no *support*", "without *cost*"); nothing after
    a negation of a sweep ("not all", "not always") or "not only"."""
    # "not only", "none the less", "no more than": idioms that deny nothing.
    toks = [t.replace("’", "'") for t in words(NOT_NEGATION.sub(" ", sentence))]
    out: set[str] = set()
    stops = stopwords()
    for k, tok in enumerate(toks):
        verbal = tok in CONTRACTED_NEGATIONS or (tok in ("not", "never") and k > 0 and toks[k - 1] in AUXILIARIES)
        if not (verbal or tok in NOUN_NEGATION):
            continue
        following = toks[k + 1 : k + 1 + TUNING.judge.negation_reach]
        if any(w in PARTIAL for w in following[:2]):
            continue
        for word in following:
            if word in AUXILIARIES or word in stops or adverb(word) or word in LIGHT:
                continue
            out.add(lemma(word))
            break
    return frozenset(out)


def adverb(word: str) -> bool:
    return word.endswith("ly") and len(word) > 4 and word not in NOT_ADVERBS


# Verbs and adjectives of lack that deny the verb they govern as "not" does ("unable to reserve" =
# "cannot reserve", "impossible to book" = "cannot book").
# Source: standard English: verbs and adjectives of inability and lack.
_WITHOUT = re.compile(r"\bwithout\b", re.I)
_LACK = re.compile(r"\b(?:unable|impossible|fail(?:s|ed)?|lacks?|lacking)\s+(?:to\s+)?([a-z][\w-]+)", re.I)


# A light word right after a negation is denied too, beside the word the negation reaches through it:
# "not possible to book" denies "possible" as "impossible" affirms it.
_NEGATED_WORD = re.compile(r"\b(?:not|never|no)\s+([a-z]+)", re.I)


def denied(text: str) -> frozenset[str]:
    """The ``polarity_stem``s of the words ``text``'s negations and verbs of lack govern. "without" is
    left out: "the dataset without stop words" and "with stop words removed" say the same."""
    governed = negated_terms(_WITHOUT.sub("with", text)) | {lemma(m.group(1).lower()) for m in _LACK.finditer(text)}
    light = {lemma(m.group(1).lower()) for m in _NEGATED_WORD.finditer(text) if m.group(1).lower() in LIGHT}
    return frozenset(polarity_stem(w) for w in governed | light)


def held_stems(text: str) -> frozenset[str]:
    """The ``polarity_stem`` of every word of ``text``."""
    return frozenset(polarity_stem(w) for w in words(text))


def polarity_stem(word: str) -> str:
    """A word's stem, an irregular form's by its base form ("lost" as "lose")."""
    return stem(IRREGULAR_BASE.get(word, word))
