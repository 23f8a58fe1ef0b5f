"""The hard checks of the judge: what a sentence must hold for a claim it is cited for.

Similarity cannot tell "49%" from "63%", "Llama" from "Mistral" or "retains" from "does not retain"
(MiniLM puts a claim and its one-word-wrong copy at the same cosine), so each of these is checked
on the text itself:

- **figures**: every number the claim states, read with its unit ("49%" = "49 percent") and its
  bound ("up to", "at least", "about"), is a number of the sentences; a claim may round ("69%" for
  "68.8%") but not move a bound across ("more than 49%" against "up to 49%"); a value's spread printed
  after it ("38.72 (0.30)", "84.59 ± 0.93") states no figure of its own but to a claim giving a spread;
- **names**: every name, acronym or identifier of the claim (a capitalised word inside a sentence,
  an inner capital, a digit inside a word) is in the sentences *with its capital* ("Care" is not
  named by "take care", "XML" not by "xml"; an identifier such as "image/jpeg" holds "JPEG", a claim
  title-casing a term the text writes in lower case, "Machine Translation", names it), or, in any
  case, in their document's title/section or the question; a name standing where the sentence it
  copies has another ("Care tags" for "XML tags") is a swapped entity wherever else it is named;
- **polarity**: the claim and the clause that reads most like it are both negated or neither (the
  word each negation governs is compared in ``strategies.reading.clause_checks``, with modals and a
  figure's own clause);
- **sweep**: a claim saying "all", "every", "eliminates", "permanently" is not stated by sentences
  that say "some", "about half", "may";
- **swapped terms**: where the claim copies a sentence but for one or two words, those words are the
  sentence's ("crowdsourcing" standing for "classifier" is not stated; a common synonym,
  ``lexicon.synonyms``, is no swap). Whether the new word means the
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
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Protocol

from rapidfuzz.distance import Levenshtein

from corpus.chunking import split_sentences
from corpus.text import stopwords
from strategies.reading.lexicon.function_words import CONNECTIVES, DETERMINERS, OPENERS
from strategies.reading.lexicon.modality import LIMITED, SWEEPING
from strategies.reading.lexicon.negation import NEGATION, NOT_NEGATION
from strategies.reading.lexicon.quantities import BOUND_WORDS, EXACTLY, NUMBER_WORDS
from strategies.reading.lexicon.stoplists import GENERIC_WORDS
from strategies.reading.lexicon.synonyms import SYNONYM_GROUPS
from strategies.reading.lexicon.units import CURRENCY
from strategies.reading.lexicon.word_forms import IRREGULAR_BASE
from strategies.reading.negations import negated_terms
from strategies.reading.numbers import Mention, bound_before, currency, mentions
from strategies.reading.opposites import absorbed, restated
from strategies.reading.text import content_words, lemmas, stem, stems_match
from strategies.reading.tuning import TUNING


class Meaning(Protocol):
    """Meaning comparisons by the embedder (``strategies.reading.vectors.Meaning``)."""

    def similarity(self, text: str, others: Sequence[str]) -> float: ...


@dataclass(frozen=True)
class Failure:
    contradicts: bool  # the sentences say otherwise (True) or just do not say it (False)
    reason: str
    # Read on the text itself (figures, names, polarity, subject, sweep), not a want of words (a swap).
    firm: bool = True


# A capitalised word opening a sentence is a name unless it has the shape of a common word (a verb
# form, an adverb, an abstract noun): "Medusa achieves…" names, "Overall, …" and "Using …" do not.
# What stands right before a value's spread: a digit and an opening parenthesis, or a ±.
_SPREAD_BEFORE = re.compile(r"(?:\d\s?\(|±\s?)$")
_COMMON_SHAPE = re.compile(
    r"(?:ing|ly|ed|ion|ions|ive|ives|al|ous|ble|ment|ments|ness|ity|ies|ers|ally|ic|ics|ful|less|ise|ize|"
    r"ises|izes|ised|ized|ance|ence|ant|ent|ary|ory|ure|ures|ship|ism|ist|ists)$",
)
# A sweeping word a negation or a condition governs sweeps nothing: "did not use any platform",
# "without having to read through everything", "whether there is any hashtag". Read back to the
# clause's start (a comma ends the reach).
_GOVERNED = re.compile(
    r"\b(?:not|no|never|without|nor|whether|if|\w+n['’]t)\b(?:\s+[\w'’-]+){0,4}\s*$|\bcannot\s+(?:[\w-]+\s+){0,4}$",
    re.I,
)
_TOKEN = re.compile(r"[^\W_][\w'’.+/-]*[^\W_]|[^\W_]", re.UNICODE)
_SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s+|\n\s*(?:[-*•]\s*)?|\(\s*)$")
_SENTENCE_OPENING = re.compile(r"(?:^|[.!?]\s+|\n\s*)$")
# A word right after a capitalised word or an acronym stands in a title-case run ("FAQ Pricing").
_TITLE_RUN = re.compile(r"\b[A-Z][\w-]*\s+$")


# The first list item's label ("two ways: 1) As arguments …") states no quantity: a "1)" where the text,
# a clause or a sentence opens. A later label ("2) By …") is checked as a figure: it counts the items
# before it, which the sources or the question ("two ways") must hold.
_ENUMERATOR = re.compile(r"(?:^|[:;.!?]\s+|:)\(?(1)\)\s+(?=[A-Za-z])")


def figures_problem(claim: str, sources: str, best: str, overlap: float) -> Failure | None:
    """A figure of the claim that the sources do not state (see the module docstring)."""
    stated = mentions(sources) + _word_numbers(sources)
    values = [m for m in stated if not _spread(sources, m)]
    for figure in _claim_figures(claim):
        # A spread the claim gives is read against every figure, the spreads the sources print too.
        same = [m for m in (stated if _spread(claim, figure) else values) if same_value(figure, m)]
        failure = _figure_failure(claim, figure, same, sources, best, overlap)
        if failure is not None:
            return failure
    return None


def _claim_figures(claim: str) -> list[Mention]:
    """The figures a claim states: its numbers but the first list item's label, then its number
    words but those worth one."""
    labels = {m.start(1) for m in _ENUMERATOR.finditer(claim)}
    figures = [m for m in mentions(claim) if m.start not in labels]
    return figures + [m for m in _word_numbers(claim) if m.value not in (1.0,)]


def _figure_failure(
    claim: str, figure: Mention, same: list[Mention], sources: str, best: str, overlap: float
) -> Failure | None:
    """What is wrong with one figure of the claim, given the sources' figures of its value (``same``):
    another currency, no such figure, or a bound the other way."""
    money = currency(claim, figure)
    if money and same and all(currency(sources, m) not in ("", money) for m in same):
        return Failure(
            overlap >= TUNING.judge.same_statement, f"the cited text gives {figure.text!r} in another currency"
        )
    if not same:
        rival = [m for m in mentions(best) if m.unit == figure.unit and figure.unit]
        contradicts = bool(rival) and overlap >= TUNING.judge.same_statement
        return Failure(contradicts, f"the figure {figure.text!r} is not in the cited text")
    if all(_opposed_bounds(figure, m, claim, sources) for m in same):
        return Failure(overlap >= TUNING.judge.same_statement, f"the cited text bounds {figure.text!r} the other way")
    return None


def _spread(text: str, mention: Mention) -> bool:
    """Whether the figure is the spread printed after a value: "47.21(0.34)", "47.21 (0.34)", "± 0.93"."""
    return bool(_SPREAD_BEFORE.search(text[max(0, mention.start - 4) : mention.start]))


def _word_numbers(text: str) -> list[Mention]:
    out: list[Mention] = []
    for m in re.finditer(r"\b[a-z]+\b", text.lower()):
        value = NUMBER_WORDS.get(m.group())
        if value is not None:
            unit = "%" if m.group() == "half" else ""
            bound = bound_before(text[max(0, m.start() - 25) : m.start()])
            out.append(Mention(text=m.group(), value=value, unit=unit, bound=bound, start=m.start(), end=m.end()))
    return out


def same_value(claim: Mention, stated: Mention) -> bool:
    """One figure: the same value in the same unit ("49%" / "49 percent"), or the claim rounding it."""
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


def _opposed_bounds(claim: Mention, stated: Mention, claim_text: str = "", stated_text: str = "") -> bool:
    """Bounds that say different things of one value: "up to" / "at least", or "exactly" against
    either ("exactly 12 hours" is not "up to 12 hours")."""
    if {claim.bound, stated.bound} == {"upper", "lower"}:
        return True
    exact_claim = bool(EXACTLY.search(claim_text[max(0, claim.start - 12) : claim.start]))
    exact_stated = bool(EXACTLY.search(stated_text[max(0, stated.start - 12) : stated.start]))
    return (exact_claim and stated.bound in ("upper", "lower")) or (exact_stated and claim.bound in ("upper", "lower"))


def names(text: str) -> list[str]:
    """The names, acronyms and identifiers a text mentions: a capitalised word not opening a sentence,
    a word with an inner capital, a digit or an underscore among letters."""
    stops = stopwords()
    out: dict[str, None] = {}
    for m in _TOKEN.finditer(text):
        token = re.sub(r"['’]s$", "", m.group()).strip(".-/+")
        if _is_name(token, text, m.start(), stops):
            out.setdefault(token, None)
    return list(out)


def _is_name(token: str, text: str, start: int, stops: frozenset[str]) -> bool:
    """Whether ``token``, standing at ``start`` of ``text``, is a name (see ``names``)."""
    if not token or not any(c.isalpha() for c in token):
        return False
    # A number word ("Seven volunteers") or a currency's code ("USD 20") is read as a figure.
    if token.lower() in NUMBER_WORDS or CURRENCY.fullmatch(token):
        return False
    inner_capital = any(c.isupper() for c in token[1:])
    if token.lower() in stops and not inner_capital:
        return False
    identifier = "_" in token or (any(c.isdigit() for c in token) and any(c.isalpha() for c in token))
    return inner_capital or identifier or _capitalised_name(token, text, start)


def _capitalised_name(token: str, text: str, start: int) -> bool:
    """A capitalised word not opening a sentence, or opening one without a common word's shape."""
    opening = bool(_SENTENCE_START.search(text[:start]))
    return token[0].isupper() and (not opening or not _COMMON_SHAPE.search(token))


def _folded(text: str) -> str:
    return " " + " ".join(re.findall(r"\w+", text.lower().replace("’", "'"))) + " "


def _unaccented(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def holds(text: str, name: str, cased: bool = False) -> bool:
    """Whether ``text`` names ``name`` as whole words, punctuation and accents aside: a name written in
    parts joined, hyphenated or spaced ("GPT-4" / "GPT 4" / "GPT4"), possessive or plural ("LLMs" for
    "LLM").

    ``cased``: the text capitalises it where ``name`` is capitalised, so "Care" is not held by a text
    saying "take care", nor "XML" by "xml" — but is by an identifier ("image/jpeg" holds "JPEG": code
    has its own case). A capitalised word opening a sentence of the text holds a plain capitalised name
    ("Care") only where the text never writes that word in lower case: there, the capital may be the
    sentence's."""
    wanted = re.findall(r"\w+", _unaccented(name))
    if not wanted:
        return True
    key = "".join(wanted)
    plain = key.isalpha() and key[:1].isupper() and key[1:].islower()
    folded = _unaccented(text)
    tokens = list(re.finditer(r"\w+", folded))
    for i in range(len(tokens)):
        span = _joined(tokens, i, key, len(wanted) > 1)
        if span is None:
            continue
        start, end = span
        if not cased or not key[0].isupper() or _in_identifier(folded, start, end):
            return True
        if not folded[start].isupper():
            continue
        if plain and _SENTENCE_START.search(folded[:start]) and re.search(rf"\b{re.escape(key.lower())}\b", folded):
            continue
        return True
    return False


def _joined(tokens: list[re.Match[str]], i: int, key: str, spaced: bool) -> tuple[int, int] | None:
    """Where the text's words from ``tokens[i]`` on, joined, are ``key`` (case aside; a plural or
    possessive "s" after it allowed): its start and end, else None."""
    written = ""
    want = key.lower()
    for j, token in enumerate(tokens[i : i + 4], start=i):
        # Words the text spaces apart join only for a name written in parts ("GPT-4" / "GPT 4"):
        # "Marketplace FAQ Pricing" does not name "MarketplaceFAQPricing".
        if j > i and not spaced and any(c.isspace() for c in token.string[tokens[j - 1].end() : token.start()]):
            return None
        written += token.group().lower()
        if written in (want, f"{want}s", f"{want}es") or (want.endswith("s") and written == want[:-1]):
            return tokens[i].start(), token.end()
        if not want.startswith(written):
            return None
    return None


def _in_identifier(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is part of an identifier or path ("image/jpeg", "claude-3-haiku")."""
    before = start >= 2 and text[start - 1] in "/_.-" and text[start - 2].isalnum()
    after = end + 1 < len(text) and text[end] in "/_.-" and text[end + 1].isalnum()
    return before or after


def technical(name: str) -> bool:
    """An acronym or identifier ("IPv6", "BERT", "GPT-4", "max_tokens"), which a text that speaks of it
    must write; a plain capitalised word ("Anthropic", "Python") is often the publisher or the setting
    a page says as "we" or leaves unsaid."""
    letters = [c for c in name if c.isalpha()]
    return (
        any(c.isdigit() for c in name)
        or "_" in name
        or any(c.isupper() for c in name[1:])
        or (len(letters) >= 2 and all(c.isupper() for c in letters))
    )


def names_problem(claim: str, sources: str, background: str = "") -> Failure | None:
    """A name, acronym or identifier of the claim that the cited text does not write with its capital
    (``holds(cased=True)``) nor in a phrase of the claim ("Machine Translation" for "machine
    translation"), and that ``background`` (the question, titles and sections: a user types a question
    in lower case, a title capitalises every word) does not name at all."""
    source_stems: set[str] | None = None
    for name in names(claim):
        opening = _opening_word(name, claim)
        # A word whose every use in the claim opens a sentence may owe its capital to that place.
        written = name if not opening or _inside(name, claim) else name[0].lower() + name[1:]
        if holds(background, name) or _phrase_held(name, claim, sources):
            continue
        if holds(sources, written, cased=True) and not _compound_unheld(name, claim, sources):
            continue
        if opening:
            # A plain capitalised word opening a sentence may be a common word ("Create the ...",
            # "Human evaluators ..."): it passes when the sources hold a form of it ("created").
            source_stems = set(content_stems(f"{sources} {background}")) if source_stems is None else source_stems
            if any(stems_match(stem(name), t) for t in source_stems) or _common_opener(name, claim):
                continue
        return Failure(False, f"{name!r} is not named in the cited text")
    return None


def _common_opener(name: str, claim: str) -> bool:
    """A capitalised word opening a sentence of the claim that is a common word by its kind: a
    preposition or a quantifier before a word ("Among …", "Multiple …"), a connective before its comma
    ("However, …"), or a verb opening an instruction, before a determiner ("Create the dataset …")."""
    word = name.lower()
    for m in re.finditer(rf"(?:^|[.!?;]\s+){re.escape(name)}(\W+)(\w+)", claim):
        comma, after = m.group(1).strip() == ",", m.group(2).lower()
        if (word in OPENERS and not comma) or (word in CONNECTIVES and comma) or after in DETERMINERS:
            return True
    return False


def _compound_unheld(name: str, claim: str, sources: str) -> bool:
    """Whether ``name`` is a plain capitalised part of a longer name of the claim ("Sign AI") that the
    sources capitalise only where a sentence opens ("Sign up on Voyage AI's website") or in a run of
    capitalised words (a title or a page's navigation run together: "… the AWS Marketplace FAQ
    Pricing"), without the name it is part of: there the capital is the sentence's or the title's, so
    only the whole name would hold it."""
    if not (name.isalpha() and name[1:].islower()):
        return False
    word, stops = re.escape(name), stopwords()
    # Only a sentence's own first word: a capital after a colon or in brackets ("(Macro)") is the name's.
    if any(
        not (_SENTENCE_OPENING.search(sources[: m.start()]) or _TITLE_RUN.search(sources[: m.start()]))
        for m in re.finditer(rf"(?<!\w){word}(?!\w)", sources)
    ):
        return False
    after = [f"{name} {p}" for p in re.findall(rf"(?<![\w-]){word}\s+([A-Z][\w-]*)", claim)]
    before = [f"{p} {name}" for p in re.findall(rf"([A-Z][\w-]*)\s+{word}(?![\w-])", claim)]
    compounds = [c for c in after + before if not any(w.lower() in stops for w in c.split())]
    return bool(compounds) and not any(holds(sources, c) for c in compounds)


def _phrase_held(name: str, claim: str, sources: str) -> bool:
    """Whether the sources hold ``name`` with a content word next to it in the claim, whatever the case:
    a claim capitalising a term ("Machine Translation", "the Developer Console") names what the text
    writes in lower case, where a lone capitalised word standing for another ("Care tags" for "XML
    tags") has no such neighbour."""
    stops = stopwords()
    words = re.findall(r"[\w'’-]+", claim)
    for i, word in enumerate(words):
        if word != name:
            continue
        beside = [(j, words[j]) for j in (i - 1, i + 1) if 0 <= j < len(words) and words[j].lower() not in stops]
        if any(holds(sources, f"{w} {name}" if j < i else f"{name} {w}") for j, w in beside):
            return True
    return False


def _inside(name: str, text: str) -> bool:
    """Whether ``name`` appears in ``text`` somewhere other than opening a sentence."""
    return any(
        not _SENTENCE_START.search(text[: m.start()]) for m in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", text)
    )


def _opening_word(name: str, text: str) -> bool:
    if not (name.isalpha() and name[1:].islower()):
        return False
    return any(_SENTENCE_START.search(text[: m.start()]) for m in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", text))


def negated(text: str) -> bool:
    return bool(NEGATION.search(NOT_NEGATION.sub(" ", text)))


def polarity_problem(claim: str, best: str, overlap: float) -> Failure | None:
    if negated(claim) == negated(best):
        return None
    if negated(claim) and absorbed(claim, best):
        return None  # "are not allowed" for "are forbidden": the text's word is the negation
    if negated(best) and not _denies_its_words(best, claim):
        # "… is almost the same as Eq. 8, except the norm is not squared" denies nothing of "… is
        # almost the same as Eq. 8": its negation governs a word the claim does not use.
        return None
    said = "denies" if negated(best) else "does not deny"
    return Failure(
        overlap >= TUNING.judge.same_statement,
        f"the cited text {said} what the claim {'denies' if not negated(best) else 'states'}",
    )


def _denies_its_words(sentence: str, claim: str) -> bool:
    """A word the sentence's negations govern is one of the claim's (or the sentence denies outright,
    without a governed word: "none of them", "not at all")."""
    denied = negated_terms(sentence)
    held = lemmas(claim)
    return not denied or any(stems_match(d, h) for d in denied for h in held)


def sweep_problem(claim: str, sources: str) -> Failure | None:
    sweeping = {m.group().lower() for m in SWEEPING.finditer(claim) if not _GOVERNED.search(claim[: m.start()])}
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


def swap_problem(claim: str, best: str, source_stems: set[str], cited: set[str] | None = None) -> Failure | None:
    """A term standing where the sentence it copies has another (see the module docstring).

    ``cited``: the stems of the cited sentences alone. Given, a change at the claim's start or end
    is read too when TUNING.judge.min_anchor copied words stand on its other side ("Orion supports offline sync"
    for "Vega supports offline sync"), and a name of the claim must be in the cited sentences: one
    the question or the title holds does not stand for the sentence's own."""
    mine = content_words(claim, GENERIC_WORDS)
    theirs = content_words(best, GENERIC_WORDS)
    a, b = [stem(w) for w in mine], [stem(w) for w in theirs]
    ops = SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes()
    for i, (_, a0, a1, b0, b1) in enumerate(ops):
        if not _swap(ops, i, cited is not None):
            continue
        old = theirs[b0:b1]
        if any(written_apart(o, claim) for o in old):
            continue
        renamed = _renamed(mine[a0:a1], old, claim, best, cited)
        if renamed is not None:
            return renamed
        if any(restated(w, claim, best) for w in mine[a0:a1]):
            continue  # "stays open" for "is not closed": an opposite with its polarity turned
        new = [w for w, s in zip(mine[a0:a1], a[a0:a1], strict=True) if s not in source_stems and not reworded(w, old)]
        if new:
            return Failure(False, f"{' '.join(new)!r} stands where the cited text says {' '.join(old)!r}", firm=False)
    return None


def written_apart(word: str, claim: str) -> bool:
    """The claim writes ``word`` in two or more words ("none the less" for "nonetheless", "data set"
    for "dataset"): the same word, not a swapped one."""
    apart = r"[\s-]*".join(re.escape(c) for c in word)
    return any(re.search(r"[\s-]", m.group()) for m in re.finditer(rf"\b{apart}\b", claim.lower()))


def _swap(ops: list[tuple[str, int, int, int, int]], i: int, one_side: bool) -> bool:
    """The change ``ops[i]`` puts one or two words for one or two, inside copied text (``_anchored``)."""
    tag, a0, a1, b0, b1 = ops[i]
    return tag == "replace" and a1 - a0 <= 2 and b1 - b0 <= 2 and _anchored(ops, i, one_side)


def reworded(new: str, old: list[str]) -> bool:
    """``new`` says what one of ``old`` says: another form or spelling, a synonym, another negation,
    or a bound word for bound words."""
    if any(_spelled_otherwise(new, o) or synonyms(new, o) or _both_negations(new, o) for o in old):
        return True
    return new in BOUND_WORDS and all(o in BOUND_WORDS for o in old)


def _anchored(ops: list[tuple[str, int, int, int, int]], i: int, one_side: bool) -> bool:
    """A swap is a change inside copied text: the same words on both sides of it (or, ``one_side``,
    TUNING.judge.min_anchor of them on one side where the claim starts or ends at the change)."""
    before = i > 0 and ops[i - 1][0] == "equal"
    after = i + 1 < len(ops) and ops[i + 1][0] == "equal"
    if before and after:
        return True
    if not one_side:
        return False
    # The rest of the claim is copied whole: a claim that only shares a run with the sentence is a
    # rewording of it, not a copy with a word changed.
    if len(ops) == 2 and i == 0 and after:
        return ops[1][2] - ops[1][1] >= TUNING.judge.min_anchor
    if len(ops) == 2 and i == 1 and before:
        return ops[0][2] - ops[0][1] >= TUNING.judge.min_anchor
    return False


def synonyms(new: str, old: str) -> bool:
    """Two words of one common synonym group (``lexicon.synonyms``), in any of their forms."""
    return any(any(form_of(new, w) for w in group) and any(form_of(old, w) for w in group) for group in SYNONYM_GROUPS)


def form_of(word: str, base: str) -> bool:
    """``word`` is ``base`` or another form of it: "used" / "use", "planned" / "plan" (a doubled final
    consonant), "agreed" / "agree", "sought" / "seek"; not a derived word ("agreement")."""
    word = IRREGULAR_BASE.get(word.lower(), word.lower())
    if word == base:
        return True
    short, long = sorted((word, base), key=len)
    rest = long[len(short) :]
    doubled = rest[:1] == short[-1:] and rest[1:] in _INFLECTIONS
    return (long.startswith(short) and (rest in _INFLECTIONS or doubled)) or (
        base.endswith("e") and word.startswith(base[:-1]) and word[len(base) - 1 :] in _INFLECTIONS
    )


def _both_negations(new: str, old: str) -> bool:
    """Two words of negation ("unable" / "cannot"): polarity is read by the clause checks."""
    return bool(NEGATION.fullmatch(new)) and bool(NEGATION.fullmatch(old))


def _renamed(new: list[str], old: list[str], claim: str, best: str, cited: set[str] | None = None) -> Failure | None:
    """A name of the claim standing where the sentence it copies has another name ("Care tags" for "XML
    tags"): a swapped entity, however many other sentences, the question or the title name it. An
    acronym for its expansion, or a name for one holding it ("Claude" / "Claude Haiku"), is the same
    entity. ``cited`` (the cited sentences' stems) given, a capitalised word opening the claim that
    they do not hold is a name too ("Orion supports …" for "Vega supports …")."""
    claim_names = {n.lower() for n in names(claim)}
    mine = [
        w for w in new if w in claim_names or (cited is not None and _capitalised(w, claim) and stem(w) not in cited)
    ]
    # A capitalised word opening the sentence is its name here too: the claim puts a name in its place.
    theirs = [w for w in old if w in {n.lower() for n in names(best)} or _capitalised(w, best)]
    if not mine or not theirs or _same_entity(new, old):
        return None
    return Failure(False, f"{' '.join(mine)!r} stands where the cited text names {' '.join(theirs)!r}")


def _same_entity(new: list[str], old: list[str]) -> bool:
    """Two wordings of one name: one holds the other ("Claude" / "Claude Haiku"), accents aside, or
    one is the acronym of the other."""
    joined_new, joined_old = _unaccented("".join(new)), _unaccented("".join(old))
    if joined_new in joined_old or joined_old in joined_new:
        return True
    return "".join(w[0] for w in new) == joined_old or "".join(w[0] for w in old) == joined_new


def _capitalised(word: str, text: str) -> bool:
    return bool(re.search(rf"(?<![\w-]){re.escape(word.capitalize())}\b", text))


# Endings a word takes in another form of it ("use" / "used"), below the stemmer's prefix length.
_INFLECTIONS = frozenset({"s", "es", "d", "ed", "ing"})


def _spelled_otherwise(new: str, old: str) -> bool:
    """Another form or spelling of the same word: an inflection ("use" / "used", "find" / "found"), a typo or a variant
    spelling one letter apart ("sanse" / "sense", "color" / "colour"); a swapped term differs more."""
    new, old = new.lower(), old.lower()
    if IRREGULAR_BASE.get(new, new) == IRREGULAR_BASE.get(old, old):
        return True  # "find" / "found"
    if form_of(new, IRREGULAR_BASE.get(old, old)) or form_of(old, IRREGULAR_BASE.get(new, new)):
        return True  # "sells" / "sold"
    short, long = sorted((new, old), key=len)
    if long.startswith(short) and long[len(short) :] in _INFLECTIONS:
        return True
    return min(len(new), len(old)) >= 3 and new[0] == old[0] and Levenshtein.distance(new, old) <= 1


_CLAUSE_END = re.compile(r"(?<=;)\s+(?=\S)")


def pieces(text: str) -> list[str]:
    """A claim's sentences and semicolon clauses, each of TUNING.judge.min_piece_words content words or more. The
    sentences are the corpus's (``split_sentences``): an abbreviation ("as Eq. (3)", "et al.") ends
    none, so a sentence's negation is never read against half of it."""
    out: list[str] = []
    for part in (c for s in split_sentences(text) for c in _CLAUSE_END.split(s)):
        if out and len(content_stems(part)) < TUNING.judge.min_piece_words:
            out[-1] = f"{out[-1]} {part}"
        else:
            out.append(part)
    return out or [text]


# Words setting one clause of a claim against another ("the API allows 5MB, *while* claude.ai 10MB"):
# each clause has its own subject and may have its own polarity.
CONTRAST_WORDS = "while|whereas|but"
CONTRAST = re.compile(rf",?\s*\b(?:{CONTRAST_WORDS})\b\s*", re.I)
# A claim's part also ends where ", and" opens a clause of its own subject ("…is 88%, and it is 53% on
# Wiki"): a pronoun or a preposition after it.
_CLAIM_PART = re.compile(rf"[;.!?](?:\s|$)|\b(?:{CONTRAST_WORDS})\b|,\s+and\s+(?:it|its|they|their|on|in|for)\b")
_LABEL = re.compile(r"[\w.-]*\s*:(?!//)")
_CLAUSE = re.compile(rf"[;:()]|,(?!\d)|\b(?:{CONTRAST_WORDS}|of which)\b")


def subject_problem(claim: str, best: str) -> Failure | None:
    """A figure the claim gives a name whose own figure the sentence states elsewhere ("the gmina has
    14,719, of which the town of Gniewkowo 7,000": 14,719 is not Gniewkowo's)."""
    stated = mentions(best)
    for figure in mentions(claim):
        same = [m for m in stated if same_value(figure, m)]
        if not same:
            continue
        # The claim gives the figure the names of its own part ("the API allows 5MB, while claude.ai 10MB").
        part = _folded(_clause(claim, figure.start, _CLAIM_PART))
        for name in names(claim):
            if _named_apart(name, part, best, same) and _has_own_figure(name, best, figure):
                return Failure(False, f"{figure.text!r} is not what the cited text gives for {name!r}")
    return None


def _named_apart(name: str, part: str, best: str, same: list[Mention]) -> bool:
    """``name`` is a subject of the claim's ``part`` (folded) that the sentence names, but in none of
    the clauses stating the claim's figure (``same``)."""
    key = _folded(name)
    if name[0].isdigit() or len(name) < 2 or key not in part:
        return False  # a figure with its unit ("10MB") is no subject, nor a variable ("N=10")
    return key in _folded(best) and not any(key in _folded(_clause(best, m.start)) for m in same)


def _has_own_figure(name: str, best: str, figure: Mention) -> bool:
    """The name's clause in the sentence holds a figure of its own, of the figure's unit: the claim's
    figure belongs to another subject."""
    where = re.search(rf"(?<!\w){re.escape(name)}(?!\w)", best, re.I)
    if where is None:
        return False
    # A name followed by a colon labels what follows it ("API: Maximum 5MB claude.ai: Maximum 10MB").
    label = _LABEL.match(best, where.end())
    own = _clause(best, label.end() if label else where.start())
    return any(m.unit == figure.unit and not same_value(figure, m) for m in mentions(own))


# A parenthesis glued to the word before it is part of that name ("Wiki(gold)", "F1(macro)"), no
# clause boundary: read as spaces, the same length, so a figure's place in the text stays where it is.
_GLUED = re.compile(r"(?<=\w)\(([^()\s]{1,30})\)")


def _clause(text: str, at: int, bounds: re.Pattern[str] = _CLAUSE) -> str:
    text = _GLUED.sub(lambda m: f" {m.group(1)} ", text)
    cuts = [0, *(m.end() for m in bounds.finditer(text) if m.end() <= at)]
    ends = [m.start() for m in bounds.finditer(text) if m.start() > at] + [len(text)]
    return text[max(cuts) : min(ends)]
