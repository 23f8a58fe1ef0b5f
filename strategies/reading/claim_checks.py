"""The hard checks of the judge: what a sentence must hold for a claim it is cited for.

Similarity cannot tell "49%" from "63%", "Llama" from "Mistral" or "retains" from "does not retain"
(MiniLM puts a claim and its one-word-wrong copy at the same cosine), so each of these is checked
on the text itself:

- **figures**: every number the claim states, read with its unit ("49%" = "49 percent") and its
  bound ("up to", "at least", "about"), is a number of the sentences; a claim may round ("69%" for
  "68.8%") but not move a bound across ("more than 49%" against "up to 49%");
- **names**: every name, acronym or identifier of the claim (a capitalised word inside a sentence,
  an inner capital, a digit inside a word) is in the sentences, their document's title/section, or
  the question;
- **polarity**: the claim and the sentence that reads most like it are both negated or neither;
- **sweep**: a claim saying "all", "every", "eliminates", "permanently" is not stated by sentences
  that say "some", "about half", "may";
- **swapped terms**: where the claim copies a sentence but for one or two words, those words are the
  sentence's ("crowdsourcing" standing for "classifier" is not stated). Whether the new word means the
  same cannot be read without a reading model (MiniLM puts "retain"/"capture" at 0.34 and
  "crowdsourcing"/"classifier" at 0.39, "increase"/"decrease" at 0.60), so such a claim is "neither",
  never "contradicts";
- **subject**: a figure the claim gives a name is not one the sentence gives another subject while
  it states that name's own figure ("the gmina 14,719, the town of Gniewkowo 7,000").

Each check returns None when it passes, else a ``Failure`` saying whether the sentences contradict
the claim (a changed figure, a flipped polarity) or merely do not state it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Protocol

from corpus.text import stopwords
from strategies.reading.lexicon.modality import LIMITED, SWEEPING
from strategies.reading.lexicon.negation import NEGATION, NOT_NEGATION
from strategies.reading.lexicon.quantities import NUMBER_WORDS
from strategies.reading.lexicon.stoplists import GENERIC_WORDS
from strategies.reading.numbers import Mention, mentions
from strategies.reading.text import content_words, stem, stems_match


class Meaning(Protocol):
    """Meaning comparisons by the embedder (``strategies.reading.vectors.Meaning``)."""

    def similarity(self, text: str, others: Sequence[str]) -> float: ...


@dataclass(frozen=True)
class Failure:
    contradicts: bool  # the sentences say otherwise (True) or just do not say it (False)
    reason: str
    # Read on the text itself (figures, names, polarity, subject, sweep), not a want of words (a swap).
    firm: bool = True


# A polarity flip or a changed figure contradicts only a sentence that otherwise says what the claim
# says (this share of the claim's content words); elsewhere the sentence is about something else.
SAME_STATEMENT = 0.5

# A capitalised word opening a sentence is a name unless it has the shape of a common word (a verb
# form, an adverb, an abstract noun): "Medusa achieves…" names, "Overall, …" and "Using …" do not.
_COMMON_SHAPE = re.compile(
    r"(?:ing|ly|ed|ion|ions|ive|ives|al|ous|ble|ment|ments|ness|ity|ies|ers|ally|ic|ics|ful|less|ise|ize|"
    r"ises|izes|ised|ized|ance|ence|ant|ent|ary|ory|ure|ures|ship|ism|ist|ists)$",
)
_TOKEN = re.compile(r"[^\W_][\w'’.+/-]*[^\W_]|[^\W_]", re.UNICODE)
_SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s+|\n\s*(?:[-*•]\s*)?|\(\s*)$")


def figures_problem(claim: str, sources: str, best: str, overlap: float) -> Failure | None:
    """A figure of the claim that the sources do not state (see the module docstring)."""
    stated = mentions(sources) + _word_numbers(sources)
    for figure in mentions(claim) + [m for m in _word_numbers(claim) if m.value not in (1.0,)]:
        same = [m for m in stated if _same_value(figure, m)]
        if not same:
            rival = [m for m in mentions(best) if m.unit == figure.unit and figure.unit]
            contradicts = bool(rival) and overlap >= SAME_STATEMENT
            return Failure(contradicts, f"the figure {figure.text!r} is not in the cited text")
        if all(_opposed_bounds(figure, m) for m in same):
            return Failure(overlap >= SAME_STATEMENT, f"the cited text bounds {figure.text!r} the other way")
    return None


def _word_numbers(text: str) -> list[Mention]:
    out: list[Mention] = []
    for m in re.finditer(r"\b[a-z]+\b", text.lower()):
        value = NUMBER_WORDS.get(m.group())
        if value is not None:
            unit = "%" if m.group() == "half" else ""
            out.append(Mention(text=m.group(), value=value, unit=unit, bound="exact", start=m.start(), end=m.end()))
    return out


def _same_value(claim: Mention, stated: Mention) -> bool:
    if claim.unit and stated.unit and claim.unit != stated.unit:
        return False
    if claim.value == stated.value:
        return True
    # The claim may round what the source states ("69%" for "68.8%"), never the reverse.
    decimals = _decimals(claim)
    return decimals < _decimals(stated) and round(stated.value, decimals) == claim.value


def _decimals(m: Mention) -> int:
    digits = re.search(r"\d+(?:\.(\d+))?", m.text.replace(",", ""))
    return len(digits.group(1)) if digits and digits.group(1) else 0


def _opposed_bounds(claim: Mention, stated: Mention) -> bool:
    return {claim.bound, stated.bound} == {"upper", "lower"}


def names(text: str) -> list[str]:
    """The names, acronyms and identifiers a text mentions: a capitalised word not opening a sentence,
    a word with an inner capital, a digit or an underscore among letters."""
    stops = stopwords()
    out: dict[str, None] = {}
    for m in _TOKEN.finditer(text):
        token = re.sub(r"['’]s$", "", m.group()).strip(".-/+")
        if not token or not any(c.isalpha() for c in token):
            continue
        inner_capital = any(c.isupper() for c in token[1:])
        identifier = "_" in token or (any(c.isdigit() for c in token) and any(c.isalpha() for c in token))
        opening = bool(_SENTENCE_START.search(text[: m.start()]))
        capitalised = token[0].isupper() and (not opening or not _COMMON_SHAPE.search(token))
        if token.lower() in stops and not inner_capital:
            continue
        if inner_capital or identifier or capitalised:
            out.setdefault(token, None)
    return list(out)


def _folded(text: str) -> str:
    return " " + " ".join(re.findall(r"\w+", text.lower().replace("’", "'"))) + " "


def holds(text: str, name: str) -> bool:
    """Whether ``text`` names ``name`` as whole words, case and punctuation aside; an acronym's plural
    ("LLMs") is the acronym."""
    key = _folded(name).strip()
    variants = {key, key[:-1] if key.endswith("s") and name[:-1].isupper() else key}
    folded = _folded(text)
    return not key or any(f" {v} " in folded for v in variants)


def names_problem(claim: str, sources: str) -> Failure | None:
    source_stems: set[str] | None = None
    for name in names(claim):
        if holds(sources, name):
            continue
        if _opening_word(name, claim):
            # A plain capitalised word opening a sentence may be a common word ("Create the ...",
            # "Human evaluators ..."): it passes when the sources hold a form of it ("created").
            source_stems = set(content_stems(sources)) if source_stems is None else source_stems
            if any(stems_match(stem(name), t) for t in source_stems):
                continue
        return Failure(False, f"{name!r} is not named in the cited text")
    return None


def _opening_word(name: str, text: str) -> bool:
    if not (name.isalpha() and name[1:].islower()):
        return False
    return any(_SENTENCE_START.search(text[: m.start()]) for m in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", text))


def negated(text: str) -> bool:
    return bool(NEGATION.search(NOT_NEGATION.sub(" ", text)))


def polarity_problem(claim: str, best: str, overlap: float) -> Failure | None:
    if negated(claim) == negated(best):
        return None
    said = "denies" if negated(best) else "does not deny"
    return Failure(
        overlap >= SAME_STATEMENT, f"the cited text {said} what the claim {'denies' if not negated(best) else 'states'}"
    )


def sweep_problem(claim: str, sources: str) -> Failure | None:
    sweeping = {w.lower() for w in SWEEPING.findall(claim)}
    if not sweeping or all(re.search(rf"\b{re.escape(w)}\b", sources, re.I) for w in sweeping):
        return None
    word = sorted(sweeping)[0]
    if LIMITED.search(sources):
        return Failure(False, f"the claim says {word!r} where the cited text is limited")
    return Failure(False, f"the claim says {word!r}, which the cited text does not")


def content_stems(text: str) -> list[str]:
    return list(dict.fromkeys(stem(w) for w in content_words(text, GENERIC_WORDS)))


def covered(stems: Sequence[str], source_stems: set[str]) -> float:
    """The share of ``stems`` that a stem of the sources matches (a shared prefix: "retai" ~ "retain")."""
    if not stems:
        return 1.0
    return sum(1 for s in stems if s in source_stems or any(stems_match(s, t) for t in source_stems)) / len(stems)


def swap_problem(claim: str, best: str, source_stems: set[str]) -> Failure | None:
    """A term standing where the sentence it copies has another (see the module docstring)."""
    mine = content_words(claim, GENERIC_WORDS)
    theirs = content_words(best, GENERIC_WORDS)
    a, b = [stem(w) for w in mine], [stem(w) for w in theirs]
    ops = SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes()
    for i, (tag, a0, a1, b0, b1) in enumerate(ops):
        if tag != "replace" or a1 - a0 > 2 or b1 - b0 > 2:
            continue
        # A swap is a change inside copied text: the same words on both sides of it.
        before = i > 0 and ops[i - 1][0] == "equal"
        after = i + 1 < len(ops) and ops[i + 1][0] == "equal"
        if not (before and after):
            continue
        new = [w for w, s in zip(mine[a0:a1], a[a0:a1], strict=True) if s not in source_stems]
        if not new:
            continue
        old = theirs[b0:b1]
        return Failure(False, f"{' '.join(new)!r} stands where the cited text says {' '.join(old)!r}", firm=False)
    return None


_PIECE = re.compile(r"(?<=[.!?;])\s+(?=\S)")
# A piece of fewer content words than this is read with the piece before it.
MIN_PIECE_WORDS = 3


def pieces(text: str) -> list[str]:
    """A claim's sentences and semicolon clauses, each of MIN_PIECE_WORDS content words or more."""
    out: list[str] = []
    for part in _PIECE.split(text):
        if out and len(content_stems(part)) < MIN_PIECE_WORDS:
            out[-1] = f"{out[-1]} {part}"
        else:
            out.append(part)
    return out or [text]


_CLAUSE = re.compile(r"[,;:()]|\b(?:while|whereas|of which|but)\b")


def subject_problem(claim: str, best: str) -> Failure | None:
    """A figure the claim gives a name whose own figure the sentence states elsewhere ("the gmina has
    14,719, of which the town of Gniewkowo 7,000": 14,719 is not Gniewkowo's)."""
    stated = mentions(best)
    for figure in mentions(claim):
        same = [m for m in stated if _same_value(figure, m)]
        if not same:
            continue
        for name in names(claim):
            key = _folded(name)
            if key not in _folded(best) or any(key in _folded(_clause(best, m.start)) for m in same):
                continue
            # The name's clause holds a figure of its own: the claim's figure belongs to another subject.
            where = re.search(rf"(?<!\w){re.escape(name)}(?!\w)", best, re.I)
            if where is None:
                continue
            own = _clause(best, where.start())
            if any(m.unit == figure.unit and not _same_value(figure, m) for m in mentions(own)):
                return Failure(False, f"{figure.text!r} is not what the cited text gives for {name!r}")
    return None


def _clause(text: str, at: int) -> str:
    cuts = [0, *(m.end() for m in _CLAUSE.finditer(text) if m.end() <= at)]
    ends = [m.start() for m in _CLAUSE.finditer(text) if m.start() > at] + [len(text)]
    return text[max(cuts) : min(ends)]
