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


def _is_list_start(ln: Line, prev: Line | None, cur: _Block | None) -> bool:
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


class _Block:
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


def build_blocks(pages: list[PageData], doc: DocStats, title_lines: set[int]) -> list[_Block]:
    blocks: list[_Block] = []
    section = ""
    in_refs = False
    structured = False  # seen a numbered or well-known heading (the front matter is over)
    cur: _Block | None = None
    for p in pages:
        page_blocks: list[_Block] = []
        prev: Line | None = None
        doc.local_pitch.clear()
        for ln in p.lines:
            kind: BlockKind | None = None  # kind of a new block starting at this line
            new = False
            if ln.table is not None:
                cur = _Block(ln, BlockKind.REFERENCE if in_refs else BlockKind.TABLE, section)
                page_blocks.append(cur)
                cur = None
                prev = None
                continue
            if id(ln) in title_lines:
                if cur is not None and cur.heading and cur.kind is BlockKind.HEADING and id(cur.lines[-1]) in title_lines:
                    cur.lines.append(ln)
                else:
                    cur = _Block(ln, BlockKind.HEADING, section)
                    cur.heading = True
                    page_blocks.append(cur)
                prev = ln
                continue
            if (
                cur is not None
                and cur.heading
                and prev is not None
                and prev is cur.lines[-1]
                and continues_heading(prev, ln)
            ):
                cur.lines.append(ln)  # a heading wrapped onto a second line
                if cur.kind is BlockKind.HEADING and cur.section and not in_refs:
                    section = dehyphenated_text(cur.lines, doc.vocab)
                    cur.section = section
                prev = ln
                continue
            continues = (
                cur is not None
                and not cur.heading
                and prev is not None
                and not (_new_reference if in_refs else _new_paragraph)(prev, ln, p, doc, cur)
            )
            right = p.edges.get(ln.col, (ln.x0, ln.x1, ln.x0))[1]
            hk = heading_kind(ln, doc, in_refs, right, continues)
            if hk == "styled" and not structured and p.number == 1:
                hk = None  # bold author names and affiliations on the title page
            if hk is not None:
                structured = structured or hk != "styled"
                text = " ".join(ln.text.split())
                bare = re.sub(r"^(?:\d+(?:\.\d+)*\.?)\s+", "", text).rstrip(":.").strip().lower()
                if bare in REFERENCE_HEADINGS:
                    in_refs = True
                    section = "References"
                elif in_refs:
                    if hk in ("numbered", "known"):  # an appendix ("A Proofs", "Appendix") ends them
                        in_refs = False
                        section = text
                    else:
                        hk = None
                else:
                    section = text
                if hk is not None:
                    cur = _Block(ln, BlockKind.HEADING, section)
                    cur.heading = True
                    page_blocks.append(cur)
                    prev = ln
                    continue
            # Body line: continue the current block or start a new one?
            if in_refs:
                kind = BlockKind.REFERENCE
                new = cur is None or cur.heading or _new_reference(prev, ln, p, doc)
            else:
                if doc.is_caption(ln):
                    kind, new = BlockKind.CAPTION, True
                elif _is_list_start(ln, prev, cur):
                    kind, new = BlockKind.LIST, True
                elif _starts_footnote(ln):
                    kind, new = BlockKind.PARAGRAPH, True
                else:
                    kind = BlockKind.PARAGRAPH
                    new = cur is None or cur.heading or _new_paragraph(prev, ln, p, doc, cur)
            if new or cur is None or prev is None:
                cur = _Block(ln, kind, section)
                page_blocks.append(cur)
            else:
                doc.saw_pitch(prev, ln)
                cur.lines.append(ln)
            prev = ln
        _mark_footnotes(page_blocks, p, doc)
        blocks.extend(page_blocks)
        cur = None
    return blocks


def _new_paragraph(prev: Line | None, ln: Line, p: PageData, doc: DocStats, cur: _Block) -> bool:
    if prev is None or prev.col != ln.col or prev.table is not None:
        return True
    pitch = ln.ctop - prev.ctop
    em = ln.size
    dx = ln.x0 - prev.x0
    local_right = max(max(x.x1 for x in cur.lines), ln.x1)
    prev_short = prev.x1 < local_right - 1.5 * em
    if abs(prev.size - ln.size) > 0.6:
        # A different size starts a new block, unless a short line just carries on the previous
        # one at the usual pitch (a line of small capitals or math: "SCIB-" / "ERT-SCIVOCAB.").
        carries_on = (
            len(ln.words) <= 3
            and abs(dx) < 0.4 * prev.size
            and not prev_short
            and 0 < pitch <= 1.35 * doc.usual_pitch(prev) + 0.5
        )
        if not carries_on:
            return True
    if cur.kind is BlockKind.CAPTION and ln.size < prev.size - 0.3:
        return True
    usual = doc.usual_pitch(ln)
    if pitch < -0.5 * ln.size:
        return True  # moved back up: a new item in the reading order
    if pitch > 1.35 * usual + 0.5:
        return True
    if cur.kind is BlockKind.LIST:
        # Continuation lines of an item hang under its text; back at the marker's margin after a
        # short line is a new paragraph.
        return ln.x0 < cur.lines[0].x0 + 0.4 * em and prev_short
    if 0.6 * em <= dx <= 4 * em:
        return True  # first-line indent
    left = p.edges.get(ln.col, (ln.x0, ln.x1, ln.x0))[0]
    if abs(dx) < 0.4 * em and prev_short and 0.6 * em <= ln.x0 - left <= 4 * em:
        return True  # an indented one-line paragraph followed by another paragraph
    return False


def _new_reference(prev: Line | None, ln: Line, p: PageData, doc: DocStats, cur: _Block | None = None) -> bool:
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


def _mark_footnotes(blocks: list[_Block], p: PageData, doc: DocStats) -> None:
    """Small-print blocks at the foot of a column, below all body text of that column."""
    by_col: dict[str, list[_Block]] = {}
    for b in blocks:
        by_col.setdefault(b.col, []).append(b)
    for col_blocks in by_col.values():
        for b in sorted(col_blocks, key=lambda b: -max(ln.bottom for ln in b.lines)):
            top = min(ln.top for ln in b.lines)
            if b.kind in (BlockKind.PARAGRAPH, BlockKind.LIST) and b.size <= doc.body_size - 0.5 and p.rel(top) > 0.5:
                b.kind = BlockKind.FOOTNOTE
                continue
            break
