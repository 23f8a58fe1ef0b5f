"""What a statement is about beyond what the question names: the details that tell one thing from
another of the same name.

Two documents only disagree when they give different values for the *same* thing. "The Pro plan costs
$20" and "the Team plan costs $30" do not; nor do "Talk Show (1984, I.R.S.)" and "Talk Show (January
26, 1999, Uptown Records)", two albums of one name. Without a model, a statement's subject is told by
what it names besides its value:

- names: capitalised runs with the version numbers that belong to them ("Claude 3 Opus", "Python
  3.11") and the question's noun they qualify ("the Team plan"), read as lower-cased words; a
  sentence's first word alone is left out (capitalised for the sentence, not as a name), and so are
  honorifics ("Justice Ritchie" is "Roland Ritchie");
- years, in dates or on their own ("in 2019", "26 July 1926"), which set a statement in time;
- ordinals ("the third studio album", "the 2nd edition"; a debut is a first), which number one of
  a series.

A statement is about *another* thing than the question asks when it names a variant of the
question's name and never the name itself: "the Messages API" for a question on "the Text
Completions API", "Claude 3 Opus" for "Claude 3 Haiku" (each name has a word the other lacks, and
they share one). Two statements are about different things when both name something of one kind
beyond the question's words and nothing of that kind is shared: other names, years or ordinals; or
when one says the question's name and the other never does while naming other things. A statement
naming nothing beyond the question is taken at its word, as being about what is asked.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from corpus.text import stopwords
from strategies.reading.lexicon.entities import HONORIFICS
from strategies.reading.lexicon.months import MONTH_WORD
from strategies.reading.lexicon.quantities import ORDINAL_NUMBERS
from strategies.reading.tuning import TUNING

from .text import content_stems, matched, stem

# A capitalised word standing on its own (not the "C" of "°C"), then more capitalised words or version
# numbers ("Claude 3 Opus", "GPT-4o"); a word ending in a full stop only goes on when it is an initial
# or an abbreviation ("John H. Williams", "St. Johnsbury", "I.R.S."), not at the end of a sentence.
_CAPITAL = r"[A-Z][\w'’&-]*(?:\.(?:[A-Za-z]+\.)*)?"
_NAME = re.compile(
    rf"(?<![^\s(\[“\"‘'])(?:{_CAPITAL})"
    rf"(?:(?<![a-z]{{3}}\.)[ \t]+(?:(?:of|de|la|van|von|der|and|&)[ \t]+)?"
    rf"(?:{_CAPITAL}|v?\d+(?:\.\d+)*\b))*"
)
# A lone capitalised word at the start of a sentence, a line or a label ("Heat: Extensive roofs") is
# capitalised for its place, not as a name.
_OPENING = re.compile(r"(?:^|[.!?:;•]\s+|\n)\W*$")
_NEXT_WORD = re.compile(r"[ \t]+([a-z][\w-]*)")
_WORD = re.compile(r"[\w'’.&-]+")
_ORDINAL = re.compile(
    r"\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|debut|"
    r"\d+(?:st|nd|rd|th))\b",
    re.IGNORECASE,
)
# A year: four digits from 1600 to 2099, not part of a larger number, and not a count ("2048 tokens").
_YEAR = re.compile(r"(?<![\w.,$€£])(?:1[6-9]|20)\d{2}(?![\w%°]|[.,]\d)(?!\s+[a-z]+s\b)")


@dataclass(frozen=True)
class Subject:
    """The details a statement names beside its value."""

    names: frozenset[str]  # lower-cased words of its names that the question does not name
    years: frozenset[str]
    ordinals: frozenset[str]
    off_question: bool  # it names a variant of the question's name, never the name itself
    names_question: bool  # it says the question's name (or the question gives none)
    shown: tuple[str, ...] = ()  # its names, years and ordinals as written, in order

    def label(self, others: Iterable[Subject] = ()) -> str:
        """What tells this subject apart from ``others``: the details they do not give."""
        theirs = {w for o in others for w in o.names | o.years | o.ordinals}
        own = [t for t in self.shown if not _detail_words(t) <= theirs]
        return ", ".join(own[: TUNING.phrasing.max_shown])


# What tells one thing of a name from another, after its value: "Blitzen Trapper (2013, Vagrant)".
_LABEL = re.compile(r"\s+\([^()]*\)$")


def with_label(value: str, label: str) -> str:
    return f"{value} ({label})" if label else value


def without_label(shown: str) -> str:
    """The value of a shown answer, without what tells its thing apart: the value the type rules judge."""
    return _LABEL.sub("", shown)


def subject_of(sentence: str, values: Iterable[str], question: str) -> Subject:
    """The subject of ``sentence`` beyond the ``values`` it gives and what ``question`` names."""
    asked = frozenset(content_stems(question)) | frozenset(w.lower() for w in _WORD.findall(question))
    asked_names = _runs(question, None)
    taken = _value_spans(sentence, values)
    names, shown, off_question = _other_names(sentence, asked, asked_names, taken)
    years, shown_years = _other_years(sentence, asked, taken, shown)
    ordinals, shown_ordinals = _other_ordinals(sentence, question, taken)
    # The words it says beside its values: a question naming its own answer ("the Yellow Lantern")
    # is named by neither of two sentences that differ in that word.
    said = tuple(
        m.group(0).strip(".'’&-").lower() for m in _WORD.finditer(sentence) if not _overlaps(m.start(), m.end(), taken)
    )
    return Subject(
        frozenset(names),
        frozenset(years),
        frozenset(ordinals),
        off_question,
        not asked_names or any(_names_all(said, q.core) for q in asked_names),
        tuple(text for _, text in sorted(shown + shown_years + shown_ordinals)),
    )


def _other_names(
    sentence: str, asked: frozenset[str], asked_names: list[_Run], taken: list[tuple[int, int]]
) -> tuple[set[str], list[tuple[int, str]], bool]:
    """The words of the names ``sentence`` gives beside its values and the question's words, those
    names to show (where they start, as written), and whether it names a variant of the question's
    name and never the name itself."""
    names: set[str] = set()
    shown: list[tuple[int, str]] = []
    variant = covered = False
    for run in _runs(sentence, asked):
        if _overlaps(run.start, run.end, taken):
            continue  # the value's own name
        covered = covered or any(_names_all(run.words, q.core) for q in asked_names)
        variant = variant or any(_variant(run.words, q.words) for q in asked_names)
        extra = [w for w in run.core if w not in asked and not matched(stem(w), asked)]
        if extra:
            names.update(extra)
            if len(run.core) <= TUNING.phrasing.max_shown_words:  # a long run is a list or a menu, not a name to show
                shown.append((run.start, _shown(sentence[run.start : run.end])))
    return names, shown, variant and not covered


def _other_years(
    sentence: str, asked: frozenset[str], taken: list[tuple[int, int]], shown_names: list[tuple[int, str]]
) -> tuple[set[str], list[tuple[int, str]]]:
    """The years ``sentence`` gives beside its values and the question's, and those to show: a
    year already shown, in a name ("Windows 2000") or before, is not shown again."""
    years: set[str] = set()
    shown: list[tuple[int, str]] = []
    for m in _YEAR.finditer(sentence):
        if not _overlaps(m.start(), m.end(), taken) and m.group(0) not in asked:
            years.add(m.group(0))
            if not any(m.group(0) in text for _, text in shown_names + shown):
                shown.append((m.start(), m.group(0)))
    return years, shown


def _other_ordinals(
    sentence: str, question: str, taken: list[tuple[int, int]]
) -> tuple[set[str], list[tuple[int, str]]]:
    """The ordinals ``sentence`` gives beside its values and the question's (as numbers), and where
    each stands as written."""
    asked_ordinals = {_ordinal(w) for w in _WORD.findall(question) if _ORDINAL.fullmatch(w)}
    ordinals: set[str] = set()
    shown: list[tuple[int, str]] = []
    for m in _ORDINAL.finditer(sentence):
        if not _overlaps(m.start(), m.end(), taken) and _ordinal(m.group(0)) not in asked_ordinals:
            ordinals.add(_ordinal(m.group(0)))
            shown.append((m.start(), m.group(0)))
    return ordinals, shown


def different(a: Subject, b: Subject) -> bool:
    """Two things, not one: both name other things of one kind and none of them is shared; or one
    says the question's name and the other never does while naming other things (a building "at 1
    Rockefeller Plaza" is not taken for the "Time-Life Building" another document names)."""
    kinds = ((a.names, b.names), (a.years, b.years), (a.ordinals, b.ordinals))
    if any(x and y and not (x & y) for x, y in kinds):
        return True
    return a.names_question != b.names_question and bool((b if a.names_question else a).names)


@dataclass(frozen=True)
class _Run:
    core: tuple[str, ...]  # the name's words
    words: tuple[str, ...]  # with the noun it qualifies
    start: int
    end: int


def _ordinal(word: str) -> str:
    """ "Third", "3rd" -> "3"; a debut is a first."""
    low = word.lower()
    if low == "debut":
        return "1"
    return ORDINAL_NUMBERS.get(low) or low.rstrip("stndrh")


def _shown(name: str) -> str:
    """A name as shown: without the article before it or the stop after it ("Relay Pro plan")."""
    return re.sub(r"^(?:the|a|an)\s+", "", name, flags=re.IGNORECASE).rstrip(".,;:")


def _detail_words(detail: str) -> set[str]:
    """A shown detail as compared: an ordinal as its number, a year as itself, a name as its words."""
    if _ORDINAL.fullmatch(detail):
        return {_ordinal(detail)}
    return set(_name_words(detail)) or {detail}


def _runs(text: str, asked: frozenset[str] | None) -> list[_Run]:
    """The names of a text. A name takes the lower-case noun after it when that noun is the
    question's ("the Team plan"); in the question itself (``asked`` None), any content word."""
    out = []
    for m in _NAME.finditer(text):
        if len(m.group(0).split()) == 1 and _OPENING.search(text, 0, m.start()):
            continue  # "Construction started ...": capitalised because it opens the sentence
        core = _name_words(m.group(0))
        if not core:
            continue
        end, words = m.end(), core
        following = _NEXT_WORD.match(text, m.end())
        if following and following.group(1) not in stopwords():
            if asked is None or matched(stem(following.group(1)), asked):
                end, words = following.end(), (*core, following.group(1))
        out.append(_Run(core, words, m.start(), end))
    return out


def _name_words(text: str) -> tuple[str, ...]:
    """Lower-cased words that tell a name apart: no function words, honorifics, months or years."""
    out = []
    previous = ""
    for raw in _WORD.findall(text):
        word = raw.strip(".'’&-").lower()
        if word.isdigit() and MONTH_WORD.match(previous):
            continue  # the day of "January 26"
        previous = word
        if word and word not in stopwords() and word not in HONORIFICS and not MONTH_WORD.match(word):
            if not _YEAR.fullmatch(word):
                out.append(word)
    return tuple(out)


def _names_all(run: tuple[str, ...], name: tuple[str, ...]) -> bool:
    """``run`` says every word of ``name`` ("Roland Almon Ritchie" says "Ritchie")."""
    return all(any(_word_match(q, w) for w in run) for q in name)


def _variant(run: tuple[str, ...], name: tuple[str, ...]) -> bool:
    """Another thing of a like name: a word in common, and each with a word the other lacks."""
    shared = any(_word_match(q, w) for q in name for w in run)
    return shared and not _names_all(run, name) and not _names_all(name, run)


def _word_match(a: str, b: str) -> bool:
    """Same word, by stem; an initial matches the words it abbreviates ("H." for "Hartley"); a
    hyphenated name only itself ("Time-Life" is not "time")."""
    if not a or not b:  # a token that was all punctuation ("...") is no word
        return False
    if len(a) == 1 or len(b) == 1:
        return a[0] == b[0]
    if "-" in a or "-" in b:
        return a.removesuffix("'s") == b.removesuffix("'s")
    return a == b or stem(a) == stem(b)


def _value_spans(sentence: str, values: Iterable[str]) -> list[tuple[int, int]]:
    """Where the values stand in the sentence (every occurrence, case-insensitive)."""
    spans: list[tuple[int, int]] = []
    for value in values:
        if value.strip():
            found = re.finditer(rf"(?<!\w){re.escape(value.strip())}(?!\w)", sentence, re.IGNORECASE)
            spans += [(m.start(), m.end()) for m in found]
    return spans


def _overlaps(start: int, end: int, spans: list[tuple[int, int]]) -> bool:
    return any(start < e and s < end for s, e in spans)
