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

import dataclasses
import re
from dataclasses import dataclass

import numpy as np

from corpus.loaders.pdf.headings import KNOWN_HEADINGS
from corpus.text import figures
from strategies.reading.lexicon.quantities import (
    AVERAGING,
    COUNT_NOUNS,
    MONEY_NOUNS,
    NUMBER_WORDS,
    PEOPLE_WORDS,
    QUANTITY_NOUNS,
    WHOLE_COUNT_NOUNS,
)
from strategies.reading.lexicon.units import CURRENCY, MEASURE_UNITS
from strategies.reading.numbers import quantities
from strategies.reading.tuning import TUNING
from strategies.reading.vectors import Vectors

from .claim_checks import form_of, holds
from .lexicon.comparatives import MAX_WORDS, MIN_WORDS
from .lexicon.documents import PLACEHOLDER, TEXT_PART
from .lexicon.entities import METRIC_NAMES, METRIC_NOUNS
from .lexicon.months import MONTH_PATTERN
from .name_kinds import NameKinds, kind_of_noun
from .negations import negated_terms
from .question import ParsedQuestion
from .question_types import AnswerType, Entity, QuestionType, category_value
from .text import content_stems, content_words, lemma, matched, stem, stopwords, words

# --- candidates in a sentence --------------------------------------------------------------------------------

_DATE = re.compile(
    rf"\b(?:\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{MONTH_PATTERN}\s+\d{{3,4}}|{MONTH_PATTERN}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{3,4}}|"
    rf"{MONTH_PATTERN}\s+\d{{3,4}}|"
    r"(?:1[0-9]|20)\d{2}s?)\b"
)
# A figure may carry its magnitude ("380.5M", "42k", "1.5B", "2bn"); the digits of a name ("GPT-3") are none.
_NUMBER = re.compile(
    r"(?<![\w.,])(?<![A-Za-z]-)(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:(?:[KMB]|bn|k)(?![A-Za-z]))?(?:\s*(?:%|percent|per cent)|\s+(?!(?:the|a|an|and|or|of|in|on|"
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
# Where a value stands, not a value: a part of the text or a converted paper's placeholder.
_POINTER = re.compile(TEXT_PART, re.I)
_PLACEHOLDER = re.compile(PLACEHOLDER)
# A question on a change or a difference, which a margin ("by 2%") answers.
_CHANGE_ASKED = re.compile(
    r"\bby\s+how\s+(?:much|many)\b|\b(?:improve|gain|increase|decrease|reduc|drop|differ|margin|outperform|"
    r"boost|rais|lower|fell|fall|grow|grew|rise|rose|speed-?up)\w*",
    re.I,
)
# A verb or word of comparison (``lexicon.comparatives``), after which "by" introduces a margin.
_COMPARING = re.compile(
    rf"\b(?:outperform|improv|beat|exceed|surpass|increas|decreas|reduc|drop|ris|gain|boost|rais|"
    rf"{'|'.join(sorted(MAX_WORDS | MIN_WORDS))}|faster|slower)\w*",
    re.I,
)
# A word of comparison right after a figure ("3 °C *lower*", "40% *reduction*"), and a verb of change.
_COMPARED_AFTER = re.compile(
    rf"\s*(?:\w+\s+)?(?:{'|'.join(sorted(MAX_WORDS | MIN_WORDS))}|reduction|increase|decrease|drop|gain|"
    r"improvement|rise|cut|faster|slower)\b",
    re.I,
)
# "by" right before a figure: "passed by 38 votes to 9", "by about 2 °C".
_BY = re.compile(
    r"\bby\s+(?:(?:about|around|over|nearly|almost|some|roughly|up\s+to|more\s+than|less\s+than)\s+)?$", re.I
)
_THAN = re.compile(r"\bthan\b", re.I)
# A change named right before a figure: "a gain of 0.6 points", "an improvement of about 3%".
_CHANGE_OF = re.compile(
    r"\b(?:gain|increase|decrease|improvement|reduction|drop|rise|boost|decline|loss|difference)s?\s+of\s+"
    r"(?:(?:about|around|over|nearly|almost|some|roughly|up\s+to|more\s+than|less\s+than)\s+)?$",
    re.I,
)
_CHANGING = re.compile(
    r"\b(?:reduc|fell|fall|drop|increas|decreas|improv|cut|lower|rais|rose|ris|grew|grow|gain|saved|sav|declin|"
    r"shrank|shrink|doubl|halv)\w*",
    re.I,
)
# An abbreviation in capitals: "RC", "ASR" (a plural "s" allowed: "LLMs").
_ACRONYM = re.compile(r"[A-Z]{2,6}s?")
# A birth or a death asked for, and the join of two dates into a life span ("1885 – 1955", "1885-1955").
_BIRTH = re.compile(r"\b(?:born|birth|birthday|birthdate)\b", re.IGNORECASE)
_DEATH = re.compile(r"\b(?:die|died|death|dead)\b", re.IGNORECASE)
_SPAN_JOIN = re.compile(r"\s*[–—-]\s*|\s+to\s+")
_SPAN_OPEN = re.compile(r"\(\s*(?:[A-Za-z]+\.?\s+)?$")
_SPAN_CLOSE = re.compile(r"\s*[);,]")
# Dates and life events belong to date answers, never to a thing's name ("born May").
_EVENT_WORD = re.compile(rf"^(?:{MONTH_PATTERN}|born|died|founded|established)$", re.IGNORECASE)
_YEAR_ONLY = re.compile(r"(?:1[0-9]|20)\d{2}")
_WORD = re.compile(r"[A-Za-z][\w'’-]*|\d[\d,.]*")
_CLAUSE_BREAK = re.compile(r"[;()\[\]]|,(?!\d{3})|\s[–—-]\s")
# A place is named after a word that locates ("based in", "the city of", "near"): a capitalised name
# elsewhere in the sentence (the subject, an aircraft maker, a person) says nothing of where.
_LOCATIVE = re.compile(
    r"\b(?:in|at|near|from|on|outside|inside|within|throughout|across|into|to|toward|towards|between|around|"
    r"beside|(?:city|town|village|state|county|province|region|country|capital|island|district|borough|"
    r"municipality|suburb|neighbourhood|neighborhood|area)\s+of)\s+(?:the\s+)?(?:[a-z]+\s+)?$"
)
# What follows a verb, not a kind: an article as its object; "of" after an -ing word (see ``_of_the_category``).
_TAKES_OBJECT = re.compile(r"\s+(?:a|an|the)\s", re.IGNORECASE)
_ACTION_OF = re.compile(r"\s+of\s")
# A year before a noun names an event ("the 2000 census", "its 2006 season"), it counts nothing.
_YEAR_BEFORE_NOUN = re.compile(r"(?:1[0-9]|20)\d{2}\s+[a-z][a-z-]*")
_DETERMINER_BEFORE = re.compile(r"\b(?:the|its|their|his|her|this|that|each|every|a|an)\s+$", re.IGNORECASE)
# A count is followed by a plural; these plurals do not end in "s".
_IRREGULAR_PLURALS = frozenset("people children men women staff personnel police cattle".split())


@dataclass(frozen=True)
class Phrase:
    text: str
    start: int
    end: int
    score: float


def answer_phrase(
    question: ParsedQuestion, sentence: str, vectors: Vectors | None = None, kinds: NameKinds | None = None
) -> Phrase | None:
    """The short answer ``sentence`` gives to ``question``, or None (a description question, or no
    candidate of the wanted type outside the question's own words). ``kinds``: what the evidence calls
    each name; a name it calls only another kind of thing than the one asked is no answer."""
    if question.type.kind in (AnswerType.YES_NO, AnswerType.DESCRIPTION):
        return None
    q_stems = frozenset(question.stems)
    candidates = _answer_candidates(question, sentence, q_stems, kinds)
    if not candidates:
        return None
    return _best_phrase(question, sentence, q_stems, candidates, vectors)


def _answer_candidates(
    question: ParsedQuestion, sentence: str, q_stems: frozenset[str], kinds: NameKinds | None
) -> list[tuple[str, int, int]]:
    """The candidates of the asked type in ``sentence`` that could answer ``question``: each filter
    drops those that restate it, or are of another kind, quantity, verb or compared side."""
    qtype = question.type
    candidates = [
        c
        for c in (_without_asked_tail(t, st, q_stems) for t, st, _ in _candidates(qtype, sentence))
        if not _restates_question(c[0], question.figures, q_stems)
    ]
    candidates = [c for c in candidates if not _glued_to_name(c[0], question.names)]
    candidates = _of_the_asked_type(question, sentence, candidates, kinds)
    candidates = _under_governing_verb(question, sentence, candidates)
    candidates = _of_the_compared(sentence, question.names, candidates)
    if candidates and qtype.kind is AnswerType.DATE:
        candidates = _life_event(question.text, sentence, candidates)
    return candidates


def _of_the_asked_type(
    question: ParsedQuestion, sentence: str, candidates: list[tuple[str, int, int]], kinds: NameKinds | None
) -> list[tuple[str, int, int]]:
    """The candidates a question of this type can take: names of the asked kind, figures of the asked
    quantity, and, when the evidence says what each name is, things it calls the asked noun."""
    qtype = question.type
    if qtype.kind in (AnswerType.NAME, AnswerType.THING, AnswerType.PLACE):
        candidates = [n for c in candidates if (n := _a_name_of_the_asked_kind(question, *c)) is not None]
    if qtype.kind is AnswerType.QUANTITY:
        candidates = _of_the_asked_quantity(question, sentence, candidates)
    if kinds is not None and qtype.kind is AnswerType.THING and qtype.noun:
        candidates = [c for c in candidates if _called_the_asked_kind(c[0], qtype.noun.split()[-1], kinds)]
    return candidates


def _restates_question(text: str, asked: frozenset[float], q_stems: frozenset[str]) -> bool:
    """A candidate restating the question ("60 mm" of "at 60 mm of substrate") is no answer: its
    figures are all the question's own, or, without figures, its words all are."""
    found = figures(text)
    if found:
        return set(found) <= asked
    return _inside_question(text, q_stems)


def _best_phrase(
    question: ParsedQuestion,
    sentence: str,
    q_stems: frozenset[str],
    candidates: list[tuple[str, int, int]],
    vectors: Vectors | None,
) -> Phrase | None:
    """The candidate standing best as the answer: near the question's words, like its noun, and in a
    clause that names its things; None when every candidate is of another unit or category."""
    qtype = question.type
    anchors = _anchor_positions(sentence, q_stems)
    similarity = _noun_similarity(qtype, [c[0] for c in candidates], vectors)
    best: Phrase | None = None
    best_key = 0.0
    for (text, start, end), sim in zip(candidates, similarity, strict=True):
        if not _fits_the_asked(question, sentence, (text, start, end), sim, q_stems):
            continue
        score = _phrase_score(sentence, anchors, (text, start, end), sim)
        # The clause a candidate stands in says whose value it is: in "its total population is 17,289
        # (of which the population of Pilzno amounts to 4,411, …)" the town's figure is the one whose
        # clause names the town. Only the choice weighs it; the score keeps its meaning for thresholds.
        key = score + TUNING.phrasing.clause_weight * _clause_share(sentence, start, end, q_stems)
        if best is None or key > best_key:
            best, best_key = Phrase(text=text, start=start, end=end, score=round(score, 6)), key
    if best is not None and qtype.kind is AnswerType.QUANTITY:
        text, start, end = _without_asked_verb(question, (best.text, best.start, best.end))
        best = dataclasses.replace(best, text=text, end=end)
    return best


def _fits_the_asked(
    question: ParsedQuestion,
    sentence: str,
    candidate: tuple[str, int, int],
    sim: float | None,
    q_stems: frozenset[str],
) -> bool:
    """Whether a candidate measures the asked unit and, for a category question, names a category."""
    qtype = question.type
    text, start, end = candidate
    if (
        qtype.kind is AnswerType.QUANTITY
        and sim is not None
        and sim < TUNING.phrasing.min_unit_similarity
        and content_words(text)
    ):
        return False  # "14 green roofs" counts roofs, not the spider species asked about
    if qtype.entity is Entity.CATEGORY and not _of_the_category(sentence, text, start, end, q_stems):
        return False  # "became" of "he became a poet" is what he did, not his profession
    return True


def _phrase_score(sentence: str, anchors: list[int], candidate: tuple[str, int, int], sim: float | None) -> float:
    """How near a candidate stands to the question's words, blended with its likeness to the asked
    noun, plus a little for a fuller name ("Blitzen Trapper" over "American")."""
    text, start, end = candidate
    distance = min((abs(a - start) if a < start else abs(a - end) for a in anchors), default=len(sentence))
    near = max(0.0, 1.0 - _words_between(sentence, distance) / TUNING.phrasing.proximity_words)
    score = near if sim is None else (1 - TUNING.phrasing.w_noun) * near + TUNING.phrasing.w_noun * sim
    return score + TUNING.phrasing.length_bonus * min(len(text.split()) - 1, 2)


def _a_name_of_the_asked_kind(question: ParsedQuestion, text: str, start: int, end: int) -> tuple[str, int, int] | None:
    """A name candidate as an answer, or None when it is no name of the thing asked: a pointer into the
    text or to a cited work ("Table 3", "Section 5", "BIBREF10": where a value stands, not the value; one
    run on after a name is cut off it: "SentEval [BIBREF6]"), a section heading ("INTRODUCTION"), an
    evaluation measure ("BLEU", "ROUGE-L") unless a measure is asked for, or an abbreviation of the
    question's own words ("RC" of "reading comprehension", "ASR" of "speech recognition")."""
    tokens = text.split()
    while tokens and _PLACEHOLDER.fullmatch(tokens[-1]):
        tokens.pop()
    if not tokens or _POINTER.fullmatch(text) or any(_PLACEHOLDER.fullmatch(t) for t in tokens):
        return None
    kept = " ".join(tokens)
    if kept.isupper() and kept.lower() in KNOWN_HEADINGS:
        return None
    noun = question.type.noun.split()
    if _measure_name(kept) and not (noun and noun[-1].lower() in METRIC_NOUNS):
        return None
    if _abbreviates(kept, question):
        return None
    return kept, start, start + len(kept)


def _of_the_asked_quantity(
    question: ParsedQuestion, sentence: str, candidates: list[tuple[str, int, int]]
) -> list[tuple[str, int, int]]:
    """The figures that give what a quantity question asks: a change for a question on a change, and
    only then (a margin, "from 100 kW to 62 kW"; "over 92 summer days" says nothing of by how much a
    roof cut the cooling power, nor "did not cut it by 38 percent" of how much it did); a count of the
    asked things, not of others ("699 households" is no population)."""
    qtype = question.type
    if _asks_a_change(question):
        candidates = _changes_stated(sentence, candidates)
    else:
        candidates = [c for c in candidates if not _margin(sentence, c[1])]
    nouns = [stem(w) for w in qtype.noun.split()]
    if qtype.counted and nouns:
        return [c for c in candidates if not _counts_another(sentence, c[0], c[1], qtype.noun.split())]
    if nouns[-1:] == [_POPULATION]:
        return [c for c in candidates if not _counts_other_than_people(sentence, c[0], c[1])]
    return candidates


def _without_asked_verb(question: ParsedQuestion, candidate: tuple[str, int, int]) -> tuple[str, int, int]:
    """A count without the word after it when that word is the question's own verb, not its counted
    noun: "only 12 report agreement" answers "how many papers report agreement" with "12", not "12
    report"."""
    text, start, _ = candidate
    head, _, last = text.rpartition(" ")
    if not head or " " in head or not figures(head) or stem(last.lower()) != _verb_after_noun(question):
        return candidate
    return head, start, start + len(head)


def _verb_after_noun(question: ParsedQuestion) -> str | None:
    """The stem of the word right after the counted noun, its verb: "report" of "how many papers report"."""
    if not question.type.counted:
        return None
    noun = question.type.noun.split()
    # "how many of the 44 papers report …": the counted noun after "of the".
    counted = re.escape(noun[-1]) if noun else r"(?<=many of the )(?:\d+ )?[a-z-]+"
    found = re.search(rf"\b{counted}\s+([a-z]+)\b", question.text, re.I)
    return stem(found.group(1).lower()) if found else None


def _changes_stated(sentence: str, candidates: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """The candidates stating a change, a change from one figure to another taken whole, none denied;
    a figure's plus sign kept with it ("+0.6 points")."""
    spans = _from_to(sentence)
    candidates = [c for c in candidates if not any(s <= c[1] < e for _, s, e in spans)]
    candidates = [c for c in [*candidates, *spans] if _states_a_change(sentence, c[1], c[2])]
    kept = [c for c in candidates if not _denied_change(sentence, c[1], c[2])]
    return [(f"+{t}", s - 1, e) if _signed(sentence, s) else (t, s, e) for t, s, e in kept]


def _signed(sentence: str, start: int) -> bool:
    """A plus sign written right before the figure at ``start`` (not a "+" joining two names: "A+B")."""
    return start > 0 and sentence[start - 1] == "+" and (start == 1 or not sentence[start - 2].isalnum())


def _from_to(sentence: str) -> list[tuple[str, int, int]]:
    """The spans stating a change from one figure to another in a clause saying a change: "fell from
    100 kW to 62 kW", "rose from 71.2 to 75.0"."""
    return [
        (m.group(0), m.start(), m.end())
        for m in _FROM_TO.finditer(sentence)
        if _CHANGING.search(_clause(sentence, m.start(), m.end()))
    ]


# A figure and the unit after it, if the word after it is no function word ("75.0 with" has none).
_FIGURE_WITH_UNIT = (
    r"[$€£¥₹]?\d[\d,]*(?:\.\d+)?(?:\s?(?:%|percent\b|per\s+cent\b|"
    rf"(?!(?:{'|'.join(map(re.escape, sorted(stopwords())))})\b)[A-Za-z°µ][\w/²³°]*))?"
)
_FROM_TO = re.compile(rf"\bfrom\s+{_FIGURE_WITH_UNIT}\s+to\s+{_FIGURE_WITH_UNIT}")


def _denied_change(sentence: str, start: int, end: int) -> bool:
    """The clause of the figure denies the change it would state: "did not cut the load by 38 percent"."""
    clause = _clause(sentence, start, end)
    changing = {lemma(w) for w in words(clause) if _CHANGING.match(w)}
    return bool(changing & negated_terms(clause))


def _asks_a_change(question: ParsedQuestion) -> bool:
    """The question asks by how much a thing changed or differs ("By how much does X improve?")."""
    return bool(_CHANGE_ASKED.search(question.text))


def _margin(sentence: str, start: int) -> bool:
    """The figure at ``start`` is a margin, not the value: "by" stands between it and a verb or word of
    comparison in its clause ("outperforms the best model *by* 2% EM and over 1.5% F1")."""
    before = sentence[_clause_start(sentence, start) : start]
    compared = list(_COMPARING.finditer(before))
    return bool(compared) and bool(re.search(r"\bby\b", before[compared[-1].end() :]))


def _states_a_change(sentence: str, start: int, end: int) -> bool:
    """The figure at ``start``–``end`` states by how much a thing changed or differs: a margin ("by 74
    percent", "passed by 38 votes to 9"), a figure with a word of comparison after it ("3 °C lower", "a
    40% reduction") or a change named before it ("a gain of 0.6 points", "+0.6 points": a plus sign
    says a gain), or a share in a clause saying a change ("cooling electricity fell 38 percent")."""
    if _margin(sentence, start) or _COMPARED_AFTER.match(sentence, end) or _BY.search(sentence, 0, start):
        return True
    if _CHANGE_OF.search(sentence, 0, start) or _signed(sentence, start):
        return True
    clause = _clause(sentence, start, end)
    stated = re.search(r"%|\bper\s*cent\b", sentence[start:end]) or _FROM_TO.fullmatch(sentence, start, end)
    return bool(stated) and bool(_CHANGING.search(clause))


def _counts_another(sentence: str, text: str, start: int, noun: list[str]) -> bool:
    """A count followed by a plural of another noun counts that ("15,000 annotated Facebook *posts*" for
    "how many annotators"): the words after the figure, up to a function word or a mark, hold no form
    of a word of the counted ``noun`` and end in a plural."""
    figure = _FIGURE.match(text)
    if figure is None:
        return False
    phrase = []
    for word in re.findall(r"[A-Za-z][\w-]*|[^\sA-Za-z]", sentence[start + figure.end() :])[:4]:
        if not word[0].isalpha() or word.lower() in stopwords():
            break
        phrase.append(word.lower())
    # Whole words, not stems: "annotated" is no form of "annotators" (both "annot").
    singular = [n.lower().removesuffix("s") for n in noun]
    if not phrase or any(w.removesuffix("s") == n or form_of(w, n) for w in phrase for n in singular):
        return False
    # One of a thing is written in the singular: "1 industry research manager" counts managers.
    return (phrase[-1].endswith("s") and not phrase[-1].endswith("ss")) or figure.group() in ("1", "one")


def _whole_counts(qtype: QuestionType, sentence: str, found: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """For a count of whole things, the figures without a fraction: a population of 3,559 people, never
    of 40.159366 (but of 1.2 million)."""
    if not _counts_whole(qtype):
        return found
    return [(t, st, e) for t, st, e in found if not _fractional(t) or _SCALE_WORD.match(sentence, e)]


def _counts_whole(qtype: QuestionType) -> bool:
    """The question asks for a count of whole things ("the population of", "the number of"), not an
    average of one ("the average number of words per sentence")."""
    words = qtype.noun.lower().split()
    return bool(words) and words[-1] in WHOLE_COUNT_NOUNS and not any(w in AVERAGING for w in words)


def _fractional(text: str) -> bool:
    """A figure with a fractional part and no scale after it: "40.159366", not "1.2 million" or "3.5K"."""
    figure = _FIGURE.search(text)
    if figure is None or not re.search(r"\.\d", figure.group()):
        return False
    return not re.search(r"[KMBk]|bn", figure.group()) and not _SCALE_WORD.match(text, figure.end())


def _counts_other_than_people(sentence: str, text: str, start: int) -> bool:
    """A figure with a word after it that names no people counts that, not a population: "699
    households", "255 male" (a part of it), unlike "1,791 people", "1.2 million" or "681 at the 2010
    census"."""
    figure = _FIGURE.match(text)
    if figure is None:
        return False
    after = re.match(r"\s+([A-Za-z][\w-]*)", sentence[start + figure.end() :])
    if after is None or after.group(1).lower() in stopwords() or _SCALE_WORD.match(after.group(0)):
        return False
    return after.group(1).lower() not in PEOPLE_WORDS


_SCALE_WORD = re.compile(r"\s*(?:thousand|million|billion|trillion|crore|lakh)\b", re.IGNORECASE)


def _called_the_asked_kind(text: str, noun: str, kinds: NameKinds) -> bool:
    """``text`` is not called only another kind of thing than ``noun`` names: "EGL" is no answer to
    "which dataset" where the evidence writes "the EGL approach" and never "EGL dataset". A name given
    with its noun ("the Wren corpus") is of that noun's kind."""
    asked = kind_of_noun(noun)
    if asked is None:
        return True
    own = kind_of_noun(text.split()[-1]) if len(text.split()) > 1 else None
    called = frozenset({own}) if own else kinds.called(text)
    return not called or asked in called


def _measure_name(text: str) -> bool:
    """ "BLEU", "ROUGE-L", "F1-score", "Hits@10", "WER 100": a name of an evaluation measure."""
    head = re.split(r"[-@\s]", text, maxsplit=1)[0].upper()
    return head in METRIC_NAMES or text.upper() in METRIC_NAMES


def _abbreviates(text: str, question: ParsedQuestion) -> bool:
    """An abbreviation in capitals standing for a run of the question's words, or for one with a word
    before it the question leaves out ("ASR" for the question's "speech recognition")."""
    if not _ACRONYM.fullmatch(text):
        return False
    letters = text.lower()
    return letters in question.abbreviations or (len(letters) >= 3 and letters[1:] in question.abbreviations)


def _life_event(question: str, sentence: str, candidates: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """A life span in brackets ("(15 May 1885 – 8 July 1955)", "(c. 1650 – 1701)") gives the birth
    first and the death second, and answers only a question on a birth or a death: the date nearest
    the question's words would answer "When did he die?" with his birth, "until 1762" beside the span
    would answer his birth date, and his birth is no answer to when he played or built. A span in
    running text ("served from 1990 to 1995") is no life."""
    span = _life_span(sentence, candidates)
    if span is None:
        return candidates
    which = 0 if _BIRTH.search(question) else 1 if _DEATH.search(question) else None
    return [span[which]] if which is not None else [c for c in candidates if c not in span]


def _life_span(
    sentence: str, candidates: list[tuple[str, int, int]]
) -> tuple[tuple[str, int, int], tuple[str, int, int]] | None:
    ordered = sorted(candidates, key=lambda c: c[1])
    for first, second in zip(ordered, ordered[1:], strict=False):
        if (
            _SPAN_JOIN.fullmatch(sentence[first[2] : second[1]])
            and _SPAN_OPEN.search(sentence, 0, first[1])
            and _SPAN_CLOSE.match(sentence, second[2])
        ):
            return first, second
    return None


def dates(text: str) -> list[str]:
    """The whole dates a text states ("15 May 1885", "May 15, 1885", "May 1885", "1885")."""
    return [t for t, _, _ in _spans(_DATE, text)]


def _clause_share(sentence: str, start: int, end: int, q_stems: frozenset[str]) -> float:
    """The share of the question's content words found in the clause around ``sentence[start:end]``."""
    if not q_stems:
        return 0.0
    clause = frozenset(content_stems(_clause(sentence, start, end)))
    found = {s for s in q_stems if matched(s, clause)}
    return len(found) / len(q_stems)


def _of_the_compared(
    sentence: str, names: tuple[str, ...], candidates: list[tuple[str, int, int]]
) -> list[tuple[str, int, int]]:
    """In a comparison, the figures on the side of "than" naming the question's things: "Harbor has
    fewer samples (403) than Alder does (4,500)" gives Harbor's figure before it and Alder's after it,
    so a question naming Alder alone is not answered by 403."""
    than = _THAN.search(sentence)
    if than is None or not names:
        return candidates
    before, after = (
        any(holds(part, name) for name in names) for part in (sentence[: than.start()], sentence[than.end() :])
    )
    if before == after:
        return candidates
    return [c for c in candidates if (c[1] >= than.end()) == after]


def _clause(sentence: str, start: int, end: int) -> str:
    """The clause around ``sentence[start:end]`` (bounded by brackets, semicolons, dashes and commas
    that separate no thousands)."""
    right = next((m.start() for m in _CLAUSE_BREAK.finditer(sentence, end)), len(sentence))
    return sentence[_clause_start(sentence, start) : right]


def _clause_start(sentence: str, start: int) -> int:
    """Where the clause holding ``sentence[start]`` begins."""
    return max((m.end() for m in _CLAUSE_BREAK.finditer(sentence, 0, start)), default=0)


def _under_governing_verb(
    question: ParsedQuestion, sentence: str, candidates: list[tuple[str, int, int]]
) -> list[tuple[str, int, int]]:
    """The candidates whose clause says the verbs the question puts its action under, when some
    clause does: "How much was the city ordered to pay?" over "The city agreed to pay 49 percent of the
    costs, and the court ordered it to pay $2 million" is answered by the ordered $2 million."""
    if not question.governing:
        return candidates
    under = [
        c
        for c in candidates
        if all(any(form_of(w, v) for w in words(_clause(sentence, c[1], c[2]))) for v in question.governing)
    ]
    return under or candidates


def _without_asked_tail(text: str, start: int, q_stems: frozenset[str]) -> tuple[str, int, int]:
    """ "Houghton County, Michigan, Dunn" -> "Houghton County, Michigan": a comma-joined part that only
    repeats the question's words is the subject running on, not part of the answer."""
    parts = text.split(", ")
    while len(parts) > 1 and _inside_question(parts[-1], q_stems):
        parts.pop()
    kept = ", ".join(parts)
    return kept, start, start + len(kept)


def _of_the_category(sentence: str, text: str, start: int, end: int, q_stems: frozenset[str]) -> bool:
    """``text`` names a kind the subject is of (``category_value``), not a short lower-case word inside a
    name ("ni" of "Parokya ni San Vicente", "del" of "Dupax del Sur Church") nor a kind standing right before
    another's name: "actress" of "Bergman was married to actress Christine Ebersole" is hers, not his
    ("the comedian Peter Bergman" names the one asked of). A word taking an article as its object is a
    verb ("to *change* the medium"), and an -ing word before "of" an action ("the *passing* of")."""
    if not category_value(text) or _TAKES_OBJECT.match(sentence, end):
        return False
    if text.endswith("ing") and _ACTION_OF.match(sentence, end):
        return False
    before = sentence[:start].split()
    name = _NAME.match(sentence, end + 1) if sentence[end : end + 1] == " " else None
    if name and len(before) > 1 and before[-1][:1].isupper() and len(text) <= TUNING.phrasing.max_particle_letters:
        return False
    return name is None or any(matched(s, q_stems) for s in content_stems(name.group(0)))


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
        return _dates_hedged(sentence)
    if qtype.kind is AnswerType.QUANTITY:
        return [_hedged(sentence, *span) for span in _quantities(qtype, sentence)]
    return _names(qtype, sentence)


def _quantities(qtype: QuestionType, sentence: str) -> list[tuple[str, int, int]]:
    """The figures of the sentence that could answer a "how many / how much" question."""
    if qtype.measure == "frequency":  # "how often": "twice a year", "every 3 months", "daily"
        return _spans(_FREQUENCY, sentence)
    if qtype.measure:  # "how long / deep": a measurement of that kind, never a bare figure
        units = MEASURE_UNITS[qtype.measure]
        found = [] if qtype.counted else [(q.text, q.start, q.end) for q in quantities(sentence)]
        return [(t, st, e) for t, st, e in found if any(q.unit in units for q in quantities(t))]
    found = _of_the_asked_noun(qtype, sentence, _figures(qtype, sentence))
    nouns = [stem(w) for w in qtype.noun.split()]
    found = [_counted_noun(sentence, t, st, e, nouns) for t, st, e in found if not _a_list_number(sentence, st, e)]
    if qtype.counted and nouns:
        found += _spelled_counts(sentence, nouns)
    return [(t, s, e) for t, s, e in found if _answers_as_figure(qtype, sentence, t, s)]


def _answers_as_figure(qtype: QuestionType, sentence: str, text: str, start: int) -> bool:
    """A figure stated as one, or following the asked noun, or a study's size where a count is asked."""
    noun = stem(qtype.noun.split()[-1]) if qtype.noun else ""
    return bool(
        _stated_figure(text)
        or _after_noun(sentence, start, noun)
        or (qtype.counted and _SAMPLE_SIZE.search(sentence[:start]))
    )


def _figures(qtype: QuestionType, sentence: str) -> list[tuple[str, int, int]]:
    """Measurements ("60 to 80 mm", "2 °C": they answer "how much", not "how many") and bare numbers,
    widened to their currency and rate, whole counts where whole things are counted, no year."""
    found = [] if qtype.counted else [(q.text, q.start, q.end) for q in quantities(sentence)]
    covered = [(s, e) for _, s, e in found]
    found += [
        (t, s, s + len(t))
        for t, s, e in ((_trim_unit(t), s, e) for t, s, e in _spans(_NUMBER, sentence))
        if not any(s < ce and cs < e for cs, ce in covered) and not _YEAR_ONLY.fullmatch(t.strip())
    ]
    found = _whole_counts(qtype, sentence, [_widen(sentence, st, e) for _, st, e in found])
    return [(t, st, e) for t, st, e in found if not _year_modifier(sentence, t, st)]


def _of_the_asked_noun(
    qtype: QuestionType, sentence: str, found: list[tuple[str, int, int]]
) -> list[tuple[str, int, int]]:
    """The figures that can be an amount of what the question counts or prices."""
    noun = stem(qtype.noun.split()[-1]) if qtype.noun else ""
    if noun in _COUNT_STEMS:  # a population is no share, nor a rate ("2,470 persons per km²")
        return [c for c in found if not any(q.unit == "%" for q in quantities(c[0])) and not _RATE.search(c[0])]
    if noun and qtype.counted:  # "how many GPUs" counts GPUs: "65%" (faster) is a share of something
        return [c for c in found if not any(q.unit == "%" for q in quantities(c[0]))]
    return _of_a_share_or_price(noun, sentence, found)


def _of_a_share_or_price(noun: str, sentence: str, found: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """A share is a percentage, a fraction or a part of a whole, never a bare count ("41 percent", "19 of
    46"); a price is an amount of money ("€45 per m2", "120 dollars"); other figures as found."""
    if noun in _SHARE_STEMS:
        return [(t, st, e) for t, st, e in found if _SHARE.search(sentence[st : e + TUNING.phrasing.share_tail_chars])]
    if noun in _MONEY_STEMS:
        return [(t, st, e) for t, st, e in found if CURRENCY.search(sentence[max(0, st - 4) : e])]
    return found


def _names(qtype: QuestionType, sentence: str) -> list[tuple[str, int, int]]:
    """The names, places, category words or identifiers of the sentence that could answer the question."""
    names = _proper_names(qtype, sentence)
    if qtype.kind is AnswerType.NAME:
        return names
    if qtype.kind is AnswerType.PLACE:
        return [
            (t, s, e)
            for t, s, e in names
            if _LOCATIVE.search(sentence[max(0, s - 40) : s]) and not _describes_noun(sentence, s, e)
        ]
    if qtype.entity is Entity.CATEGORY:
        return _category_words(qtype, sentence)
    # A name followed by the asked-for noun is named with it: "the *Standard tier*", "the *Pro plan*".
    head = stem(qtype.noun.split()[-1]) if qtype.noun else ""
    names = [_with_noun(sentence, t, st, e, head) for t, st, e in names]
    # Products, models and methods are often named in lower case with digits or underscores
    # ("claude-3-haiku-20240307", "word2vec", "max_tokens"); a plain lower-case word is no name.
    covered = [(s, e) for _, s, e in names]
    return names + [
        (t, s, e) for t, s, e in _spans(_IDENTIFIER, sentence) if not any(s < ce and cs < e for cs, ce in covered)
    ]


def _proper_names(qtype: QuestionType, sentence: str) -> list[tuple[str, int, int]]:
    """Capitalised runs that name one thing: not glued to a word before them, no modifier of another noun
    (unless a thing is asked), no event word, no list, no function word ("You" of "Crazy for You")."""
    names = [
        (t, s, e)
        for t, s, e in _spans(_NAME, sentence)
        if (s > 0 or _proper_at_start(t))
        and not (s > 0 and sentence[s - 1].isalnum())  # "Legacy" out of "StrengthsLegacy" is no name
        and not (qtype.kind is not AnswerType.THING and _modifier(t, sentence[e:]))
        and not _EVENT_WORD.match(t.split()[0])
    ]
    return [(t, s, e) for t, s, e in names if _one_name(t)]


def _one_name(text: str) -> bool:
    """Not a list (too many words), a capitalised function word ("You", "There's") or glued words."""
    return (
        len(text.split()) <= TUNING.phrasing.max_name_words
        and re.sub(r"['’]s$", "", text.lower()) not in stopwords()
        and not any(_GLUED.search(w) for w in text.split())
    )


def _category_words(qtype: QuestionType, sentence: str) -> list[tuple[str, int, int]]:
    """ "What sport": "football", a common noun in lower case. A phrase holding the asked noun names the
    category, not one of its members ("a major sport", "the Vestri sport club", "the most beloved sports")."""
    kind = stem(qtype.noun.split()[-1]) if qtype.noun else ""
    return [
        (t, s, e)
        for t, s, e in _noun_phrases(sentence)
        if t.islower() and not any(stem(w) == kind for w in content_words(t))
    ]


_FREQUENCY = re.compile(
    r"\b(?:(?:once|twice|thrice|(?:\d+|one|two|three|four|five|six|ten|several|many) times)\s+(?:a|an|per|each|every)"
    r"\s+[a-z]+|every\s+(?:\d+\s+|other\s+|few\s+)?[a-z]+s?|(?:daily|weekly|fortnightly|monthly|quarterly|yearly|"
    r"annually|hourly|biannually))\b",
    re.IGNORECASE,
)


# Nouns counted in units of themselves ("a population of 3,559"): a percentage is a share of them.
_COUNT_STEMS = frozenset(stem(n) for n in COUNT_NOUNS)
_POPULATION = stem("population")
# Nouns naming a measure of a thing ("size", "length"): a figure they introduce measures, not counts.
_QUANTITY_STEMS = frozenset(stem(n) for n in QUANTITY_NOUNS)
# Nouns answered by an amount of money, and the marks of one.
_MONEY_STEMS = frozenset(stem(n) for n in MONEY_NOUNS)
# Nouns asking what part of a whole: "41 percent", "0.41", "19 of 46", "19 out of 46 roofs".
_SHARE_STEMS = frozenset(stem(n) for n in ("share", "percentage", "proportion", "fraction"))
_SHARE = re.compile(r"%|\bper\s*cent\b|percent|^0?\.\d|^\d[\d,.]*\s+(?:out\s+)?of\s+(?:the\s+)?\d", re.I)


def _widen(sentence: str, start: int, end: int) -> tuple[str, int, int]:
    """A figure with its currency sign and a "per <unit>" rate: "€45 per m2", not "45 per". A figure
    between dollar signs is a paper's inline maths ("$19,300$ tweets"), not dollars."""
    if start > 0 and sentence[start - 1] in "$€£¥₹" and not _TEX_MATH.match(sentence, start - 1):
        start -= 1
    rate = re.match(r"(?:\s+per)?\s+(?:[a-zA-Z][\w²³/]*)", sentence[end:]) if sentence[:end].endswith("per") else None
    if rate is None:
        rate = re.match(r"\s+per\s+[a-zA-Z][\w²³/]*", sentence[end:])
    if rate:
        end += rate.end()
    return sentence[start:end], start, end


_RATE = re.compile(r"\bper\b|/")
_TEX_MATH = re.compile(r"\$[^$\s][^$]{0,40}\$")


def _describes_noun(sentence: str, start: int, end: int) -> bool:
    """ "the Maine bar", "the Boston office": a place name between an article and a common noun
    describes the noun."""
    following = re.match(r"\s+([a-z][\w-]*)", sentence[end:])
    article = re.search(r"\bthe\s+$", sentence[max(0, start - 5) : start], re.IGNORECASE)
    return bool(article and following) and following.group(1) not in stopwords()


def _year_modifier(sentence: str, text: str, start: int) -> bool:
    """A year before a noun ("2000 census") after a determiner or before a singular noun: it dates
    the noun, it does not count it ("2000 people", "1500 families" are counts)."""
    if not _YEAR_BEFORE_NOUN.fullmatch(text):
        return False
    noun = text.split()[-1]
    singular = not noun.endswith("s") and noun not in _IRREGULAR_PLURALS
    return singular or bool(_DETERMINER_BEFORE.search(sentence[max(0, start - 12) : start]))


def _trim_unit(text: str) -> str:
    """ "5,000 at" -> "5,000": the word after a number is its unit only when it is not a function word."""
    text = text.rstrip(" ,.")
    head, _, last = text.rpartition(" ")
    return head if head and last.lower() in stopwords() else text


def _after_noun(sentence: str, start: int, noun: str) -> bool:
    """A bare integer the asked noun introduces ("the township population was 428") is its value; not
    when a measure of that noun stands between them ("LSTM layer *size* (16, 32, 64)" gives sizes of a
    layer, not a number of layers)."""
    before = [stem(w.lower()) for w in _WORD.findall(sentence[max(0, start - 40) : start])[-3:]]
    if not noun or noun not in before or _per_noun(sentence[:start], noun):
        return False
    between = before[len(before) - before[::-1].index(noun) :]
    return not any(w in _QUANTITY_STEMS for w in between)


def _counted_noun(sentence: str, text: str, start: int, end: int, nouns: list[str]) -> tuple[str, int, int]:
    """A figure with the asked noun after it counts it, and is given with all of it: "380.5M citation
    links" for "how many citation links", "8 GPUs" for "how many GPUs" (a capitalised unit is not read
    as one by ``_NUMBER``)."""
    figure = _FIGURE.match(text)
    if nouns and figure is not None:
        words = re.match(rf"(?:\s+[A-Za-z][\w-]*){{{len(nouns)}}}", sentence[start + figure.end() :])
        if words and [stem(w.lower()) for w in words.group(0).split()] == nouns:
            end = start + figure.end() + words.end()
            return sentence[start:end], start, end
    noun = nouns[-1] if nouns else ""
    after = re.match(r"\s+([A-Za-z][\w-]*)", sentence[end:])
    if noun and re.fullmatch(r"\d+", text.strip()) and after and stem(after.group(1).lower()) == noun:
        end += after.end()
        return sentence[start:end], start, end
    return text, start, end


def _glued_to_name(text: str, names: tuple[str, ...]) -> bool:
    """A name of the question run into the word before it ("SonnetClaude" where a table lost the space
    between "Claude 3.5 Sonnet" and "Claude 3 Opus"): a run of words, not one name."""
    return any(re.search(rf"[a-z]{re.escape(name)}\b", text) for name in names if name[:1].isupper())


# Numbers going on a bracketed series of identifiers: "5" of "(P2, 5, 10 and 22)" names participant P5.
_ID_SERIES = re.compile(r"\(\s*[A-Z]{1,3}\d+(?:[–-]\d+)?(?:\s*(?:,|and|&)\s*\d+(?:[–-]\d+)?)*\s*(?:,|and|&)\s*$")


def _a_list_number(sentence: str, start: int, end: int) -> bool:
    """A list's number ("1) supporting …") or one going on a series of identifiers ("(P2, 5, 10)")."""
    return _enumerator(sentence, end) or bool(_ID_SERIES.search(sentence[:start]))


def _enumerator(sentence: str, end: int) -> bool:
    """A list's number ("1) supporting …"): a bracket closes after it that no bracket before it opened
    (unlike "computer science (7.2%)")."""
    before = sentence[:end]
    return sentence[end : end + 1] == ")" and before.count("(") <= before.count(")")


# A count spelled out before the counted noun ("three components"); "one" is as often a pronoun.
_SPELLED_COUNT = re.compile(
    r"\b(?:" + "|".join(w for w, v in NUMBER_WORDS.items() if v > 1 and w not in ("half", "twice", "double")) + r")\b",
    re.I,
)


def _spelled_counts(sentence: str, nouns: list[str]) -> list[tuple[str, int, int]]:
    """Spelled-out counts of the asked noun, given with it: "three components" for "how many components"."""
    out = []
    for m in _SPELLED_COUNT.finditer(sentence):
        words = re.match(rf"(?:\s+[A-Za-z][\w-]*){{{len(nouns)}}}", sentence[m.end() :])
        if words and [stem(w.lower()) for w in words.group(0).split()] == nouns:
            end = m.end() + words.end()
            out.append((sentence[m.start() : end], m.start(), end))
    return out


# A figure and its magnitude, at the start of a candidate.
_FIGURE = re.compile(r"[$€£¥₹]?\d[\d,]*(?:\.\d+)?(?:(?:[KMB]|bn|k)(?![A-Za-z]))?")
# A study's size as papers print it ("a lab study (N=10)", "n = 24"): the count of what it studied.
_SAMPLE_SIZE = re.compile(r"\b[Nn]\s*=\s*$")
# Words making a noun a rate's denominator: "3 documents per sample".
_DISTRIBUTIVES = frozenset(("per", "each", "every"))


def _per_noun(before: str, noun: str) -> bool:
    """The asked noun's last mention before a figure follows "per", "each" or "every": "documents per
    sample (which is 1)" gives a number for each sample, not a number of samples."""
    said = [w.lower() for w in _WORD.findall(before)]
    stems = [stem(w) for w in said]
    at = len(stems) - 1 - stems[::-1].index(noun)
    return at > 0 and said[at - 1] in _DISTRIBUTIVES


def _stated_figure(text: str) -> bool:
    """A figure that can be an answer: not a bare integer ("12"), which in running text is more often a
    reference, list or footnote number than a quantity; "3,559", "1.5" and "47 species" pass."""
    return not re.fullmatch(r"\d+", text.strip())


_DEMONYM = re.compile(r"^[A-Z][a-z]+(?:an|ese|ish|ic|i|ch)$")


def _modifier(text: str, after: str) -> bool:
    """ "American" in "American rock band", "Hindi" in "Hindi movie": a nationality or language before
    a noun describes the answer; it is not the name of a person or place asked for. For a "what
    <noun>" question it may be the answer ("a *Republican* legislator" for a party, "a *Hindi* movie"
    for a language): there the question's noun chooses among the candidates."""
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


def _dates_hedged(sentence: str) -> list[tuple[str, int, int]]:
    return [_hedged(sentence, *span) for span in _spans(_DATE, sentence)]


def _hedged(sentence: str, text: str, start: int, end: int) -> tuple[str, int, int]:
    """A date or a figure with the hedge or bound its sentence puts on it: "about 1820" of "built about
    1820", "roughly 300 hours", "more than 1,000 people" (what the source is not sure of, or bounds, the
    answer does not state as exact)."""
    if text[:1].isalpha():  # "every 3 months", "twice a year": a frequency is no figure to hedge
        return (text, start, end)
    hedge = _HEDGE.search(sentence, 0, start)
    return (sentence[hedge.start() : end], hedge.start(), end) if hedge else (text, start, end)


# A hedge ("about 1820", "roughly 300 hours") or a bound ("more than 1,000 people", "up to 49%") on a value.
_HEDGE = re.compile(
    r"\b(?:about|around|circa|approximately|roughly|nearly|almost|c\.|ca\.|(?:more|fewer|less) than|"
    r"at (?:least|most)|up to|(?:just )?(?:over|under))\s+$",
    re.IGNORECASE,
)


def _spans(pattern: re.Pattern[str], sentence: str) -> list[tuple[str, int, int]]:
    out = []
    for m in pattern.finditer(sentence):
        text = m.group(0).strip().rstrip(".,;:")
        if text:
            start = m.start() + m.group(0).index(text)
            out.append((text, start, start + len(text)))
    return out


def _noun_phrases(sentence: str) -> list[tuple[str, int, int]]:
    """Runs of up to TUNING.phrasing.max_phrase_words content words, cut at stopwords and punctuation."""
    out: list[tuple[str, int, int]] = []
    run: list[re.Match[str]] = []
    stops = stopwords()

    def flush() -> None:
        # Every stretch of up to TUNING.phrasing.max_phrase_words words of the run: "American football" out of "former
        # American football linebacker" is a candidate too, and the question's noun picks among them.
        for i in range(len(run)):
            for j in range(i, min(len(run), i + TUNING.phrasing.max_phrase_words)):
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
    counted = stem(qtype.noun.split()[-1]) in _COUNT_STEMS
    # A bare figure of a noun counted in units of itself ("a population of 4,411") has no unit to
    # compare with the noun: the embedder's cosine to "4,411" is noise, so only its place counts.
    return [
        None if counted and not content_words(text) else float(x)
        for text, x in zip(texts, np.clip(matrix @ noun, 0.0, 1.0), strict=True)
    ]
