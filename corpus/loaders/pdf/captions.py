"""Figure and table captions ("Figure 2:", "Table 3."): the pattern, and whether one starts among
loose words (table detection cuts a stack of rules there)."""

from __future__ import annotations

import re

from corpus.loaders.pdf.elements import Word

CAPTION = re.compile(
    r"^(?:figure|fig\.|table|tab\.|algorithm|listing|exhibit|chart)\s*[A-Z]?\d+(?:\.\d+)?[a-z]?\s*([:.|\u2014\u2013-])(?=\s|$)",
    re.IGNORECASE,
)


def has_caption_start(words: list[Word]) -> bool:
    """Does a line among these words start with "Table 3:" / "Figure 2." ?"""
    if not words:
        return False
    words = sorted(words, key=lambda w: (round(w.top), w.x0))
    for i, w in enumerate(words):
        if i and round(words[i - 1].top) == round(w.top):
            continue  # not the first word of its line
        if w.text.lower().rstrip(".") in ("figure", "fig", "table", "tab") or CAPTION.match(w.text):
            following = " ".join(x.text for x in words[i : i + 3])
            if CAPTION.match(following):
                return True
    return False
