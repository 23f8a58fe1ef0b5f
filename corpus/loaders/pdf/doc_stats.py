"""Document-wide statistics (body size and typeface, line pitch) and the style tests built on them."""

from __future__ import annotations

import re
from collections import Counter
from itertools import pairwise

from corpus.loaders.pdf.captions import CAPTION
from corpus.loaders.pdf.elements import Line, PageData, base_font, most_common

MONO_FONT = re.compile(r"mono|courier|inconsolata|cmtt|sftt|typewriter|consol|menlo", re.IGNORECASE)


class DocStats:
    """Document-wide statistics the block builder needs."""

    def __init__(self, pages: list[PageData], vocab: Counter[str]):
        self.body_size = _body_size(pages)
        self.body_font = _body_font(pages, self.body_size)
        # Usual baseline-to-baseline pitch per font size, to tell line spacing from paragraph gaps.
        self.pitch = _usual_pitches(pages)
        self.vocab = vocab

        # Pitch last seen inside a block, per (column, size), on the current page: line spacing
        # differs between parts of one document (a loosely set abstract, tight footnotes).
        self.local_pitch: dict[tuple[str, float], float] = {}

    def usual_pitch(self, ln: Line) -> float:
        usual = self.pitch.get(ln.size, 1.25 * ln.size)
        return max(usual, self.local_pitch.get((ln.col, ln.size), 0.0))

    def saw_pitch(self, prev: Line, ln: Line) -> None:
        pitch = ln.ctop - prev.ctop
        if prev.col == ln.col and abs(prev.size - ln.size) < 0.25 and 0.9 * ln.size < pitch < 2 * ln.size:
            self.local_pitch[(ln.col, ln.size)] = pitch

    def styled(self, ln: Line) -> bool:
        """Set apart from body text: bold, larger, or in another (non-mono) typeface of similar size."""
        if ln.bold >= 0.8 or ln.size >= self.body_size + 0.8:
            return True
        return ln.size >= self.body_size - 0.5 and self.other_typeface(ln.font)

    def other_typeface(self, font: str) -> bool:
        base = base_font(font)
        if MONO_FONT.search(base) or not self.body_font:
            return False
        family = re.sub(r"[-,]?(?:regu\w*|roman|italic|ital|it|oblique|light)$", "", self.body_font, flags=re.I)
        return not base.startswith(family[: max(4, len(family) - 2)])

    def is_caption(self, ln: Line) -> bool:
        """ "Figure 3:" always; "Table 2." only when set apart (bold label, other size or typeface),
        since a body line can start with "Table 2. shows" where a sentence wraps."""
        m = CAPTION.match(ln.text.lstrip())
        if m is None:
            return False
        if m.group(1) == ":":
            return True
        first = ln.words[0]
        return first.bold or abs(ln.size - self.body_size) >= 0.3 or self.other_typeface(first.font)


def _body_size(pages: list[PageData]) -> float:
    """The size most of the text outside tables is set in."""
    sizes: Counter[float] = Counter()
    for p in pages:
        for ln in p.lines:
            if ln.table is None:
                sizes[ln.size] += len(ln.text)
    return most_common(sizes) if sizes else 10.0


def _body_font(pages: list[PageData], body_size: float) -> str:
    """The font most of the body-size text outside tables is set in."""
    fonts: Counter[str] = Counter()
    for p in pages:
        for ln in p.lines:
            if ln.table is None and abs(ln.size - body_size) < 0.25:
                fonts[base_font(ln.font)] += len(ln.text)
    return most_common(fonts) if fonts else ""


def _usual_pitches(pages: list[PageData]) -> dict[float, float]:
    """The commonest pitch (to half a point) between consecutive lines of one size and column, per
    size seen at least three times."""
    pitches: dict[float, Counter[float]] = {}
    for p in pages:
        for prev, ln in pairwise(p.lines):
            if _same_run(prev, ln) and 0 < (pitch := ln.ctop - prev.ctop) < 3 * ln.size:
                pitches.setdefault(ln.size, Counter())[round(pitch * 2) / 2] += 1
    return {size: most_common(c) for size, c in pitches.items() if sum(c.values()) >= 3}


def _same_run(prev: Line, ln: Line) -> bool:
    """Two consecutive lines of one column and size, neither in a table."""
    return prev.col == ln.col and prev.table is None and ln.table is None and abs(prev.size - ln.size) < 0.25
