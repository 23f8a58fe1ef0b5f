"""OpenDocument text (.odt) loader, on odfpy: the body's headings, paragraphs, lists and tables in order.

``text:h`` opens a section at its outline level; a list item is a list block; a table is a table block
as every loader writes one (a cell spanning columns written once over the first, the cells it covers
empty, a repeated cell repeated up to ``MAX_REPEAT``: a trailing run of a thousand empty cells is
formatting);
a footnote or endnote (``text:note``) a footnote block after its paragraph, never glued into it; a
table of contents no text. Title, authors and year come from the file's metadata.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from xml.sax import SAXException

from odf.element import Element
from odf.namespaces import DCNS, METANS, OFFICENS, TABLENS, TEXTNS
from odf.opendocument import OpenDocument, load
from odf.table import TableRow

from corpus.errors import LoadError
from corpus.loaders.archive import members
from corpus.loaders.authors import metadata_authors
from corpus.loaders.outline import Outline, table_text
from corpus.loaders.titles import clean_title
from corpus.models import Bibliography, BlockKind, LoadedDocument, TitleSource

MAX_REPEAT = 50
_SKIPPED = frozenset({(TEXTNS, "table-of-content"), (TEXTNS, "tracked-changes"), (TEXTNS, "sequence-decls")})
_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)")


def load_odt(path: Path) -> LoadedDocument:
    members(path, "OpenDocument")
    try:
        document = load(str(path))
    except (KeyError, ValueError, zipfile.BadZipFile, SAXException) as exc:
        raise LoadError(f"not a readable OpenDocument file ({type(exc).__name__}: {exc})") from None
    outline = Outline()
    _children(outline, _body_text(document))
    meta = {node.qname: _text(node, []) for node in document.meta.childNodes if node.nodeType == node.ELEMENT_NODE}
    title = clean_title(meta.get((DCNS, "title")))
    date = _YEAR.search(meta.get((METANS, "creation-date")) or meta.get((DCNS, "date")) or "")
    author = meta.get((DCNS, "creator")) or meta.get((METANS, "initial-creator")) or ""
    return LoadedDocument(
        title=title or None,
        title_source=TitleSource.PROPERTIES if title else None,
        year=int(date.group(1)) if date else None,
        bibliography=Bibliography(authors=metadata_authors(author)),
        blocks=outline.blocks,
    )


def _body_text(document: OpenDocument) -> Element:
    """The ``office:text`` element. odfpy's ``document.text`` is the body's first child node, which in a
    file written with indentation (LibreOffice's "pretty" XML, many converters) is the whitespace before
    it: an empty text, and the whole document read as no text."""
    nodes = document.body.childNodes
    return next((n for n in nodes if n.nodeType == n.ELEMENT_NODE and n.qname == (OFFICENS, "text")), document.text)


def _children(outline: Outline, parent: Element, kind: BlockKind = BlockKind.PARAGRAPH) -> None:
    for node in parent.childNodes:
        if node.nodeType != node.ELEMENT_NODE or node.qname in _SKIPPED:
            continue
        if node.qname == (TEXTNS, "h"):
            level = node.getAttrNS(TEXTNS, "outline-level")
            outline.heading(int(level) if level and level.isdigit() else 1, _text(node, []))
        elif node.qname == (TEXTNS, "p"):
            notes: list[str] = []
            outline.add(kind, _text(node, notes))
            for note in notes:
                outline.add(BlockKind.FOOTNOTE, note)
        elif node.qname == (TABLENS, "table"):
            outline.add(BlockKind.TABLE, table_text(_rows(node)))
        else:  # lists, sections, frames: their paragraphs in order, a list's as list items
            _children(outline, node, BlockKind.LIST if node.qname[1] in ("list", "list-item") else kind)


def _text(node: Element, notes: list[str]) -> str:
    """The text of ``node``; the notes in it go to ``notes``, not into the text."""
    parts: list[str] = []
    for child in node.childNodes:
        if child.nodeType == child.TEXT_NODE:
            parts.append(child.data)
        elif child.qname == (TEXTNS, "note"):
            body = next((c for c in child.childNodes if c.qname == (TEXTNS, "note-body")), None)
            notes.append(" ".join(_text(body, notes).split()) if body is not None else "")
        elif child.qname == (TEXTNS, "s"):
            count = child.getAttrNS(TEXTNS, "c")
            parts.append(" " * min(int(count) if count and count.isdigit() else 1, MAX_REPEAT))
        elif child.qname in ((TEXTNS, "tab"), (TEXTNS, "line-break")):
            parts.append(" ")
        elif child.nodeType == child.ELEMENT_NODE:
            parts.append(_text(child, notes) + (" " if child.qname == (TEXTNS, "p") else ""))
    return "".join(parts).strip()


def _rows(table: Element) -> list[list[str]]:
    rows: list[list[str]] = []
    for row in table.getElementsByType(TableRow):
        cells: list[str] = []
        for cell in row.childNodes:
            if cell.nodeType != cell.ELEMENT_NODE:
                continue
            text = " ".join(_text(cell, []).split()) if cell.qname == (TABLENS, "table-cell") else ""
            # A cell spanning columns is followed by covered cells for them: written once over the first.
            cells += [text] * _repeat(cell)
        rows.append(cells)
    return rows


def _repeat(cell: Element) -> int:
    value = cell.getAttrNS(TABLENS, "number-columns-repeated")
    return min(int(value), MAX_REPEAT) if value and value.isdigit() and int(value) > 0 else 1
