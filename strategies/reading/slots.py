"""A term put in another's place: a word of the claim that the cited text does not hold, standing
where a cited sentence has another word between the same copied words ("a space where linear
separation is *stop*" for "… linear separation is *possible*").

The copy check of ``claim_checks.swap_problem`` reads one sentence aligned with the whole claim; a
claim drawing on several sentences, or rewording around the swap, escapes it. Here each such word is
read in its slot: between the same two content words as a word of a cited sentence (or, at the
claim's start or end, beside SLOT_ANCHOR copied words), with another word in its place. Whether the other word means the same cannot be read without a reading model, so
the verdict is "neither", never "contradicts", and a common synonym, another form or an opposite
with its polarity turned is no swap.
"""

from __future__ import annotations

from collections.abc import Sequence

from strategies.reading.claim_checks import Failure, names, reworded, written_apart
from strategies.reading.lexicon.function_words import OPENERS
from strategies.reading.lexicon.stoplists import GENERIC_WORDS
from strategies.reading.opposites import opposition, restated
from strategies.reading.text import content_words, is_verbish, stem, stems_match

# Copied content words on its one side that fix the slot of a word opening or ending the claim.
SLOT_ANCHOR = 2


def slot_problem(claim: str, sentences: Sequence[str], known: set[str]) -> Failure | None:
    """The first word of ``claim`` that ``known`` (the stems of the cited text, the question and the
    titles) lacks and that stands in a cited sentence's slot holding another word, else None."""
    mine = content_words(claim, GENERIC_WORDS)
    stems = [stem(w) for w in mine]
    named = {n.lower() for n in names(claim)}
    for i, word in enumerate(mine):
        if word in named or _held(stems[i], known) or not _term(word):
            continue
        for sentence in sentences:
            other = _slot(stems, i, sentence)
            if other is None or not all(_term(w) and not _held(stem(w), set(stems)) for w in other.split()):
                continue
            if not _same(word, other, mine, claim, sentence):
                return Failure(False, f"{word!r} stands where the cited text says {other!r}", firm=False)
    return None


def _slot(stems: list[str], i: int, sentence: str) -> str | None:
    """The word(s) of ``sentence`` in the slot of ``stems[i]``: one or two words between the same two
    words, or, for the claim's first or last word, one beside the SLOT_ANCHOR words on its other side."""
    theirs = content_words(sentence, GENERIC_WORDS)
    b = [stem(w) for w in theirs]
    last = len(stems) - 1
    for j in range(1, len(b) - 1):
        if not 0 < i < last or b[j - 1] != stems[i - 1]:
            continue
        for width in (1, 2):
            if j + width < len(b) and b[j + width] == stems[i + 1]:
                return " ".join(theirs[j : j + width])
    for j in range(len(b)):
        if i == last and i >= SLOT_ANCHOR and b[max(0, j - SLOT_ANCHOR) : j] == stems[i - SLOT_ANCHOR : i]:
            return theirs[j]
        if i == 0 and last >= SLOT_ANCHOR and b[j + 1 : j + 1 + SLOT_ANCHOR] == stems[1 : 1 + SLOT_ANCHOR]:
            return theirs[j]
    return None


def _same(word: str, other: str, mine: list[str], claim: str, sentence: str) -> bool:
    """The claim says the slot's word otherwise: ``word`` is another form or a synonym of it, or an
    opposite with its polarity turned; or the claim writes it apart ("none the less") or holds its
    opposite beside (``word`` is the verb before it: "stays open" for "is not closed")."""
    if any(word in o for o in other.split()):
        return True  # the cited text runs it together with the word before ("workflowsmultimodal")
    if reworded(word, other.split()) or restated(word, claim, sentence) or written_apart(other, claim):
        return True
    return any(opposition(w, o) is not None for w in mine for o in other.split())


def _term(word: str) -> bool:
    """A word naming a thing or a quality, not a verb form that carries the sentence ("using",
    "compared", "allows"), a preposition or a quantifier ("like", "multiple"), nor a reference or a
    number ("bibref27")."""
    return word.isalpha() and not word.endswith(("ing", "ed")) and not is_verbish(word) and word not in OPENERS


def _held(s: str, stems: set[str]) -> bool:
    return s in stems or any(stems_match(s, t) for t in stems)
