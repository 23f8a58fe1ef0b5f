"""The cell a question asks for in a table's row: the value under the column whose name says what the
question asks of the row's thing ("What F1 does finetuned CorvidBERT reach on ChemRel?" → the ChemRel
row's value under "CorvidBERT Finetune").

A column is named by the question's words: those the row's label does not take, and first those the
document's title, section and the table's caption do not (the paper the question names is the
context, not the column: "the CorvidBERT paper … for OrbitBERT" asks the OrbitBERT column). An abbreviated
column name answers the words it abbreviates ("SOTA" for "state-of-the-art"). A row with one value
answers with it; a row whose columns the question names none of, or two alike, gives no value: a
guessed column would be a confident wrong number.
"""

from __future__ import annotations

import re

from corpus.table_text import TableRow, is_value

from .lexicon.quantities import GENERAL_MEASURES, MEASURE_ABBREVIATIONS
from .lexicon.units import TEXT_LENGTHS
from .question import ParsedQuestion
from .text import content_stems, matched, stem

# A footnote mark printed after a value ("88.85 7", "6.8 †"): the page's, not the value's.
_TRAILING_MARK = re.compile(r"(?<=\d)\s+(?:\d|[*†‡§¶])$")
_WORD = re.compile(r"[A-Za-z]+")
_ALPHANUMERIC = re.compile(r"[A-Za-z0-9]+")
# A word of two letters or more a table shortens with a period: "bib." for "bibliography", "No." for "number".
_SHORTENED = re.compile(r"\b[A-Za-z]{2,}\.(?=\s|$)")


def cell_answer(question: ParsedQuestion, row: TableRow, context: frozenset[str]) -> str | None:
    """The value ``row`` gives for ``question`` (``context``: stems of the row's document title, section
    and caption); None when the row is not the question's thing, the table does not report what is
    asked, or no one column is asked."""
    values = [(name, value) for name, value in row.cells if is_value(value)]
    label = frozenset(content_stems(row.label))
    # The row must be the question's thing: a row of another dataset gives another's figure.
    if not values or not any(matched(t, label) for t in question.stems):
        return None
    if not _reports(question, row, context):
        return None
    if len(values) == 1:
        return _clean(values[0][1])
    return _asked_column(question, values, label, context)


def _asked_column(
    question: ParsedQuestion, values: list[tuple[str, str]], label: frozenset[str], context: frozenset[str]
) -> str | None:
    """The value of the one column among ``values`` the question asks for, or None (none or two alike)."""
    # The document the question names as its source is context, not a column ("the CorvidBERT paper").
    asked = [t for t in question.source_free if not matched(t, label)]
    own = [t for t in asked if not matched(t, context)]
    # An abbreviated column name stands for as many of the question's terms as the run it abbreviates.
    initials = {short: len(content_stems(run)) for short, run in question.abbreviations.items()}
    # Between columns naming as many of the question's words, the one naming nothing more is the
    # thing asked: "SciBERT" is not "S2ORC-SciBERT" (a tie left is two alike: no value).
    scored = sorted(
        (
            (
                _score(name, own, initials),
                _score(name, asked, initials),
                -_unasked(name, asked),
                _in_words(question, name),
                i,
            )
            for i, (name, _) in enumerate(values)
        ),
        reverse=True,
    )
    best, second = scored[0], scored[1]
    if best[1] == 0 or best[:4] == second[:4]:
        return None
    return _clean(values[best[4]][1])


def _in_words(question: ParsedQuestion, name: str) -> bool:
    """A column giving a length in words, when a question asks how long a text is: of "Source Words" and
    "Source Sents", a reader takes a document's length in words unless told otherwise."""
    words = name.split()
    return bool(words) and "length" in question.type.measure and stem(words[-1]) in _TEXT_LENGTH_STEMS


# The units a text's length is counted in (``lexicon.units.TEXT_LENGTHS``), as stems.
_TEXT_LENGTH_STEMS = frozenset(stem(unit) for unit in TEXT_LENGTHS)


def own_row(question: ParsedQuestion, label: str, rivals: tuple[str, ...]) -> bool:
    """The row labelled ``label`` is the one the question names among its table's rows: no other row's
    label (``rivals``) holds as many of the question's words. "Multi-LexSum D → L" is the row of a
    question on "the Multi-LexSum (D→L) task", its "D → S" and "D → T" siblings are not; two rows the
    question tells apart by nothing give no value."""
    asked = _label_words(question.unsourced)
    head = _label_words(" ".join(question.type.noun.split()[-1:]))
    held = _row_key(_row_words(label), asked, head)
    return all(_row_key(_row_words(rival), asked, head) < held for rival in rivals if rival != label)


def _row_key(label: frozenset[str], asked: frozenset[str], head: frozenset[str]) -> tuple[int, int, int]:
    """How many asked words ``label`` holds, then whether it holds the head of the noun asked (of
    "Paper Opens" and "Card Opens", "how many paper *cards* did P3 open" asks the second), then how few
    words it adds ("Bibliography entries", not "Linked bib. entries", of "how many bibliography entries")."""
    held = _held(label, asked)
    return held, _held(label, head), held - len(label)


def _label_words(text: str) -> frozenset[str]:
    """A label's words as stems, a single letter as printed ("L" of "D → L", never the article "a")."""
    return frozenset(w if len(w) == 1 else stem(w.lower()) for w in _ALPHANUMERIC.findall(text))


def _row_words(label: str) -> frozenset[str]:
    """A row label's words (``_label_words``), a word a table shortens with a period kept as printed,
    with its period ("Linked bib. entries")."""
    short = frozenset(m.group().lower() for m in _SHORTENED.finditer(label))
    return _label_words(_SHORTENED.sub(" ", label)) | short


def _held(label: frozenset[str], asked: frozenset[str]) -> int:
    return sum(1 for w in label if w in asked or (len(w) > 1 and matched(w, asked)) or _shortens(w, asked))


def _shortens(word: str, asked: frozenset[str]) -> bool:
    """``word`` is a shortened word ("bib.") of one of the ``asked`` ("bibliography")."""
    return word.endswith(".") and any(a.startswith(word[:-1]) for a in asked if len(a) > len(word) - 1)


def _reports(question: ParsedQuestion, row: TableRow, context: frozenset[str]) -> bool:
    """The table reports the measure the question asks for ("what *recall*", "how many *samples*"): the
    asked noun's head names the row, a column or the table (its caption, section or document). A measure
    any table gives ("what result", "what is X's score") is asked of every table."""
    head = question.type.noun.split()[-1:]  # "recall" of "macro recall"; its modifiers say which column
    if not head or head[0] in GENERAL_MEASURES:
        return True
    named = frozenset(content_stems(" ".join([row.label, *(_spelled(name) for name, _ in row.cells)]))) | context
    return matched(stem(head[0]), named)


def _score(name: str, terms: list[str], initials: dict[str, int]) -> int:
    """How many of the question's ``terms`` the column ``name`` accounts for: those it holds, and those
    of the words it abbreviates."""
    stems = frozenset(content_stems(_spelled(name)))
    found = sum(1 for t in terms if matched(t, stems))
    return found + sum(initials.get(w.lower(), 0) for w in _WORD.findall(name) if len(w) >= 2 and w.isupper())


def _unasked(name: str, terms: list[str]) -> int:
    """How many words of the column ``name`` the question's ``terms`` do not hold."""
    return sum(1 for word in content_stems(_spelled(name)) if not matched(word, frozenset(terms)))


def _spelled(name: str) -> str:
    """A column's name with its measure's abbreviation written out ("RoBERTa P": "RoBERTa precision")."""
    return " ".join(MEASURE_ABBREVIATIONS.get(word.rstrip("."), word) for word in name.split())


def _clean(value: str) -> str:
    return _TRAILING_MARK.sub("", value.strip())
