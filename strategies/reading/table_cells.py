"""The cell a question asks for in a table's row: the value under the column whose name says what the
question asks of the row's thing ("What F1 does finetuned SciBERT reach on ChemProt?" → the ChemProt
row's value under "SciBERT Finetune").

A column is named by the question's words: those the row's label does not take, and first those the
document's title, section and the table's caption do not (the paper the question names is the
context, not the column: "the SciBERT paper … for BioBERT" asks the BioBERT column). An abbreviated
column name answers the words it abbreviates ("SOTA" for "state-of-the-art"). A row with one value
answers with it; a row whose columns the question names none of, or two alike, gives no value: a
guessed column would be a confident wrong number.
"""

from __future__ import annotations

import re

from corpus.table_text import TableRow, is_value

from .text import content_stems, matched

# A footnote mark printed after a value ("88.85 7", "6.8 †"): the page's, not the value's.
_TRAILING_MARK = re.compile(r"(?<=\d)\s+(?:\d|[*†‡§¶])$")
_WORD = re.compile(r"[A-Za-z]+")


def cell_answer(question: str, row: TableRow, context: frozenset[str]) -> str | None:
    """The value ``row`` gives for ``question`` (``context``: stems of the row's document title, section
    and caption); None when no one column is asked."""
    values = [(name, value) for name, value in row.cells if is_value(value)]
    if not values:
        return None
    if len(values) == 1:
        return _clean(values[0][1])
    asked = [t for t in content_stems(question) if not matched(t, frozenset(content_stems(row.label)))]
    own = [t for t in asked if not matched(t, context)]
    initials = _initials(question)
    scored = sorted(
        ((_score(name, own, initials), _score(name, asked, initials), i) for i, (name, _) in enumerate(values)),
        reverse=True,
    )
    best, second = scored[0], scored[1]
    if best[1] == 0 or best[:2] == second[:2]:
        return None
    return _clean(values[best[2]][1])


def _score(name: str, terms: list[str], initials: dict[str, int]) -> int:
    """How many of the question's ``terms`` the column ``name`` accounts for: those it holds, and those
    of the words it abbreviates."""
    stems = frozenset(content_stems(name))
    found = sum(1 for t in terms if matched(t, stems))
    return found + sum(initials.get(w.lower(), 0) for w in _WORD.findall(name) if len(w) >= 2 and w.isupper())


def _initials(question: str) -> dict[str, int]:
    """The initials of each run of two to five consecutive words of the question, with the number of
    content words the run holds ("state-of-the-art" → "sota": 2): what an abbreviated column name may
    stand for."""
    words = _WORD.findall(question)
    runs: dict[str, int] = {}
    for n in range(2, 6):
        for i in range(len(words) - n + 1):
            run = words[i : i + n]
            key = "".join(w[0].lower() for w in run)
            runs[key] = max(runs.get(key, 0), len(content_stems(" ".join(run))))
    return runs


def _clean(value: str) -> str:
    return _TRAILING_MARK.sub("", value.strip())
