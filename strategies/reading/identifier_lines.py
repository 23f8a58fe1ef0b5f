"""Lookup questions answered by the line or row that holds the identifier they ask about.

"What is the amount on invoice 1081?" asks about one record, named by its identifier
(``tools.identifiers``: an invoice number, a DOI, an ISBN, a product code, a phone number, a date).
Records state their values in no sentence: "Invoice 1081" over "Amount due: 5405.29 EUR", a table's
row "| 1081 | 2024-03-01 | 5405.29 EUR |". The sentence-level reading never quotes such lines (they
are no statements), so the question went unanswered while search's first hit held the answer
(issue 48). A line is taken as the answer only when it holds what the question asks about:

- it holds the question's identifier exactly (a look-alike a digit away is another record), and it is
  no statement (a sentence holding the identifier is the sentence reading's, and says more);
- with the lines after it in its block, up to ``TUNING.tables.max_span_lines`` in all and as few as needed (a
  table's row alone, read under the table's header row, which is quoted with it), it holds every
  content word of the question (stem-matched: "amount" in "Amount due"; none of a question
  that holds only the identifier), and something the question does not hold: a value, not the
  record's label repeated back ("Invoice 1081" alone answers nothing).

When no chosen sentence holds the identifier, these lines are the answer (``OfflineStrategy``), each
quoted whole with its citation; a record that holds the identifier but not the asked-for words gives
none, so "the VAT on invoice 1081" over an invoice without VAT stays unanswered.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from corpus.models import Block, BlockKind
from research.evidence import CitationMarker, Claim
from strategies.reading.tuning import TUNING
from tools.identifiers import holder

from .passages import Layout
from .question import ParsedQuestion
from .text import is_statement, matched, question_terms, stem, words

_QUOTABLE = frozenset({BlockKind.PARAGRAPH, BlockKind.LIST, BlockKind.TABLE})


@dataclass(frozen=True)
class IdentifierLine:
    """Lines of a block answering a lookup: the identifier they hold, the block, the lines verbatim."""

    identifier: str
    block: Block
    lines: tuple[str, ...]
    header: str = ""  # a table's header row, when the lines are a row of it

    def claim(self) -> Claim:
        """The lines quoted as one claim (a row under its table's header), no short answer before them:
        the record is the answer."""
        quotes = [q for q in (self.header, "\n".join(self.lines)) if q]
        return Claim(
            text="\n".join([self.header, *self.lines]) if self.header else " ".join(self.lines),
            citations=[CitationMarker(block_id=self.block.block_id, quote=q) for q in quotes],
        )


def identifier_lines(question: ParsedQuestion, layout: Layout, limit: int) -> list[IdentifierLine]:
    """The evidence's lines (in its order, at most ``limit``) answering a lookup of an identifier the
    question holds; none when it holds none."""
    asked = question.identifiers
    if not asked:
        return []
    rest = question.text
    for identifier in asked:
        rest = holder(identifier).sub(" ", rest)
    terms = list(dict.fromkeys(stem(w) for w in question_terms(rest)))
    said = {stem(w) for w in words(rest)}
    out: list[IdentifierLine] = []
    for block in layout.blocks.values():
        if block.kind not in _QUOTABLE:
            continue
        for found in _block_lines(block, asked, terms, said):
            out.append(found)
            if len(out) == limit:
                return out
    return out


def _block_lines(block: Block, asked: Sequence[str], terms: list[str], said: set[str]) -> Iterator[IdentifierLine]:
    """A block's lines holding an identifier of ``asked`` that answer the question (see ``_span``),
    in order; read lazily, as the caller stops at its limit."""
    lines = [line.strip() for line in block.text.splitlines() if line.strip()]
    table = block.kind is BlockKind.TABLE
    for index, line in enumerate(lines):
        identifier = next((i for i in asked if holder(i).search(line)), None)
        if identifier is None or is_statement(line) or (table and index == 0):
            continue
        # A table's row is read under its header: "amount" is a column's name, never in a row.
        header = lines[0] if table else ""
        span = _span(
            lines[index : index + (1 if table else TUNING.tables.max_span_lines)], identifier, terms, said, header
        )
        if span:
            yield IdentifierLine(identifier, block, span, header)


def _span(lines: list[str], identifier: str, terms: list[str], said: set[str], header: str) -> tuple[str, ...]:
    """The fewest of ``lines`` (from the first) holding every term (with ``header``, a table's) and
    something the question does not say; () when no such run of them is free of statements."""
    for end in range(1, len(lines) + 1):
        span = lines[:end]
        if end > 1 and is_statement(span[-1]):
            return ()
        text = holder(identifier).sub(" ", " ".join(span))
        stems = {stem(w) for w in words(f"{header} {text}")}
        if all(matched(t, stems) for t in terms) and _tells(text, said):
            return tuple(span)
    return ()


def _tells(text: str, said: set[str]) -> bool:
    """``text`` holds a number, or a word the question does not say."""
    return any(c.isdigit() for c in text) or any(stem(w) not in said for w in words(text))
