"""Tables found from a page's rules and shading: stacks of same-width horizontal rules with text
between them."""

from __future__ import annotations

from itertools import pairwise

from corpus.loaders.pdf.captions import has_caption_start
from corpus.loaders.pdf.elements import Segment, Table, Word
from corpus.loaders.pdf.page_objects import Box, Rule
from corpus.loaders.pdf.words import build_segments, group_rows

# Long tables are cut at inner rules into blocks of about this many words.
TABLE_SPLIT_WORDS = 150
# Pages drawing more horizontal rules than this hold a drawing, not tables.
MAX_RULES = 300


def find_tables(horizontal: list[Rule], vertical: list[Rule], shades: list[Box], words: list[Word]) -> list[Table]:
    """Tables as stacks of same-width rules (booktabs, or the borders of ruled cells) with text
    between them; a shaded header row and rows set below the last rule in the table's columns
    belong to the table too.

    A stack is cut where a caption line sits between two rules (two tables of equal width above
    each other) and dropped when it is a closed box with no inner rule (a plot frame or a framed
    paragraph, not a table).
    """
    if not horizontal or len(horizontal) > MAX_RULES:
        return []  # no rules, or a drawing (a chart's grid, a map), not tables
    tables: list[Table] = []
    for group in _rule_stacks(horizontal):
        x0 = min(r[0] for r in group)
        x1 = max(r[1] for r in group)
        for piece in _split_at_captions(group, words, x0, x1):
            shaded = _add_shaded_rows(piece, shades, x0, x1)
            tables.extend(_piece_tables(piece, shaded, vertical, words, x0, x1))
    return tables


def _rule_stacks(horizontal: list[Rule]) -> list[list[Rule]]:
    """The rules grouped by their horizontal extent (within 3 pt), top to bottom as given."""
    groups: list[list[Rule]] = []
    for rule in horizontal:
        for group in groups:
            if abs(group[0][0] - rule[0]) <= 3 and abs(group[0][1] - rule[1]) <= 3:
                if abs(group[-1][2] - rule[2]) > 0.8:  # skip doubled strokes of one rule
                    group.append(rule)
                break
        else:
            groups.append([rule])
    return groups


def _split_at_captions(group: list[Rule], words: list[Word], x0: float, x1: float) -> list[list[Rule]]:
    """Split the stack where a caption starts between two consecutive rules."""
    pieces: list[list[Rule]] = [[group[0]]]
    for prev, rule in pairwise(group):
        between = [
            w for w in words if prev[2] < (w.top + w.bottom) / 2 < rule[2] and x0 - 20 <= (w.x0 + w.x1) / 2 <= x1 + 20
        ]
        if has_caption_start(between):
            pieces.append([rule])
        else:
            pieces[-1].append(rule)
    return pieces


def _add_shaded_rows(piece: list[Rule], shades: list[Box], x0: float, x1: float) -> bool:
    """Extend the piece by the shaded bands against its first or last rule; True if there were any."""
    shaded = False
    for band in shades:  # a shaded header (or footer) row against the first (last) rule
        if abs(band[0] - x0) <= 3 and abs(band[1] - x1) <= 3:
            if abs(band[3] - piece[0][2]) <= 3 and band[2] < piece[0][2]:
                piece.insert(0, (x0, x1, band[2]))
                shaded = True
            elif abs(band[2] - piece[-1][2]) <= 3 and band[3] > piece[-1][2]:
                piece.append((x0, x1, band[3]))
                shaded = True
    return shaded


def _piece_tables(
    piece: list[Rule], shaded: bool, vertical: list[Rule], words: list[Word], x0: float, x1: float
) -> list[Table]:
    """The table(s) a piece of a rule stack makes, or none when it is a frame or holds no rows."""
    if len(piece) < 2:
        return []
    top, bottom = piece[0][2], piece[-1][2]
    if len(piece) == 2 and not shaded and _boxed(vertical, x0, x1, top, bottom):
        return []
    inside = [w for w in words if is_inside(w, x0, top, x1, bottom)]
    if len(inside) < 2:
        return []
    rows = len({round((w.top + w.bottom) / 2 / 3) for w in inside})
    if rows < 2 and len(piece) < 3:
        return []
    below = _rows_below(inside, words, x0, x1, bottom)
    if below > bottom:
        piece.append((x0, x1, below))
        inside = [w for w in words if is_inside(w, x0, top, x1, below)]
    return _split_table(piece, inside, x0, x1)


def _rows_below(inside: list[Word], words: list[Word], x0: float, x1: float, bottom: float) -> float:
    """Where the table really ends when its last rows have no rule below them: rows that follow at
    the table's row pitch with every cell aligned on a column of the rows above (left edge, right
    edge or centre). Returns the new bottom (``bottom`` when there are none)."""
    rows = group_rows(build_segments(inside))
    if len(rows) < 2:
        return bottom
    cells = [s for row in rows for s in row]
    tops = [min(s.top for s in row) for row in rows]
    pitch = sorted(b - a for a, b in pairwise(tops))[(len(tops) - 2) // 2]
    last_top = tops[-1]
    for row in group_rows(build_segments(_words_below(words, x0, x1, bottom, pitch))):
        row_top = min(s.top for s in row)
        if row_top - last_top > 1.3 * pitch + 1 or len(row) < 2 or not all(_aligned(s, cells) for s in row):
            break
        bottom = max(bottom, max(s.bottom for s in row) + 0.5)
        last_top = row_top
    return bottom


def _words_below(words: list[Word], x0: float, x1: float, bottom: float, pitch: float) -> list[Word]:
    """Words within the table's width in the five row pitches below its bottom."""
    return [w for w in words if w.top > bottom - 1 and x0 - 2 <= w.x0 and w.x1 <= x1 + 2 and w.top < bottom + 5 * pitch]


def _aligned(s: Segment, cells: list[Segment]) -> bool:
    """The segment lines up with a column of the cells: a left edge, a right edge or a centre."""
    c = (s.x0 + s.x1) / 2
    return (
        any(abs(s.x0 - cell.x0) <= 3 for cell in cells)
        or any(abs(s.x1 - cell.x1) <= 3 for cell in cells)
        or any(abs(c - (cell.x0 + cell.x1) / 2) <= 3 for cell in cells)
    )


def _split_table(rules: list[tuple[float, float, float]], words: list[Word], x0: float, x1: float) -> list[Table]:
    """One table, or several cut at inner rules when it is long (a form or datasheet laid out as a
    table holds paragraphs of prose; one block per ~150 words keeps them citable)."""
    if len(words) <= TABLE_SPLIT_WORDS * 2:
        return [Table(x0, rules[0][2], x1, rules[-1][2])]
    centers = sorted((w.top + w.bottom) / 2 for w in words)
    tables: list[Table] = []
    start = rules[0][2]
    for rule in rules[1:]:
        count = sum(1 for c in centers if start < c <= rule[2])
        if count >= TABLE_SPLIT_WORDS or rule is rules[-1]:
            if count or not tables:
                tables.append(Table(x0, start, x1, rule[2]))
            else:
                tables[-1].bottom = rule[2]
            start = rule[2]
    return tables


def _boxed(vertical: list[tuple[float, float, float]], x0: float, x1: float, top: float, bottom: float) -> bool:
    def has(x: float) -> bool:
        return any(abs(v[2] - x) <= 3 and v[0] <= top + 3 and v[1] >= bottom - 3 for v in vertical)

    return has(x0) and has(x1)


def is_inside(w: Word, x0: float, top: float, x1: float, bottom: float) -> bool:
    cx = (w.x0 + w.x1) / 2
    cy = (w.top + w.bottom) / 2
    return x0 - 2 <= cx <= x1 + 2 and top - 1 <= cy <= bottom + 1
