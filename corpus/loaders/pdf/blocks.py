"""Lines -> blocks: where paragraphs, list items, captions, footnotes and reference entries start,
and the section each block belongs to."""

from __future__ import annotations

import re
from collections import Counter

from corpus.loaders.pdf.dehyphenation import dehyphenated_text
from corpus.loaders.pdf.doc_stats import DocStats
from corpus.loaders.pdf.elements import Line, PageData, most_common
from corpus.loaders.pdf.headings import REFERENCE_HEADINGS, continues_heading, heading_kind
from corpus.models import BlockKind

BULLETS = frozenset("•◦▪▫‣∙·●○■□►▶➢➤✓✔-–—*")
ENUM_ITEM = re.compile(r"^(?:\(?\d{1,2}[.)]|\(?[a-z][.)]|\([ivx]{1,4}\))$")
REF_LABEL = re.compile(r"^\[\d{1,4}\]")


# ---------------------------------------------------------------------------------------------
# Blocks


def _is_list_start(ln: Line, prev: Line | None, cur: BlockDraft | None) -> bool:
    first = ln.words[0].text
    if first[0] in BULLETS:
        if first[0] in "-–—*":  # dashes and asterisks only as a lone marker: "- item", not "-0.5"
            return len(first) == 1 and len(ln.words) > 1
        return len(ln.words) > 1 or len(first) > 1
    if ENUM_ITEM.match(first) and len(ln.words) > 1:
        if prev is None or prev.col != ln.col or prev.page != ln.page:
            return True
        if cur is not None and cur.kind is BlockKind.LIST and abs(ln.x0 - cur.lines[0].x0) < 0.5 * ln.size:
            return True  # the next item of a running list
        return prev.text.rstrip().endswith((".", ":", ";", ","))
    return False


def _starts_footnote(ln: Line) -> bool:
    first = ln.words[0]
    if len(ln.words) < 2:
        return False
    marker = first.text
    return (
        first.size < 0.85 * ln.size
        and len(marker) <= 3
        and all(not ch.isalpha() or ch in "abcdefg" for ch in marker)
        and first.bottom < ln.cbottom - 0.1 * ln.size
    )


class BlockDraft:
    """A block being assembled from lines; ``document`` turns each finished one into a ``RawBlock``."""

    __slots__ = ("lines", "kind", "section", "page", "col", "heading")

    def __init__(self, first: Line, kind: BlockKind, section: str):
        self.lines = [first]
        self.kind = kind
        self.section = section
        self.page = first.page
        self.col = first.col
        self.heading = False

    @property
    def size(self) -> float:
        sizes: Counter[float] = Counter()
        for ln in self.lines:
            sizes[ln.size] += len(ln.text)
        return most_common(sizes)


class _BlockState:
    """What carries over from line to line while a document's lines are grouped into blocks: the
    current section, whether the references have begun, and the block and line before this one."""

    def __init__(self, doc: DocStats, title_lines: set[int]):
        self.doc = doc
        self.title_lines = title_lines
        self.section = ""
        self.in_refs = False
        self.structured = False  # seen a numbered or well-known heading (the front matter is over)
        self.cur: BlockDraft | None = None
        self.prev: Line | None = None
        self.page_blocks: list[BlockDraft] = []

    def start_page(self) -> None:
        """Blocks never run on from one page to the next."""
        self.page_blocks = []
        self.cur = None
        self.prev = None
        self.doc.local_pitch.clear()

    def add_line(self, ln: Line, p: PageData) -> None:
        """The next line of page ``p`` in reading order."""
        if ln.table is not None:
            self._add_table(ln)
            return
        if id(ln) in self.title_lines:
            self._add_title_line(ln)
        elif (heading := self._wrapped_heading(ln)) is not None:
            self._extend_heading(heading, ln)
        elif not self._add_heading(ln, p):
            self._add_body_line(ln, p)
        self.prev = ln

    def _start(self, ln: Line, kind: BlockKind) -> BlockDraft:
        self.cur = BlockDraft(ln, kind, self.section)
        self.page_blocks.append(self.cur)
        return self.cur

    def _start_heading(self, ln: Line) -> None:
        self._start(ln, BlockKind.HEADING).heading = True

    def _add_table(self, ln: Line) -> None:
        """A table, or a figure's text, is a block of its own; nothing continues across it."""
        figure = ln.table is not None and ln.table.figure
        kind = BlockKind.FIGURE if figure else BlockKind.REFERENCE if self.in_refs else BlockKind.TABLE
        self._start(ln, kind)
        self.cur = None
        self.prev = None

    def _add_title_line(self, ln: Line) -> None:
        """The title's lines make up one heading block."""
        cur = self.cur
        if cur is not None and cur.heading and cur.kind is BlockKind.HEADING and id(cur.lines[-1]) in self.title_lines:
            cur.lines.append(ln)
        else:
            self._start_heading(ln)

    def _wrapped_heading(self, ln: Line) -> BlockDraft | None:
        """The heading block the line carries on, if the line just before ended it."""
        cur, prev = self.cur, self.prev
        if (
            cur is not None
            and cur.heading
            and prev is not None
            and prev is cur.lines[-1]
            and continues_heading(prev, ln)
        ):
            return cur
        return None

    def _extend_heading(self, cur: BlockDraft, ln: Line) -> None:
        cur.lines.append(ln)  # a heading wrapped onto a second line
        if cur.kind is BlockKind.HEADING and cur.section and not self.in_refs:
            self.section = dehyphenated_text(cur.lines, self.doc.vocab)
            cur.section = self.section

    def _add_heading(self, ln: Line, p: PageData) -> bool:
        """Start a heading block when the line is a section heading; False when it is not."""
        cur, prev = self.cur, self.prev
        continues = (
            cur is not None
            and not cur.heading
            and prev is not None
            and not (_new_reference if self.in_refs else _new_paragraph)(prev, ln, p, self.doc, cur)
        )
        right = p.edges.get(ln.col, (ln.x0, ln.x1, ln.x0))[1]
        hk = heading_kind(ln, self.doc, self.in_refs, right, continues)
        if hk == "styled" and not self.structured and p.number == 1:
            hk = None  # bold author names and affiliations on the title page
        if hk is None:
            return False
        self.structured = self.structured or hk != "styled"
        if not self._enter_section(ln, hk):
            return False
        self._start_heading(ln)
        return True

    def _enter_section(self, ln: Line, hk: str) -> bool:
        """Update the section (and the references flag) for a heading; False when the heading does
        not count (one known only by its style, inside the references)."""
        text = " ".join(ln.text.split())
        bare = re.sub(r"^(?:\d+(?:\.\d+)*\.?)\s+", "", text).rstrip(":.").strip().lower()
        if bare in REFERENCE_HEADINGS:
            self.in_refs = True
            self.section = "References"
        elif self.in_refs:
            if hk not in ("numbered", "known"):
                return False
            self.in_refs = False  # an appendix ("A Proofs", "Appendix") ends them
            self.section = text
        else:
            self.section = text
        return True

    def _add_body_line(self, ln: Line, p: PageData) -> None:
        """Body line: continue the current block or start a new one?"""
        cur, prev = self.cur, self.prev
        if self.in_refs:
            kind = BlockKind.REFERENCE
            new = cur is None or cur.heading or _new_reference(prev, ln, p, self.doc)
        else:
            kind, new = self._body_kind(ln, p)
        if new or cur is None or prev is None:
            self._start(ln, kind)
        else:
            self.doc.saw_pitch(prev, ln)
            cur.lines.append(ln)

    def _body_kind(self, ln: Line, p: PageData) -> tuple[BlockKind, bool]:
        """The kind of block a body line outside the references belongs to, and whether it starts one."""
        cur, prev = self.cur, self.prev
        if self.doc.is_caption(ln):
            return BlockKind.CAPTION, True
        if _is_list_start(ln, prev, cur):
            return BlockKind.LIST, True
        if _starts_footnote(ln):
            return BlockKind.PARAGRAPH, True
        return BlockKind.PARAGRAPH, cur is None or cur.heading or _new_paragraph(prev, ln, p, self.doc, cur)


def build_blocks(pages: list[PageData], doc: DocStats, title_lines: set[int]) -> list[BlockDraft]:
    blocks: list[BlockDraft] = []
    state = _BlockState(doc, title_lines)
    for p in pages:
        state.start_page()
        for ln in p.lines:
            state.add_line(ln, p)
        _mark_footnotes(state.page_blocks, p, doc)
        blocks.extend(state.page_blocks)
    return blocks


def _new_paragraph(prev: Line | None, ln: Line, p: PageData, doc: DocStats, cur: BlockDraft) -> bool:
    if prev is None or prev.col != ln.col or prev.table is not None:
        return True
    local_right = max(max(x.x1 for x in cur.lines), ln.x1)
    prev_short = prev.x1 < local_right - 1.5 * ln.size
    if _changes_size(prev, ln, doc, prev_short):
        return True
    if cur.kind is BlockKind.CAPTION and ln.size < prev.size - 0.3:
        return True
    if _off_pitch(prev, ln, doc):
        return True
    if cur.kind is BlockKind.LIST:
        # Continuation lines of an item hang under its text; back at the marker's margin after a
        # short line is a new paragraph.
        return ln.x0 < cur.lines[0].x0 + 0.4 * ln.size and prev_short
    return _indented(prev, ln, p, prev_short)


def _changes_size(prev: Line, ln: Line, doc: DocStats, prev_short: bool) -> bool:
    """A different size starts a new block, unless a short line just carries on the previous one at
    the usual pitch (a line of small capitals or math: "SCIB-" / "ERT-SCIVOCAB.")."""
    if abs(prev.size - ln.size) <= 0.6:
        return False
    carries_on = (
        len(ln.words) <= 3
        and abs(ln.x0 - prev.x0) < 0.4 * prev.size
        and not prev_short
        and 0 < ln.ctop - prev.ctop <= 1.35 * doc.usual_pitch(prev) + 0.5
    )
    return not carries_on


def _off_pitch(prev: Line, ln: Line, doc: DocStats) -> bool:
    """A line back up the page (a new item in the reading order) or further down than line spacing."""
    pitch = ln.ctop - prev.ctop
    return pitch < -0.5 * ln.size or pitch > 1.35 * doc.usual_pitch(ln) + 0.5


def _indented(prev: Line, ln: Line, p: PageData, prev_short: bool) -> bool:
    """A first-line indent, or an indented one-line paragraph followed by another paragraph."""
    em, dx = ln.size, ln.x0 - prev.x0
    if 0.6 * em <= dx <= 4 * em:
        return True
    left = p.edges.get(ln.col, (ln.x0, ln.x1, ln.x0))[0]
    return abs(dx) < 0.4 * em and prev_short and 0.6 * em <= ln.x0 - left <= 4 * em


def _new_reference(prev: Line | None, ln: Line, p: PageData, doc: DocStats, cur: BlockDraft | None = None) -> bool:
    if prev is None or prev.col != ln.col or prev.table is not None:
        return True
    text = ln.text.lstrip()
    if REF_LABEL.match(text):
        return True
    pitch = ln.ctop - prev.ctop
    if pitch < -0.5 * ln.size or pitch > 1.35 * doc.usual_pitch(ln) + 0.5 or abs(prev.size - ln.size) > 0.6:
        return True
    _, _, min_left = p.edges.get(ln.col, (ln.x0, ln.x1, ln.x0))
    em = ln.size
    # Hanging indents: an entry's first line sits at the margin, its continuation lines are indented.
    if ln.x0 - min_left < 0.4 * em and prev.x0 - min_left > 0.6 * em:
        return True
    if ln.x0 - min_left < 0.4 * em and prev.x0 - min_left < 0.4 * em and _column_hangs(p, ln.col, min_left, em):
        return True
    return False


def _column_hangs(p: PageData, col: str, min_left: float, em: float) -> bool:
    return any(0.6 * em <= ln.x0 - min_left <= 4 * em for ln in p.lines if ln.col == col and ln.table is None)


def _mark_footnotes(blocks: list[BlockDraft], p: PageData, doc: DocStats) -> None:
    """Small-print blocks at the foot of a column, below all body text of that column."""
    by_col: dict[str, list[BlockDraft]] = {}
    for b in blocks:
        by_col.setdefault(b.col, []).append(b)
    for col_blocks in by_col.values():
        for b in sorted(col_blocks, key=lambda b: -max(ln.bottom for ln in b.lines)):
            top = min(ln.top for ln in b.lines)
            if b.kind in (BlockKind.PARAGRAPH, BlockKind.LIST) and b.size <= doc.body_size - 0.5 and p.rel(top) > 0.5:
                b.kind = BlockKind.FOOTNOTE
                continue
            break
