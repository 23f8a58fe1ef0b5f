"""Is a shown short answer a typed value of the asked-for type? The check behind the fragment rate.

A report may lead an answer with a bold short answer ("**3,559 people**: As of the census…"). That is
right only when the question asks for a typed value and the phrase is one, whole: a reader who sees
"**services includes**" or "**important**" in front of a quoted sentence reads nonsense. A short
answer is a *fragment* unless all of these hold (``strategies.reading.question_types.value_problem``,
the one rule the offline answer layer applies before it shows a value, held here against whatever
either mode showed):

1. the question asks for a typed value: a date, a quantity, yes/no, or a name of a person, place,
   organisation, product, model or method, or the value of a named category such as a sport; any
   lead on a question asking for an account is a fragment;
2. the phrase has the shape of that type: Yes/No; a date holds a year, a month or a d/m/y date; a
   quantity holds a figure or a number word; a name is at most six words, each capitalised, with a
   digit or an inner capital ("GPT-4", "SQuAD"), or a lower-case identifier ("word2vec",
   "max_tokens"), joined only by name particles ("of", "de", "van", "&"), and neither starts (but
   for "The": "The Beatles") nor ends with a particle, and may end with the asked-for noun ("the
   Standard tier" for "which tier"); a category value is one to three words, none a function word;
3. it is a whole constituent of the sentence it leads: it occurs there between word boundaries, and
   a name is not cut out of a longer capitalised run ("Blitzen" of "Blitzen Trapper") or a list of
   names.

A question choosing between alternatives ("which scores higher: A or B?") is answered by naming one of
them as the question does: that answer is whole whatever sentence it leads.

Where documents answer for different things of one name, a value is shown with what tells its
thing apart ("Tracy Lawrence (fifth)"): that parenthesised label is not part of the value checked.
"""

from __future__ import annotations

from strategies.reading.question import parse_question
from strategies.reading.question_types import value_problem
from strategies.reading.subjects import without_label
from strategies.reading.text import normalise_space


def fragment_reason(question: str, answer: str, sentence: str) -> str | None:
    """Why ``answer``, shown before ``sentence`` for ``question``, is a fragment; None if it is a typed
    value of the asked-for type, whole (see the module docstring)."""
    phrase = without_label(normalise_space(answer))
    asked = parse_question(question)
    if asked.alternatives is not None and _bare(phrase) in {_bare(a.name) for a in asked.alternatives.options}:
        return None
    return value_problem(asked.type, phrase, normalise_space(sentence))


def _bare(name: str) -> str:
    """A name as compared: lower-cased, without a leading "the"."""
    name = name.lower()
    return name[4:] if name.startswith("the ") else name
