"""Scoring an answer by value, for a set whose rows give the pages that answer them (papers-dev).

Token F1 cannot tell "4,534" from "403": both are one token against a one-token reference. A set with
page gold is therefore also scored the way its own scorer (``../shared/data/papers-dev/score.py``,
the reference) scores it, per question:

- RIGHT: answerable, answered, and the answer's first sentence holds a gold value: case, thousands
  commas, "%", "$" and unicode dashes, minus and times signs normalised; a number matched by value on
  digit boundaries ("4534" holds "4,534", "14,534" does not); a phrase also found in text glued
  without spaces, as PDF extraction leaves it.
  A yes/no question: the sentence starts with the gold word, or else has its polarity (a negation cue
  for "No", none for "Yes") and names at least half the question's content words.
  A comparison ("Which ..., X or Y?"): the gold option is named, and before the other one if that is named.
- WRONG: answerable and answered with something else.
- MISSED: answerable and not answered (abstained, empty, or a first sentence saying the documents do
  not answer it).
- ABSTAINED: unanswerable and not answered. FALSE_ANSWER: unanswerable but answered.

And whether a citation lands on a gold page: a cited block's page, or the citation's first page, in a
gold document (by file name).

The first-sentence and yes/no rules are heuristics: read the failures, do not tune answers to them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import StrEnum

from pydantic import BaseModel

from evals.datasets import GoldPage


class Verdict(StrEnum):
    RIGHT = "right"
    WRONG = "wrong"
    MISSED = "missed"
    ABSTAINED = "abstained"
    FALSE_ANSWER = "false answer"


ANSWERED_ANSWERABLE = (Verdict.RIGHT, Verdict.WRONG)


class AnswerShape(StrEnum):
    """How a gold answer is held: a value in the sentence, a yes/no polarity, or one of two options."""

    VALUE = "value"
    YES_NO = "yes/no"
    COMPARISON = "comparison"


SHAPES = {"yesno": AnswerShape.YES_NO, "yes_no": AnswerShape.YES_NO, "comparison": AnswerShape.COMPARISON}
"""Categories whose gold is not a value; every other category's is."""

STOP = frozenset(
    "a an the of in on for to and or is are was were does do did what which how many much by with from as at its "
    "it this that be has have had into than their per when under over".split()
)
NEGATION = re.compile(
    r"\b(no|not|never|none|without|neither|nor|untied|doesn't|don't|didn't|isn't|aren't|wasn't|cannot)\b|n't\b"
)
# A first sentence saying the documents do not answer is an abstention, whatever the flag says.
ABSTAIN_TEXT = re.compile(
    r"(does not (answer|say|state|mention|report|give|provide)|do not (answer|say|state|mention|report|give|provide)|"
    r"no (information|answer|evidence)|not (found|stated|mentioned|reported|answered) in|could not find|"
    r"cannot be answered|unable to (find|answer))",
    re.I,
)
_UNICODE = {
    "\u2212": "-",
    "\u2013": "-",
    "\u2014": "-",
    "\u00d7": "x",
    "\u2019": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u2248": "~",
    "\u00a0": " ",
}
NUMBER = re.compile(r"\d+(\.\d+)?")
SHORT_TOKEN = 6
"""A one-word gold value shorter than this ("52.2m") is matched on word boundaries only, never in glued text."""


class ValueScore(BaseModel):
    verdict: Verdict
    short: str = ""
    """The first sentence the verdict read."""


def normalise(text: str) -> str:
    text = text.lower()
    for a, b in _UNICODE.items():
        text = text.replace(a, b)
    text = re.sub(r"(?<=\d),(?=\d{3})", "", text)  # 4,534 -> 4534
    text = text.replace("%", " ").replace("$", " ")
    return re.sub(r"\s+", " ", text).strip()


def holds(answer: str, gold: str) -> bool:
    """Does ``answer`` hold the gold value (see the module docstring)?"""
    a, g = normalise(answer), normalise(gold)
    if not g:
        return False
    if NUMBER.fullmatch(g):
        return any(float(n) == float(g) for n in re.findall(r"(?<![\d.])\d+(?:\.\d+)?(?!\d)", a))
    lead = r"(?<![\d.])" if g[0].isdigit() else r"(?<![\w-])"
    if re.search(lead + re.escape(g) + (r"(?!\d)" if g[-1].isdigit() else r"(?!\w)"), a):
        return True
    if " " not in g and len(g) < SHORT_TOKEN:
        return False
    return _glued(a.replace(" ", ""), g.replace(" ", "").rstrip("."))


def _glued(text: str, gold: str) -> bool:
    """``gold`` in ``text`` with the spaces of both removed, not inside a longer number or word."""
    start = text.find(gold)
    while start >= 0:
        end = start + len(gold)
        before = text[start - 1] if start else ""
        after = text[end] if end < len(text) else ""
        bad_before = (before.isdigit() or before == ".") if gold[0].isdigit() else (before.isalnum() or before == "-")
        if not bad_before and not (gold[-1].isdigit() and after.isdigit()):
            return True
        start = text.find(gold, start + 1)
    return False


def clean(answer: str) -> str:
    """The answer without citation marks ("[2]", "[1-3]") and Markdown emphasis."""
    answer = re.sub(r"\[\d+(?:[,\u2013-]\s*\d+)*\]", "", answer)
    return re.sub(r"[*_#>`]", "", answer).strip()


def first_sentence(answer: str) -> str:
    line = next((line for line in clean(answer).splitlines() if line.strip()), "")
    return re.split(r"(?<=[.!?])\s+(?=[A-Z(\"\u201c])", line.strip())[0]


def content_words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9][a-z0-9.\-]*", normalise(text)) if w not in STOP and len(w) > 1}


def yes_no_right(question: str, short: str, gold: str) -> bool:
    s, g = normalise(short), gold.strip().lower()
    if s.startswith(("yes", "no")):
        return s.startswith(g) and not (g == "no" and s.startswith("not"))
    asked = content_words(question)
    overlap = len(asked & content_words(short)) / max(1, len(asked))
    return overlap >= 0.5 and (NEGATION.search(s) is not None) == (g == "no")


def options(question: str) -> list[str]:
    """The two things a comparison question names: "Which ..., X or Y?" / "Which ...: X or Y?"."""
    tail = re.sub(r"\([^)]*\)", "", re.split(r"[:,]", question.rstrip("?"))[-1])
    parts = re.split(r"\s+or\s+", tail)
    if len(parts) != 2:
        return []
    parts[0] = re.sub(r"^.*?\b(?:is|has|have|was|were|scores|scored|higher|more|larger)\b\s*", "", parts[0]).strip()
    return [re.sub(r"^(the|a)\s+", "", x.strip(), flags=re.I) for x in parts if x.strip()]


def comparison_right(question: str, short: str, gold: str) -> bool:
    """The gold option is named, and before the other option (if that is named at all)."""
    if not holds(short, gold):
        return False
    text = normalise(short)

    def position(name: str) -> int | None:
        found = re.search(r"(?<![\w-])" + re.escape(normalise(name)) + r"(?!\w)", text)
        return found.start() if found else None

    mine = position(gold)
    others = [position(o) for o in options(question) if normalise(o) != normalise(gold) and not holds(gold, o)]
    named = [o for o in others if o is not None]
    return mine is None or not named or mine <= min(named)


def is_right(shape: AnswerShape, question: str, short: str, answers: Iterable[str]) -> bool:
    if shape is AnswerShape.COMPARISON:
        return any(comparison_right(question, short, a) for a in answers)
    if shape is AnswerShape.YES_NO:
        return any(yes_no_right(question, short, a) for a in answers)
    return any(holds(short, a) for a in answers)


def score(
    *, question: str, category: str, answers: list[str], answerable: bool, answer: str, abstained: bool
) -> ValueScore:
    """The verdict on one answer (see the module docstring)."""
    short = first_sentence(answer)
    answered = bool(clean(answer)) and not abstained and not ABSTAIN_TEXT.search(short)
    if not answerable:
        return ValueScore(verdict=Verdict.FALSE_ANSWER if answered else Verdict.ABSTAINED, short=short)
    if not answered:
        return ValueScore(verdict=Verdict.MISSED, short=short)
    right = is_right(SHAPES.get(category, AnswerShape.VALUE), question, short, answers)
    return ValueScore(verdict=Verdict.RIGHT if right else Verdict.WRONG, short=short)


# The verdict as scores: one-hot on answerable questions (their means are the shares right, wrong and
# missed), abstained or not on unanswerable ones.
ANSWERABLE_KEYS = {Verdict.RIGHT: "value_right", Verdict.WRONG: "value_wrong", Verdict.MISSED: "value_missed"}
ABSTAINED_KEY = "value_abstained"


def score_keys(verdict: Verdict) -> dict[str, float]:
    if verdict in (Verdict.ABSTAINED, Verdict.FALSE_ANSWER):
        return {ABSTAINED_KEY: float(verdict is Verdict.ABSTAINED)}
    return {key: float(verdict is v) for v, key in ANSWERABLE_KEYS.items()}


def verdict_of(scores: dict[str, float]) -> Verdict | None:
    """The verdict ``score_keys`` gave, read back from an example's scores (None: not scored by value)."""
    if ABSTAINED_KEY in scores:
        return Verdict.ABSTAINED if scores[ABSTAINED_KEY] else Verdict.FALSE_ANSWER
    return next((v for v, key in ANSWERABLE_KEYS.items() if scores.get(key)), None)


def cites_gold_page(cited: Iterable[tuple[str, int]], gold: Iterable[GoldPage]) -> bool:
    """Does any cited (file name, page) pair fall on a gold page?"""
    wanted = {(g.doc, g.page) for g in gold}
    return any(pair in wanted for pair in cited)
