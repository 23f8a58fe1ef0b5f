"""A table block's text read as a grid: header names for each column, a label for each row, and each
row's values under the names of their columns.

Every loader writes a table as one line per row with its cells separated by " | " (PDF tables with
one cell per column of the grid, an empty one where a row leaves a column out, ``corpus.loaders.pdf
.table_grid``; Markdown and HTML tables as written). The header is the rows above the first row
holding a value (a number), at most ``MAX_HEADER_ROWS``; a header cell spanning columns is written
once, over the first, so an upper header row's name carries right over the empty cells under which the
row below names its columns ("CorvidBERT" over "Frozen" and "Finetune"). A row's label is what stands in
its columns before its first value. A table no row of which holds a value has its first row as header.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

CELL_SEPARATOR = " | "
# A bar printed inside a cell ("|source|", the size of a source; "a|b") is written as "∣" (U+2223, which
# looks the same), so that "|" only ever separates cells: the cell reads as printed and its row keeps
# its columns.
_PRINTED_BAR = str.maketrans({"|": "\u2223"})
MAX_HEADER_ROWS = 3
# A value cell: a number, maybe signed, with a unit or a ± spread, a footnote mark or a bold star.
_VALUE = re.compile(
    r"[-+−±<>~≈]?\s?[$€£]?\d[\d,.]*\s?(?:%|percent|per cent|[kKMBx×]|±\s?\d[\d.]*)?\s?[*†‡§¶\d]?(?:\s?\([^()]*\))?"
)
# Empty cells and separators at either end of a row's line.
_EMPTY_ENDS = re.compile(r"^(?:\s*\|)+\s*|(?:\s*\|)+\s*$")
_MISSING = frozenset({"-", "–", "—", "n/a", "N/A", "na", "NA"})


@dataclass(frozen=True)
class TableRow:
    """One row of values: its line in the block's text (``start``: offset of the line), its label and
    each value with the name of its column."""

    line: str
    start: int
    label: str
    cells: tuple[tuple[str, str], ...]  # (column name, value), left to right, empty values left out

    def reading(self) -> str:
        """The row as it reads with its header: "ChemRel: OrbitBERT 76.68; CorvidBERT 83.64"."""
        values = "; ".join(f"{name} {value}".strip() for name, value in self.cells)
        return f"{self.label}: {values}" if self.label else values


def table_line(cells: Iterable[str]) -> str:
    """One row of a table as every loader writes it: its cells separated by " | ", a bar printed in a
    cell written as "∣"."""
    return CELL_SEPARATOR.join(cell.translate(_PRINTED_BAR) for cell in cells)


def is_value(cell: str) -> bool:
    """A cell holding a number (a count, a score, a share), as opposed to a name."""
    return bool(_VALUE.fullmatch(cell.strip()))


def table_rows(text: str) -> list[TableRow]:
    """The rows of values of a table block's text, each with its label and column names; [] when the
    text is not a grid (no line with two cells)."""
    grid = _grid(text)
    if not grid:
        return []
    valued = [i for i, (_, _, cells) in enumerate(grid) if any(is_value(c) for c in cells[1:])]
    first_body = valued[0] if valued else 1
    names = _column_names(_header(grid, valued), len(grid[0][2]))
    rows = (_row(start, line, cells, names, bool(valued)) for start, line, cells in grid[first_body:])
    return [row for row in rows if row is not None]


def _grid(text: str) -> list[tuple[int, str, list[str]]]:
    """Each line holding a cell as (offset, line, cells), its cells padded to the widest row's count;
    [] when no line has two cells."""
    grid = [(start, line, [c.strip() for c in line.split(CELL_SEPARATOR.strip())]) for start, line in _lines(text)]
    grid = [(start, line, cells) for start, line, cells in grid if _filled(cells) >= 1]
    if not any(len(cells) > 1 for _, _, cells in grid):
        return []
    width = max(len(cells) for _, _, cells in grid)
    return [(start, line, cells + [""] * (width - len(cells))) for start, line, cells in grid]


def _filled(cells: list[str]) -> int:
    return sum(1 for c in cells if c)


def _header(grid: list[tuple[int, str, list[str]]], valued: list[int]) -> list[list[str]]:
    """The header rows: those above the first row of values, at most ``MAX_HEADER_ROWS`` (the first
    row when no row holds a value)."""
    header_count = min(valued[0], MAX_HEADER_ROWS) if valued else 1
    first_body = valued[0] if valued else 1
    header = [cells for _, _, cells in grid[first_body - header_count : first_body]]
    # A row of one cell above the first rows is a group's label ("Tiny" over the datasets of tiny
    # summaries) when the body has such rows too ("Short", "Long"); else a header cell's second line.
    if any(_filled(cells) == 1 for _, _, cells in grid[first_body:]):
        header = [cells for cells in header if _filled(cells) > 1] or header
    return header


def _row(start: int, line: str, cells: list[str], names: list[str], any_valued: bool) -> TableRow | None:
    """A body line as a row: its label the cells before its first value, its values under their
    columns' names; None for a line without values."""
    first_value = _first_value(cells)
    if first_value is None and any_valued:
        return None  # a group label ("Short") or a note between rows of values
    label_end = first_value if first_value is not None else 1
    label = " ".join(c for c in cells[:label_end] if c)
    values = tuple((names[j], c) for j, c in enumerate(cells) if j >= label_end and c and c not in _MISSING)
    if not values:
        return None
    quoted = _EMPTY_ENDS.sub("", line)
    return TableRow(quoted, start + line.index(quoted), label, values)


def _first_value(cells: list[str]) -> int | None:
    """The column of a row's first value or missing-value mark ("n/a"), past its first cell."""
    return next((j for j, c in enumerate(cells) if j > 0 and (is_value(c) or c in _MISSING)), None)


def _lines(text: str) -> list[tuple[int, str]]:
    out = []
    start = 0
    for line in text.split("\n"):
        if line.strip():
            out.append((start, line))
        start += len(line) + 1
    return out


def row_lines(text: str) -> list[tuple[int, str]]:
    """Each non-blank line of a table's text as (offset, line), without the empty cells at its ends (a
    row leaving its first columns empty is quoted from its first cell)."""
    trimmed = [(start, line, _EMPTY_ENDS.sub("", line)) for start, line in _lines(text)]
    return [(start + line.index(row), row) for start, line, row in trimmed if row.strip()]


def _column_names(header: list[list[str]], width: int) -> list[str]:
    """Each column's name: its header cells top to bottom, an upper row's name carried right over the
    columns the row below names under it."""
    filled = [list(row) for row in header]
    groups = _repeated_groups(header[-1]) if header else []
    for r, row in enumerate(filled[:-1]):
        if groups and _one_name_each(row, groups):
            _name_groups(row, groups)
        else:
            _carry_right(row, header[r + 1], width)
    return [_joined([row[j] for row in filled if row[j]]) for j in range(width)]


def _name_groups(row: list[str], groups: list[range]) -> None:
    """Each group's one name in ``row`` over every column of the group."""
    for group in groups:
        name = next(row[j] for j in group if row[j])
        for j in group:
            row[j] = name


def _carry_right(row: list[str], below: list[str], width: int) -> None:
    """A name in ``row`` carried right over the empty cells under which ``below`` names columns; never
    from the first column: the row labels' heading ("Model") names no column of values."""
    for j in range(2, width):
        if not row[j] and row[j - 1] and below[j]:
            row[j] = row[j - 1]


def _repeated_groups(leaves: list[str]) -> list[range]:
    """The column groups of a header whose lowest row repeats one run of names ("P R F1 P R F1 …"), each
    run one group; [] when it repeats none. A name over a group may be set anywhere above it (centred
    over its three columns, it stands over the second), and names the whole group."""
    start = next((j for j, name in enumerate(leaves) if j > 0 and name), None)
    if start is None:
        return []
    run = leaves[start:]
    for size in range(2, len(run) // 2 + 1):
        if len(run) % size == 0 and all(run[:size]) and all(run[i] == run[i % size] for i in range(len(run))):
            return [range(start + g, start + g + size) for g in range(0, len(run), size)]
    return []


def _one_name_each(row: list[str], groups: list[range]) -> bool:
    """Each group has exactly one name over it in ``row``, and nothing stands over the columns between."""
    covered = {j for group in groups for j in group}
    return all(sum(1 for j in group if row[j]) == 1 for group in groups) and not any(
        row[j] for j in range(1, len(row)) if j not in covered
    )


def _joined(parts: list[str]) -> str:
    """A column's name from its header lines; a word broken at a hyphen rejoined ("Orbit-" "CorvidBERT")."""
    name = ""
    for part in parts:
        name = f"{name}{part}" if name.endswith("-") else f"{name} {part}".strip()
    return name


def indexed_text(part: str, table: str) -> str:
    """A table's text, or a ``part`` of it (a long table is chunked in parts), as it is indexed: each
    row of values read with its label and its columns' names from the whole ``table`` (what a question
    about a value matches: "ChemRel: CorvidBERT Finetune 83.64", not "… | 83.64"); the other lines (the
    header, rows of words) as they stand."""
    readings = {row.line: row.reading() for row in table_rows(table) if any(is_value(v) for _, v in row.cells)}
    if not readings:
        return part
    return "\n".join(readings.get(_EMPTY_ENDS.sub("", line), line) for line in part.split("\n"))
