"""The block index: every block's normalised text, documents in reading order, and an inverted
index of words and word pairs that picks the few candidate blocks a quote is scored against."""

from __future__ import annotations

import itertools
import math
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from corpus.author_names import byline
from corpus.models import BBox, Block, BlockKind, CharSpan, DocType
from tools.citations.normalise import normalise

#: Candidates are looked up by the quote's rarest ``LOOKUP_KEYS`` word pairs and words, skipping
#: those in more than ``MAX_DF_FRACTION`` of all blocks unless fewer than ``MIN_LOOKUP_KEYS`` are left.
LOOKUP_KEYS = 16
MIN_LOOKUP_KEYS = 4
MAX_DF_FRACTION = 0.05


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
    parents: tuple[str, ...]
    kind: str
    # The superscript marks the page printed in the text (footnote numbers, affiliation symbols), as
    # (start, end) offsets: what a quote keeps but a reading of it leaves out.
    marks: tuple[tuple[int, int], ...] = ()


class BlockIndex:
    """Every block's normalised text, documents' blocks in reading order, and a word index.

    Blocks are stored document by document in reading order, so a document is a contiguous range
    and a block's neighbours are the positions either side of it. The word index is CSR-shaped
    (numpy): for each word id, the sorted positions of the blocks containing it.
    """

    def __init__(
        self,
        blocks: Iterable[Block],
        titles: dict[str, str] | None = None,
        bylines: dict[str, str] | None = None,
        ocr_pages: dict[str, frozenset[int]] | None = None,
        types: dict[str, DocType] | None = None,
    ):
        """``titles`` and ``bylines`` (``corpus.author_names.byline``) by document id, for the
        resolutions to name the document by; ``ocr_pages``, the pages of each document whose text
        came from OCR, for them to say so; ``types``, each document's format, for them to be located
        in its units (a slide, a section; by page where unknown)."""
        ordered = sorted(blocks, key=lambda b: (b.doc_id, b.seq))
        titles = titles or {}
        bylines = bylines or {}
        types = types or {}
        self.ocr_pages = ocr_pages or {}
        self.doc_ids: list[str] = []
        self.titles: list[str] = []
        self.bylines: list[str] = []
        self.types: list[DocType | None] = []
        # A section's headings, one tuple shared by all its blocks.
        paths: dict[tuple[str, ...], tuple[str, ...]] = {}
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
                self.bylines.append(bylines.get(b.doc_id, ""))
                self.types.append(types.get(b.doc_id))
                self.doc_ranges.append((len(self.texts), len(self.texts)))
            start, _ = self.doc_ranges[d]
            self.position[b.block_id] = len(self.texts)
            self.texts.append(b.text)
            self.norms.append(normalise(b.text))
            self.meta.append(
                _Meta(
                    b.block_id,
                    d,
                    b.seq,
                    b.page,
                    (b.bbox.x0, b.bbox.top, b.bbox.x1, b.bbox.bottom) if b.bbox else None,
                    (b.span.start, b.span.end) if b.span else None,
                    b.section,
                    paths.setdefault(tuple(b.parents), tuple(b.parents)),
                    b.kind.value,
                    tuple((m.start, m.end) for m in b.marks),
                )
            )
            self.doc_ranges[d] = (start, len(self.texts))
        self._doc_pos = doc_pos
        self._build_word_index()

    @classmethod
    def from_registry(cls, registry) -> BlockIndex:
        """All blocks of the registry's ready documents."""
        documents = registry.documents()
        titles = {d.doc_id: d.title for d in documents}
        bylines = {d.doc_id: byline(d.bibliography.authors, d.year) for d in documents}
        ocr_pages = {d.doc_id: frozenset(d.ocr.pages) for d in documents if d.ocr and d.ocr.pages}
        types = {d.doc_id: d.type for d in documents}
        return cls(registry.iter_blocks(), titles, bylines, ocr_pages, types)

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
        pair_keys = {a * v + b for a, b in pairwise(ids) if a is not None and b is not None}
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
            block_id=m.block_id,
            doc_id=self.doc_ids[m.doc],
            seq=m.seq,
            page=m.page,
            bbox=BBox(x0=m.bbox[0], top=m.bbox[1], x1=m.bbox[2], bottom=m.bbox[3]) if m.bbox else None,
            span=CharSpan(start=m.span[0], end=m.span[1]) if m.span else None,
            section=m.section,
            parents=list(m.parents),
            kind=BlockKind(m.kind),
            text=self.texts[pos],
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
