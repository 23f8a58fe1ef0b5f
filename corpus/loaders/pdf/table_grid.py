"""A ruled table's rows as a grid: the columns found from where the rows' cells stand on the page.

A column is an x-range most rows put text in; the gutters between columns are x-ranges at most a
few rows cross (a header spanning two columns, "CorvidBERT" over "Frozen" and "Finetune", crosses one).
Each cell then goes in the column it starts in, so every row has one cell per column and a value
stands under its header even when the row leaves cells out (a row label spanning rows is printed
once). A table with fewer than two columns, or whose cells do not fall into them one to a column,
is not read as a grid: its rows stay as their cells stand, nothing lost.
"""

from __future__ import annotations

from corpus.loaders.pdf.elements import Segment, Word, join_words
from corpus.table_text import is_value

# A gutter is crossed by at most this share of the rows (and at least by one: a spanning header).
GUTTER_ROWS_SHARE = 0.25
# A gutter is at least this wide (points): the space between two words of one cell is narrower.
MIN_GUTTER = 3.0
# Words of one cell are a space apart (about a quarter of an em); two cells' words further.
CELL_GAP_EM = 0.5


def columns(rows: list[list[Segment]]) -> list[tuple[float, float]]:
    """The grid's columns as (x0, x1), left to right, from how many rows cross each x."""
    segments = [s for row in rows for s in row]
    if not segments:
        return []
    left = int(min(s.x0 for s in segments))
    right = int(max(s.x1 for s in segments)) + 1
    crossing = [0] * (right - left + 1)
    for row in rows:
        covered = set()
        for s in row:
            covered.update(range(int(s.x0) - left, int(s.x1) - left + 1))
        for x in covered:
            crossing[x] += 1
    limit = max(1, int(GUTTER_ROWS_SHARE * len(rows)))
    spans: list[tuple[float, float]] = []
    start: int | None = None
    gap = 0
    for x, count in enumerate(crossing):
        if count > limit:
            if start is None:
                start = x
            elif gap >= MIN_GUTTER:
                spans.append((start + left, x - gap - 1 + left + 1))
                start = x
            gap = 0
        elif start is not None:
            gap += 1
    if start is not None:
        spans.append((start + left, len(crossing) - gap - 1 + left + 1))
    return spans


def grid_rows(rows: list[list[Segment]]) -> list[list[str]]:
    """Each row's cell texts, one per column of the grid; each row's own cells when the table does not
    read as a grid."""
    spans = columns(rows)
    as_they_stand = [[s.text for s in row] for row in rows]
    if len(spans) < 2:
        return as_they_stand
    # Which columns each row names (fills with words, not values), cells placed by where they stand
    # alone; a header cell over a gutter whose next row names the columns on both sides spans them.
    filled = [{column for s in row for column, text in _pieces(s, spans) if not is_value(text)} for row in rows]
    grid: list[list[str]] = []
    kept = 0
    for r, row in enumerate(rows):
        below = frozenset(filled[r + 1]) if r + 1 < len(rows) else frozenset()
        cells, whole = _grid_row(row, spans, below)
        grid.append(cells)
        kept += whole
    # Most rows must fill as many columns as they have cells: cells piling into one column mean the
    # columns were not found (a row of prose across the table).
    return grid if kept >= 0.75 * len(rows) else as_they_stand


def _grid_row(row: list[Segment], spans: list[tuple[float, float]], below: frozenset[int]) -> tuple[list[str], bool]:
    """A row's texts placed in the grid's columns, and whether every piece of it filled a column of its own."""
    cells = [""] * len(spans)
    pieces = [piece for s in row for piece in _pieces(s, spans, below)]
    for column, text in pieces:
        cells[column] = f"{cells[column]} {text}".strip()
    return cells, sum(1 for c in cells if c) == len(pieces)


def _pieces(s: Segment, spans: list[tuple[float, float]], below: frozenset[int] = frozenset()) -> list[tuple[int, str]]:
    """A cell as (column, text); a cell glued to the values that follow it, each in a column of its
    own ("Newsroom 1,212,739", "10.7 119072.6": words closer than a gutter on the page), cut before
    each number that stands in another column and before words the gutter sets apart (a header's
    second line, "(words)" under each of two columns)."""
    pieces: list[tuple[int, list[Word]]] = []
    previous: Word | None = None
    for word in s.words:
        column = _column_of(word, spans, below)
        if pieces and (column == pieces[-1][0] or not _starts_cell(word, previous, spans[column][0], column, below)):
            pieces[-1][1].append(word)
        else:
            pieces.append((column, [word]))
        previous = word
    if len(pieces) == 1:
        return [(pieces[0][0] if pieces else _column_of(s, spans, below), s.text)]
    return [(column, join_words(words)) for column, words in pieces]


def _starts_cell(word: Word, previous: Word | None, column_x0: float, column: int, below: frozenset[int]) -> bool:
    """A word in another column than the one before it begins a cell of its own: a value, or a word the
    gutter sets apart from the one before (which ends before its column begins) when no row under it
    names that column (if one did, the words would be a header spanning both columns)."""
    if is_value(word.text):
        return True
    return (
        previous is not None
        and previous.x1 < column_x0
        and word.x0 - previous.x1 >= CELL_GAP_EM * word.size
        and column not in below
    )


def _column_of(s: Segment | Word, spans: list[tuple[float, float]], below: frozenset[int] = frozenset()) -> int:
    """The column a cell starts in: the first its x-range overlaps, else the nearest by centre. A cell
    standing in the gutter between two columns that the next row both names is a header over both
    ("Corvid" centred over "Frozen" and "Tuned"), and starts in the left one."""
    for i, (x0, x1) in enumerate(spans):
        if s.x0 <= x1 and s.x1 >= x0:
            return i
    centre = (s.x0 + s.x1) / 2
    for i in range(len(spans) - 1):
        if spans[i][1] <= centre <= spans[i + 1][0] and {i, i + 1} <= below:
            return i
    return min(range(len(spans)), key=lambda i: abs((spans[i][0] + spans[i][1]) / 2 - centre))
