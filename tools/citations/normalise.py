"""Text normalisation: the one form quotes and blocks are compared in, with a map back to the
original offsets (see the package docstring, step 1)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

_HYPHENS = frozenset("-\u00ad\u2010\u2011\u2012\u2013\u2212\ufe63\uff0d")


class _FoldTable(dict):
    """``str.translate`` table filled on demand: each character -> its folded form.

    Case-folded NFKD (ligatures, full-width forms, accents), combining marks and invisible format
    characters dropped, hyphen-like characters (incl. soft hyphen, en dash, minus) -> ``-``, full
    stops and commas -> ``.``, any other non-alphanumeric character (punctuation, quotes, em dash,
    whitespace) -> a space. Per character, so it can keep offsets; NFKD is per character anyway, up
    to mark order, and marks go.
    """

    def __missing__(self, code: int) -> str:
        out: list[str] = []
        for d in unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", chr(code)).casefold()):
            if d in _HYPHENS:
                out.append("-")
            elif d in ".,":  # kept for now: between digits it joins ("78.4", "1,000"), else a space
                out.append(".")
            elif d.isalnum():
                out.append(d)
            elif unicodedata.category(d) in ("Mn", "Me", "Cf"):
                continue
            else:
                out.append(" ")
        folded = "".join(out)
        self[code] = folded
        return folded


_FOLD = _FoldTable()
# A hyphen between two word characters, with optional spaces after it (a line break folded to a
# space): "retriev-\nal", "retriev- al" and "retrieval" all become "retrieval", and "state-of-the-art"
# and "state-of-the-\nart" both become "stateoftheart". And a full stop or comma between digits,
# so a number stays one word ("78.4%" -> "784", "1,000" -> "1000") and can be checked as a whole.
# Applied alike to quotes and blocks.
_JOIN = re.compile(r"(?<=[^ .\-])- *(?=[^ .\-])|(?<=\d)\.(?=\d)")


def normalise(text: str) -> str:
    """The form quotes and blocks are compared in: lower-case words separated by single spaces."""
    folded = _JOIN.sub("", text.translate(_FOLD))
    return " ".join(folded.replace("-", " ").replace(".", " ").split())


_ASCII_RUNS = re.compile(r"[\x00-\x7f]+|[^\x00-\x7f]")
# A normalised word in the folded text: letters/digits, possibly joined by hyphens or, between
# digits, by full stops and commas (the joins of _JOIN).
_FOLDED_WORD = re.compile(r"[^ .\-]+(?:(?:- *|(?<=\d)\.(?=\d))[^ .\-]+)*")
_FOLDED_PIECE = re.compile(r"[^ .\-]+")


def normalise_with_map(text: str) -> tuple[str, list[int]]:
    """``normalise(text)`` and, for each of its characters, the offset it came from in ``text``."""
    if text.isascii():  # ASCII folds one character to one character
        folded = text.translate(_FOLD)
        origin: Sequence[int] = range(len(text))
    else:
        parts: list[str] = []
        origin = []
        for run in _ASCII_RUNS.finditer(text):
            part = run.group().translate(_FOLD)
            parts.append(part)
            if len(part) == run.end() - run.start():
                origin.extend(range(run.start(), run.end()))
            else:  # one non-ASCII character folded to none or several
                origin.extend([run.start()] * len(part))
        folded = "".join(parts)
    words: list[str] = []
    out_origin: list[int] = []
    for word in _FOLDED_WORD.finditer(folded):
        if words:
            out_origin.append(origin[word.start() - 1])  # the separator before the word
        pieces = _FOLDED_PIECE.findall(folded, word.start(), word.end())
        if len(pieces) == 1:
            out_origin.extend(origin[word.start() : word.end()])
        else:
            for piece in _FOLDED_PIECE.finditer(folded, word.start(), word.end()):
                out_origin.extend(origin[piece.start() : piece.end()])
        words.append("".join(pieces))
    return " ".join(words), out_origin
