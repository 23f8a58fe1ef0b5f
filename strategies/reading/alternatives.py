"""Alternative questions: "Which scores higher: A or B?", "Which is smaller between A and B?".

Such a question is answered by naming one of its alternatives, never by a figure or a sentence: a
reader asking which of two things is larger wants the thing. ``alternatives_of`` reads the two
alternatives (each as the question gives it, with its source, "CorvidBERT as reported in the CorvidBERT
paper", and as an answer names it, "CorvidBERT"), the comparative deciding between them and its
direction, and, for each alternative, the question asking its value of the measure ("How many
participants does CiteSee's field deployment have?"), which the readers answer like any other.

"better"/"worse" say nothing about the value when the measure is one where lower is better
(perplexity, error, latency), nor "more useful" about any one figure: the direction is then unknown
and the comparison abstains.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from .lexicon.comparatives import AMBIGUOUS, COUNTING, LOWER_IS_BETTER, MAX_WORDS, MIN_WORDS, PLAIN
from .lexicon.word_forms import ADJECTIVE_ENDINGS, NOT_ADJECTIVES


class Direction(StrEnum):
    MAX = "max"  # the alternative with the larger value wins
    MIN = "min"


@dataclass(frozen=True)
class Alternative:
    asked: str  # as the question gives it: "CorvidBERT as reported in the CorvidBERT paper"
    name: str  # as an answer names it: "CorvidBERT"
    question: str  # the question asking its value: "On ChemRel, how high is the score of CorvidBERT as …?"


@dataclass(frozen=True)
class Alternatives:
    options: tuple[Alternative, Alternative]
    comparative: str  # "higher", "more"
    direction: Direction | None  # None: "better" of a measure where lower is better


_WH = r"\b(?:which|who)\b"
_SPLIT = re.compile(r"\s+(?:or|versus|vs\.?)\s+", re.I)
# "On ChemRel, which scores higher: A or B", "Which is larger, A or B"
_LISTED_AFTER = re.compile(rf"^(?P<pre>.*?){_WH}(?P<frame>[^:,]+?)\s*[:,]\s*(?P<list>.+)$", re.I)
# "A or B: which is larger"
_LISTED_BEFORE = re.compile(rf"^(?P<list>[^:]+?)\s*:\s*{_WH}(?P<frame>.+)$", re.I)
# "Which is larger between A and B", "Between A and B, which is larger"
_BETWEEN_AFTER = re.compile(rf"^(?P<pre>.*?){_WH}(?P<frame>.+?)\s+between\s+(?P<a>.+?)\s+and\s+(?P<b>.+)$", re.I)
_BETWEEN_BEFORE = re.compile(rf"^between\s+(?P<a>.+?)\s+and\s+(?P<b>.+?),\s*{_WH}(?P<frame>.+)$", re.I)
# Where an alternative's value was reported, which says which document, not which thing.
_SOURCE = re.compile(
    r"\s*\([^)]*\)|,?\s+(?:as\s+)?(?:(?:reported|given|stated|listed|shown|measured)\s+)?"
    r"(?:in|from|by|according\s+to)\s+(?:the\s+|this\s+)?(?:[\w-]+(?:['’]s)?\s+){0,3}"
    r"(?:paper|article|preprint|study|report|authors|survey|table)\b.*$",
    re.I,
)
# "OrbitBERT's result": the owner is the alternative, the noun its measure.
_OWNED_MEASURE = re.compile(r"['’]s\s+(?:results?|scores?|values?|performance|numbers?|figures?)$", re.I)
_OWNER = re.compile(r"[\w-]+['’]s\s+")
_AUX = frozenset("is are was were do does did has have had".split())
# Prepositions saying where values stand or are measured ("in the table", "on ChemRel"), not what
# is measured ("number *of* samples").
_PLACE_PREPOSITIONS = frozenset("in on at for across among within under over from during".split())


def alternatives_of(question: str) -> Alternatives | None:
    """The alternatives ``question`` asks to choose between by a comparative; None for any other question."""
    text = question.strip().rstrip("?").strip()
    parts = _parts(text)
    if parts is None:
        return None
    pre, frame, asked = parts
    words = frame.lower().split()
    found = [w for w in words if w in MAX_WORDS or w in MIN_WORDS]
    if len(found) != 1 or any(not a for a in asked):
        return None
    comparative = found[0]
    names = _names(asked)
    options = tuple(
        Alternative(a, n, _value_question(pre, frame.split(), comparative, a))
        for a, n in zip(asked, names, strict=True)
    )
    return Alternatives(options=options, comparative=comparative, direction=_direction(text, words, comparative))


def _direction(text: str, words: list[str], comparative: str) -> Direction | None:
    """Which value wins; None when the comparative judges rather than measures: "better" of a measure
    where lower is better, or "more"/"less" of a quality ("more useful", "less effective"), which no
    one figure gives."""
    if comparative in AMBIGUOUS and any(w.strip(".,") in LOWER_IS_BETTER for w in text.lower().split()):
        return None
    after = words[words.index(comparative) + 1 : words.index(comparative) + 2]
    if comparative in COUNTING and after and _quality(after[0]):
        return None
    return Direction.MAX if comparative in MAX_WORDS else Direction.MIN


def _quality(word: str) -> bool:
    return word.endswith(ADJECTIVE_ENDINGS) and word not in NOT_ADJECTIVES


def _parts(text: str) -> tuple[str, str, tuple[str, str]] | None:
    """(what comes before the question word, the question's frame, the two alternatives as given)."""
    for pattern in (_BETWEEN_BEFORE, _BETWEEN_AFTER):
        found = pattern.match(text)
        if found:
            pre = found.groupdict().get("pre") or ""
            return pre, found.group("frame"), (found.group("a").strip(), found.group("b").strip())
    for pattern in (_LISTED_AFTER, _LISTED_BEFORE):
        found = pattern.match(text)
        if found:
            listed = _SPLIT.split(found.group("list").strip())
            if len(listed) == 2:
                pre = found.groupdict().get("pre") or ""
                return pre, found.group("frame"), (listed[0].strip(" ,"), listed[1].strip(" ,"))
    return None


def _names(asked: tuple[str, str]) -> tuple[str, str]:
    """The alternatives as an answer names them; an owner both share ("CiteSee's lab study or CiteSee's
    field deployment") is what the question is about, not what tells them apart."""
    first, second = (_name(a) for a in asked)
    owner = _OWNER.match(first)
    if owner and second.startswith(owner.group(0)) and len(owner.group(0)) < min(len(first), len(second)):
        return first[owner.end() :], second[owner.end() :]
    return first, second


def _name(asked: str) -> str:
    """The alternative as an answer names it: without where it was reported or its measure's noun."""
    name = _SOURCE.sub("", asked).strip(" ,")
    return _OWNED_MEASURE.sub("", name).strip() or asked


def _value_question(pre: str, frame: list[str], comparative: str, asked: str) -> str:
    """The question asking ``asked``'s value of the measure the frame compares: "study had more
    participants" asks "how many participants does <asked> have"; "has longer source documents on
    average" asks "how long is the source documents of <asked> on average"; "scores higher" asks
    "how high is the scores of <asked>" (the readers match stems, so the grammar may limp). Where the
    frame says the values stand ("more samples *in Lumen's table*") ends the question, as written."""
    words = [w.lower() for w in frame]
    at = words.index(comparative)
    before = [w for w in words[:at] if w not in _AUX]
    measured, place = _measure_and_place(frame[at + 1 :])
    if comparative in COUNTING and measured:
        asked_part = f"how many {measured} does {asked} have"
    else:
        measure = measured or " ".join(before[-1:])
        plain = PLAIN[comparative]
        asked_part = f"how {plain} is the {measure} of {asked}" if measure else f"how {plain} is {asked}"
    asked_part = f"{asked_part} {place}".strip()
    context = pre.strip(" ,")
    return f"{context}, {asked_part}?" if context else f"{asked_part[:1].upper()}{asked_part[1:]}?"


def _measure_and_place(rest: list[str]) -> tuple[str, str]:
    """The measure a comparative's words name, lower-cased, and the phrase from their first place
    preposition on, as written: ("samples", "in Lumen's comparison table") of "samples in Lumen's
    comparison table"."""
    at = next((i for i, w in enumerate(rest) if w.lower() in _PLACE_PREPOSITIONS), len(rest))
    return " ".join(rest[:at]).lower(), " ".join(rest[at:])
