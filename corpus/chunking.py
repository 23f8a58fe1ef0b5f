"""Token-aware chunking of a document's blocks.

Chunks are whole blocks in reading order, kept inside one section where possible (a section too short
to stand alone joins the next), with one block of overlap between neighbours, and never longer than
the embedding model's window, so the model never truncates a chunk. The embedded text starts with the document title and section, which the model needs
to place a passage ("the proposed method" means little without knowing whose); the stored chunk text
is the blocks' text only. A block longer than the window is split at sentence boundaries, and every
part keeps the block's id, so a citation of either part resolves to the same block. Boilerplate
blocks (``corpus.boilerplate``) and the text a figure draws (kind ``figure``: tick values, axis
labels, legends; ``corpus.loaders.pdf.figures``) are in no chunk, nor are runs no reader reads (images inline as
``data:`` URIs, base64 and hex blobs, tokens of hundreds of characters: ``corpus.non_prose``): a
block that is nothing else is in no chunk either.

The work is linear in the text whatever it holds (one line of base64, a word of a million letters,
a page of full stops): nothing longer than a window's worth of characters (``max_chars``) is ever
tokenized whole, a "word" longer than the window is cut into pieces, and no chunk holds more than
``max_chars`` characters (a word the tokenizer reads as one unknown token could otherwise fill a
chunk with a megabyte).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from corpus import non_prose
from corpus.loaders.titles import repeats_title
from corpus.models import Block, BlockKind, Chunk, Document
from corpus.table_text import indexed_text
from corpus.text import stopwords

# BERT-style models add [CLS] and [SEP] around every input.
SPECIAL_TOKENS = 2
# The header must never crowd out the passage itself.
MAX_HEADER_TOKENS = 48
# A section with fewer tokens than this is chunked together with the section after it.
MIN_RUN_TOKENS = 32
# Characters a window of N tokens may hold: N times this. English averages 4-5 characters a token
# and long technical words 6-7, so only text the model cannot read anyway (hashes, words the
# tokenizer makes one unknown token of) reaches it.
MAX_CHARS_PER_TOKEN = 8

_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]?\s+(?=[\"'(\[]?[A-Z0-9])")
_ABBREVIATIONS = (
    *("e.g.", "i.e.", "et al.", "cf.", "Fig.", "Eq.", "vs.", "Sec.", "No.", "approx."),
    *("Mr.", "Mrs.", "Ms.", "Dr.", "Prof.", "St.", "Jr.", "Sr.", "Gen.", "Lt.", "Col.", "Capt."),
)
# A name's initial ("David S. Ware", "J. R. R. Tolkien") ends no sentence.
_INITIAL = re.compile(r"(?:^|[\s(])[A-Z]\.$")
# A sentence may open with a name written in lower case ("… in one call. corvidkit is released under …"):
# a full stop after a word, then a lower-case word that is no function word ("etc. and", "approx. the"
# go on one sentence), ends a sentence unless the word before it is an abbreviation written in lower
# case or one with inner full stops ("resp.", "w.r.t.").
_LOWER_START = re.compile(r"(?<=[A-Za-z0-9)\]][.!?])\s+(?=([a-z][\w-]*))")
_LOWER_ABBREVIATIONS = ("etc.", "resp.", "incl.", "esp.", "viz.", "ca.", "pp.", "vol.", "eds.", "ed.", "al.", "approx.")
_DOTTED = re.compile(r"\w\.\w+\.$")

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
    sentences: list[list[str]] = []
    for piece in (part for split in _SENTENCE_END.split(text) for part in _at_lower_starts(split)):
        # Re-join splits made right after an abbreviation ("et al. 2020" is one sentence). A sentence
        # is kept as its pieces and joined once: re-joining strings, and searching the whole sentence
        # for an initial, made "A. A. A. ..." quadratic (60 KB of it took 50 s).
        last = sentences[-1][-1] if sentences else ""
        if last.endswith(_ABBREVIATIONS) or _INITIAL.search(last[-3:]):
            sentences[-1].append(piece)
        else:
            sentences.append([piece])
    joined = (" ".join(pieces).strip() for pieces in sentences)
    return [s for s in joined if s]


def _at_lower_starts(text: str) -> list[str]:
    """``text`` cut before each sentence that opens with a lower-case name (``_LOWER_START``)."""
    parts: list[str] = []
    start = 0
    for found in _LOWER_START.finditer(text):
        before = text[start : found.start()]
        last = before.rsplit(None, 1)[-1].lower() if before.strip() else ""
        if found.group(1) in stopwords() or last.endswith(_LOWER_ABBREVIATIONS) or _DOTTED.search(last):
            continue
        parts.append(before)
        start = found.end()
    return [*parts, text[start:]]


def _pack(pieces: list[str], counts: list[int], budget: int, max_chars: int, separators: Sequence[str]) -> list[str]:
    """Greedily pack consecutive pieces into groups of at most ``budget`` tokens and ``max_chars``
    characters; ``separators[i]`` joins piece ``i`` to the piece before it in its group."""
    groups: list[str] = []
    current: list[str] = []
    used = chars = 0
    for piece, n, separator in zip(pieces, counts, separators, strict=True):
        if current and (used + n > budget or chars + len(separator) + len(piece) > max_chars):
            groups.append("".join(current))
            current, used, chars = [], 0, 0
        if current:
            current.append(separator)
            chars += len(separator)
        current.append(piece)
        used += n
        chars += len(piece)
    if current:
        groups.append("".join(current))
    return groups


def _token_counts(texts: Sequence[str], count: TokenCounter, max_chars: int) -> list[int]:
    """Tokens in each text (without the special tokens). A text longer than ``max_chars`` is not
    tokenized: no window holds it, so it is split whatever its count, and its length stands in
    (never fewer than its tokens, each of which covers a character at least)."""
    counted = iter(count([t for t in texts if len(t) <= max_chars]))
    return [next(counted) - SPECIAL_TOKENS if len(t) <= max_chars else len(t) for t in texts]


def _split_long(text: str, budget: int, count: TokenCounter, max_chars: int) -> list[str]:
    # Each sentence, and whether it opens a line of the text: that line break is kept in the parts.
    sentences = [(s, i == 0) for line in text.split("\n") for i, s in enumerate(_line_sentences(line))]
    counts = _token_counts([s for s, _ in sentences], count, max_chars)
    parts: list[tuple[str, bool]] = []
    for (sentence, opens_line), n in zip(sentences, counts, strict=True):
        if n <= budget and len(sentence) <= max_chars:
            parts.append((sentence, opens_line))
            continue
        # A single "sentence" longer than the window (a table row dump, a run-on list): cut by words.
        words, separators = _words(sentence, budget)
        pieces = _pack(words, _token_counts(words, count, max_chars), budget, max_chars, separators)
        parts.extend((piece, opens_line and k == 0) for k, piece in enumerate(pieces))
    part_counts = _token_counts([p for p, _ in parts], count, max_chars)
    separators = ["\n" if opens else " " for _, opens in parts]
    return _pack([p for p, _ in parts], part_counts, budget, max_chars, separators)


def _words(sentence: str, budget: int) -> tuple[list[str], list[str]]:
    """The words of a sentence, and what joins each to the one before: a space, or nothing for the
    pieces of a word longer than ``budget`` characters (a line of base64, a hash), cut so that each
    piece fits a window, since a token covers at least a character."""
    words: list[str] = []
    separators: list[str] = []
    for word in sentence.split():
        for start in range(0, len(word), budget):
            words.append(word[start : start + budget])
            separators.append(" " if start == 0 else "")
    return words, separators


def header_for(document: Document, section: str) -> str:
    """ "title | section", or the title alone when the section is the title or a part of it (a page
    whose heading repeats its title would otherwise be embedded as "Overview | Overview")."""
    if not section or repeats_title(section, document.title):
        return document.title
    return f"{document.title} | {section}"


def _units(blocks: Sequence[Block], count: TokenCounter, max_chars: int) -> list[Unit]:
    texts = [non_prose.strip(b.text) for b in blocks]
    kept = [(b, t) for b, t in zip(blocks, texts, strict=True) if t]
    counts = _token_counts([t for _, t in kept], count, max_chars)
    return [Unit(b, t, n) for (b, t), n in zip(kept, counts, strict=True)]


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


def _pack_run(run: list[Unit], budget: int, max_chars: int) -> list[list[Unit]]:
    def fits(units: list[Unit]) -> bool:
        return sum(u.tokens for u in units) <= budget and sum(len(u.text) + 2 for u in units) - 2 <= max_chars

    chunks: list[list[Unit]] = []
    current: list[Unit] = []
    for unit in run:
        if current and not fits([*current, unit]):
            chunks.append(current)
            last = current[-1]
            # One block of overlap, unless it would not fit or would repeat a one-block chunk.
            keep = len(current) > 1 and fits([last, unit])
            current = [last] if keep else []
        current.append(unit)
    if current:
        chunks.append(current)
    return chunks


def chunk_document(
    document: Document, blocks: Sequence[Block], max_tokens: int, count: TokenCounter
) -> list[ChunkedText]:
    """Chunk a document's blocks; ``count`` returns model token counts (with special tokens).

    Boilerplate blocks and figures' text are left out: no chunk's text or block ids hold them.
    """
    blocks = [b for b in blocks if not b.boilerplate and b.kind is not BlockKind.FIGURE]
    max_chars = max_tokens * MAX_CHARS_PER_TOKEN
    units = _units(blocks, count, max_chars)
    if not units:
        return []
    out: list[ChunkedText] = []
    for run in _section_runs(units):
        # A merged run is named for its main section (the last one: stubs come first).
        section, parents = run[-1].block.section, run[-1].block.parents
        is_reference = _is_reference(run)
        header = header_for(document, section)
        (header_tokens,) = _token_counts([header], count, MAX_HEADER_TOKENS * MAX_CHARS_PER_TOKEN)
        if header_tokens > MAX_HEADER_TOKENS:
            header, header_tokens = document.title[:120], MAX_HEADER_TOKENS
            if _token_counts([header], count, max_chars)[0] > MAX_HEADER_TOKENS:  # symbols, a token each
                header = document.title[:MAX_HEADER_TOKENS]  # a token covers a character at least
        # The header and the blank line after it come out of the same window as the passage.
        budget = max_tokens - SPECIAL_TOKENS - header_tokens - 1
        for units in _pack_run(_fit(run, budget, count, max_chars), budget, max_chars):
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
                parents=parents,
                page_start=min(pages),
                page_end=max(pages),
                is_reference=is_reference,
            )
            out.append(ChunkedText(chunk=chunk, embed_text=embed_text_for(header, _indexed(units))))
    return out


def _indexed(units: list[Unit]) -> str:
    """The text a chunk is embedded and searched by: its text, with a table's rows read under their
    columns' names (``table_text.indexed_text``); the chunk's text, and where it is cut, stay the
    block's."""
    return "\n\n".join(indexed_text(u.text, u.block.text) if u.block.kind is BlockKind.TABLE else u.text for u in units)


def _fit(run: list[Unit], budget: int, count: TokenCounter, max_chars: int) -> list[Unit]:
    """Split the units longer than the window left after the header at sentence boundaries. A unit
    right after a section's heading lines leaves room for them: the headings open a chunk with the
    passage they head, instead of closing a chunk of their own that names a topic and states nothing."""
    out: list[Unit] = []
    for unit in run:
        headings = _trailing_headings(out)
        room = max(budget - sum(u.tokens for u in headings), budget // 2)
        chars = max(max_chars - sum(len(u.text) + 2 for u in headings), max_chars // 2)
        if unit.tokens <= room and len(unit.text) <= chars:
            out.append(unit)
            continue
        parts = _split_long(unit.text, room, count, chars)
        counts = _token_counts(parts, count, max_chars)
        out.extend(Unit(unit.block, p, n) for p, n in zip(parts, counts, strict=True))
    return out


def _trailing_headings(units: list[Unit]) -> list[Unit]:
    """The heading lines ending ``units``: heading blocks, or the line a section is named after (a
    page without heading markup has its one-line headings as paragraphs)."""
    n = len(units)
    while n and (units[n - 1].block.kind is BlockKind.HEADING or units[n - 1].text == units[n - 1].block.section):
        n -= 1
    return units[n:]
