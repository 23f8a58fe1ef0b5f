"""Matching a quote against candidate blocks: alignment, score, word coverage and number check
(see the package docstring, steps 2-4), and the search state of one resolution."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from rapidfuzz import fuzz
from rapidfuzz.distance import Indel, LCSseq

from tools.citations.index import BlockIndex
from tools.citations.normalise import normalise

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
#: Candidates whose lexical score is under this share of the scope's best are not scored: the
#: source of a quote shares nearly all its rare words and word pairs (a block holding half a
#: two-block quote still has about half), so they only cost time.
LEXICAL_FLOOR = 0.35
#: Singles in a scope (best by score, and best by lexical rank) whose neighbours are tried as
#: two-block matches.
PAIR_SEEDS = 3
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


@dataclass(slots=True)
class Match:
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
        op
        for op in Indel.opcodes(quote, text[lo:hi])
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
    numbers = _without_cut_ends(numbers, quote_words, set(source))
    return LCSseq.similarity(numbers, source) == len(numbers)


def _without_cut_ends(numbers: list[str], quote_words: list[str], known: set[str]) -> list[str]:
    """The quote's numbers less its first or last word when that is only the end or the start of a
    number in the source (the quote begins or ends mid-number)."""
    first = numbers[0]
    if quote_words[0] == first and first not in known and any(r.endswith(first) for r in known):
        numbers = numbers[1:]
    if (
        numbers
        and quote_words[-1] == numbers[-1]
        and numbers[-1] not in known
        and any(r.startswith(numbers[-1]) for r in known)
    ):
        numbers = numbers[:-1]
    return numbers


class Resolver:
    """One resolution: the quote, what has been scored so far, and the best match."""

    def __init__(self, index: BlockIndex, quote: str, words: list[str]):
        self.index = index
        self.quote = quote
        self.words = words
        self.matches: list[Match] = []
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

    def score(self, positions: tuple[int, ...], scope: int) -> Match | None:
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
        match = Match(positions, score, coverage, start, end, scope, len(self.matches))
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
        pairs += [
            pair
            for p in positions
            for pair in self.index.neighbours(p)
            if pair[0] in candidates and pair[1] in candidates
        ]
        for pair in dict.fromkeys(pairs):
            paired = self.score(pair, scope)
            if paired is not None and paired.score >= CONFIDENT_SCORE:
                return True
        return False

    def best(self) -> Match | None:
        eligible = [m for m in self.matches if m.score >= ACCEPT_SCORE and m.coverage >= MIN_WORD_COVERAGE]
        if not eligible:
            return None
        top = max(m.rank_score for m in eligible)
        near = [m for m in eligible if m.rank_score >= top - TIE_EPSILON]
        return min(near, key=lambda m: (m.scope, len(m.positions), m.order))
