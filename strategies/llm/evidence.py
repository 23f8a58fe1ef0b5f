"""Evidence as numbered sentences: what the model reads, and what the ids it cites stand for.

Each retrieved block (once, in rank order; reference lists left out) becomes a group headed by a
short label, its document's title and page, and its sentences, each under an id unique in the
prompt::

    [b3] Hydrological Performance of Extensive Green Roofs, p. 1
    b3.s1 Thirty-eight studies from 31 sites met the inclusion criteria.
    b3.s2 Across these studies, extensive green roofs retain 50 to 60 percent of annual rainfall.

The model cites ids, never types a quote: a cited id becomes a marker whose quote is the stored
sentence (an exact substring of its block, split as offline mode splits sentences), with the block's
id as its hint, and the citation node verifies it like any other. Short labels (``b3``) rather than
block ids keep ids cheap in tokens; each block is labelled once per sheet, so ids never collide.

A table's row is shown read under its columns' names and its table's name ("Table 1, ChemProt: BioBERT
76.68; SciBERT Finetune 83.64"), as offline mode reads it; a citation of it still quotes the row's line.

Document text is marked as offline mode marks it (``research.ai_address``): every sentence of a block
that addresses an AI (a planted instruction, in prose, a list or a table cell) is shown as ``WITHHELD``,
never as its words, and a title (a PDF's /Title, a file name) that does is shown as ``WITHHELD_TITLE``.
Offline mode quotes no sentence of such a block, and the report leaves out a claim citing only it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from html import escape

from corpus.locations import location
from corpus.models import Block, BlockKind
from corpus.retrieval import RetrievedChunk
from corpus.table_text import is_value, table_rows
from research.ai_address import WITHHELD, addresses_ai, title_for_model
from research.evidence import CitationMarker
from strategies.reading.passages import Layout
from strategies.reading.question import TABLE_NAME
from strategies.reading.tuning import TUNING

_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class Sentence:
    sid: str  # "b3.s2": unique in its sheet
    block_id: str
    title: str
    # Where its block is, in its document's own units ("p. 3", "slide 4 § Results", "§ Methods"; ``corpus.locations``).
    where: str
    text: str  # verbatim from the block's text
    start: int  # offsets in the block's text
    end: int
    rank: int  # the rank of the chunk that brought its block (1 = best)
    addressed: bool = False  # its block addresses an AI (``research.ai_address``)
    # A table's row of values read under its columns' names ("Table 2, BookSum: samples 405; …"): the
    # bare cells name neither their columns nor their table, so a model could not tell whose value one is.
    reading: str = ""

    @property
    def read(self) -> str:
        """What the sentence says: a table's row as its reading, else its text."""
        return self.reading or self.text

    @property
    def shown(self) -> str:
        """The text as a prompt shows it (a table's row as its reading): on one line, cut at
        TUNING.llm.max_shown_chars; withheld when its block addresses an AI."""
        if self.addressed:
            return WITHHELD
        text = _SPACE.sub(" ", self.read).strip()
        return text if len(text) <= TUNING.llm.max_shown_chars else text[: TUNING.llm.max_shown_chars].rstrip() + " ..."


@dataclass
class EvidenceSheet:
    """Every sentence of the evidence's blocks, by id, in rank order and block order."""

    sentences: list[Sentence] = field(default_factory=list)
    block_texts: dict[str, str] = field(default_factory=dict)
    # A block's date line (a release note's "May 13th, 2024" right above its entry), by block id.
    date_lines: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, chunks: Iterable[RetrievedChunk]) -> EvidenceSheet:
        sheet = cls()
        chunks = list(chunks)
        layout = Layout(chunks)
        for chunk in chunks:
            for block in chunk.blocks:
                if block.block_id in sheet.block_texts or block.kind is BlockKind.REFERENCE:
                    continue
                sheet.block_texts[block.block_id] = block.text
                label = f"b{len(sheet.block_texts)}"
                addressed = addresses_ai(block.text)
                readings = row_readings(block, layout)
                for n, piece in enumerate(layout.pieces(block), 1):
                    sheet.sentences.append(
                        Sentence(
                            f"{label}.s{n}",
                            block.block_id,
                            chunk.title,
                            location(chunk.doc_type, [block.page], block.section, block.parents, chunk.title),
                            piece.text,
                            piece.start,
                            piece.end,
                            chunk.rank,
                            addressed,
                            readings.get(piece.start, ""),
                        )
                    )
        for block_id in sheet.block_texts:
            block = layout.block(block_id)
            line = layout.date_line(block) if block is not None else None
            if line is not None and line.block_id in sheet.block_texts:
                sheet.date_lines[block_id] = line.block_id
        return sheet

    def neighbours(self, sentence: Sentence) -> list[Sentence]:
        """The sentence before and after it in its block."""
        i = self.sentences.index(sentence)
        around = self.sentences[max(0, i - 1) : i + 2]
        return [s for s in around if s.block_id == sentence.block_id and s is not sentence]

    def dating(self, sentence: Sentence) -> list[Sentence]:
        """The date line heading the sentence's entry (``strategies.reading.passages.Layout.date_line``)."""
        line = self.date_lines.get(sentence.block_id)
        return [s for s in self.sentences if s.block_id == line] if line else []

    def markers(self, ids: Sequence[str], shown: Iterable[Sentence]) -> list[CitationMarker]:
        """Cited ids as markers: runs of consecutive sentences of one block become one quote (the
        block's text between them, verbatim). An id that was not shown in the prompt becomes a marker
        with no quote, which resolves to nothing: an unverified citation, never a shown one."""
        visible = {s.sid: s for s in shown}
        order = {s.sid: i for i, s in enumerate(self.sentences)}
        cited = sorted({visible[i].sid for i in (x.strip() for x in ids) if i in visible}, key=order.__getitem__)
        markers: list[CitationMarker] = []
        run: list[Sentence] = []
        for sid in cited:
            sentence = visible[sid]
            if run and (sentence.block_id != run[-1].block_id or order[sid] != order[run[-1].sid] + 1):
                markers.append(self._marker(run))
                run = []
            run.append(sentence)
        if run:
            markers.append(self._marker(run))
        if any(i.strip() not in visible for i in ids):
            markers.append(CitationMarker(block_id=None, quote=""))
        return markers

    def for_model(self, marker: CitationMarker) -> str:
        """A marker's quote as a model may read it again: withheld when its block addresses an AI."""
        text = self.block_texts.get(marker.block_id or "")
        return WITHHELD if text is not None and addresses_ai(text) else marker.quote

    def _marker(self, run: list[Sentence]) -> CitationMarker:
        text = self.block_texts[run[0].block_id]
        return CitationMarker(block_id=run[0].block_id, quote=text[run[0].start : run[-1].end])


def row_readings(block: Block, layout: Layout) -> dict[int, str]:
    """A table block's rows of values read under their columns' names and their table's name, by the
    row's offset in the block's text ({} for any other block)."""
    if block.kind is not BlockKind.TABLE:
        return {}
    caption = layout.caption(block)
    named = TABLE_NAME.match(caption.text) if caption is not None else None
    table = f"Table {named.group(1)}" if named else "Table"
    return {
        row.start: f"{table}, {row.reading()}"
        for row in table_rows(block.text)
        if any(is_value(v) for _, v in row.cells)
    }


def header(title: str, where: str) -> str:
    """A block's header in a prompt: its document's title and where the block is in it."""
    return f"{title}, {where}" if where else title


def render(sentences: Iterable[Sentence]) -> str:
    """Sentences grouped by block under ``[b3] title, p. N`` (or the block's slide, chapter or section), fenced as data in ``<evidence>``: the
    text is escaped, so a document cannot close the fence or open a block of its own, and text (or a
    title) addressing an AI is withheld behind its mark."""
    lines: list[str] = []
    label = None
    for s in sentences:
        block_label = s.sid.split(".", 1)[0]
        if block_label != label:
            label = block_label
            title = title_for_model(_SPACE.sub(" ", s.title).strip())
            lines.append(f"[{label}] {escape(header(title, s.where), quote=False)}")
        lines.append(f"{s.sid} {escape(s.shown, quote=False)}")
    return "<evidence>\n" + "\n".join(lines) + "\n</evidence>"
