"""What a sentence denies: the words its negations govern.

Read by the judge's polarity check (a negation the claim's words do not reach denies nothing of the
claim), the yes/no lead, the extractive answer's choice and the offline disagreement check.
"""

from __future__ import annotations

from corpus.text import stopwords
from strategies.reading.lexicon.function_words import AUXILIARIES
from strategies.reading.lexicon.negation import CONTRACTED_NEGATIONS, LIGHT, NOUN_NEGATION, PARTIAL
from strategies.reading.lexicon.word_forms import NOT_ADVERBS
from strategies.reading.text import lemma, words
from strategies.reading.tuning import TUNING


def negated_terms(sentence: str) -> frozenset[str]:
    """The words a sentence denies, as ``lemma``s: the first content word after a verbal negation ("do
    not *reduce*", "cannot *apply*") or a negated noun ("no *support*", "without *cost*"); nothing after
    a negation of a sweep ("not all", "not always") or "not only"."""
    toks = [t.replace("’", "'") for t in words(sentence)]
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
