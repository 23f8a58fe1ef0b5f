"""Extractive answers: the most relevant, non-redundant sentences of the evidence, quoted verbatim.

Candidates are the statement sentences of the retrieved blocks (never reference entries, headings,
captions or tables, nor a block that addresses an AI model, ``research.ai_address``; fragments and
table dumps are filtered by ``text.is_statement``; a list's lead-in is read with its items,
``passages.listed``). Each is scored
by a blend of

- lexical overlap with the question's content words, stem-matched and idf-weighted over the
  candidate pool (a question word found in most sentences, "green roofs", counts for little), and
- dense cosine between the question and the sentence,

plus small priors: findings sections (abstract, results, conclusions) over methods sections, and
sentences with a figure over those without; a sentence that mentions none of the question's
specific terms, when others do, is pushed down, and one about its document or its authors' procedure
("This brief proposes…", "We searched…") far down, unless the question asks about the work
(``strategies.reading.answerhood``). Claims are then chosen by maximal marginal
relevance over ``preference`` (relevance, with the retrieval's rank of the sentence's chunk on top),
so the best-ranked passage is quoted first and two sentences saying the same thing (a key message
repeated in a summary table) are not both cited.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from corpus.chunking import split_sentences
from corpus.models import Block, BlockKind
from corpus.retrieval import RetrievedChunk
from corpus.table_text import TableRow, is_value, table_rows
from corpus.text import figures
from research.ai_address import addresses_ai
from research.evidence import Claim
from strategies.reading.answerhood import (
    about_other_work,
    about_the_document,
    about_the_text,
    poses,
    unheld,
)
from strategies.reading.lexicon.documents import FINDING_SECTIONS, METHOD_SECTIONS
from strategies.reading.negations import negated_terms
from strategies.reading.numbers import quantities
from strategies.reading.tuning import TUNING
from strategies.reading.vectors import Vectors, cosine_matrix
from tools.definitions import defines

from .claim_checks import technical
from .name_kinds import NameKinds
from .passages import Layout, claim_of, dated, dates_only, instructs, listed, merge, passage
from .question import TABLE_NAME, ParsedQuestion, parse_question, table_name
from .question_types import AnswerType
from .text import content_stems, has_verb, is_code_line, is_statement, matched, normalise_space, sentence_stems

# Blocks whose text is never an answer: bibliography entries, headings, captions, tables and figures.
SKIPPED_KINDS = frozenset(
    {BlockKind.REFERENCE, BlockKind.HEADING, BlockKind.CAPTION, BlockKind.TABLE, BlockKind.FIGURE}
)


def is_evidence(block: Block) -> bool:
    """A block whose sentences may be quoted: not of a skipped kind, and not text planted for the
    model that reads it (every sentence of such a block is suspect, not only the one with the cue)."""
    return block.kind not in SKIPPED_KINDS and not addresses_ai(block.text)


def planted(chunk: RetrievedChunk) -> bool:
    """A chunk whose statements all stand in text addressed to an AI (a title line aside): it takes no
    place in the evidence, so its rank does not push the passages below it down (``preference``)."""
    body = [b for b in chunk.blocks if any(is_statement(s) for s in split_sentences(b.text))]
    return bool(body) and all(addresses_ai(b.text) for b in body)


_RELATIVE_LEAD_IN = re.compile(
    r"^(?:in addition\b|additionally\b|besides\b|apart from\b|aside from\b|beyond\b|other than\b|"
    r"as well as\b|furthermore\b|moreover\b|other\b)|\balso\b",
    re.IGNORECASE,
)


def read_with(text: str, items: str) -> str:
    """A sentence read with the items of the list it introduces ("" when none)."""
    return f"{text} {items}" if items else text


@dataclass(frozen=True)
class Sentence:
    text: str  # verbatim substring of the block's text
    block_id: str
    doc_id: str
    chunk_index: int  # its chunk's rank among the evidence chunks holding a sentence to quote
    order: int
    stems: frozenset[str]
    section: str = ""
    start: int = 0  # offset in the block's text
    words: int = 0  # length in words (BM25's length normalisation)
    context: frozenset[str] = frozenset()  # stems of its document's title and its section
    items: str = ""  # the items of the list it introduces ("The tool helps you:"), read as its words
    row: TableRow | None = None  # a table's row: its values read under their columns' names
    table: str = ""  # a table's row: the table's name as its caption gives it ("table 1"), lower-cased
    rivals: tuple[str, ...] = ()  # a table's row: the labels of the table's other rows

    @property
    def read(self) -> str:
        """What the sentence says: its text, and a lead-in's list with it (``passages.listed``); a
        table's row with its label and each value under its column's name."""
        if self.row is not None:
            return self.row.reading()
        return read_with(self.text, self.items)

    def covers(self, term: str) -> bool:
        """The sentence states ``term``, or says it in the context of a document or section named by
        it ("Click Add Test Case" on the page "Eval tool" is about the evaluation tool)."""
        return matched(term, self.stems) or matched(term, self.context)


@dataclass(frozen=True)
class ScoredSentence:
    sentence: Sentence
    lexical: float
    dense: float
    relevance: float
    vector: np.ndarray = field(repr=False, compare=False)


@dataclass
class Analysis:
    """A question set against its evidence: what the strategy's answer and assessment both read."""

    asked: ParsedQuestion
    focus_terms: list[str]  # the specific terms ("cost"), not the general subject ("green", "roof")
    scored: list[ScoredSentence]  # best first
    layout: Layout = field(default_factory=lambda: Layout([]))  # the evidence's blocks, for passages
    weights: dict[str, float] = field(default_factory=dict)  # each term's weight in lexical relevance
    kinds: NameKinds = field(default_factory=lambda: NameKinds([]))  # what the evidence calls each name

    @property
    def question(self) -> str:
        return self.asked.text

    @property
    def terms(self) -> list[str]:
        """Stems of the question's search terms."""
        return list(self.asked.terms)


def _focus_terms(terms: list[str], evidence: Sequence[RetrievedChunk]) -> list[str]:
    """Question terms that do not name the evidence's general subject; all of them if every one does."""
    documents: dict[str, set[str]] = {}
    chunks: list[set[str]] = []
    for c in evidence:
        text = " ".join(b.text for b in c.blocks if is_evidence(b)) or c.text
        chunks.append(set(content_stems(f"{c.title} {text}")))
        documents.setdefault(c.doc_id, set()).update(chunks[-1])
    if len(documents) > 1:
        groups = list(documents.values())
        share = (
            TUNING.evidence.subject_share * len(groups)
            if len(groups) >= TUNING.evidence.min_shared_documents
            else len(groups)
        )
    elif len(chunks) >= TUNING.evidence.min_subject_chunks:
        groups, share = chunks, TUNING.evidence.document_subject_share * len(chunks)
    else:
        return list(terms)
    focus = [t for t in terms if sum(1 for stems in groups if matched(t, stems)) < share]
    return focus or list(terms)


def evidence_sentences(evidence: Sequence[RetrievedChunk], layout: Layout | None = None) -> list[Sentence]:
    """Statement sentences of the evidence blocks, in evidence order, each block read once."""
    layout = layout or Layout(evidence)
    out: list[Sentence] = []
    seen_blocks: set[str] = set()
    # A chunk with nothing to quote (a code listing, a table) takes no rank: the passage ranked below
    # it is the best the evidence offers, not one rank down (``preference``'s floors are relative to it).
    chunk_index = 0
    for chunk in evidence:
        if out and out[-1].chunk_index == chunk_index:
            chunk_index += 1
        for block in chunk.blocks:
            if block.block_id in seen_blocks:
                continue
            if is_table_evidence(block):
                seen_blocks.add(block.block_id)
                out.extend(_row_sentences(block, chunk, layout, chunk_index, len(out)))
            elif is_evidence(block):
                seen_blocks.add(block.block_id)
                out.extend(_prose_sentences(block, chunk, layout, chunk_index, len(out)))
    return out


def _prose_sentences(
    block: Block, chunk: RetrievedChunk, layout: Layout, chunk_index: int, order: int
) -> list[Sentence]:
    """A prose block's statements as sentences, each read with the items of the list it leads in, in
    the context of its document, section and date line."""
    # A date line above the block heads it as a section would (``Layout.date_line``).
    line = layout.date_line(block)
    dated_by = line.text if line is not None else ""
    context = frozenset(content_stems(f"{chunk.title} {block.section} {dated_by}"))
    out: list[Sentence] = []
    for index, piece in enumerate(layout.pieces(block)):
        # A lead-in says what its list holds ("The Evaluation tool helps you:", then "Identify
        # edge cases …"): it is read with its items, and is a statement short as it is.
        items = listed(layout, block, index)
        if not _quotable(piece.text, items, opens_page_block=index == 0 and block.bbox is not None):
            continue
        read = read_with(piece.text, items)
        out.append(
            _sentence(block, chunk_index, order + len(out), (piece.text, piece.start, read), context, items=items)
        )
    return out


def _sentence(
    block: Block, chunk_index: int, order: int, quoted: tuple[str, int, str], context: frozenset[str], **kind: Any
) -> Sentence:
    """A sentence of ``block`` as the reader takes it: ``quoted`` is its text as the block prints it, its
    offset there, and the text it is read as (a lead-in with its items, a row with its columns' names)."""
    text, start, read = quoted
    return Sentence(
        text=text,
        block_id=block.block_id,
        doc_id=block.doc_id,
        chunk_index=chunk_index,
        order=order,
        stems=sentence_stems(read),
        section=block.section,
        start=start,
        words=len(read.split()),
        context=context,
        **kind,
    )


def _quotable(text: str, items: str, opens_page_block: bool) -> bool:
    """A statement, or a list's lead-in with a verb, that says more than a date."""
    # A line of code ending in a colon ("def get_completion(prompt: str):") leads no list.
    lead_in = items and not is_code_line(text) and (has_verb(text) or instructs(text))
    if not (is_statement(text, opens_page_block) or lead_in):
        return False
    return not dates_only(text)


def is_table_evidence(block: Block) -> bool:
    """A table whose rows of values may be quoted (not text planted for a model)."""
    return block.kind is BlockKind.TABLE and not addresses_ai(block.text)


def _row_sentences(block: Block, chunk: RetrievedChunk, layout: Layout, chunk_index: int, order: int) -> list[Sentence]:
    """A table's rows of values as sentences: each quoted as its line, read with its label and its
    columns' names, in the context of its document, section and caption."""
    caption = layout.caption(block)
    context = frozenset(content_stems(f"{chunk.title} {block.section} {caption.text if caption else ''}"))
    named = TABLE_NAME.match(caption.text) if caption is not None else None
    out = []
    rows = table_rows(block.text)
    for index, row in enumerate(rows):
        if not any(is_value(value) for _, value in row.cells):
            continue  # a row of words reads as prose elsewhere, not as values
        rivals = tuple(r.label for i, r in enumerate(rows) if i != index)
        table = table_name(named.group(0)) if named else ""
        quoted = (row.line, row.start, row.reading())
        out.append(
            _sentence(block, chunk_index, order + len(out), quoted, context, row=row, table=table, rivals=rivals)
        )
    return out


def prose(chunk: RetrievedChunk) -> str:
    """A chunk's statement sentences only: no headings, running headers, tables or references."""
    return " ".join(
        piece for b in chunk.blocks if is_evidence(b) for piece in split_sentences(b.text) if is_statement(piece)
    )


def _prior(s: Sentence) -> float:
    section = s.section.lower()
    prior = 0.0
    if any(k in section for k in METHOD_SECTIONS):
        prior -= TUNING.evidence.section_penalty
    elif any(k in section for k in FINDING_SECTIONS):
        prior += TUNING.evidence.section_bonus
    if quantities(s.text):
        prior += TUNING.evidence.quantity_bonus
    return prior


def analyse(question: str, evidence: Sequence[RetrievedChunk], vectors: Vectors) -> Analysis:
    """``question`` parsed once (``parse_question``) and set against the evidence's sentences."""
    evidence = [c for c in evidence if not planted(c)]
    asked = parse_question(question, evidence)
    terms = list(asked.terms)
    layout = Layout(evidence)
    # A sentence asking the question ("we explore what …") is no evidence of its answer.
    pool = [s for s in evidence_sentences(evidence, layout) if not poses(asked, s.text)]
    df = {t: sum(1 for s in pool if matched(t, s.stems)) for t in terms}
    kinds = NameKinds(b.text for b in layout.blocks.values())
    analysis = Analysis(asked, _focus_terms(terms, evidence), [], layout, kinds=kinds)
    if not pool:
        return analysis
    focus = set(analysis.focus_terms)
    weights = {
        t: math.log(1.0 + len(pool) / (1.0 + df[t])) * (1.0 if t in focus else TUNING.evidence.subject_term_weight)
        for t in terms
    }
    analysis.weights = weights
    analysis.scored = _scored(asked, pool, weights, focus, vectors)
    return analysis


def _scored(
    asked: ParsedQuestion, pool: list[Sentence], weights: dict[str, float], focus: set[str], vectors: Vectors
) -> list[ScoredSentence]:
    """The candidate sentences scored by BM25, the dense cosine and what the question asks of them,
    most relevant first. Only the lexically best ``TUNING.evidence.embedded_sentences`` are embedded, to bound the cost."""
    lex = {s.order: bm25(s, weights, pool) for s in pool}
    on_focus = {s.order: any(matched(t, s.stems) for t in focus) for s in pool}
    penalise = any(on_focus.values())
    if len(pool) > TUNING.evidence.embedded_sentences:
        pool = sorted(pool, key=lambda s: (-lex[s.order], s.chunk_index, s.order))[: TUNING.evidence.embedded_sentences]
        pool.sort(key=lambda s: s.order)
    matrix = vectors.passages([s.read for s in pool])
    dense = cosine_matrix(vectors.query(asked.text)[None, :], matrix)[0]
    scored = []
    for s, d, v in zip(pool, dense, matrix, strict=True):
        relevance = TUNING.evidence.w_lexical * lex[s.order] + TUNING.evidence.w_dense * float(d) + _prior(s)
        if penalise and not on_focus[s.order]:
            relevance -= TUNING.evidence.off_focus_penalty
        relevance = _weighed_for_the_question(asked, s, relevance)
        scored.append(
            ScoredSentence(
                sentence=s,
                lexical=round(lex[s.order], 6),
                dense=round(float(d), 6),
                relevance=round(relevance, 6),
                vector=v,
            )
        )
    scored.sort(key=lambda x: (-x.relevance, x.sentence.chunk_index, x.sentence.order))
    # A table's row that is the most relevant sentence of all stands as if its chunk ranked first: the
    # retrieval ranked a chunk of many rows, most of them about other things (``preference``).
    if scored[0].sentence.row is not None:
        scored[0] = dataclasses.replace(scored[0], sentence=dataclasses.replace(scored[0].sentence, chunk_index=0))
    return scored


def _weighed_for_the_question(asked: ParsedQuestion, s: Sentence, relevance: float) -> float:
    """``relevance`` raised for a sentence of what the question names (its table, a definition of its
    term) and lowered for one about the text, the document or other work when the question is not,
    or a relative clause's lead-in to a list. Applied in this order: the sums are rounded after."""
    if s.table and s.table in asked.tables:
        relevance += TUNING.evidence.named_table_bonus
    if asked.defined and defines(s.text, asked.defined):
        relevance += TUNING.evidence.defining_bonus
    elif not asked.about_text and about_the_text(s.text):
        relevance -= TUNING.evidence.about_text_penalty
    elif not asked.about_work and about_the_document(s.text):
        relevance -= TUNING.evidence.about_document_penalty
    if asked.own_work and about_other_work(s.text):
        relevance -= TUNING.evidence.other_work_penalty
    if s.items and _RELATIVE_LEAD_IN.search(s.text):
        relevance -= TUNING.evidence.relative_lead_in_penalty
    return relevance


def bm25(sentence: Sentence, weights: dict[str, float], pool: Sequence[Sentence]) -> float:
    """BM25 of one sentence against the question's weighted terms, over the candidate sentences as
    the collection, scaled to [0, 1] (1: every term, in a sentence of average length or shorter). The
    length normalisation keeps a run-on line (a flattened table, a paragraph with no full stops) from
    winning on the many words it happens to hold."""
    total = sum(weights.values())
    if not total:
        return 0.0
    average = sum(s.words for s in pool) / len(pool) or 1.0
    saturation = (TUNING.evidence.bm25_k1 + 1) / (
        TUNING.evidence.bm25_k1 * (1 - TUNING.evidence.bm25_b + TUNING.evidence.bm25_b * sentence.words / average) + 1
    )
    found = sum(w for t, w in weights.items() if matched(t, sentence.stems))
    return min(1.0, found * saturation / total)


def preference(item: ScoredSentence) -> float:
    """Relevance, with the retrieval's ranking of the sentence's chunk on top: the fused dense + BM25
    ranking judged the whole passage, which one sentence's scores cannot (on QASPER dev the best
    sentence of the top-ranked chunk holds gold evidence 1.7 times as often as the best sentence
    overall)."""
    return item.relevance - TUNING.evidence.chunk_rank_penalty * item.sentence.chunk_index


def coverage_gain(item: ScoredSentence, covered: set[str], analysis: Analysis) -> float:
    """The share of the question's focus-term weight that ``item`` covers and no chosen sentence does."""
    focus = analysis.focus_terms
    total = sum(analysis.weights.get(t, 0.0) for t in focus)
    if not total:
        return 0.0
    new = [t for t in focus if t not in covered and item.sentence.covers(t)]
    return sum(analysis.weights.get(t, 0.0) for t in new) / total


def _mmr(item: ScoredSentence, chosen: list[ScoredSentence], covered: set[str], analysis: Analysis) -> float:
    redundancy = max((float(item.vector @ s.vector) for s in chosen), default=0.0)
    gain = coverage_gain(item, covered, analysis) if chosen else 0.0
    return (
        TUNING.evidence.mmr_lambda * preference(item)
        - (1.0 - TUNING.evidence.mmr_lambda) * redundancy
        + TUNING.evidence.w_coverage * gain
    )


def select(analysis: Analysis) -> list[ScoredSentence]:
    """Up to TUNING.evidence.max_claims sentences that answer the question together: maximal marginal relevance over
    ``preference``, plus what each adds to the question's terms covered so far, so the second part of
    "what are X, and how do they relate to Y?" is answered too, not a second sentence on X."""
    remaining = sorted(analysis.scored, key=lambda c: (-preference(c), c.sentence.chunk_index, c.sentence.order))
    if not remaining or remaining[0].relevance <= 0:
        return []  # nothing in the evidence is even loosely about the question
    best = preference(remaining[0])
    best_relevance = max(c.relevance for c in remaining)
    chosen: list[ScoredSentence] = []
    covered: set[str] = set()
    while remaining and len(chosen) < TUNING.evidence.max_claims:
        ranked = sorted(
            remaining,
            key=lambda c: (-round(_mmr(c, chosen, covered, analysis), 6), c.sentence.chunk_index, c.sentence.order),
        )
        pick = _first_new(ranked, chosen)
        if pick is None or not _stands(pick, chosen, covered, analysis, best, best_relevance):
            break
        chosen.append(pick)
        covered |= {t for t in analysis.focus_terms if pick.sentence.covers(t)}
        remaining.remove(pick)
    return chosen


def _first_new(ranked: list[ScoredSentence], chosen: list[ScoredSentence]) -> ScoredSentence | None:
    """The best ranked sentence that neither repeats a chosen one's meaning nor its words."""
    for cand in ranked:
        if any(float(cand.vector @ s.vector) >= TUNING.evidence.duplicate_cosine for s in chosen):
            continue
        if any(normalise_space(cand.sentence.text) == normalise_space(s.sentence.text) for s in chosen):
            continue
        return cand
    return None


def _stands(
    pick: ScoredSentence,
    chosen: list[ScoredSentence],
    covered: set[str],
    analysis: Analysis,
    best: float,
    best_relevance: float,
) -> bool:
    """Whether ``pick`` is relevant enough to join ``chosen``, measured against the best sentence."""
    # A sentence answering a part of the question no chosen one covers is judged by its own
    # relevance, not by its chunk's rank: the second part of a question is often in another passage.
    adds = bool(chosen) and coverage_gain(pick, covered, analysis) >= TUNING.evidence.min_new_coverage
    if adds and pick.relevance >= _floor(best_relevance, TUNING.evidence.absolute_floor):
        return True
    if preference(pick) < _floor(best, TUNING.evidence.absolute_floor):
        return False
    return not (
        len(chosen) >= TUNING.evidence.min_claims
        and preference(pick) < _floor(best, TUNING.evidence.relative_relevance_floor)
    )


def _floor(best: float, share: float) -> float:
    """``share`` of ``best``, as far below it as that is when ``best`` is negative (the best passage's
    chunk ranked below others that hold nothing to quote, its rank penalty above its relevance): a
    share of a negative number would lie above it, and not even the best sentence would be chosen."""
    return best - (1.0 - share) * abs(best)


def passage_date(analysis: Analysis, item: ScoredSentence) -> str | None:
    """The date of ``item``'s entry when a date line heads it (``Layout.date_line``): what a question
    asking when is answered by where the sentence itself gives no date. A date line dates what its
    entry's sentence names: not an acronym or identifier the question asks about that the sentence
    leaves out ("When did Orbit start exporting PDF?" is not answered by the date of "Orbit exports
    reports as CSV files", beside "Exports to PDF are not supported yet"), nor what its sentence denies
    (that entry does not date PDF exports)."""
    asked = [n for n in analysis.asked.names if technical(n)]
    if unheld(asked, [item.sentence.text]) is not None or negated_terms(item.sentence.text):
        return None
    block = analysis.layout.block(item.sentence.block_id)
    line = analysis.layout.date_line(block) if block is not None else None
    return normalise_space(line.text) if line is not None else None


def to_claims(analysis: Analysis, chosen: Sequence[ScoredSentence], alone: bool = False) -> list[Claim]:
    """The claims quoting ``chosen`` as passages (``passages``): the first chosen sentence's passage
    first, then the others grouped by document (in the order their documents were first chosen)
    and in document order within each. With ``alone``, a list's item is quoted without its list."""
    layout = analysis.layout
    # A question asking when is shown the date line heading each passage's entry, and so is one naming
    # that date ("introduced on May 10th, 2024").
    when = analysis.asked.type.kind is AnswerType.DATE
    named = analysis.asked.figures
    found = []
    for item in chosen:
        block = layout.block(item.sentence.block_id)
        segments = passage(layout, block, item.sentence.start, within_list=not alone) if block is not None else []
        line = layout.date_line(segments[0].block) if segments else None
        if line is not None and (when or set(figures(line.text)) <= named):
            segments = dated(layout, segments)
        if segments:
            found.append(segments)
    merged = merge(found)
    if not merged:
        return []
    first, rest = merged[0], merged[1:]
    doc_rank = {doc: i for i, doc in reversed(list(enumerate(s.sentence.doc_id for s in chosen)))}
    rest.sort(key=lambda p: (doc_rank.get(p[0].block.doc_id, len(doc_rank)), p[0].block.seq, p[0].first))
    return [claim_of(layout, p) for p in [first, *rest]]
