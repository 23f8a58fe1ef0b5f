"""Which line breaks inside a paragraph are real and which only wrap prose at a fixed width.

Text files and Markdown break lines for two reasons. Prose is often hard-wrapped: an editor or a
formatter breaks every line at 72-100 columns, and the breaks mean nothing. But documentation scraped
to Markdown, notes and READMEs also put one item, one table-like row or one short statement per line
without any list markup ("The additional tokens come from:" and three lines of items); joined with
spaces, those become one run-on sentence that an answer then quotes whole. A real break is kept as
"\n" in the block text, a wrap is joined with a space.

The rules, for the lines of one paragraph (indentation and trailing spaces ignored; a line "starts
in lower case" when its first letter or digit is a lower-case letter, markup and brackets aside):

- A paragraph with TeX math in it ("$$", a "$" standing alone, "\\begin{array}") is joined as
  prose: its line breaks belong to the formula, which reads as one expression.
- A break after a line ending in ":" is real (it introduces a list or a statement, and in docs the
  items after it often start in lower case: "tool_use blocks", "pip install ..."), and so is a break
  before a line that starts with a bullet glyph ("•", "▪", ...).
- A paragraph that is not hard-wrapped keeps its breaks. It is not hard-wrapped
  - when a line of several words is longer than ``MAX_WRAP_WIDTH``: no wrapper writes such a line
    (link targets, which a wrapper cannot break, are not counted);
  - when it has three lines or more and none after the first starts in lower case: wrapped prose
    mostly goes on with a lower-case word, while an address, an author block or a list of
    statements starts every line with a capital, a digit or a bracket;
  - when its longest line is shorter than ``MIN_WRAP_WIDTH``: nobody wraps prose that narrow, such
    lines are items, names, an address. Short lines can still split a sentence by hand ("Acme Router
    routes requests" / "to backends."), so there a line that starts in lower case continues it.
- Otherwise the paragraph's wrap width is its longest line (leaving out lines that may overrun it:
  one long word, a link), and a break is a wrap exactly when the next line's first word would not
  have fitted on the line before within that width: a wrapper fills each line, so a line that stops
  short was broken on purpose.

A paragraph on one line, and prose wrapped at a fixed width, read as they did when every break was
joined with a space; only a wrapped line that happens to end in a colon (about 1 paragraph in 50 at
80 columns), or three lines or more that all go on with a capital, keep a break.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

MIN_WRAP_WIDTH = 40
MAX_WRAP_WIDTH = 120
_BULLETS = tuple("•◦▪▫●○■□‣⁃∙►▸▹➤✓✔")
# Delimiters of TeX math as papers converted to Markdown write it; "$5" is a price, not math.
_TEX_MATH = re.compile(r"\$\$|(?<!\S)\$(?!\S)|\\begin\{")
_FIRST_ALNUM = re.compile(r"[^\W_]")
# Markdown link destinations and autolinks: a wrapper keeps them whole, so they may overrun the width.
_LINK_TARGET = re.compile(r"\]\([^)]*\)|<[a-z][\w+.-]*:[^>\s]*>", re.IGNORECASE)


def real_breaks(lines: Sequence[str]) -> list[bool]:
    """For each break between consecutive ``lines``: True when it is a real line break, False when
    it only wraps the paragraph's prose."""
    rows = [line.strip() for line in lines]
    if len(rows) < 2 or any(_TEX_MATH.search(row) for row in rows):
        return [False] * (len(rows) - 1)
    narrow = max(map(len, rows)) < MIN_WRAP_WIDTH
    width = _wrap_width(rows)
    itemised = len(rows) >= 3 and not any(_starts_lower(row) for row in rows[1:])
    unwrapped = itemised or any(_overlong(row) for row in rows)
    breaks = []
    for line, following in pairwise(rows):
        word = following.split(maxsplit=1)[0] if following else ""
        if line.endswith(":") or following.startswith(_BULLETS) or unwrapped:
            breaks.append(True)
        elif narrow:
            breaks.append(not _starts_lower(following))
        else:  # a break where the next word would have fitted was made on purpose
            breaks.append(len(line) + 1 + len(word) <= width)
    return breaks


def join_lines(lines: Sequence[str]) -> str:
    """The lines of a paragraph as one text: real breaks kept as "\\n", wraps joined with a space."""
    rows = [line.strip() for line in lines]
    parts = rows[:1]
    for row, real in zip(rows[1:], real_breaks(rows), strict=True):
        parts.append("\n" if real else " ")
        parts.append(row)
    return "".join(parts)


def _wrap_width(rows: list[str]) -> int:
    """The longest line, leaving out lines that may overrun the width: a single word (a URL) and a
    line with a link target, which a wrapper keeps whole."""
    fitting = [len(row) for row in rows if " " in row and not _LINK_TARGET.search(row)]
    return max(fitting or [len(row) for row in rows if " " in row] or [len(row) for row in rows])


def _overlong(row: str) -> bool:
    return " " in row and len(_LINK_TARGET.sub("]", row)) > MAX_WRAP_WIDTH


def _starts_lower(row: str) -> bool:
    first = _FIRST_ALNUM.search(row)
    return first is not None and first.group().islower()
