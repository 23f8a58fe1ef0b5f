"""Token-aware chunking of a document's blocks.

Chunks are whole blocks in reading order, kept inside one section where possible (a section too short
to stand alone joins the next), with one block of overlap between neighbours, and never longer than
the embedding model's window, so the model never truncates a chunk. The embedded text starts with the document title and section, which the model needs
to place a passage ("the proposed method" means little without knowing whose); the stored chunk text
is the blocks' text only. A block longer than the window is split at sentence boundaries, and every
part keeps the block's id, so a citation of either part resolves to the same block. Boilerplate
blocks (``corpus.boilerplate``) are in no chunk.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from corpus.loaders.titles import title_parts
from corpus.models import Block, BlockKind, Chunk, Document

# BERT-style models add [CLS] and [SEP] around every input.
SPECIAL_TOKENS = 2
# The header must never crowd out the passage itself.
MAX_HEADER_TOKENS = 48
# A section with fewer tokens than this is chunked together with the section after it.
MIN_RUN_TOKENS = 32

_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]?\s+(?=[\"'(\[]?[A-Z0-9])")
_ABBREVIATIONS = (
    *("e.g.", "i.e.", "et al.", "cf.", "Fig.", "Eq.", "vs.", "Sec.", "No.", "approx."),
    *("Mr.", "Mrs.", "Ms.", "Dr.", "Prof.", "St.", "Jr.", "Sr.", "Gen.", "Lt.", "Col.", "Capt."),
)
# A name's initial ("David S. Ware", "J. R. R. Tolkien") ends no sentence.
_INITIAL = re.compile(r"(?:^|[\s(])[A-Z]\.$")

TokenCounter = Callable[[Sequence[str]], list[int]]


@dataclass(frozen=True)
class Unit:
    """A block, or a sentence-aligned part of an over-long block, with its token count."""

    block: Block
    text: str
    tokens: int


@dataclass(frozen=True)
class ChunkedText:
    chunk: Chunk
    embed_text: str

    @property
    def digest(self) -> str:
        return embedded_digest(self.embed_text)


def embed_text_for(header: str, text: str) -> str:
    """What the models embed for a chunk: its header, a blank line, its text."""
    return f"{header}\n\n{text}"


def embedded_digest(embed_text: str) -> str:
    """Names the text a chunk's vectors were made from: the same digest, the same vectors."""
    return hashlib.sha256(embed_text.encode()).hexdigest()


def split_sentences(text: str) -> list[str]:
    """The sentences of a block's text: split after ".", "!" or "?" before a capital or a digit, and
    at every line break, since the loaders keep a break only where a line ends a statement or an
    item of its own (they join lines that merely wrap prose)."""
    return [sentence for line in text.split("\n") for sentence in _line_sentences(line)]


def _line_sentences(text: str) -> list[str]:
    pieces = _SENTENCE_END.split(text)
    sentences: list[str] = []
    for piece in pieces:
        # Re-join splits made right after an abbreviation ("et al. 2020" is one sentence).
        if sentences and (sentences[-1].endswith(_ABBREVIATIONS) or _INITIAL.search(sentences[-1])):
            sentences[-1] = f"{sentences[-1]} {piece}"
        else:
            sentences.append(piece)
    return [s.strip() for s in sentences if s.strip()]


def _pack(pieces: list[str], counts: list[int], budget: int, separators: Sequence[str]) -> list[str]:
    """Greedily pack consecutive pieces into groups of at most ``budget`` tokens; ``separators[i]``
    joins piece ``i`` to the piece before it in its group."""
    groups: list[str] = []
    current = ""
    used = 0
    for piece, n, separator in zip(pieces, counts, separators, strict=True):
        if current and used + n > budget:
            groups.append(current)
            current, used = "", 0
        current = f"{current}{separator}{piece}" if current else piece
        used += n
    if current:
        groups.append(current)
    return groups


def _split_long(text: str, budget: int, count: TokenCounter) -> list[str]:
    # Each sentence, and whether it opens a line of the text: that line break is kept in the parts.
    sentences = [(s, i == 0) for line in text.split("\n") for i, s in enumerate(_line_sentences(line))]
    counts = [n - SPECIAL_TOKENS for n in count([s for s, _ in sentences])]
    parts: list[tuple[str, bool]] = []
    for (sentence, opens_line), n in zip(sentences, counts, strict=True):
        if n <= budget:
            parts.append((sentence, opens_line))
            continue
        # A single "sentence" longer than the window (a table row dump, a run-on list): cut by words.
        words = sentence.split()
        word_counts = [n - SPECIAL_TOKENS for n in count(words)]
        pieces = _pack(words, word_counts, budget, [" "] * len(words))
        parts.extend((piece, opens_line and k == 0) for k, piece in enumerate(pieces))
    part_counts = [n - SPECIAL_TOKENS for n in count([p for p, _ in parts])]
    return _pack([p for p, _ in parts], part_counts, budget, ["\n" if opens else " " for _, opens in parts])


def header_for(document: Document, section: str) -> str:
    """ "title | section", or the title alone when the section is the title or a part of it (a page
    whose heading repeats its title would otherwise be embedded as "Overview | Overview")."""
    if not section or _key(section) in {_key(document.title), *map(_key, title_parts(document.title))}:
        return document.title
    return f"{document.title} | {section}"


def _key(text: str) -> str:
    return " ".join(text.casefold().split())


def _units(blocks: Sequence[Block], count: TokenCounter) -> list[Unit]:
    counts = count([b.text for b in blocks])
    return [Unit(b, b.text, n - SPECIAL_TOKENS) for b, n in zip(blocks, counts, strict=True)]


def _section_runs(units: list[Unit]) -> list[list[Unit]]:
    """Consecutive units of one section (and never references mixed with body text).

    A run too small to be a passage on its own (a title with a line of metadata, a heading directly
    followed by a sub-heading) joins the next run: alone it would be a chunk of little more than the
    title, which matches every query about the document and is evidence for none.
    """
    runs: list[list[Unit]] = []
    key = None
    for unit in units:
        unit_key = (unit.block.section, unit.block.kind is BlockKind.REFERENCE)
        if not runs or unit_key != key:
            runs.append([])
            key = unit_key
        runs[-1].append(unit)
    merged: list[list[Unit]] = []
    for run in runs:
        stub = merged[-1] if merged and _is_stub(merged[-1]) else None
        # A stub joins body to body and references to references; bare headings join either, so the
        # "References" heading opens the bibliography's chunk instead of being a chunk of one word.
        if stub and (_is_reference(stub) == _is_reference(run) or _is_headings(stub)):
            merged[-1] = stub + run
        else:
            merged.append(run)
    return merged


def _is_stub(run: list[Unit]) -> bool:
    return sum(u.tokens for u in run) < MIN_RUN_TOKENS


def _is_reference(run: list[Unit]) -> bool:
    """Runs never mix reference entries with body text, so one entry makes a run the references."""
    return any(u.block.kind is BlockKind.REFERENCE for u in run)


def _is_headings(run: list[Unit]) -> bool:
    return all(u.block.kind is BlockKind.HEADING for u in run)


def _pack_run(run: list[Unit], budget: int) -> list[list[Unit]]:
    chunks: list[list[Unit]] = []
    current: list[Unit] = []
    for unit in run:
        if current and sum(u.tokens for u in current) + unit.tokens > budget:
            chunks.append(current)
            last = current[-1]
            # One block of overlap, unless it would not fit or would repeat a one-block chunk.
            keep = len(current) > 1 and last.tokens + unit.tokens <= budget
            current = [last] if keep else []
        current.append(unit)
    if current:
        chunks.append(current)
    return chunks


def chunk_document(
    document: Document, blocks: Sequence[Block], max_tokens: int, count: TokenCounter
) -> list[ChunkedText]:
    """Chunk a document's blocks; ``count`` returns model token counts (with special tokens).

    Boilerplate blocks are left out: no chunk's text or block ids hold them.
    """
    blocks = [b for b in blocks if not b.boilerplate]
    if not blocks:
        return []
    out: list[ChunkedText] = []
    for run in _section_runs(_units(blocks, count)):
        # A merged run is named for its main section (the last one: stubs come first).
        section = run[-1].block.section
        is_reference = _is_reference(run)
        header = header_for(document, section)
        header_tokens = count([header])[0] - SPECIAL_TOKENS
        if header_tokens > MAX_HEADER_TOKENS:
            header, header_tokens = document.title[:120], MAX_HEADER_TOKENS
        # The header and the blank line after it come out of the same window as the passage.
        budget = max_tokens - SPECIAL_TOKENS - header_tokens - 1
        for units in _pack_run(_fit(run, budget, count), budget):
            text = "\n\n".join(u.text for u in units)
            block_ids = list(dict.fromkeys(u.block.block_id for u in units))
            pages = [u.block.page for u in units]
            seq = len(out)
            chunk = Chunk(
                chunk_id=f"{document.doc_id}:{seq:05d}",
                doc_id=document.doc_id,
                seq=seq,
                block_ids=block_ids,
                text=text,
                section=section,
                page_start=min(pages),
                page_end=max(pages),
                is_reference=is_reference,
            )
            out.append(ChunkedText(chunk=chunk, embed_text=embed_text_for(header, text)))
    return out


def _fit(run: list[Unit], budget: int, count: TokenCounter) -> list[Unit]:
    """Split the units longer than the window left after the header at sentence boundaries."""
    out: list[Unit] = []
    for unit in run:
        if unit.tokens <= budget:
            out.append(unit)
            continue
        parts = _split_long(unit.text, budget, count)
        out.extend(Unit(unit.block, p, n - SPECIAL_TOKENS) for p, n in zip(parts, count(parts), strict=True))
    return out
