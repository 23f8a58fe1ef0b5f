"""Pass 1 for one page: pdfminer's objects -> words, body segments and tables."""

from __future__ import annotations

from typing import Any

from pdfplumber.utils.text import WordExtractor

from corpus.loaders.pdf.elements import PageData, Segment, Table, Word
from corpus.loaders.pdf.figures import drawing_regions
from corpus.loaders.pdf.page_objects import extract_page_objects
from corpus.loaders.pdf.table_grid import grid_rows
from corpus.loaders.pdf.tables import find_tables, is_inside
from corpus.loaders.pdf.words import build_segments, group_rows, page_words
from corpus.table_text import table_line

# ---------------------------------------------------------------------------------------------
# Pass 1: one page of pdfminer output -> words, segments, tables


def extract_page(page: Any, number: int, extractor: WordExtractor) -> tuple[PageData, str]:
    """The page's segments, tables and drawings, and the arXiv side stamp found on it (or "")."""
    bbox = (float(page.bbox[0]), float(page.bbox[1]), float(page.bbox[2]), float(page.bbox[3]))
    data = PageData(number, bbox)
    chars, horizontal, vertical, shades, drawn = extract_page_objects(page)
    data.has_images = bool(drawn.images)
    area = sum((x1 - x0) * (bottom - top) for x0, x1, top, bottom in drawn.images)
    data.image_share = min(1.0, area / (data.width * data.height)) if data.width * data.height > 0 else 0.0
    words, stamp = page_words(chars, extractor, bbox)
    if words and (len(horizontal) >= 2 or (horizontal and shades)):
        data.tables = find_tables(horizontal, vertical, shades, words)
    table_words, body = _split_table_words(words, data.tables)
    segments = build_segments(body)
    kept_tables = []
    for ti, t in enumerate(data.tables):
        tw = table_words.get(ti)
        if not tw:
            continue
        segs = build_segments(tw)
        rows = group_rows(segs)
        if _is_prose_box(rows, tw):
            segments.extend(segs)
            continue
        _fill_table(t, rows)
        kept_tables.append(t)
    segments.sort(key=lambda s: (s.top, s.x0, s.x1))
    data.segments = segments
    data.tables = kept_tables
    if segments:
        data.drawings = drawing_regions(drawn, bbox)
    return data, stamp


def _split_table_words(words: list[Word], tables: list[Table]) -> tuple[dict[int, list[Word]], list[Word]]:
    """The words inside each table (by the table's index; the first table holding a word wins),
    and the words outside all tables."""
    table_words: dict[int, list[Word]] = {}
    body: list[Word] = []
    for w in words:
        for ti, t in enumerate(tables):
            if is_inside(w, t.x0, t.top, t.x1, t.bottom):
                table_words.setdefault(ti, []).append(w)
                break
        else:
            body.append(w)
    return table_words, body


def _is_prose_box(rows: list[list[Segment]], tw: list[Word]) -> bool:
    """Mostly one cell per row: prose in a ruled box (a form, a datasheet, instructions), better
    read as paragraphs than as a table."""
    return sum(1 for row in rows if len(row) > 1) < 0.3 * len(rows) and (len(rows) >= 4 or len(tw) >= 10)


def _fill_table(t: Table, rows: list[list[Segment]]) -> None:
    """One row of text per row of cells, the cells separated by " | ": one cell per column of the
    grid (an empty one where a row has nothing in a column) when the table reads as a grid, else the
    row's cells as they stand (``table_grid``)."""
    for row, cells in zip(rows, grid_rows(rows), strict=True):
        row_words = [w for s in row for w in s.words]
        t.rows.append((min(s.top for s in row), table_line(cells), row_words))
