"""The public API: ``resolve_citation`` and the ``Resolution`` it returns."""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
from pydantic import BaseModel, Field

from corpus.locations import location
from corpus.models import BBox, CharSpan, DocType
from corpus.text import unmarked
from tools.citations.index import BlockIndex
from tools.citations.match import Match, Resolver
from tools.citations.normalise import normalise, normalise_with_map

#: Quotes this short (words or normalised characters) only resolve on an exact normalised match.
SHORT_QUOTE_WORDS = 4
SHORT_QUOTE_CHARS = 20
#: How many candidates each scope scores with rapidfuzz (chosen by the inverted index).
DOC_CANDIDATES = 8
RETRIEVED_CANDIDATES = 12
CORPUS_CANDIDATES = 16

_SCOPES = ("hint", "document", "retrieved", "corpus")


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
    byline: str = Field(default="", description='The document\'s authors and year: "Halvorsen et al. (2019)".')
    block_ids: list[str] = Field(description="One block, or two adjacent blocks of one document.")
    page: int = Field(description="Page of the first block.")
    pages: list[int]
    bboxes: list[CitedBlock]
    quote: str = Field(description="The cited text as given.")
    matched_text: str = Field(
        description="The exact text of the block(s) that matched; for two blocks, the two parts "
        "joined with a newline, as in block_text."
    )
    score: float = Field(description="Similarity of quote and matched text, 0-100 (100: exact after normalisation).")
    coverage: float = Field(description="Share of the quote's words found in order in the matched text.")
    hint_used: bool = Field(description="Whether the resolved block(s) include the hinted block.")
    scope: str = Field(description="Where the match was found: hint, document, retrieved or corpus.")
    block_text: str = Field(description="Full text of the resolved block(s), joined with a newline.")
    read_text: str = Field(
        default="",
        description="The matched text as it reads: without the superscript marks the page printed in it "
        "(footnote numbers), which a quote keeps; '' for a resolution stored before it was kept.",
    )
    ocr: bool = Field(default=False, description="Whether the matched text was read by OCR from a scanned page.")
    doc_type: DocType | None = Field(
        default=None, description="The document's format, which decides how a location is written; None: unknown."
    )
    section: str = Field(default="", description="The section of the first block.")
    parents: list[str] = Field(default_factory=list, description="The headings above that section, outermost first.")

    @property
    def where(self) -> str:
        """Where the citation points, in its document's units: "p. 3", "slide 4 § Results", "§ Methods"."""
        return location(self.doc_type, self.pages, self.section, self.parents, self.title)


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

    resolver = Resolver(index, quote, words)
    _search(resolver, index, hint, retrieved)
    best = resolver.best()
    if best is None:
        return None
    return _resolution(index, cited_text, best, hint)


def _search(resolver: Resolver, index: BlockIndex, hint: int | None, retrieved: np.ndarray) -> None:
    """Scores the quote in ever wider scopes until one settles the match: the hinted block, its document,
    the retrieved blocks, then the whole corpus."""
    if hint is not None and _search_hinted(resolver, index, hint):
        return
    if len(retrieved) and resolver.run_scope(resolver.top(retrieved, RETRIEVED_CANDIDATES), 2):
        return
    lex = resolver.lexical
    if lex is not None:
        resolver.run_scope(resolver.top(np.arange(len(lex)), CORPUS_CANDIDATES), 3)


def _search_hinted(resolver: Resolver, index: BlockIndex, hint: int) -> bool:
    """Whether the hinted block, or else its document, settles the match."""
    if resolver.run_scope([hint], 0):
        return True
    start, end = index.doc_ranges[index.meta[hint].doc]
    return bool(resolver.run_scope(resolver.top(np.arange(start, end), DOC_CANDIDATES), 1))


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


def _exact(
    index: BlockIndex, cited_text: str, quote: str, positions: tuple[int, ...], scope: int, hint: int | None
) -> Resolution:
    text = index.norms[positions[0]]
    start = f" {text} ".index(f" {quote} ")
    match = Match(positions, 100.0, 1.0, start, start + len(quote), scope, 0)
    return _resolution(index, cited_text, match, hint)


def _resolution(index: BlockIndex, cited_text: str, match: Match, hint: int | None) -> Resolution:
    texts = [index.texts[p] for p in match.positions]
    joined = "\n".join(texts)
    _, origin = normalise_with_map(joined)
    start = origin[match.start] if match.start < len(origin) else len(joined)
    # Through the whole original character the last matched one came from (all of a ligature).
    end = origin[match.end - 1] + 1 if match.end > 0 else start
    # Symbols normalising drops but the quote ends with ("below 2%." matched up to "2"): kept when the
    # block has them right there, so a quoted figure keeps its unit.
    tail = re.search(r"[^\w\s]+$", cited_text.rstrip())
    if tail and joined.startswith(tail.group(), end):
        end += len(tail.group())
    matched = joined[start:end]
    cited: list[CitedBlock] = []
    read: list[str] = []
    offset = 0
    for p, text in zip(match.positions, texts, strict=True):
        lo = max(start, offset) - offset
        hi = min(end, offset + len(text)) - offset
        lo, hi = (lo, hi) if hi > lo else (0, 0)
        m = index.meta[p]
        cited.append(
            CitedBlock(
                block_id=m.block_id,
                page=m.page,
                bbox=BBox(x0=m.bbox[0], top=m.bbox[1], x1=m.bbox[2], bottom=m.bbox[3]) if m.bbox else None,
                span=CharSpan(start=m.span[0], end=m.span[1]) if m.span else None,
                match=CharSpan(start=lo, end=hi),
                matched_text=text[lo:hi],
            )
        )
        if hi > lo:
            read.append(unmarked(text, lo, hi, m.marks))
        offset += len(text) + 1
    first = index.meta[match.positions[0]]
    block_ids = [index.meta[p].block_id for p in match.positions]
    pages = sorted({index.meta[p].page for p in match.positions})
    doc_id = index.doc_ids[first.doc]
    return Resolution(
        doc_id=doc_id,
        title=index.titles[first.doc],
        byline=index.bylines[first.doc],
        block_ids=block_ids,
        page=first.page,
        pages=pages,
        bboxes=cited,
        quote=cited_text,
        matched_text=matched,
        score=round(match.score, 2),
        coverage=round(match.coverage, 3),
        hint_used=hint is not None and hint in match.positions,
        scope=_SCOPES[match.scope],
        block_text=joined,
        read_text="\n".join(read),
        ocr=any(page in index.ocr_pages.get(doc_id, ()) for page in pages),
        doc_type=index.types[first.doc],
        section=first.section,
        parents=list(first.parents),
    )
