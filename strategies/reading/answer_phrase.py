"""The short answer a sentence gives to a question: the typed value a reader looks for, found without
a model.

Only a question asking for a typed value gets one (``question_types``): a date, a quantity, yes or
no, or a name of the asked-for kind. The phrase is found in one sentence: candidates of that type
(dates, quantities, capitalised names; for a category question such as "what sport", noun phrases)
that are not part of what the question already says, ranked by how close they stand to the words
the sentence shares with the question; for "what <noun>" questions the dense model also says which
candidate is most like the noun ("sport" ~ "American football"). Every candidate is a whole
constituent of its sentence: a whole date, a figure with its unit, a whole capitalised name (never
a sentence's capitalised first word on its own). Yes/no comes from polarity on the asked predicate: a
sentence that covers the question's terms and states what it asks of them asserts it, unless a
negation governs one of them (``strategies.reading.answerhood``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from corpus.text import figures
from strategies.reading.answerhood import polarity as asked_polarity
from strategies.reading.lexicon.quantities import COUNT_NOUNS, MONEY_NOUNS
from strategies.reading.lexicon.units import CURRENCY, MEASURE_UNITS
from strategies.reading.numbers import quantities
from strategies.reading.vectors import Vectors

from .question_types import AnswerType, Entity, QuestionType, main_clause, question_type
from .text import content_stems, content_words, matched, stem, stopwords

# --- candidates in a sentence --------------------------------------------------------------------------------

_MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|"
    r"Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)
_DATE = re.compile(
    rf"\b(?:\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}\s+\d{{3,4}}|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{3,4}}|"
    rf"{_MONTH}\s+\d{{3,4}}|"
    r"(?:1[0-9]|20)\d{2}s?)\b"
)
_NUMBER = re.compile(
    r"(?<![\w.,])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:\s*(?:%|percent|per cent)|\s+(?!(?:the|a|an|and|or|of|in|on|"
    r"to|for|by|with|there|that|which|is|are|was|were)\b)[a-z][a-z-]+)?"
)
# A capitalised run: "Mahesh Bhatt", "David S. Ware", "Houghton County, Michigan", "Philadelphia Atoms".
_NAME = re.compile(
    r"(?:[A-Z][\w'’.-]*|\d+[A-Z]\w*)(?:(?:\s+|\s*,\s+(?=[A-Z][a-z]+(?:\W|$)))(?:(?:of|de|la|le|van|von|der|du|"
    r"the|and|&)\s+)?(?:[A-Z][\w'’.-]*))*"
)
# Words run together where a table or a menu lost its spaces ("HaikuStrengthsLegacy"): two or more
# lower-to-upper joins between runs of lower-case letters. "JavaScript" or "McDonald" have one.
_GLUED = re.compile(r"[a-z]{3,}[A-Z][a-z]{2,}[A-Z]")
# A lower-case identifier with a digit or an underscore: a model, version, parameter or file name.
_IDENTIFIER = re.compile(r"(?<![\w.-])[a-z][\w.-]*(?:_|\d)[\w.-]*[a-z0-9](?![\w-])")
# Dates and life events belong to date answers, never to a thing's name ("born May").
_EVENT_WORD = re.compile(rf"^(?:{_MONTH}|born|died|founded|established)$", re.IGNORECASE)
_YEAR_ONLY = re.compile(r"(?:1[0-9]|20)\d{2}")
_WORD = re.compile(r"[A-Za-z][\w'’-]*|\d[\d,.]*")
# A candidate farther than this many words from every shared word is hardly the answer to it.
PROXIMITY_WORDS = 12
MAX_PHRASE_WORDS = 3
MAX_NAME_WORDS = 6
# For "what <noun>" questions: weight of the cosine to the noun against proximity.
W_NOUN = 0.6
# A figure whose unit is this unlike the counted noun counts something else ("14 roofs" for "how many
# species": cosine 0.15; "3,559 inhabitants" for "population": 0.55, "5,000 people": 0.6).
MIN_UNIT_SIMILARITY = 0.25
# Between equally placed candidates, a fuller name ("Blitzen Trapper" over "American").
LENGTH_BONUS = 0.05


@dataclass(frozen=True)
class Phrase:
    text: str
    start: int
    end: int
    score: float


def answer_phrase(question: str, sentence: str, vectors: Vectors | None = None) -> Phrase | None:
    """The short answer ``sentence`` gives to ``question``, or None (a description question, or no
    candidate of the wanted type outside the question's own words)."""
    qtype = question_type(question)
    if qtype.kind in (AnswerType.YES_NO, AnswerType.DESCRIPTION):
        return None
    q_stems = frozenset(content_stems(question))
    anchors = _anchor_positions(sentence, q_stems)
    # A candidate restating the question ("60 mm" of "at 60 mm of substrate") is no answer.
    asked = set(figures(question))
    candidates = [
        c
        for c in _candidates(qtype, sentence)
        if (figures(c[0]) and not set(figures(c[0])) <= asked)
        or (not figures(c[0]) and not _inside_question(c[0], q_stems))
    ]
    if not candidates:
        return None
    similarity = _noun_similarity(qtype, [c[0] for c in candidates], vectors)
    best: Phrase | None = None
    for (text, start, end), sim in zip(candidates, similarity, strict=True):
        if qtype.kind is AnswerType.QUANTITY and sim is not None and sim < MIN_UNIT_SIMILARITY and content_words(text):
            continue  # "14 green roofs" counts roofs, not the spider species asked about
        distance = min((abs(a - start) if a < start else abs(a - end) for a in anchors), default=len(sentence))
        near = max(0.0, 1.0 - _words_between(sentence, distance) / PROXIMITY_WORDS)
        score = near if sim is None else (1 - W_NOUN) * near + W_NOUN * sim
        score += LENGTH_BONUS * min(len(text.split()) - 1, 2)
        if best is None or score > best.score:
            best = Phrase(text=text, start=start, end=end, score=round(score, 6))
    return best


def _words_between(sentence: str, chars: int) -> int:
    return max(0, round(chars / 6))  # ~6 characters a word with its space


def _anchor_positions(sentence: str, q_stems: frozenset[str]) -> list[int]:
    return [m.start() for m in _WORD.finditer(sentence) if matched(stem(m.group(0).lower()), q_stems)]


def _inside_question(text: str, q_stems: frozenset[str]) -> bool:
    """Every content word of the candidate is already in the question: it restates, not answers."""
    stems = content_stems(text)
    return bool(stems) and all(matched(s, q_stems) for s in stems)


def _candidates(qtype: QuestionType, sentence: str) -> list[tuple[str, int, int]]:
    if qtype.kind is AnswerType.DATE:
        return _spans(_DATE, sentence)
    if qtype.kind is AnswerType.QUANTITY:
        if qtype.measure == "frequency":  # "how often": "twice a year", "every 3 months", "daily"
            return _spans(_FREQUENCY, sentence)
        # Measurements ("60 to 80 mm", "2 °C") answer "how much / how long", not "how many".
        found = [] if qtype.counted else [(q.text, q.start, q.end) for q in quantities(sentence)]
        if qtype.measure:  # "how long / deep": a measurement of that kind, never a bare figure
            units = MEASURE_UNITS[qtype.measure]
            return [(t, st, e) for t, st, e in found if any(q.unit in units for q in quantities(t))]
        covered = [(s, e) for _, s, e in found]
        found += [
            (t, s, s + len(t))
            for t, s, e in ((_trim_unit(t), s, e) for t, s, e in _spans(_NUMBER, sentence))
            if not any(s < ce and cs < e for cs, ce in covered) and not _YEAR_ONLY.fullmatch(t.strip())
        ]
        found = [_widen(sentence, st, e) for _, st, e in found]
        noun = stem(qtype.noun.split()[-1]) if qtype.noun else ""
        if noun in _COUNT_STEMS:
            found = [c for c in found if not any(q.unit == "%" for q in quantities(c[0]))]  # a population is no share
        elif noun in _MONEY_STEMS:  # a price is an amount of money: "€45 per m2", "120 dollars"
            found = [(t, st, e) for t, st, e in found if CURRENCY.search(sentence[max(0, st - 4) : e])]
        return [(t, s, e) for t, s, e in found if _stated_figure(t)]
    names = [
        (t, s, e)
        for t, s, e in _spans(_NAME, sentence)
        if (s > 0 or _proper_at_start(t))
        and not (s > 0 and sentence[s - 1].isalnum())  # "Legacy" out of "StrengthsLegacy" is no name
        and not _modifier(t, sentence[e:])
        and not _EVENT_WORD.match(t.split()[0])
    ]
    names = [(t, s, e) for t, s, e in names if len(t.split()) <= MAX_NAME_WORDS]  # a list is not one name
    names = [(t, s, e) for t, s, e in names if not any(_GLUED.search(w) for w in t.split())]
    if qtype.kind in (AnswerType.NAME, AnswerType.PLACE):
        return names
    if qtype.entity is Entity.CATEGORY:  # "what sport": "football", a common noun in lower case
        return [(t, s, e) for t, s, e in _noun_phrases(sentence) if t.islower()]
    # A name followed by the asked-for noun is named with it: "the *Standard tier*", "the *Pro plan*".
    head = stem(qtype.noun.split()[-1]) if qtype.noun else ""
    names = [_with_noun(sentence, t, st, e, head) for t, st, e in names]
    # Products, models and methods are often named in lower case with digits or underscores
    # ("claude-3-haiku-20240307", "word2vec", "max_tokens"); a plain lower-case word is no name.
    covered = [(s, e) for _, s, e in names]
    return names + [
        (t, s, e) for t, s, e in _spans(_IDENTIFIER, sentence) if not any(s < ce and cs < e for cs, ce in covered)
    ]


_FREQUENCY = re.compile(
    r"\b(?:(?:once|twice|thrice|(?:\d+|one|two|three|four|five|six|ten|several|many) times)\s+(?:a|an|per|each|every)"
    r"\s+[a-z]+|every\s+(?:\d+\s+|other\s+|few\s+)?[a-z]+s?|(?:daily|weekly|fortnightly|monthly|quarterly|yearly|"
    r"annually|hourly|biannually))\b",
    re.IGNORECASE,
)


# Nouns counted in units of themselves ("a population of 3,559"): a percentage is a share of them.
_COUNT_STEMS = frozenset(stem(n) for n in COUNT_NOUNS)
# Nouns answered by an amount of money, and the marks of one.
_MONEY_STEMS = frozenset(stem(n) for n in MONEY_NOUNS)


def _widen(sentence: str, start: int, end: int) -> tuple[str, int, int]:
    """A figure with its currency sign and a "per <unit>" rate: "€45 per m2", not "45 per"."""
    if start > 0 and sentence[start - 1] in "$€£¥₹":
        start -= 1
    rate = re.match(r"(?:\s+per)?\s+(?:[a-zA-Z][\w²³/]*)", sentence[end:]) if sentence[:end].endswith("per") else None
    if rate is None:
        rate = re.match(r"\s+per\s+[a-zA-Z][\w²³/]*", sentence[end:])
    if rate:
        end += rate.end()
    return sentence[start:end], start, end


def _trim_unit(text: str) -> str:
    """ "5,000 at" -> "5,000": the word after a number is its unit only when it is not a function word."""
    text = text.rstrip(" ,.")
    head, _, last = text.rpartition(" ")
    return head if head and last.lower() in stopwords() else text


def _stated_figure(text: str) -> bool:
    """A figure that can be an answer: not a bare integer ("12"), which in running text is more often a
    reference, list or footnote number than a quantity; "3,559", "1.5" and "47 species" pass."""
    return not re.fullmatch(r"\d+", text.strip())


_DEMONYM = re.compile(r"^[A-Z][a-z]+(?:an|ese|ish|ic|i|ch)$")


def _modifier(text: str, after: str) -> bool:
    """ "American" in "American rock band", "Hindi" in "Hindi movie": a nationality or language before
    a noun describes the answer; it is not the name asked for."""
    return bool(_DEMONYM.match(text)) and bool(re.match(r"\s+[a-z]", after))


def _with_noun(sentence: str, text: str, start: int, end: int, head: str) -> tuple[str, int, int]:
    after = re.match(r"\s+([a-z][\w-]*)", sentence[end:])
    if head and after and stem(after.group(1)) == head:
        end += after.end()
        return sentence[start:end], start, end
    return text, start, end


def _proper_at_start(text: str) -> bool:
    """A capitalised run opening a sentence is a name only when more than capitalisation says so:
    several words ("Voyage AI offers"), or a capital or digit inside a word ("GPT-4", "SQuAD"). A lone
    capitalised first word ("Tool use requests", "The", "Important") is just the sentence's start."""
    words = text.split()
    if words[0].lower() in stopwords():
        return False
    return len(words) > 1 or bool(re.search(r"\w[A-Z0-9]", words[0]))


def _spans(pattern: re.Pattern[str], sentence: str) -> list[tuple[str, int, int]]:
    out = []
    for m in pattern.finditer(sentence):
        text = m.group(0).strip().rstrip(".,;:")
        if text:
            start = m.start() + m.group(0).index(text)
            out.append((text, start, start + len(text)))
    return out


def _noun_phrases(sentence: str) -> list[tuple[str, int, int]]:
    """Runs of up to MAX_PHRASE_WORDS content words, cut at stopwords and punctuation."""
    out: list[tuple[str, int, int]] = []
    run: list[re.Match[str]] = []
    stops = stopwords()

    def flush() -> None:
        # Every stretch of up to MAX_PHRASE_WORDS words of the run: "American football" out of "former
        # American football linebacker" is a candidate too, and the question's noun picks among them.
        for i in range(len(run)):
            for j in range(i, min(len(run), i + MAX_PHRASE_WORDS)):
                out.append((sentence[run[i].start() : run[j].end()], run[i].start(), run[j].end()))
        run.clear()

    previous_end = 0
    for m in _WORD.finditer(sentence):
        gap = sentence[previous_end : m.start()]
        previous_end = m.end()
        word = m.group(0)
        breaks = word.lower() in stops or word[0].isdigit() or _EVENT_WORD.match(word)
        if re.search(r"[,;:()\"“”]", gap) or breaks:
            flush()
        if not breaks:
            run.append(m)
    flush()
    return out


def _noun_similarity(qtype: QuestionType, texts: list[str], vectors: Vectors | None) -> list[float | None]:
    if vectors is None or not qtype.noun:
        return [None] * len(texts)
    noun = vectors.query(qtype.noun)
    matrix = vectors.passages(texts)
    return [float(x) for x in np.clip(matrix @ noun, 0.0, 1.0)]


# --- yes / no ---------------------------------------------------------------------------------------------


def polarity(question: str, sentence: str) -> str | None:
    """ "Yes" when the sentence states what the yes/no question asks, "No" when it denies the asked
    predicate, None when it does not speak of it (``strategies.reading.answerhood.polarity``)."""
    if question_type(question).kind is not AnswerType.YES_NO:
        return None
    return asked_polarity(main_clause(question), sentence)
