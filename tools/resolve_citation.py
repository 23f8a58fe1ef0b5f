"""The citation tool: find the block(s) a quoted span really comes from.

Cited text is the source of truth. The block id the model gives is only a hint about where to look
first; the block whose text best matches the quote wins, whatever the hint said. There is one
resolution path for every citation:

1. Normalise the quote and the blocks the same way (NFKD + case fold, so ligatures and accents
   fold; Unicode quotes and dashes; hyphenation at line breaks, ``retriev- al`` and ``retriev-\\nal``;
   numbers kept whole, ``78.4`` -> ``784``; other punctuation and whitespace collapse to single
   spaces). ``normalise_with_map`` keeps, for every
   normalised character, its offset in the original text, so the match is reported as an exact
   substring of the block's own text.
2. Look in widening scopes: the hinted block (and its neighbours), then the hinted block's document,
   then the blocks the agent retrieved, then the whole corpus. Inside a scope the candidates are the
   blocks sharing the quote's rarest word pairs and words (an inverted index, so only a few dozen
   blocks are ever scored with rapidfuzz, whatever the corpus size). A scope that yields an exact
   normalised match ends the search; otherwise every scope is searched and the best match overall
   wins (ties go to the earlier scope, so the hint only ever breaks ties).
3. Score a candidate with rapidfuzz: ``partial_ratio_alignment`` locates the quote in the block,
   ``Indel.opcodes`` over a slightly wider window finds the exact matched region (dropped words make
   the source longer than the quote), and the score is the better of the two similarities. Two more
   conditions: the quote's words must be found, in order, in the region (``MIN_WORD_COVERAGE``),
   which separates "a quote with a few words left out" from "half a real sentence glued to
   something else"; and the quote's numbers must all be in the region, in order ("78.4%" is no
   quote of "71.2%", however close the rest).
4. A quote that runs from the end of one block into the start of the next in the same document is
   matched against the two blocks' text joined, and resolves to both ids.
5. Quotes under ``SHORT_QUOTE_WORDS`` words or ``SHORT_QUOTE_CHARS`` characters only resolve to an
   exact normalised match (a fuzzy match of three words means nothing), and only when the match is
   unambiguous: the hinted block, else the occurrence nearest to it in its document, else a single
   occurrence among the retrieved blocks or in the corpus.

Anything that does not pass returns ``None``: the caller flags or drops the claim, it never shows it
as cited.
"""

from __future__ import annotations

import itertools
import math
import re
import unicodedata
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, Field
from rapidfuzz import fuzz
from rapidfuzz.distance import Indel, LCSseq

from corpus.models import BBox, Block, BlockKind, CharSpan

# --- thresholds ------------------------------------------------------------------------------
# Calibrated with benchmarks/citation_resolution.py on a 50K-block index (20,058 real blocks from 8
# PDFs and 281 QASPER papers, padded with Markov-generated in-domain filler): ~2,000 real spans under
# seven perturbations plus mixed-noise and two-block quotes, and ~250 fabricated spans (halves of
# sentences from two documents joined, shuffled words, Markov sentences, one digit of a number
# changed). With the thresholds switched off, the best candidate of every genuine quote scores 100
# (exact and all normalisable noise) or 81-100 (10% of words dropped, p1 ~87-89), with word
# coverage >= 0.95 (one exception in 6,000: a dropped-word line of code). Fabricated quotes reach scores of 90+ (half of a real sentence matches very
# well), so the score alone cannot reject them; their coverage tops out at 0.80 (recombinations are
# <= 80% real by construction, see the benchmark) and a changed number fails the number check. So:
# the score cut sits below the noisiest genuine quotes, and the coverage cut between 0.80 and 0.95,
# leaving room for one changed word in ten (a model "fixing" a typo).

#: Minimum similarity (0-100) between the quote and the matched region for a fuzzy match.
ACCEPT_SCORE = 80.0
#: Minimum share of the quote's words found, in order, in the matched region (± a few words).
MIN_WORD_COVERAGE = 0.88
#: Quotes this short (words or normalised characters) only resolve on an exact normalised match.
SHORT_QUOTE_WORDS = 4
SHORT_QUOTE_CHARS = 20
#: A scope whose best match scores this much ends the search (only an exact normalised match: a
#: noisy match in the hinted block could still be beaten by a cleaner one elsewhere).
CONFIDENT_SCORE = 100.0
#: Scores this close count as a tie, which goes to the earlier scope (hint > document > retrieved >
#: corpus), then to a single block over a pair.
TIE_EPSILON = 0.5
#: A two-block match must beat the best single block by this much, and put at least
#: ``PAIR_MIN_SIDE_CHARS`` normalised characters of the quote on each side of the boundary.
PAIR_MARGIN = 2.0
PAIR_MIN_SIDE_CHARS = 8
#: How many candidates each scope scores with rapidfuzz (chosen by the inverted index).
DOC_CANDIDATES = 8
RETRIEVED_CANDIDATES = 12
CORPUS_CANDIDATES = 16
#: Candidates whose lexical score is under this share of the scope's best are not scored: the
#: source of a quote shares nearly all its rare words and word pairs (a block holding half a
#: two-block quote still has about half), so they only cost time.
LEXICAL_FLOOR = 0.35
#: Singles in a scope (best by score, and best by lexical rank) whose neighbours are tried as
#: two-block matches.
PAIR_SEEDS = 3
#: Candidates are looked up by the quote's rarest ``LOOKUP_KEYS`` word pairs and words, skipping
#: those in more than ``MAX_DF_FRACTION`` of all blocks unless fewer than ``MIN_LOOKUP_KEYS`` are left.
LOOKUP_KEYS = 16
MIN_LOOKUP_KEYS = 4
MAX_DF_FRACTION = 0.05
#: Extra room around the located window when refining it, as a share of the quote's length: 10% of
#: the words dropped makes the source ~10-15% longer than the quote.
WINDOW_SLACK = 0.3
#: Matching runs shorter than this at either end of an alignment are stray letters, not the quote.
MIN_ANCHOR_CHARS = 4
#: Words of context either side of the region when measuring word coverage.
COVERAGE_CONTEXT_WORDS = 3
#: Up to this many words split one way and joined the other ("state of the art" / "stateoftheart")
#: count as one word when measuring coverage.
MAX_MERGED_WORDS = 4


# --- normalisation -------------------------------------------------------------------------------

_HYPHENS = frozenset("-\u00ad\u2010\u2011\u2012\u2013\u2212\ufe63\uff0d")


class _FoldTable(dict):
    """``str.translate`` table filled on demand: each character -> its folded form.

    Case-folded NFKD (ligatures, full-width forms, accents), combining marks and invisible format
    characters dropped, hyphen-like characters (incl. soft hyphen, en dash, minus) -> ``-``, full
    stops and commas -> ``.``, any other non-alphanumeric character (punctuation, quotes, em dash,
    whitespace) -> a space. Per character, so it can keep offsets; NFKD is per character anyway, up
    to mark order, and marks go.
    """

    def __missing__(self, code: int) -> str:
        out: list[str] = []
        for d in unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", chr(code)).casefold()):
            if d in _HYPHENS:
                out.append("-")
            elif d in ".,":  # kept for now: between digits it joins ("78.4", "1,000"), else a space
                out.append(".")
            elif d.isalnum():
                out.append(d)
            elif unicodedata.category(d) in ("Mn", "Me", "Cf"):
                continue
            else:
                out.append(" ")
        folded = "".join(out)
        self[code] = folded
        return folded


_FOLD = _FoldTable()
# A hyphen between two word characters, with optional spaces after it (a line break folded to a
# space): "retriev-\nal", "retriev- al" and "retrieval" all become "retrieval", and "state-of-the-art"
# and "state-of-the-\nart" both become "stateoftheart". And a full stop or comma between digits,
# so a number stays one word ("78.4%" -> "784", "1,000" -> "1000") and can be checked as a whole.
# Applied alike to quotes and blocks.
_JOIN = re.compile(r"(?<=[^ .\-])- *(?=[^ .\-])|(?<=\d)\.(?=\d)")


def normalise(text: str) -> str:
    """The form quotes and blocks are compared in: lower-case words separated by single spaces."""
    folded = _JOIN.sub("", text.translate(_FOLD))
    return " ".join(folded.replace("-", " ").replace(".", " ").split())


_ASCII_RUNS = re.compile(r"[\x00-\x7f]+|[^\x00-\x7f]")
# A normalised word in the folded text: letters/digits, possibly joined by hyphens or, between
# digits, by full stops and commas (the joins of _JOIN).
_FOLDED_WORD = re.compile(r"[^ .\-]+(?:(?:- *|(?<=\d)\.(?=\d))[^ .\-]+)*")
_FOLDED_PIECE = re.compile(r"[^ .\-]+")


def normalise_with_map(text: str) -> tuple[str, list[int]]:
    """``normalise(text)`` and, for each of its characters, the offset it came from in ``text``."""
    if text.isascii():  # ASCII folds one character to one character
        folded = text.translate(_FOLD)
        origin: Sequence[int] = range(len(text))
    else:
        parts: list[str] = []
        origin = []
        for run in _ASCII_RUNS.finditer(text):
            part = run.group().translate(_FOLD)
            parts.append(part)
            if len(part) == run.end() - run.start():
                origin.extend(range(run.start(), run.end()))
            else:  # one non-ASCII character folded to none or several
                origin.extend([run.start()] * len(part))
        folded = "".join(parts)
    words: list[str] = []
    out_origin: list[int] = []
    for word in _FOLDED_WORD.finditer(folded):
        if words:
            out_origin.append(origin[word.start() - 1])  # the separator before the word
        pieces = _FOLDED_PIECE.findall(folded, word.start(), word.end())
        if len(pieces) == 1:
            out_origin.extend(origin[word.start() : word.end()])
        else:
            for piece in _FOLDED_PIECE.finditer(folded, word.start(), word.end()):
                out_origin.extend(origin[piece.start() : piece.end()])
        words.append("".join(pieces))
    return " ".join(words), out_origin


# --- results ---------------------------------------------------------------------------------------


class CitedBlock(BaseModel):
    """One block a citation resolved to, with where the quote sits in it."""

    block_id: str
    page: int
    bbox: BBox | None = None
    span: CharSpan | None = Field(default=None, description="The block's span in the document's text.")
    match: CharSpan = Field(description="Offsets of the matched text inside this block's text.")
    matched_text: str = Field(description="The part of the quote's match inside this block.")


class Resolution(BaseModel):
    doc_id: str
    title: str
    block_ids: list[str] = Field(description="One block, or two adjacent blocks of one document.")
    page: int = Field(description="Page of the first block.")
    pages: list[int]
    bboxes: list[CitedBlock]
    quote: str = Field(description="The cited text as given.")
    matched_text: str = Field(
        description="The exact text of the block(s) that matched; for two blocks, the two parts "
        "joined with a newline, as in block_text."
    )
    score: float = Field(
        description="Similarity of quote and matched text, 0-100 (100: exact after normalisation)."
    )
    coverage: float = Field(description="Share of the quote's words found in order in the matched text.")
    hint_used: bool = Field(description="Whether the resolved block(s) include the hinted block.")
    scope: str = Field(description="Where the match was found: hint, document, retrieved or corpus.")
    block_text: str = Field(description="Full text of the resolved block(s), joined with a newline.")


# --- the index --------------------------------------------------------------------------------------


def _csr(keys: np.ndarray, owners: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Deduplicated ``(key, block)`` pairs as sorted distinct keys, offsets and block positions."""
    order = np.lexsort((owners, keys))  # by key, then block
    keys, owners = keys[order], owners[order]
    keep = np.ones(len(keys), dtype=bool)
    keep[1:] = (keys[1:] != keys[:-1]) | (owners[1:] != owners[:-1])
    keys, owners = keys[keep], owners[keep]
    distinct, starts = np.unique(keys, return_index=True)
    offsets = np.append(starts, len(keys)).astype(np.int64)
    return distinct, offsets, owners.astype(np.int32)


@dataclass(frozen=True, slots=True)
class _Meta:
    block_id: str
    doc: int
    seq: int
    page: int
    bbox: tuple[float, float, float, float] | None
    span: tuple[int, int] | None
    section: str
    kind: str


class BlockIndex:
    """Every block's normalised text, documents' blocks in reading order, and a word index.

    Blocks are stored document by document in reading order, so a document is a contiguous range
    and a block's neighbours are the positions either side of it. The word index is CSR-shaped
    (numpy): for each word id, the sorted positions of the blocks containing it.
    """

    def __init__(self, blocks: Iterable[Block], titles: dict[str, str] | None = None):
        ordered = sorted(blocks, key=lambda b: (b.doc_id, b.seq))
        titles = titles or {}
        self.doc_ids: list[str] = []
        self.titles: list[str] = []
        self.doc_ranges: list[tuple[int, int]] = []
        self.texts: list[str] = []
        self.norms: list[str] = []
        self.meta: list[_Meta] = []
        self.position: dict[str, int] = {}
        doc_pos: dict[str, int] = {}
        for b in ordered:
            d = doc_pos.get(b.doc_id)
            if d is None:
                d = doc_pos[b.doc_id] = len(self.doc_ids)
                self.doc_ids.append(b.doc_id)
                self.titles.append(titles.get(b.doc_id, b.doc_id))
                self.doc_ranges.append((len(self.texts), len(self.texts)))
            start, _ = self.doc_ranges[d]
            self.position[b.block_id] = len(self.texts)
            self.texts.append(b.text)
            self.norms.append(normalise(b.text))
            self.meta.append(
                _Meta(
                    b.block_id, d, b.seq, b.page,
                    (b.bbox.x0, b.bbox.top, b.bbox.x1, b.bbox.bottom) if b.bbox else None,
                    (b.span.start, b.span.end) if b.span else None,
                    b.section, b.kind.value,
                )
            )
            self.doc_ranges[d] = (start, len(self.texts))
        self._doc_pos = doc_pos
        self._build_word_index()

    @classmethod
    def from_registry(cls, registry) -> BlockIndex:
        """All blocks of the registry's ready documents."""
        titles = {d.doc_id: d.title for d in registry.documents()}
        return cls(registry.iter_blocks(), titles)

    def __len__(self) -> int:
        return len(self.texts)

    def _build_word_index(self) -> None:
        n = len(self.norms)
        vocab: dict[str, int] = {}
        # Word ids come from a running counter, so they are unique but not contiguous: a new word
        # takes the number of tokens seen so far (cheaper than len(vocab) per token).
        counter = itertools.count()
        tokens = array("i")
        lengths = np.zeros(n, dtype=np.int64)
        add = vocab.setdefault
        for i, norm in enumerate(self.norms):
            words = norm.split()
            tokens.extend(map(add, words, counter))
            lengths[i] = len(words)
        self._vocab = vocab
        self._id_bound = v = next(counter) + 1
        tok = np.frombuffer(tokens, dtype=np.int32).astype(np.int64)
        del tokens
        owners = np.repeat(np.arange(n, dtype=np.int32), lengths)
        # Words: (word, block) pairs, deduplicated and sorted by word then block.
        self._w_keys, self._w_offsets, self._w_postings = _csr(tok, owners)
        # Word pairs (adjacent words inside a block), keyed first * V + second.
        same = owners[:-1] == owners[1:]
        pair_keys = tok[:-1][same] * v + tok[1:][same]
        self._p_keys, self._p_offsets, self._p_postings = _csr(pair_keys, owners[:-1][same])
        self._n = n

    def _lookup(self, keys: np.ndarray, which: str) -> list[tuple[int, int]]:
        """Posting ranges ``(start, end)`` of the ``keys`` that occur, rarest first."""
        all_keys = self._w_keys if which == "w" else self._p_keys
        offsets = self._w_offsets if which == "w" else self._p_offsets
        if not len(keys) or not len(all_keys):
            return []
        at = np.searchsorted(all_keys, keys)
        inside = at < len(all_keys)
        at, keys = at[inside], keys[inside]
        found = at[all_keys[at] == keys]
        ranges = [(int(offsets[i]), int(offsets[i + 1])) for i in found]
        return sorted(ranges, key=lambda r: r[1] - r[0])

    def _word_ids(self, words: Sequence[str]) -> list[int | None]:
        return [self._vocab.get(w) for w in words]

    def lexical_scores(self, words: Sequence[str]) -> np.ndarray | None:
        """Per block, the summed idf of the quote's rarest word pairs and words it contains.

        Word pairs carry the order, so a sentence of common words still singles out its block;
        single words keep a quote whose pairs noise has broken findable. None: no known word.
        """
        ids = self._word_ids(words)
        known = np.asarray(sorted({i for i in ids if i is not None}), dtype=np.int64)
        if not len(known):
            return None
        v = self._id_bound
        pair_keys = {a * v + b for a, b in zip(ids, ids[1:]) if a is not None and b is not None}
        pairs = np.asarray(sorted(pair_keys), dtype=np.int64)
        max_df = max(1, int(MAX_DF_FRACTION * self._n))
        scores = np.zeros(self._n, dtype=np.float32)
        for which, keys, postings in (("p", pairs, self._p_postings), ("w", known, self._w_postings)):
            ranges = self._lookup(keys, which)
            rare = [r for r in ranges if r[1] - r[0] <= max_df]
            if len(rare) < MIN_LOOKUP_KEYS:  # a sentence of common words: use its least common ones
                rare = ranges[:MIN_LOOKUP_KEYS]
            for start, end in rare[:LOOKUP_KEYS]:
                scores[postings[start:end]] += math.log((self._n + 1) / (end - start + 0.5))
        return scores

    def blocks_with_all(self, words: Sequence[str]) -> list[int]:
        """Positions of blocks containing every one of ``words`` (for exact short-quote matches)."""
        ids = self._word_ids(words)
        if not ids or None in ids:
            return []
        ranges = self._lookup(np.asarray(sorted(set(ids)), dtype=np.int64), "w")
        if len(ranges) < len(set(ids)):
            return []
        common = self._w_postings[ranges[0][0] : ranges[0][1]]
        for start, end in ranges[1:]:
            common = np.intersect1d(common, self._w_postings[start:end], assume_unique=True)
            if not len(common):
                break
        return [int(i) for i in common]

    def block(self, block_id: str) -> Block | None:
        pos = self.position.get(block_id)
        return None if pos is None else self._block_at(pos)

    def _block_at(self, pos: int) -> Block:
        m = self.meta[pos]
        return Block(
            block_id=m.block_id, doc_id=self.doc_ids[m.doc], seq=m.seq, page=m.page,
            bbox=BBox(x0=m.bbox[0], top=m.bbox[1], x1=m.bbox[2], bottom=m.bbox[3]) if m.bbox else None,
            span=CharSpan(start=m.span[0], end=m.span[1]) if m.span else None,
            section=m.section, kind=BlockKind(m.kind), text=self.texts[pos],
        )

    def neighbours(self, pos: int) -> list[tuple[int, int]]:
        """The two-block windows ``pos`` is part of, inside its document."""
        start, end = self.doc_ranges[self.meta[pos].doc]
        pairs = []
        if pos - 1 >= start:
            pairs.append((pos - 1, pos))
        if pos + 1 < end:
            pairs.append((pos, pos + 1))
        return pairs

    def stats(self) -> dict[str, int]:
        return {
            "blocks": len(self.texts),
            "documents": len(self.doc_ids),
            "vocabulary": len(self._vocab),
            "word_postings": int(len(self._w_postings)),
            "pair_keys": int(len(self._p_keys)),
            "pair_postings": int(len(self._p_postings)),
            "normalised_chars": sum(len(n) for n in self.norms),
        }


# --- matching ---------------------------------------------------------------------------------------

_SCOPES = ("hint", "document", "retrieved", "corpus")


@dataclass(slots=True)
class _Match:
    positions: tuple[int, ...]
    score: float
    coverage: float
    start: int  # region in the candidate's normalised text
    end: int
    scope: int
    order: int  # evaluation order, the last tie-breaker

    @property
    def rank_score(self) -> float:
        return self.score - (PAIR_MARGIN if len(self.positions) > 1 else 0.0)


def _anchored_region(quote: str, text: str, lo: int, hi: int) -> tuple[int, int] | None:
    """The part of ``text[lo:hi]`` the quote aligns to, without stray letters at either end."""
    equal = [
        op for op in Indel.opcodes(quote, text[lo:hi])
        if op.tag == "equal" and op.dest_end - op.dest_start >= MIN_ANCHOR_CHARS
    ]
    if not equal:
        return None
    return lo + equal[0].dest_start, lo + equal[-1].dest_end


def _widen(text: str, start: int, end: int, words: int) -> tuple[int, int]:
    """Widen a word-aligned ``[start, end)`` by ``words`` words either side."""
    for _ in range(words):
        if start <= 0:
            break
        start = text.rfind(" ", 0, start - 1) + 1
    for _ in range(words):
        if end >= len(text):
            break
        nxt = text.find(" ", end + 1)
        end = len(text) if nxt < 0 else nxt
    return start, end


def _snap_to_words(text: str, start: int, end: int) -> tuple[int, int]:
    while start > 0 and text[start - 1] != " ":
        start -= 1
    while end < len(text) and text[end] != " ":
        end += 1
    while start < end and text[start] == " ":
        start += 1
    while end > start and text[end - 1] == " ":
        end -= 1
    return start, end


def _align(quote: str, quote_words: list[str], text: str) -> tuple[float, float, int, int]:
    """Score, word coverage and the matched region ``[start, end)`` of ``quote`` in ``text``."""
    if not text:
        return 0.0, 0.0, 0, 0
    at = f" {text} ".find(f" {quote} ")
    if at >= 0:  # exact after normalisation: no need for rapidfuzz
        return 100.0, 1.0, at, at + len(quote)
    if len(quote) >= len(text):
        # The block is shorter than the quote: the quote has to be (nearly) all of it.
        score = fuzz.ratio(quote, text)
        region = (0, len(text))
    else:
        located = fuzz.partial_ratio_alignment(quote, text)
        if located.score >= 100.0:
            start, end = _snap_to_words(text, located.dest_start, located.dest_end)
            return 100.0, 1.0, start, end
        slack = int(len(quote) * WINDOW_SLACK) + 8
        lo = max(0, located.dest_start - slack)
        hi = min(len(text), located.dest_end + slack)
        region = _anchored_region(quote, text, lo, hi) or (located.dest_start, located.dest_end)
        score = max(located.score, fuzz.ratio(quote, text[region[0] : region[1]]))
    start, end = _snap_to_words(text, *region)
    c_start, c_end = _widen(text, start, end, COVERAGE_CONTEXT_WORDS)
    return float(score), _coverage(quote_words, text[c_start:c_end].split()), start, end


def _merge_splits(words: list[str], other: set[str]) -> list[str]:
    """Join runs of ``words`` whose concatenation is one word of ``other`` ("top 20" ~ "top20")."""
    out: list[str] = []
    i = 0
    while i < len(words):
        for j in range(min(len(words), i + MAX_MERGED_WORDS), i + 1, -1):
            if "".join(words[i:j]) in other:
                out.append("".join(words[i:j]))
                i = j
                break
        else:
            out.append(words[i])
            i += 1
    return out


def _coverage(quote_words: list[str], region_words: list[str]) -> float:
    """Share of the quote's words found in order in the region, blind to how compounds are split
    (a quote's "state of the art" against the block's "state-of-the-art", normalised "stateoftheart")."""
    found = LCSseq.similarity(quote_words, region_words)
    if found == len(quote_words):
        return 1.0
    quote_words = _merge_splits(quote_words, set(region_words))
    region_words = _merge_splits(region_words, set(quote_words))
    if not _numbers_agree(quote_words, region_words):
        return 0.0
    return LCSseq.similarity(quote_words, region_words) / len(quote_words)


def _numbers_agree(quote_words: list[str], region_words: list[str]) -> bool:
    """The quote's numbers appear in the source, in the same order: "reaches 78.4%" is no quote of
    "reaches 71.2%", and "windows of 1, 5, 4 and 5" none of "windows of 1, 3, 4 and 5", however
    close the rest. Leaving a number out is fine; the first and last words may be cut short
    (a quote starting mid-number)."""
    numbers = [w for w in quote_words if any(c.isdigit() for c in w)]
    if not numbers:
        return True
    source = [w for w in region_words if any(c.isdigit() for c in w)]
    known = set(source)
    first = numbers[0]
    if quote_words[0] == first and first not in known and any(r.endswith(first) for r in known):
        numbers = numbers[1:]
    if numbers and quote_words[-1] == numbers[-1] and numbers[-1] not in known and any(
        r.startswith(numbers[-1]) for r in known
    ):
        numbers = numbers[:-1]
    return LCSseq.similarity(numbers, source) == len(numbers)


class _Resolver:
    """One resolution: the quote, what has been scored so far, and the best match."""

    def __init__(self, index: BlockIndex, quote: str, words: list[str]):
        self.index = index
        self.quote = quote
        self.words = words
        self.matches: list[_Match] = []
        self.seen: set[tuple[int, ...]] = set()
        self._lexical: np.ndarray | None = None
        self._lexical_done = False

    @property
    def lexical(self) -> np.ndarray | None:
        if not self._lexical_done:
            self._lexical = self.index.lexical_scores(self.words)
            self._lexical_done = True
        return self._lexical

    def top(self, positions: np.ndarray, k: int) -> list[int]:
        """The ``k`` positions with the best lexical score (ignoring blocks sharing no rare word)."""
        lex = self.lexical
        if lex is None or not len(positions):
            return []
        scores = lex[positions]
        if len(positions) > k:
            keep = np.argpartition(-scores, k - 1)[:k]
            positions, scores = positions[keep], scores[keep]
        order = np.argsort(-scores, kind="stable")
        floor = max(float(scores[order[0]]) * LEXICAL_FLOOR, 1e-6) if len(order) else 0.0
        return [int(positions[i]) for i in order if scores[i] >= floor]

    def score(self, positions: tuple[int, ...], scope: int) -> _Match | None:
        if positions in self.seen:
            return None
        self.seen.add(positions)
        if len(positions) == 1:
            text = self.index.norms[positions[0]]
        else:
            text = normalise("\n".join(self.index.texts[p] for p in positions))
        score, coverage, start, end = _align(self.quote, self.words, text)
        if len(positions) > 1:
            boundary = len(self.index.norms[positions[0]])
            if start > boundary - PAIR_MIN_SIDE_CHARS or end < boundary + PAIR_MIN_SIDE_CHARS:
                return None  # the match does not really run across the two blocks
        match = _Match(positions, score, coverage, start, end, scope, len(self.matches))
        self.matches.append(match)
        return match

    def run_scope(self, positions: Iterable[int], scope: int) -> bool:
        """Score ``positions`` and their neighbour pairs; True when a match is confident."""
        positions = list(positions)  # in lexical order
        found = [m for p in positions if (m := self.score((p,), scope)) is not None]
        if any(m.score >= CONFIDENT_SCORE for m in found):
            return True
        # Two-block windows around the best singles by score and by lexical rank (a quote split
        # over two blocks matches neither block well, but shares rare words with both), and any two
        # neighbouring blocks that are both candidates.
        seeds = [m.positions[0] for m in sorted(found, key=lambda m: -m.score)[:PAIR_SEEDS]]
        seeds += positions[:PAIR_SEEDS]
        candidates = set(positions)
        pairs = [pair for p in dict.fromkeys(seeds) for pair in self.index.neighbours(p)]
        pairs += [pair for p in positions for pair in self.index.neighbours(p) if pair[0] in candidates
                  and pair[1] in candidates]
        for pair in dict.fromkeys(pairs):
            paired = self.score(pair, scope)
            if paired is not None and paired.score >= CONFIDENT_SCORE:
                return True
        return False

    def best(self) -> _Match | None:
        eligible = [m for m in self.matches if m.score >= ACCEPT_SCORE and m.coverage >= MIN_WORD_COVERAGE]
        if not eligible:
            return None
        top = max(m.rank_score for m in eligible)
        near = [m for m in eligible if m.rank_score >= top - TIE_EPSILON]
        return min(near, key=lambda m: (m.scope, len(m.positions), m.order))


def resolve_citation(
    cited_text: str,
    block_id_hint: str | None,
    index: BlockIndex,
    retrieved_block_ids: Sequence[str] = (),
) -> Resolution | None:
    """The block(s) whose text best matches ``cited_text``, or None if nothing matches well enough.

    ``block_id_hint`` only decides where to look first; an unknown id is ignored.
    ``retrieved_block_ids`` (the blocks the agent has seen) are searched before the whole corpus.
    """
    quote = normalise(cited_text or "")
    words = quote.split()
    if not words or not len(index):
        return None
    hint = index.position.get(block_id_hint) if block_id_hint else None
    retrieved = np.asarray(
        sorted({p for b in retrieved_block_ids if (p := index.position.get(b)) is not None}), dtype=np.int64
    )
    if len(words) < SHORT_QUOTE_WORDS or len(quote) < SHORT_QUOTE_CHARS:
        return _resolve_short(cited_text, quote, words, hint, retrieved, index)

    resolver = _Resolver(index, quote, words)
    if hint is not None:
        done = resolver.run_scope([hint], 0)
        if not done:
            start, end = index.doc_ranges[index.meta[hint].doc]
            done = resolver.run_scope(resolver.top(np.arange(start, end), DOC_CANDIDATES), 1)
    else:
        done = False
    if not done and len(retrieved):
        done = resolver.run_scope(resolver.top(retrieved, RETRIEVED_CANDIDATES), 2)
    if not done:
        lex = resolver.lexical
        if lex is not None:
            resolver.run_scope(resolver.top(np.arange(len(lex)), CORPUS_CANDIDATES), 3)
    best = resolver.best()
    if best is None:
        return None
    return _resolution(index, cited_text, best, hint)


def _resolve_short(
    cited_text: str, quote: str, words: list[str], hint: int | None, retrieved: np.ndarray, index: BlockIndex
) -> Resolution | None:
    """Exact normalised match only, and only if one block is the obvious answer."""
    padded = f" {quote} "
    containing = [p for p in index.blocks_with_all(words) if padded in f" {index.norms[p]} "]
    if not containing:
        return None
    if hint is not None:
        if hint in containing:
            return _exact(index, cited_text, quote, (hint,), 0, hint)
        start, end = index.doc_ranges[index.meta[hint].doc]
        in_doc = [p for p in containing if start <= p < end]
        if in_doc:  # the nearest occurrence to the hinted block, in its document
            return _exact(index, cited_text, quote, (min(in_doc, key=lambda p: abs(p - hint)),), 1, hint)
    retrieved_set = set(retrieved.tolist())
    in_retrieved = [p for p in containing if p in retrieved_set]
    if len(in_retrieved) == 1:
        return _exact(index, cited_text, quote, (in_retrieved[0],), 2, hint)
    if not in_retrieved and len(containing) == 1:
        return _exact(index, cited_text, quote, (containing[0],), 3, hint)
    return None  # several blocks say exactly this: a short quote cannot tell them apart


def _exact(index: BlockIndex, cited_text: str, quote: str, positions: tuple[int, ...], scope: int,
           hint: int | None) -> Resolution:
    text = index.norms[positions[0]]
    start = f" {text} ".index(f" {quote} ")
    match = _Match(positions, 100.0, 1.0, start, start + len(quote), scope, 0)
    return _resolution(index, cited_text, match, hint)


def _resolution(index: BlockIndex, cited_text: str, match: _Match, hint: int | None) -> Resolution:
    texts = [index.texts[p] for p in match.positions]
    joined = "\n".join(texts)
    _, origin = normalise_with_map(joined)
    start = origin[match.start] if match.start < len(origin) else len(joined)
    # Through the whole original character the last matched one came from (all of a ligature).
    end = origin[match.end - 1] + 1 if match.end > 0 else start
    matched = joined[start:end]
    cited: list[CitedBlock] = []
    offset = 0
    for p, text in zip(match.positions, texts, strict=True):
        lo = max(start, offset) - offset
        hi = min(end, offset + len(text)) - offset
        lo, hi = (lo, hi) if hi > lo else (0, 0)
        m = index.meta[p]
        cited.append(
            CitedBlock(
                block_id=m.block_id, page=m.page,
                bbox=BBox(x0=m.bbox[0], top=m.bbox[1], x1=m.bbox[2], bottom=m.bbox[3]) if m.bbox else None,
                span=CharSpan(start=m.span[0], end=m.span[1]) if m.span else None,
                match=CharSpan(start=lo, end=hi), matched_text=text[lo:hi],
            )
        )
        offset += len(text) + 1
    first = index.meta[match.positions[0]]
    block_ids = [index.meta[p].block_id for p in match.positions]
    return Resolution(
        doc_id=index.doc_ids[first.doc],
        title=index.titles[first.doc],
        block_ids=block_ids,
        page=first.page,
        pages=sorted({index.meta[p].page for p in match.positions}),
        bboxes=cited,
        quote=cited_text,
        matched_text=matched,
        score=round(match.score, 2),
        coverage=round(match.coverage, 3),
        hint_used=hint is not None and hint in match.positions,
        scope=_SCOPES[match.scope],
        block_text=joined,
    )


# --- the LangChain tool -----------------------------------------------------------------------------


class ResolveCitationInput(BaseModel):
    cited_text: str = Field(description="The exact text quoted from the document, copied verbatim.")
    block_id: str | None = Field(
        default=None, description="The id of the block the quote was taken from, if known (a hint only)."
    )
    retrieved_block_ids: list[str] = Field(
        default_factory=list, description="Ids of blocks retrieved so far, searched before the whole library."
    )


def make_resolve_citation_tool(index: BlockIndex) -> BaseTool:
    """``resolve_citation`` as a LangChain tool bound to ``index``."""

    def run(
        cited_text: str, block_id: str | None = None, retrieved_block_ids: list[str] | None = None
    ) -> dict | None:
        resolution = resolve_citation(cited_text, block_id, index, retrieved_block_ids or ())
        return resolution.model_dump(mode="json") if resolution else None

    return StructuredTool.from_function(
        run,
        name="resolve_citation",
        description=(
            "Find the block a quoted span comes from. Give the exact quoted text and, if known, the "
            "block id it came from. Returns the document, block id(s), page(s), bounding boxes and "
            "the matched text, or null when the quote is not in the library (do not cite it then)."
        ),
        args_schema=ResolveCitationInput,
    )
