"""Word (.docx) loader, on python-docx: the body's paragraphs and tables in document order.

A paragraph in a "Heading N" style (or a style based on one) opens a section at level N, the
"Title" style one above them all; list paragraphs are list blocks, "Caption" paragraphs captions.
A table is a table block written as Markdown and HTML tables are (``corpus.table_text``): a line per
row, a cell spanning columns written once over the first, a cell merged down written in its first row.
Footnotes are blocks of their own right after the paragraph that marks them, never glued into it.
Title, authors and year come from the file's core properties when they are set; else the title is the
opening Title or heading. python-docx has no footnote API: they are read from the package's
footnotes part.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import docx
from docx.document import Document as WordDocument
from docx.enum.style import WD_STYLE_TYPE
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.exceptions import PackageNotFoundError
from docx.oxml.ns import qn
from docx.oxml.text.paragraph import CT_P
from docx.styles.style import BaseStyle
from docx.table import Table, _Cell
from docx.text.paragraph import Paragraph
from lxml import etree

from corpus.errors import LoadError
from corpus.loaders.archive import members
from corpus.loaders.authors import metadata_authors
from corpus.loaders.omml import EQUATIONS, math_text
from corpus.loaders.outline import Outline, table_text
from corpus.loaders.titles import clean_title
from corpus.models import Bibliography, BlockKind, LoadedDocument, TitleSource

_HEADING_STYLE = re.compile(r"^heading\s*([1-9])$", re.IGNORECASE)
TITLE_LEVEL = 0
# How far up a style's "based on" chain a heading style is looked for (chains are short; a loop is not followed).
MAX_STYLE_DEPTH = 5
# What a paragraph's text is read from, in order: runs, hyperlinks and equations.
_INLINE = "w:r | w:hyperlink | m:oMath | m:oMathPara"


def load_docx(path: Path) -> LoadedDocument:
    members(path, "Word")
    try:
        document = docx.Document(str(path))
    except (KeyError, ValueError, etree.XMLSyntaxError, PackageNotFoundError, zipfile.BadZipFile) as exc:
        raise LoadError(f"not a readable Word file ({type(exc).__name__}: {exc})") from None
    footnotes = _footnotes(document)
    styles = _Styles(document)
    outline = Outline()
    opening: str | None = None
    for item in document.iter_inner_content():
        if isinstance(item, Table):
            outline.add(BlockKind.TABLE, table_text(_rows(item)))
            continue
        level, name = styles.of(item)
        text = paragraph_text(item._p)
        if level is not None:
            opening = opening or (text if not outline.blocks or level == TITLE_LEVEL else None)
            outline.heading(level, text)
            continue
        outline.add(_kind(item, name), text)
        for ref in item._p.iter(qn("w:footnoteReference")):
            outline.add(BlockKind.FOOTNOTE, footnotes.get(ref.get(qn("w:id")), ""))
    properties = document.core_properties
    title = clean_title(properties.title)
    return LoadedDocument(
        title=title or opening,
        title_source=TitleSource.PROPERTIES if title else None,
        year=properties.created.year if properties.created else None,
        bibliography=Bibliography(authors=metadata_authors(properties.author or "")),
        blocks=outline.blocks,
    )


class _Styles:
    """Each paragraph style's heading level (None: no heading) and name, by its id, looked up once:
    python-docx's ``paragraph.style`` scans every style for the default each time (8 s on 500 paragraphs)."""

    def __init__(self, document: WordDocument) -> None:
        self._by_id = {style.style_id: style for style in document.styles if style.type == WD_STYLE_TYPE.PARAGRAPH}
        self._default = document.styles.default(WD_STYLE_TYPE.PARAGRAPH)
        self._read: dict[str | None, tuple[int | None, str]] = {}

    def of(self, paragraph: Paragraph) -> tuple[int | None, str]:
        style_id = paragraph._p.style
        if style_id not in self._read:
            style = self._by_id.get(style_id, self._default) if style_id else self._default
            self._read[style_id] = (_heading_level(style), (style.name or "") if style is not None else "")
        return self._read[style_id]


def _heading_level(style: BaseStyle | None) -> int | None:
    for _ in range(MAX_STYLE_DEPTH):
        if style is None:
            return None
        if style.name == "Title":
            return TITLE_LEVEL
        if match := _HEADING_STYLE.match(style.name or ""):
            return int(match.group(1))
        style = style.base_style
    return None


def _kind(paragraph: Paragraph, name: str) -> BlockKind:
    if name == "Caption":
        return BlockKind.CAPTION
    numbered = paragraph._p.pPr is not None and paragraph._p.pPr.numPr is not None
    return BlockKind.LIST if numbered or name.startswith("List") else BlockKind.PARAGRAPH


def _rows(table: Table) -> list[list[str]]:
    rows = []
    for tr in table._tbl.tr_lst:
        cells: list[str] = []
        for tc in tr.tc_lst:
            # A cell merged down from the row above ("continue") is written once, in its first row.
            cells.append("" if tc.vMerge == "continue" else _cell_text(_Cell(tc, table)))
            cells += [""] * (tc.grid_span - 1)
        rows.append(cells)
    return rows


def paragraph_text(p: CT_P) -> str:
    """A paragraph's text with its equations (``corpus.loaders.omml``), which python-docx leaves out."""
    if not any(child.tag in EQUATIONS for child in p):
        return p.text
    return "".join(math_text(child) if child.tag in EQUATIONS else child.text for child in p.xpath(_INLINE))


def _cell_text(cell: _Cell) -> str:
    return "\n".join(paragraph_text(p._p) for p in cell.paragraphs)


def _footnotes(document: WordDocument) -> dict[str, str]:
    """Each footnote's text by its id, from the package's footnotes part (the separators left out)."""
    part = next((rel.target_part for rel in document.part.rels.values() if rel.reltype == RT.FOOTNOTES), None)
    if part is None:
        return {}
    root = etree.fromstring(part.blob, parser=etree.XMLParser(resolve_entities=False, no_network=True))
    notes = {}
    for note in root.iter(qn("w:footnote")):
        if note.get(qn("w:type")) in (None, "normal"):
            paragraphs = ("".join(t.text or "" for t in p.iter(qn("w:t"))) for p in note.iter(qn("w:p")))
            notes[note.get(qn("w:id"))] = "\n".join(p for p in paragraphs if p.strip())
    return notes
