"""Deterministic keyphrase extraction: noun-phrase-ish n-grams scored by frequency x specificity.

Candidates are runs of words between stopwords, punctuation, numbers and verb-like words (a cheap
stand-in for a noun-phrase chunker), cut into n-grams of up to ``TUNING.evidence.keyphrase_words`` words. A phrase
scores ``(1 + log count) x idf x length bonus``, where ``idf`` is measured against a small collection (the
retrieved chunks): a phrase in every passage ("green roofs") says less about a passage than one in
two of them ("saturated weight"). Surface forms that stem alike ("green roof", "green roofs") are
one phrase.

Keyphrases are the only thing the offline planner takes from documents, so this is also where
document text that tries to give instructions is neutralised: sentences with injection words (or
addressing "you" with a directive verb) contribute nothing, and no phrase may contain one.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from corpus.chunking import split_sentences
from strategies.reading.lexicon.instructions import (
    DIRECTIVE_VERBS,
    INJECTION_WORDS,
    SECOND_PERSON,
    STRONG_INJECTION_WORDS,
)
from strategies.reading.lexicon.question_words import QUESTION_WORDS
from strategies.reading.lexicon.stoplists import GENERIC_WORDS, PHRASE_BREAKERS
from strategies.reading.tuning import TUNING

from .text import is_listed_verb, is_past_form, stem, stopwords

_TOKEN = re.compile(r"[^\W\d_][\w'’]*(?:-[^\W_]+)*|\d[\d.,]*|[^\w\s]", re.UNICODE)


@dataclass(frozen=True)
class Keyphrase:
    text: str
    stems: tuple[str, ...]
    score: float
    count: int
    doc_freq: int


def _is_boundary(word: str) -> bool:
    return (
        word in stopwords()
        or word in GENERIC_WORDS
        or word in QUESTION_WORDS
        or word in INJECTION_WORDS
        or word in PHRASE_BREAKERS
        or is_listed_verb(word)
        or (len(word) > 4 and word.endswith("ly"))
        or len(word) < 2
    )


def _runs(sentence: str) -> list[list[str]]:
    runs: list[list[str]] = [[]]
    for tok in _TOKEN.findall(sentence):
        word = tok.lower().replace("’", "'")
        if not word[0].isalpha() or _is_boundary(word):
            if runs[-1]:
                runs.append([])
            continue
        runs[-1].append(word)
    return [r for r in runs if r]


def is_instruction(sentence: str) -> bool:
    """A sentence that tries to instruct the reader (or a model) rather than inform."""
    lowered = {t.lower().replace("’", "'") for t in _TOKEN.findall(sentence)}
    return bool(lowered & STRONG_INJECTION_WORDS) or bool(lowered & SECOND_PERSON and lowered & DIRECTIVE_VERBS)


def phrase_candidates(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """Every candidate occurrence in ``text`` as (surface form, stems), in reading order."""
    out: list[tuple[str, tuple[str, ...]]] = []
    for sentence in split_sentences(text):
        if is_instruction(sentence):
            continue
        for run in _runs(sentence):
            for n in range(1, min(TUNING.evidence.keyphrase_words, len(run)) + 1):
                for i in range(len(run) - n + 1):
                    gram = run[i : i + n]
                    if n == 1 and len(gram[0]) < TUNING.evidence.keyphrase_min_chars:
                        continue
                    if is_past_form(gram[-1]):
                        continue  # "roofs retained": a clause, not a noun phrase
                    out.append((" ".join(gram), tuple(stem(w) for w in gram)))
    return out


def _overlaps(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """True when ``a`` adds little to ``b``: contained in it, containing it, or sharing half its words."""
    shared = len(set(a) & set(b))
    return shared > 0 and (shared >= len(set(a)) / 2 or shared == len(set(b)))


def extract_keyphrases(
    texts: Sequence[str],
    collection: Sequence[str] | None = None,
    k: int = 10,
    min_count: int = 1,
    exclude_stems: Iterable[str] = (),
) -> list[Keyphrase]:
    """The ``k`` best keyphrases of ``texts``, with idf measured over ``collection`` (default: ``texts``).

    A phrase whose stems are all in ``exclude_stems`` is dropped (already covered), and so is a
    phrase whose stems overlap an already chosen one completely ("green roofs" after "extensive
    green roofs"). Ties break on length, then alphabetically, so the result is deterministic.
    """
    collection = list(texts) if collection is None else list(collection)
    counts, surfaces = _phrase_counts(texts)
    if not counts:
        return []
    scored = _scored_phrases(counts, surfaces, collection, min_count, set(exclude_stems))
    scored.sort(key=lambda p: (-p.score, -len(p.stems), p.text))
    return _distinct(scored, k)


def _phrase_counts(
    texts: Sequence[str],
) -> tuple[Counter[tuple[str, ...]], dict[tuple[str, ...], Counter[str]]]:
    """How often each candidate phrase (by its stems) occurs in ``texts``, and how often each of its
    surface forms does."""
    counts: Counter[tuple[str, ...]] = Counter()
    surfaces: dict[tuple[str, ...], Counter[str]] = {}
    for text in texts:
        for surface, key in phrase_candidates(text):
            counts[key] += 1
            surfaces.setdefault(key, Counter())[surface] += 1
    return counts, surfaces


def _scored_phrases(
    counts: Counter[tuple[str, ...]],
    surfaces: dict[tuple[str, ...], Counter[str]],
    collection: list[str],
    min_count: int,
    excluded: set[str],
) -> list[Keyphrase]:
    """Each phrase frequent enough and not wholly excluded, scored by its count, its idf over
    ``collection`` and its length, shown in its most frequent surface form."""
    doc_keys = [{key for _, key in phrase_candidates(t)} for t in collection]
    n_docs = len(doc_keys)
    scored: list[Keyphrase] = []
    for key, count in counts.items():
        if count < min_count or set(key) <= excluded:
            continue
        df = sum(1 for keys in doc_keys if key in keys)
        idf = math.log((1 + n_docs) / (1 + df)) + 1.0
        score = (1.0 + math.log(count)) * idf * (1.0 + TUNING.evidence.keyphrase_length_bonus * (len(key) - 1))
        surface = sorted(surfaces[key].items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
        scored.append(Keyphrase(surface, key, round(score, 9), count, df))
    return scored


def _distinct(scored: list[Keyphrase], k: int) -> list[Keyphrase]:
    """The first ``k`` phrases of ``scored`` that overlap no phrase taken before them."""
    chosen: list[Keyphrase] = []
    for phrase in scored:
        if any(_overlaps(phrase.stems, c.stems) for c in chosen):
            continue
        chosen.append(phrase)
        if len(chosen) >= k:
            break
    return chosen
