"""Blocks of a document read element by element (Word, PowerPoint, EPUB, LaTeX): a heading opens a
section under the headings above it, as a Markdown heading does, and a block's span is its offset in
its page's text (the page's block texts joined by blank lines), the same convention as a text file's."""

from __future__ import annotations

from corpus.loaders.titles import clean_heading
from corpus.models import BlockKind, CharSpan, RawBlock
from corpus.table_text import table_line

BLOCK_SEPARATOR = "\n\n"


class Outline:
    """The blocks read so far and the headings open above the next one."""

    def __init__(self) -> None:
        self.blocks: list[RawBlock] = []
        self.page = 1
        self._open: list[tuple[int, str]] = []  # (level, heading), outermost first
        self._offset = 0

    @property
    def section(self) -> str:
        return self._open[-1][1] if self._open else ""

    def new_page(self, page: int) -> None:
        """Blocks from here on are on ``page`` (a slide, a chapter), in no section yet; their spans
        count from its start."""
        self.page, self._offset, self._open = page, 0, []

    def heading(self, level: int, text: str, shown: bool = True) -> None:
        """A heading of ``level`` (1 outermost): it closes the sections at its level or below. One not
        ``shown`` names the section without being a block (an untitled slide's "Slide 4")."""
        text = clean_heading(" ".join(text.split()))
        if not text:
            return
        while self._open and self._open[-1][0] >= level:
            self._open.pop()
        self._open.append((level, text))
        if shown:
            self.add(BlockKind.HEADING, text)

    def add(self, kind: BlockKind, text: str) -> None:
        text = text.strip()
        if not text:
            return
        span = CharSpan(start=self._offset, end=self._offset + len(text))
        self._offset = span.end + len(BLOCK_SEPARATOR)
        parents = [heading for _, heading in self._open[:-1]]
        self.blocks.append(
            RawBlock(page=self.page, span=span, section=self.section, parents=parents, kind=kind, text=text)
        )


def table_text(rows: list[list[str]]) -> str:
    """A table as every loader writes one (``corpus.table_text``): a line per row, cells joined by " | ",
    each cell on one line; rows with no text left out."""
    lines = [[" ".join(cell.split()) for cell in row] for row in rows]
    return "\n".join(table_line(cells) for cells in lines if any(cells))
