"""Is a shown short answer a typed value of the asked-for type? The check behind the fragment rate.

A report may lead an answer with a bold short answer ("**3,559 people**: As of the census…"). That is
right only when the question asks for a typed value and the phrase is one, whole: a reader who sees
"**services includes**" or "**important**" in front of a quoted sentence reads nonsense. A short
answer is a *fragment* unless all of these hold:

1. the question asks for a typed value (``strategies.offline.question_types``: a date, a quantity,
   yes/no, or a name of a person, place, organisation, product, model or method, or the value of a
   named category such as a sport); any lead on a question asking for an account is a fragment;
2. the phrase has the shape of that type, checked here on its own text: Yes/No; a date holds a year
   or a month; a quantity holds a figure or a number word; a name is at most six words, each
   capitalised, with a digit or an inner capital ("GPT-4", "SQuAD"), or a lower-case identifier
   ("word2vec", "max_tokens"), joined only by name particles ("of", "de", "van", "&"), and neither
   starts (but for "The": "The Beatles") nor ends with a particle, and may end with the asked-for
   noun ("the Standard tier" for "which tier"); a category value is one to three words, none a function word;
3. it is a whole constituent of the sentence it leads: it occurs there between word boundaries, and
   a name is not cut out of a longer capitalised run ("Blitzen" of "Blitzen Trapper").

Where documents answer for different things of one name, a value is shown with what tells its
thing apart ("Tracy Lawrence (fifth)"): that parenthesised label is not part of the value checked.
The check reads only the question, the phrase and its sentence, so it applies to either mode.
"""

from __future__ import annotations

import re

from corpus.text import stopwords
from strategies.offline.question_types import AnswerType, Entity, question_type

_MONTHS = r"jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec"
_DATE_SHAPE = re.compile(
    rf"(?<!\d)(?:1\d{{3}}|20\d{{2}})(?!\d)|\b(?:{_MONTHS})[a-z]*\.?\b|\b\d{{1,2}}/\d{{1,2}}/\d{{2,4}}\b", re.I
)
_NUMBER_WORDS = (
    r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|"
    r"thousand|million|billion|half|dozen|once|twice"
)
_QUANTITY_SHAPE = re.compile(rf"\d|\b(?:{_NUMBER_WORDS})\b", re.I)
_PARTICLES = frozenset({"of", "de", "la", "le", "van", "von", "der", "du", "the", "and", "&", "for", "del", "da"})
_NAME_WORD = re.compile(r"^(?:[A-Z][\w'’.-]*|\S*\d\S*|\w+[A-Z]\w*|[a-z][\w.-]*_[\w.-]*)$")
_LABEL = re.compile(r"\s+\([^()]*\)$")
MAX_NAME_WORDS = 6
MAX_CATEGORY_WORDS = 3


def fragment_reason(question: str, answer: str, sentence: str) -> str | None:
    """Why ``answer``, shown before ``sentence`` for ``question``, is a fragment; None if it is a typed
    value of the asked-for type, whole (see the module docstring)."""
    asked = question_type(question)
    if not asked.typed:
        return "the question asks for an account, not a typed value"
    # A value may carry what tells its thing apart from another of one name: "Tracy Lawrence (fifth)".
    phrase = _LABEL.sub("", " ".join(answer.split()))
    if asked.kind is AnswerType.YES_NO:
        return None if phrase in {"Yes", "No"} else "not yes or no"
    shape = _shape_problem(asked.kind, asked.entity, phrase, asked.noun)
    if shape:
        return shape
    return _cut_problem(asked.kind, phrase, " ".join(sentence.split()))


def _shape_problem(kind: AnswerType, entity: Entity | None, phrase: str, noun: str = "") -> str | None:
    if kind is AnswerType.DATE:
        return None if _DATE_SHAPE.search(phrase) else "not a date"
    if kind is AnswerType.QUANTITY:
        return None if _QUANTITY_SHAPE.search(phrase) else "not a quantity"
    words = phrase.split()
    if entity is Entity.CATEGORY:
        ok = 1 <= len(words) <= MAX_CATEGORY_WORDS and not any(w.lower() in stopwords() for w in words)
        return None if ok else "not a category value"
    if words[0].lower() == "the" and len(words) > 1:  # "The Beatles", "The Hague"
        words = words[1:]
    if noun and len(words) > 1 and words[-1].lower() == noun.split()[-1]:  # "the Standard *tier*"
        words = words[:-1]
    if not 1 <= len(words) <= MAX_NAME_WORDS or words[0].lower() in _PARTICLES or words[-1].lower() in _PARTICLES:
        return "not a name"
    if all(w.lower() in _PARTICLES or _NAME_WORD.match(w.strip(",")) for w in words):
        return None
    return "not a name"


def _cut_problem(kind: AnswerType, phrase: str, sentence: str) -> str | None:
    found = re.search(rf"(?<![\w]){re.escape(phrase)}(?![\w])", sentence)
    if found is None:
        return "not a whole phrase of its sentence"
    if kind in (AnswerType.NAME, AnswerType.PLACE, AnswerType.THING) and phrase[:1].isupper():
        before = sentence[: found.start()].split()
        after = sentence[found.end() :].split()
        inside_run = before and before[-1][:1].isupper() and len(before) > 1 and not before[-1].endswith((".", ":"))
        if inside_run or (after and after[0][:1].isupper() and not phrase.endswith(",")):
            return "cut out of a longer name"
    return None
