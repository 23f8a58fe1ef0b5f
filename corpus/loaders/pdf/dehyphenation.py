"""A block's text from its lines: joined with a space, or without the hyphen where a word was
hyphenated at a line end."""

from __future__ import annotations

import re
from collections import Counter

from corpus.loaders.pdf.elements import Line

HYPHENS = ("-", "\u2010", "\u00ad")
SUFFIXES = frozenset(
    "s es ed ing ings ion ions tion tions sion sions ment ments ness ity ities ally ly er ers or ors able ible "
    "al als ance ances ence ences ous ive ives ize izes ized ization izations ise ised ist ists ism isms ful less "
    "ship ships ward wards ative atives ure ures ant ants ent ents ary ic ical ics".split()
)


def _dehyphenate(prev: str, nxt: str, vocab: Counter[str]) -> str | None:
    """Join two lines that meet at a hyphen: drop it where it only broke a word ("retriev-" + "al"),
    keep it (without a space) in real compounds ("state-of-the-" + "art") and next to a figure, where
    no word is broken ("Phi-" + "3-mini", "F1-" + "score", "3-" + "5"). None: not such a case."""
    if len(prev) < 3 or prev[-1] not in HYPHENS or not prev[-2].isalnum() or not nxt or not nxt[0].isalnum():
        return None
    if prev[-2].isdigit() or nxt[0].isdigit():
        return prev[:-1] + "-" + nxt
    head = prev[:-1].rsplit(None, 1)[-1]
    head_core = re.sub(r"^\W+", "", head)
    tail_core = re.sub(r"\W+$", "", nxt.split(None, 1)[0])
    if not head_core or not tail_core:
        return None
    keep = prev[:-1] + "-" + nxt
    drop = prev[:-1] + nxt
    if tail_core.lower() in ("and", "or", "to", "vs", "versus"):
        return None  # "pre- and post-processing"
    if "-" in head_core or "\u2010" in head_core:
        return keep  # "state-of-the-" + "art": the hyphens are real
    return keep if _is_compound(head_core, tail_core, vocab) else drop


def _is_compound(head_core: str, tail_core: str, vocab: Counter[str]) -> bool:
    """Whether the hyphen between the two halves of a word broken at a line end is a real one, by
    how the document spells the word elsewhere and whether both halves are words of their own."""
    joined = (head_core + tail_core).lower()
    hyphenated = (head_core + "-" + tail_core).lower()
    if vocab.get(joined, 0) and vocab.get(joined, 0) >= vocab.get(hyphenated, 0):
        return False
    if vocab.get(hyphenated, 0):
        return True
    tail_l = tail_core.lower()
    if (
        len(head_core) >= 4
        and len(tail_core) >= 4
        and tail_l not in SUFFIXES
        and vocab.get(head_core.lower(), 0) >= 1
        and vocab.get(tail_l, 0) >= 2
    ):
        return True  # two words in their own right: "bibliography-" + "paper"
    return tail_core[0].isupper() and not head_core.isupper()  # "Non-" + "English"


def dehyphenated_text(lines: list[Line], vocab: Counter[str]) -> str:
    text = " ".join(lines[0].text.split())
    for ln in lines[1:]:
        nxt = " ".join(ln.text.split())
        joined = _dehyphenate(text, nxt, vocab)
        text = joined if joined is not None else f"{text} {nxt}"
    return text
