"""From chosen sentences to passages a reader can follow: the sentence a reference leans on, and the
list a sentence introduces, quoted with it.

A sentence that opens with a reference ("This", "It", "These", "Such") means little alone: it is
quoted with the sentence before it. A sentence that introduces a list ("... come from:") is quoted
with its items, and an item chosen on its own brings its list's introduction and its siblings. Items
are the lines of a block that hold one sentence each (documentation pages write lists as plain
lines) or the list blocks that follow a block; an item ending in a colon with items under it nests a
list and carries it on. A line holding only a date right above a block (a
release note's, on a page without heading markup) dates that block's entry, and is quoted above it for
a question asking when (``dated``). Passages stay inside the evidence: the blocks the
search returned, in document order (``Layout``). Two passages that touch or overlap are one, each
sentence is quoted once, and the claims keep document order within a document.

Every passage becomes one ``Claim``: its prose sentences joined on one line, each list item on a line
of its own (the report renders them as a list), and one citation marker per block it quotes, each
quote a verbatim stretch of that block's text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from corpus.chunking import split_sentences
from corpus.models import Block, BlockKind, CharSpan
from corpus.retrieval import RetrievedChunk
from corpus.table_text import row_lines
from corpus.text import unmarked
from research.ai_address import addresses_ai
from research.evidence import CitationMarker, Claim
from strategies.reading.tuning import TUNING

from .lexicon.months import MONTH_PATTERN
from .question import TABLE_NAME
from .text import is_statement, normalise_space

# A sentence opening with one of these, or with a short phrase holding one ("By following these
# steps", "In that case"), leans on the sentence before it; "this paper" / "this guide" points at the
# document itself, not at a sentence.
_REFERENCE_OPENING = re.compile(
    r"^(?:(?:\w+\s+){0,3}(?:this|these|those|such)\b(?!\s+(?:paper|work|study|article|section|document|"
    r"guide|page|chapter|report|tutorial|post|brief|review|survey|thesis|book|handbook|manual|memo|note|"
    r"proposal)\b)|(?:it|its|they|their|both|here|the latter|the former|he|she|"
    r"his|her|that)\b)",
    re.I,
)
# Blocks whose text can introduce or continue a passage.
_PROSE_KINDS = frozenset({BlockKind.PARAGRAPH, BlockKind.LIST})
# A line holding a date and nothing else ("June 20th, 2024", "3 May 2024", "2024-06-20"): release notes
# and changelogs saved without heading markup head each entry with one, and the entry below it says
# "is now available", never when.
_DATE = (
    rf"(?:{MONTH_PATTERN}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{MONTH_PATTERN},?\s+\d{{4}}|"
    r"\d{4}-\d{2}-\d{2})"
)
_DATE_LINE = re.compile(rf"^{_DATE}$", re.IGNORECASE)
# Dates one after another and nothing else ("June 27th, 2024 June 20th, 2024 May 30th, 2024"): a
# release-notes page's menu of its entries, scraped with it; it states nothing.
_DATE_RUN = re.compile(rf"^(?:{_DATE}[\s,;|·•]*)+$", re.IGNORECASE)


def dates_only(text: str) -> bool:
    """``text`` is a run of dates and nothing else (see ``_DATE_RUN``)."""
    return bool(_DATE_RUN.match(text.strip()))


# A lead-in that instructs ("Pass the token in the Authorization header:", "Set your key as follows:"):
# an imperative verb, which no verb list holds, known by what follows it (an article, a possessive or a
# pronoun as its object).
_INSTRUCTION = re.compile(r"^[A-Z][a-z]+\s+(?:the|a|an|your|its|their|this|these|each|every|all|it|them)\s", re.ASCII)


def instructs(text: str) -> bool:
    """``text`` opens with an imperative (see ``_INSTRUCTION``); only a lead-in is read so."""
    return bool(_INSTRUCTION.match(text.strip()))


@dataclass(frozen=True)
class Piece:
    """A sentence of a block, with its offsets in the block's text and the line it stands on."""

    text: str
    start: int
    end: int
    line: int  # index of its line in the block's text (loaders keep only real line breaks)

    @property
    def introduces(self) -> bool:
        return self.text.rstrip().endswith(":")


# A footnote marker a PDF leaves at the head of a sentence ("3 Besides granularity, we also observe…",
# "† Work done at…"): a lone digit or mark before a capitalised word. It is the page's, not the
# sentence's, so a paragraph's sentence is read and quoted from the word after it (the quote is still
# the block's text, so its citation resolves).
_FOOTNOTE_MARK = re.compile(r"(?:\d{1,2}|[*†‡§¶])\s+(?=[A-Z][a-z])")


def pieces_of(text: str, prose: bool = False, marks: Sequence[CharSpan] = ()) -> list[Piece]:
    """The sentences of a block's text in order, each located verbatim (whitespace may differ); in
    ``prose`` (a paragraph), without a footnote marker at a sentence's head. A sentence reads without
    the superscript ``marks`` the page printed in it (a quote from ``start`` to ``end`` keeps them)."""
    out: list[Piece] = []
    cursor = 0
    for sentence in split_sentences(text):
        found = _locate(sentence, text, cursor)
        if found is None:
            continue
        start, end = found
        start = _past_marks(text, start, end, marks)
        mark = _FOOTNOTE_MARK.match(text, start, end) if prose else None
        if mark is not None:
            start = mark.end()
        out.append(
            Piece(unmarked(text, start, end, ((m.start, m.end) for m in marks)), start, end, text.count("\n", 0, start))
        )
        cursor = end
    return out


def _past_marks(text: str, start: int, end: int, marks: Sequence[CharSpan]) -> int:
    """Where a sentence's words begin after the marks (and spaces) at its head."""
    for mark in marks:
        if mark.start == start and mark.end < end:
            start = end - len(text[mark.end : end].lstrip())
    return start


def lines_of(text: str) -> list[Piece]:
    """Each row of a table's text as a piece, without the empty cells at its ends."""
    return [Piece(line, start, start + len(line), text.count("\n", 0, start)) for start, line in row_lines(text)]


def _locate(sentence: str, text: str, cursor: int) -> tuple[int, int] | None:
    index = text.find(sentence, cursor)
    if index >= 0:
        return index, index + len(sentence)
    parts = sentence.split()
    if not parts:
        return None
    found = re.compile(r"\s+".join(re.escape(p) for p in parts)).search(text, cursor)
    return (found.start(), found.end()) if found else None


@dataclass(frozen=True)
class Segment:
    """A stretch of one block quoted in a passage: pieces ``first`` to ``last`` inclusive."""

    block: Block
    first: int
    last: int


class Layout:
    """The evidence's blocks by position in their documents, each split into pieces once."""

    def __init__(self, evidence: Sequence[RetrievedChunk]):
        self.blocks: dict[tuple[str, int], Block] = {}
        for chunk in evidence:
            for block in chunk.blocks:
                self.blocks.setdefault((block.doc_id, block.seq), block)
        self._by_id = {b.block_id: b for b in self.blocks.values()}
        self._pieces: dict[str, list[Piece]] = {}

    def block(self, block_id: str) -> Block | None:
        return self._by_id.get(block_id)

    def pieces(self, block: Block) -> list[Piece]:
        """A block's sentences; a table's rows, one a line (a row is read whole, never cut at a period
        in a cell)."""
        if block.block_id not in self._pieces:
            if block.kind is BlockKind.TABLE:
                self._pieces[block.block_id] = lines_of(block.text)
            else:
                prose = block.kind is BlockKind.PARAGRAPH
                self._pieces[block.block_id] = pieces_of(block.text, prose=prose, marks=block.marks)
        return self._pieces[block.block_id]

    def caption(self, block: Block) -> Block | None:
        """The caption printed right above or below a table ("Table 2: Comparing CorvidBERT with …"): a
        caption block, or a paragraph naming the table (Markdown and HTML have no caption kind)."""
        for step in (-1, 1):
            found = self.blocks.get((block.doc_id, block.seq + step))
            if found is None:
                continue
            if found.kind is BlockKind.CAPTION or (found.kind in _PROSE_KINDS and TABLE_NAME.match(found.text)):
                return found
        return None

    def neighbour(self, block: Block, step: int) -> Block | None:
        found = self.blocks.get((block.doc_id, block.seq + step))
        # Text planted for an AI never joins a passage as a sentence's antecedent or list.
        usable = found is not None and found.kind in _PROSE_KINDS and not addresses_ai(found.text)
        return found if usable else None

    def date_line(self, block: Block) -> Block | None:
        """The line right above ``block`` when it holds only a date: the date of the entry ``block``
        opens (a release note's), as a heading would give it."""
        above = self.blocks.get((block.doc_id, block.seq - 1))
        if above is not None and above.kind in _PROSE_KINDS and _DATE_LINE.match(above.text.strip()):
            return above
        return None

    def locate(self, block: Block, start: int) -> int | None:
        """The index of the piece of ``block`` that starts at ``start`` (a sentence's offset)."""
        return next((i for i, p in enumerate(self.pieces(block)) if p.start <= start < p.end), None)


def passage(layout: Layout, block: Block, start: int, within_list: bool = True) -> list[Segment]:
    """The passage around the sentence of ``block`` at offset ``start``: with the sentence its
    reference leans on, or as part of the list it introduces or (``within_list``) belongs to."""
    index = layout.locate(block, start)
    if index is None:
        return []
    segments = [Segment(block, index, index)]
    if block.kind is BlockKind.TABLE:
        return segments  # a table's row is quoted as it stands
    if within_list and _is_item(layout, block, index):
        intro = _introduction(layout, block, index)
        if intro is not None:
            segments = [intro]
    elif _REFERENCE_OPENING.match(layout.pieces(block)[index].text):
        segments = _with_antecedent(layout, block, index)
    last = segments[-1]
    if layout.pieces(last.block)[last.last].introduces:
        segments = _with_items(layout, segments)
    return segments


def _line(pieces: list[Piece], index: int) -> list[Piece]:
    return [p for p in pieces if p.line == pieces[index].line]


def _is_item(layout: Layout, block: Block, index: int) -> bool:
    """The piece stands on a line of its own block that reads as a list entry, or is a list block."""
    pieces = layout.pieces(block)
    if block.kind is BlockKind.LIST:
        return True
    line = _line(pieces, index)
    multiline = pieces[-1].line > 0
    # A line opening with a reference ("These token counts are added ...") goes on after the list.
    continues = bool(_REFERENCE_OPENING.match(line[0].text))
    words = sum(len(p.text.split()) for p in line)
    return multiline and not continues and not line[-1].introduces and words <= TUNING.sentences.max_item_words


def _nests(layout: Layout, block: Block, index: int) -> bool:
    """The piece is an item introducing a list of its own ("Potentially multiple content blocks, each of
    which contains:", then "a. A content_block_start event"): a line of one sentence, as items are,
    whose next line is an item (a paragraph ending in a colon introduces a list of its own)."""
    pieces = layout.pieces(block)
    line = _line(pieces, index)
    after = next((i for i in range(index + 1, len(pieces)) if pieces[i].line != pieces[index].line), None)
    return (
        len(line) == 1
        and line[0].introduces
        and len(line[0].text.split()) <= TUNING.sentences.max_item_words
        and after is not None
        and _is_item(layout, block, after)
    )


def _introduction(layout: Layout, block: Block, index: int) -> Segment | None:
    """The piece introducing the list that the item at ``index`` belongs to (within TUNING.sentences.max_items lines)."""
    pieces = layout.pieces(block)
    lines_back = 0
    for i in range(index - 1, -1, -1):
        if pieces[i].line != pieces[i + 1].line:
            if pieces[i].introduces:
                return Segment(block, i, i)
            lines_back += 1
            if lines_back > TUNING.sentences.max_items or not _is_item(layout, block, i):
                return None
    if block.kind is not BlockKind.LIST:
        return None
    current = block
    for _ in range(TUNING.sentences.max_items):
        previous = layout.neighbour(current, -1)
        if previous is None or not layout.pieces(previous):
            return None
        last = len(layout.pieces(previous)) - 1
        if layout.pieces(previous)[last].introduces:
            return Segment(previous, last, last)
        if previous.kind is not BlockKind.LIST:
            return None
        current = previous
    return None


def _with_antecedent(layout: Layout, block: Block, index: int) -> list[Segment]:
    """The sentence with the one before it; after a list item, the sentence stands alone (its
    reference is to the whole list, which a quote of the last item would misrepresent)."""
    if index > 0:
        if _is_item(layout, block, index - 1):
            return [Segment(block, index, index)]
        return [Segment(block, index - 1, index)]
    previous = layout.neighbour(block, -1)
    if previous is None or not layout.pieces(previous) or block.kind is BlockKind.LIST:
        return [Segment(block, index, index)]
    last = len(layout.pieces(previous)) - 1
    return [Segment(previous, last, last), Segment(block, index, index)]


def _with_items(layout: Layout, segments: list[Segment]) -> list[Segment]:
    """``segments`` followed by the items of the list their last piece introduces: the item lines
    after it in its block, or else the list blocks that follow the block."""
    last = segments[-1]
    pieces = layout.pieces(last.block)
    end = _item_lines_end(layout, last)
    out = [*segments[:-1], Segment(last.block, last.first, end)]
    if end > last.last:
        return out
    lists = _following_lists(layout, last.block)
    out += lists
    if not lists and end == len(pieces) - 1:
        shown = _shown(layout, last.block)
        if shown is not None:
            out.append(shown)
    return out


def _item_lines_end(layout: Layout, last: Segment) -> int:
    """The index of the last piece of the item lines after ``last`` in its block (``last.last`` when
    none follow)."""
    pieces = layout.pieces(last.block)
    end = last.last
    seen: list[str] = []  # the item lines so far, normalised
    while end + 1 < len(pieces) and (_is_item(layout, last.block, end + 1) or _nests(layout, last.block, end + 1)):
        if pieces[end + 1].line != pieces[end].line:
            line = normalise_space(" ".join(p.text for p in _line(pieces, end + 1)))
            # The list ends where its style changes (items without a full stop, then a sentence that
            # has one: prose after the list) or where a line repeats (pages scraped twice over).
            if (
                len(seen) == TUNING.sentences.max_items
                or line in seen
                or (seen and _terminated(line) != _terminated(seen[0]))
            ):
                break
            seen.append(line)
        end += 1
    return end


def _following_lists(layout: Layout, block: Block) -> list[Segment]:
    """The list blocks right after ``block``, whole, at most TUNING.sentences.max_items of them."""
    out: list[Segment] = []
    current = block
    while len(out) < TUNING.sentences.max_items:
        following = layout.neighbour(current, 1)
        if following is None or following.kind is not BlockKind.LIST or not layout.pieces(following):
            break
        out.append(Segment(following, 0, len(layout.pieces(following)) - 1))
        current = following
    return out


def _shown(layout: Layout, block: Block) -> Segment | None:
    """The block right after ``block`` when it is what a lead-in shows rather than prose: a short code
    sample, command or header line ("Pass the token in the Authorization header:", then "Authorization:
    Bearer <token>"), a few lines none of which is a statement. Without it the lead-in says where the
    answer is and not what it is."""
    following = layout.neighbour(block, 1)
    if following is None or following.kind is not BlockKind.PARAGRAPH:
        return None
    pieces = layout.pieces(following)
    if not pieces or pieces[-1].line >= TUNING.sentences.max_items or any(is_statement(p.text) for p in pieces):
        return None
    return Segment(following, 0, len(pieces) - 1)


def listed(layout: Layout, block: Block, index: int) -> str:
    """The items of the list the piece at ``index`` of ``block`` introduces, one text ("" when it
    introduces none): what a lead-in ("The tool helps you:") says is in its list, not in itself."""
    if not layout.pieces(block)[index].introduces:
        return ""
    segments = _with_items(layout, [Segment(block, index, index)])
    texts = [
        normalise_space(piece.text)
        for k, segment in enumerate(segments)
        for piece in layout.pieces(segment.block)[segment.first + (k == 0) : segment.last + 1]
    ]
    return " ".join(texts)


def _terminated(line: str) -> bool:
    return line.rstrip().endswith((".", "!", "?"))


def dated(layout: Layout, segments: list[Segment]) -> list[Segment]:
    """``segments`` with the date line heading their entry quoted first (``Layout.date_line``): the
    entry from its first sentence on, so the date stands right above what it dates."""
    first = segments[0]
    line = layout.date_line(first.block)
    if line is None:
        return segments
    return [Segment(line, 0, len(layout.pieces(line)) - 1), Segment(first.block, 0, first.last), *segments[1:]]


def merge(passages: list[list[Segment]]) -> list[list[Segment]]:
    """Passages that share or touch a piece of a block become one; the result in input order. The
    first passage (the one a short answer leads) only takes in what follows its start: the answer's
    sentence must open its claim, not come after a sentence that happened to be chosen too."""
    merged: list[list[Segment]] = []
    for candidate in passages:
        for i, existing in enumerate(merged):
            if _touch(existing, candidate) and (i > 0 or not _starts_before(candidate, existing)):
                existing[:] = _union(existing + candidate)
                break
        else:
            if not any(_within(candidate, existing) for existing in merged):
                merged.append(list(candidate))
    return merged


def _starts_before(a: list[Segment], b: list[Segment]) -> bool:
    return (a[0].block.seq, a[0].first) < (b[0].block.seq, b[0].first) and a[0].block.doc_id == b[0].block.doc_id


def _within(a: list[Segment], b: list[Segment]) -> bool:
    """Every piece of ``a`` is quoted by ``b`` already."""
    return all(
        any(x.block.block_id == y.block.block_id and y.first <= x.first and x.last <= y.last for y in b) for x in a
    )


def _touch(a: list[Segment], b: list[Segment]) -> bool:
    return any(
        x.block.block_id == y.block.block_id and x.first <= y.last + 1 and y.first <= x.last + 1 for x in a for y in b
    )


def _union(segments: list[Segment]) -> list[Segment]:
    by_block: dict[str, Segment] = {}
    for s in segments:
        seen = by_block.get(s.block.block_id)
        by_block[s.block.block_id] = (
            s if seen is None else Segment(s.block, min(seen.first, s.first), max(seen.last, s.last))
        )
    return sorted(by_block.values(), key=lambda s: s.block.seq)


def claim_of(layout: Layout, segments: list[Segment]) -> Claim:
    """The claim quoting ``segments``: prose on one line, then each list item (a line of its block,
    or a list block) on a line of its own."""
    lines: list[str] = []
    markers: list[CitationMarker] = []
    listing = False  # past the introduction of a list: every new line (or block) is an item
    for segment in segments:
        pieces = layout.pieces(segment.block)[segment.first : segment.last + 1]
        text = segment.block.text
        markers.append(CitationMarker(block_id=segment.block.block_id, quote=text[pieces[0].start : pieces[-1].end]))
        previous_line = None
        for piece in pieces:
            words = normalise_space(piece.text)
            new_item = listing and piece.line != previous_line
            if lines and not new_item:
                lines[-1] = f"{lines[-1]} {words}"
            else:
                lines.append(words)
            previous_line = piece.line
            listing = listing or piece.introduces
    return Claim(text="\n".join(lines), citations=markers)
