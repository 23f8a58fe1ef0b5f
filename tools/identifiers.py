"""Identifiers a query asks for, and whether a text holds one exactly.

A query holding a DOI, an ISBN, a product code, a phone number, a hex id, a date or an invoice number
asks for the text holding that identifier, not one a digit away. BM25 tells the two apart by one
token; the dense model does not (to it "… 2019.385129" and "… 2019.385123" are one string), so in a
hybrid ranking a look-alike first in the dense ranking ties with, or beats, the exact holder first
in BM25's (issue 48: hybrid found the asked DOI 10 times in 12, a phone number 9). The retriever
therefore lifts the chunks holding the exact identifier (``tools.retrievers``), and the offline
reading answers a lookup with the line holding it (``strategies.reading.identifier_lines``).

**Identifier-shaped**: a run of the query's words (split at spaces and colons: "doi:10.2377/…" is a
label and a DOI) with digits in them (each word's outer punctuation
dropped, "(415)" → "415", "1081?" → "1081"; a word starting with a digit after one ending in a digit
continues the run: "+1 (415) 555-0142"), of at least ``MIN_CHARS`` letters and digits, ``MIN_DIGITS`` of them digits. So "1081",
"2021-03-14", "GRM-48213-BK", "10.2377/j.envres.2019.385129" and "0x7f3a9c2de1" are identifiers;
"80 mm", "PM10" and "35-day" are not (a measure, a name: words of the question, BM25's business).

**Held exactly**: the identifier's letters and digits in order, case aside, not glued to a letter or
digit either side, nor part of a longer number ("1081" is not in "10812", "1081-2" or "10.1081"; it
is in "A-1081"). Where the query
separates two parts ("978-1-86197", "555 0142", "2021.03.14") the text may separate them by up to
``MAX_SEPARATOR`` characters of any punctuation or space, or join them; an identifier of
``LONG_CHARS`` characters or more may also be split anywhere by one hyphen, space or dot
("9781861972713" is held by "978-1-86197-271-3"). A short one is never split where the query did
not split it: "1081" is not held by the amount "10.81".

**A look-alike**: another identifier of the same shape (digit for digit, letter for letter) differing
in at most half its letters and digits (``LOOKALIKE_CHARS`` for a short one): "2021-03-15",
"2034-03-14" and "GRM-48217-BK" for "2021-03-14" and "GRM-48213-BK", another record's; not "1500"
for "2022" (a year and a price share only a shape).
"""

from __future__ import annotations

import re
from functools import lru_cache

MIN_CHARS = 4
MIN_DIGITS = 3
LONG_CHARS = 8
MAX_SEPARATOR = 3
LOOKALIKE_CHARS = 2

_ALNUM = re.compile(r"[^\W_]+")
# A query's words: split at spaces and at a label's colon ("doi:10.1145/…", "ISBN:978…").
_WORDS = re.compile(r"[\s:]+")
_SEPARATOR = rf"[\W_]{{0,{MAX_SEPARATOR}}}"
_LOOSE = r"[-\s.]?"
# Not glued to a letter or digit, nor part of a longer number ("1081-2", "10.1081", "1081,50"); the
# same before the first character (``_anchored``).
_AFTER = r"(?![^\W_])(?![-.,]\d)"


def query_identifiers(text: str) -> list[str]:
    """The identifiers ``text`` holds, as it writes them (outer punctuation dropped), each once."""
    runs: list[list[str]] = []
    for raw in _WORDS.split(text):
        word = _strip(raw)
        if not any(c.isdigit() for c in word):
            runs.append([])
            continue
        if runs and runs[-1] and word[0].isdigit() and runs[-1][-1][-1].isdigit():
            runs[-1].append(word)
        else:
            runs.append([word])
    out: list[str] = []
    for run in runs:
        identifier = " ".join(run)
        chars = "".join(_ALNUM.findall(identifier))
        if len(chars) >= MIN_CHARS and sum(c.isdigit() for c in chars) >= MIN_DIGITS and identifier not in out:
            out.append(identifier)
    return out


def _strip(word: str) -> str:
    start, end = 0, len(word)
    while start < end and not word[start].isalnum():
        start += 1
    while end > start and not word[end - 1].isalnum():
        end -= 1
    return word[start:end]


@lru_cache(maxsize=256)
def holder(identifier: str) -> re.Pattern[str]:
    """The pattern finding ``identifier`` held exactly in a text (see the module's docstring)."""
    parts = _ALNUM.findall(identifier)
    loose = sum(map(len, parts)) >= LONG_CHARS
    inner = _LOOSE.join if loose else "".join
    body = _SEPARATOR.join(inner(re.escape(c) for c in part) for part in parts)
    return re.compile(_anchored(body[0], body[1:]), re.IGNORECASE)


def _anchored(first: str, rest: str) -> str:
    """``first`` then ``rest``, not glued to a letter or digit either side: the look-behinds come after
    the first character, so the engine scans a text for it rather than trying at every position."""
    return rf"{first}(?<![^\W_]{first})(?<!\d[-.,]{first}){rest}{_AFTER}"


def holds(text: str, identifier: str) -> bool:
    """Whether ``text`` holds ``identifier`` exactly."""
    return holder(identifier).search(text) is not None


@lru_cache(maxsize=256)
def _shape(identifier: str) -> re.Pattern[str]:
    """``identifier``'s pattern with each digit any digit and each letter any letter."""
    parts = _ALNUM.findall(identifier)
    loose = sum(map(len, parts)) >= LONG_CHARS
    inner = _LOOSE.join if loose else "".join
    chars = [[r"\d" if c.isdigit() else r"[^\W\d_]" for c in part] for part in parts]
    first = chars[0].pop(0)
    return re.compile(_anchored(first, _SEPARATOR.join(inner(part) for part in chars)), re.IGNORECASE)


def holds_lookalike(text: str, identifier: str) -> bool:
    """Whether ``text`` holds another identifier of ``identifier``'s shape, a few characters away
    ("2021-03-15" for "2021-03-14"): another record's."""
    asked = "".join(_ALNUM.findall(identifier)).lower()
    most = max(LOOKALIKE_CHARS, len(asked) // 2)
    for found in _shape(identifier).finditer(text):
        other = "".join(_ALNUM.findall(found.group())).lower()
        if other != asked and sum(a != b for a, b in zip(other, asked, strict=True)) <= most:
            return True
    return False
