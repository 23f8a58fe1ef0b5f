"""Word tokens, page labels and counts in words: the small text helpers every layer above shares.

Both the product (offline answers, title scoping) and its evaluation (token F1, evidence hits) split
text with ``word_tokens``, so what an answer "contains" means the same thing to both.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from importlib import resources

_WORD = re.compile(r"\w+")
# A number as written: thousands separated by commas ("3,559"), an optional decimal part.
_FIGURE = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?")
# C0 and C1 control characters but tab and line breaks, DEL, and the bidirectional embedding, override
# and isolate marks: invisible in a title, they recolour or clear a terminal, ring its bell, end a C
# string (NUL) or make "txt.exe" read as "exe.txt" (U+202E).
# A terminal escape sequence goes whole ("\x1b[2J" clears the screen; its "[2J" is no text either).
_CONTROLS = re.compile(
    r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[0-~])?"
    r"|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]"
)


def word_tokens(text: str) -> list[str]:
    """Lower-cased ``\\w+`` tokens (hyphenated words come apart: "street-level" -> street, level)."""
    return _WORD.findall(text.lower())


def strip_controls(text: str) -> str:
    """``text`` without control characters (tabs and line breaks kept) or bidirectional overrides."""
    return _CONTROLS.sub("", text)


def figures(text: str) -> list[float]:
    """The numbers a text states: "3,559 people on 1.5 ha" -> [3559.0, 1.5]."""
    return [float(f.replace(",", "")) for f in _FIGURE.findall(text)]


@lru_cache(maxsize=1)
def stopwords() -> frozenset[str]:
    """English function words (``corpus/resources/english.txt``), lower case."""
    path = resources.files("corpus") / "resources" / "english.txt"
    return frozenset(w.strip().lower() for w in path.read_text(encoding="utf-8").splitlines() if w.strip())


def page_range(pages: Iterable[int]) -> str:
    """ "3", or "3–5" for a span of pages (an en dash, as in print)."""
    distinct = sorted(set(pages))
    if not distinct:
        return ""
    return str(distinct[0]) if len(distinct) == 1 else f"{distinct[0]}\u2013{distinct[-1]}"


def page_label(pages: Iterable[int]) -> str:
    """ "p. 3", or "pp. 3–5" for a span of pages: where a citation is in a PDF (``corpus.locations``)."""
    distinct = sorted(set(pages))
    if not distinct:
        return ""
    return f"{'p.' if len(distinct) == 1 else 'pp.'} {page_range(distinct)}"


def counted(n: int, noun: str) -> str:
    """``n`` with ``noun``, plural unless one: "1 sub-question", "3 sub-questions"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def unmarked(text: str, start: int, end: int, marks: Iterable[tuple[int, int]]) -> str:
    """``text[start:end]`` without the superscript marks (footnote numbers, as (start, end) offsets)
    inside it, each with the space before it: "GROBID v0.5.5 10 (Lopez, 2009)" reads "GROBID v0.5.5
    (Lopez, 2009)". A quote keeps them (it is verbatim); a reading of it does not."""
    parts: list[str] = []
    cursor = start
    for mark_start, mark_end in sorted(marks):
        if start <= mark_start and mark_end <= end and mark_start >= cursor:
            parts.append(text[cursor:mark_start].rstrip(" "))
            cursor = mark_end
    parts.append(text[cursor:end])
    return "".join(parts)
