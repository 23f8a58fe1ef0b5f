"""Words of opposite sense read as polarity (``lexicon.antonyms``): "forbidden" says "not allowed",
"keeps its accuracy" says "does not lose accuracy", "unsigned" says "not signed".

The judge compares a claim's clause with the cited clause it reads against: an opposite standing for
a word with the *other* polarity restates it ("skips the pier" for "does not stop at the pier"); with
the *same* polarity it says the other thing ("loses accuracy" for "keeps its accuracy"). Contrary
words ("increase" / "decrease") contradict the same way but restate nothing: "did not increase" is not
"decreased".
"""

from __future__ import annotations

from functools import lru_cache

from corpus.text import stopwords
from strategies.reading.lexicon.antonyms import (
    COMPLEMENTARY,
    CONTRARY,
    NEGATING_PREFIXES,
    NOT_PREFIXED,
    REVERSATIVE,
)
from strategies.reading.lexicon.word_forms import IRREGULAR_BASE
from strategies.reading.negations import denied, held_stems, polarity_stem
from strategies.reading.text import lemma, stems_match, words

COMPLEMENTS = "complementary"
CONTRARIES = "contrary"
_KINDS = ((COMPLEMENTARY, COMPLEMENTS), (CONTRARY, CONTRARIES))
# Endings of a word's inflected forms, and what they replace ("applies" -> "apply").
_ENDINGS = (("ies", "y"), ("ied", "y"), ("es", ""), ("s", ""), ("ed", ""), ("d", ""), ("ing", ""))


@lru_cache(maxsize=65536)
def bases(word: str) -> frozenset[str]:
    """The base forms ``word`` may be an inflection of ("forbidden" -> "forbid", "closed" -> "close",
    "closed"; "stopped" -> "stop")."""
    w = IRREGULAR_BASE.get(word.lower(), word.lower())
    out = {w}
    for ending, repl in _ENDINGS:
        if w.endswith(ending) and len(w) - len(ending) >= 2:
            rest = w[: -len(ending)] + repl
            out |= {rest, f"{rest}e"}
            if len(rest) > 2 and rest[-1] == rest[-2]:
                out.add(rest[:-1])  # a doubled consonant: "stopped" -> "stop"
    return frozenset(out)


def opposition(a: str, b: str) -> str | None:
    """How two words oppose: COMPLEMENTS (the one is the other denied: "forbidden" / "allowed",
    "unsigned" / "signed"), CONTRARIES ("increase" / "decrease"), else None."""
    a, b = a.lower(), b.lower()
    if a == b:
        return None
    if _prefixed(a, b) or _prefixed(b, a):
        return COMPLEMENTS
    mine, theirs = bases(a), bases(b)
    for pairs, kind in _KINDS:
        if any(len(p & mine) == 1 and len(p & theirs) == 1 and p & mine != p & theirs for p in pairs):
            return kind
    return None


def _prefixed(word: str, base: str) -> bool:
    """``word`` is ``base`` with a negating prefix ("unsigned" / "signed", "non-profit" / "profit"),
    neither a word that only opens like one ("income") nor a verb undoing an act ("unlock")."""
    for prefix, shortest in NEGATING_PREFIXES:
        rest = word[len(prefix) :]
        if not word.startswith(prefix) or len(rest) < shortest or bases(word) & NOT_PREFIXED:
            continue
        if rest == base or bases(rest) & bases(base):
            # A participle is an adjective that denies ("an unlocked door"); the verb undoes ("unlock it").
            return word.endswith("ed") or not bases(rest) & REVERSATIVE
    return False


def _content(text: str) -> list[str]:
    stops = stopwords()
    return [w for w in dict.fromkeys(words(text)) if w not in stops and len(w) > 2]


def opposed(claim: str, clause: str) -> tuple[str, str] | None:
    """A word of ``claim`` and its opposite in the cited ``clause`` with the same polarity, each
    absent from the other's text (the one put for the other: "forbidden" for "allowed", "loses" for
    "does not lose"'s "keeps"), else None."""
    mine_denied, theirs_denied = denied(claim), denied(clause)
    mine_held, theirs_held = held_stems(claim), held_stems(clause)
    for a in _content(claim):
        if _within(a, theirs_held):
            continue
        for b in _content(clause):
            if _within(b, mine_held) or opposition(a, b) is None:
                continue
            if _negative(a, mine_denied) == _negative(b, theirs_denied):
                return a, b
    return None


def restated(word: str, claim: str, text: str) -> bool:
    """``word`` of ``claim`` says what a complementary word of ``text`` says with the other polarity:
    "keeps" for "does not lose", "unsigned" for "not signed", "not allowed" for "forbidden"."""
    # A prefix the tokenizer cut off ("non" of "non-refundable") is read with its word.
    word = next((t for t in words(claim) if word in t.split("-")), word)
    negative = _negative(word, denied(claim))
    theirs_denied = denied(text)
    return any(opposition(word, b) == COMPLEMENTS and _negative(b, theirs_denied) != negative for b in _content(text))


def absorbed(claim: str, text: str) -> bool:
    """Every word ``claim``'s negations govern is ``restated`` by an opposite in ``text`` ("are not
    allowed" by "are forbidden", "is not uncommon" by "is common"): the negation is the text's word."""
    governed = [w for w in _content(claim) if _negative(w, denied(claim))]
    return bool(governed) and all(restated(w, claim, text) for w in governed)


def _negative(word: str, denied_stems: frozenset[str]) -> bool:
    """Whether ``word`` is one its text's negations govern (``denied`` stems a word's lemma)."""
    return _within(lemma(word), denied_stems)


def _within(word: str, stems: frozenset[str]) -> bool:
    mine = polarity_stem(word)
    return any(mine == s or stems_match(mine, s) for s in stems)
