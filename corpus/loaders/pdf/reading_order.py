"""A page's column gutter, its segments and tables in reading order, and the lines built from them."""

from __future__ import annotations

import math
from collections import Counter

from corpus.loaders.pdf.elements import Line, PageData, Segment, Table, most_common
from corpus.loaders.pdf.words import group_rows

# ---------------------------------------------------------------------------------------------
# Columns and reading order


def _find_gutter(segs: list[Segment], left: float, width: float, body_size: float) -> tuple[float, float] | None:
    """The vertical strip between two columns, or None for a single-column page.

    Segments wider than 60% of the text block (titles, full-width captions, single-column lines)
    are set aside, and so is text in other sizes than the body's (labels inside figures, which may
    straddle the gutter). The gutter is the widest strip near the middle that the fewest of the
    remaining segments cross; it counts when substantial text lies on both sides, side by side.
    """
    if len(segs) < 6:
        return None
    text_left = min(s.x0 for s in segs)
    text_width = max(s.x1 for s in segs) - text_left
    narrow = [s for s in segs if s.x1 - s.x0 < 0.6 * text_width]
    wide_chars = sum(s.nchars for s in segs) - sum(s.nchars for s in narrow)
    body = [s for s in narrow if abs(s.ref_size - body_size) <= 1.0 and s.nchars >= 8]
    if len(body) >= 6:
        narrow = body
    cov = _coverage(narrow, left, width)
    lo = max(int(text_left - left + 0.3 * text_width), 0)
    hi = min(int(text_left - left + 0.7 * text_width), len(cov))
    window = cov[lo:hi]
    if not window:
        return None
    best_run = _longest_min_run(cov, lo, hi, min(window))
    gl, gr = left + best_run[0], left + best_run[1] + 1
    if gr - gl < 3 or not _columns_beside(narrow, wide_chars, gl, gr):
        return None
    return gl, gr


def _coverage(segs: list[Segment], left: float, width: float) -> list[int]:
    """How many of the segments cross each 1-pt column of the page."""
    n = int(width) + 2
    diff = [0] * (n + 1)
    for s in segs:
        a = min(max(int(s.x0 - left), 0), n - 1)
        b = min(max(int(math.ceil(s.x1 - left)), 0), n - 1)
        diff[a] += 1
        diff[b] -= 1
    cov = []
    run = 0
    for d in diff[:n]:
        run += d
        cov.append(run)
    return cov


def _longest_min_run(cov: list[int], lo: int, hi: int, best: int) -> tuple[int, int]:
    """Longest run of minimum coverage (``best``) inside the window [lo, hi): its first and last column."""
    best_run = (0, -1)
    start = None
    for x in range(lo, hi + 1):
        inside = x < hi and cov[x] == best
        if inside and start is None:
            start = x
        elif not inside and start is not None:
            if x - start > best_run[1] - best_run[0] + 1:
                best_run = (start, x - 1)
            start = None
    return best_run


def _columns_beside(narrow: list[Segment], wide_chars: int, gl: float, gr: float) -> bool:
    """Substantial text on both sides of the strip, little across it, and side by side."""
    lefts = [s for s in narrow if s.x1 <= gl + 1]
    rights = [s for s in narrow if s.x0 >= gr - 1]
    lc = sum(s.nchars for s in lefts)
    rc = sum(s.nchars for s in rights)
    cc = sum(s.nchars for s in narrow) - lc - rc
    total = lc + rc + cc
    if len(lefts) < 3 or len(rights) < 3 or lc < 0.1 * total or rc < 0.1 * total:
        return False
    if cc > 0.5 * (lc + rc) or wide_chars > 2 * (lc + rc):
        return False
    return _side_by_side(lefts, rights)


def _side_by_side(lefts: list[Segment], rights: list[Segment]) -> bool:
    """At least three left segments share a row with a right one."""
    paired = 0
    for s in lefts:
        if any(min(s.bottom, r.bottom) - max(s.top, r.top) > 0 for r in rights):
            paired += 1
            if paired >= 3:
                return True
    return False


def _top_left(it: Segment | Table) -> tuple[float, float]:
    """Reading order inside a group: top to bottom, then left to right."""
    return it.top, it.x0


def _order_page(p: PageData, body_size: float) -> list[tuple[str, list[Segment | Table]]]:
    """Group the page's segments (and tables) into column groups in reading order."""
    items: list[Segment | Table] = [*p.segments, *p.tables]
    gutter = _find_gutter(p.segments, p.left, p.width, body_size)
    if gutter is None:
        return [("S", sorted(items, key=_top_left))]
    gl, gr = gutter
    side, spanning = _sides(items, gl, gr)
    strips = _strips(spanning)
    _join_items_beside_strips(items, side, strips)
    _join_lines_below_strips(items, spanning, side, strips)
    lefts, rights, spans = _bands(items, side, strips)
    groups: list[tuple[str, list[Segment | Table]]] = []
    for k in range(len(strips) + 1):
        if lefts[k]:
            groups.append(("L", sorted(lefts[k], key=_top_left)))
        if rights[k]:
            groups.append(("R", sorted(rights[k], key=_top_left)))
        if k < len(strips) and spans[k]:
            groups.append(("S", sorted(spans[k], key=_top_left)))
    return groups


def _sides(items: list[Segment | Table], gl: float, gr: float) -> tuple[dict[int, str], list[Segment | Table]]:
    """Each item's side of the gutter by id ("L", "R", or "S" when it spans both), and the spanning items."""
    side: dict[int, str] = {}
    spanning: list[Segment | Table] = []
    for it in items:
        if it.x1 <= gl + 1:
            side[id(it)] = "L"
        elif it.x0 >= gr - 1:
            side[id(it)] = "R"
        elif it.x0 < gl - 5 and it.x1 > gr + 5:
            side[id(it)] = "S"
            spanning.append(it)
        else:  # pokes into the gutter only: belongs to the side holding most of it
            side[id(it)] = "L" if (gl - it.x0) >= (it.x1 - gr) else "R"
    return side, spanning


def _strips(spanning: list[Segment | Table]) -> list[list[float]]:
    """Full-width strips: merged vertical extents of spanning items."""
    strips: list[list[float]] = []
    for it in sorted(spanning, key=_top_left):
        if strips and it.top <= strips[-1][1] - 1:
            strips[-1][1] = max(strips[-1][1], it.bottom)
        else:
            strips.append([it.top, it.bottom])
    return strips


def _join_items_beside_strips(items: list[Segment | Table], side: dict[int, str], strips: list[list[float]]) -> None:
    """Column items that sit beside a spanning item belong to its strip (e.g. a row of author names)."""
    for it in items:
        if side[id(it)] != "S":
            cy = (it.top + it.bottom) / 2
            for st in strips:
                if st[0] - 1 <= cy <= st[1] + 1:
                    side[id(it)] = "S"
                    break


def _join_lines_below_strips(
    items: list[Segment | Table], spanning: list[Segment | Table], side: dict[int, str], strips: list[list[float]]
) -> None:
    """...and so does the short last line of a full-width paragraph or caption right below it."""
    if not strips:
        return
    lefts_of = [min(it.x0 for it in spanning if st[0] - 1 <= it.top <= st[1]) for st in strips]
    for it in sorted(items, key=_top_left):
        if side[id(it)] == "S" or isinstance(it, Table):
            continue
        height = it.bottom - it.top
        for k, st in enumerate(strips):
            if st[1] - 1 <= it.top <= st[1] + 0.6 * height and abs(it.x0 - lefts_of[k]) < 2 * height:
                side[id(it)] = "S"
                st[1] = max(st[1], it.bottom)
                break


def _bands(
    items: list[Segment | Table], side: dict[int, str], strips: list[list[float]]
) -> tuple[list[list[Segment | Table]], list[list[Segment | Table]], list[list[Segment | Table]]]:
    """The items of each strip, and of the left and right columns in the bands above, between and below the strips."""
    n = len(strips)
    lefts: list[list[Segment | Table]] = [[] for _ in range(n + 1)]
    rights: list[list[Segment | Table]] = [[] for _ in range(n + 1)]
    spans: list[list[Segment | Table]] = [[] for _ in range(n)]
    for it in items:
        cy = (it.top + it.bottom) / 2
        where = side[id(it)]
        if where == "S":
            k = next((i for i, st in enumerate(strips) if st[0] - 1 <= cy <= st[1] + 1), None)
            if k is None:  # cannot happen: every spanning item lies in its strip
                k = min(range(n), key=lambda i: abs((strips[i][0] + strips[i][1]) / 2 - cy))
            spans[k].append(it)
            continue
        k = sum(1 for st in strips if st[1] + 1 < cy)  # column band k lies between strips k-1 and k
        (lefts if where == "L" else rights)[k].append(it)
    return lefts, rights, spans


def build_lines(p: PageData, body_size: float) -> None:
    lines: list[Line] = []
    for col, items in _order_page(p, body_size):
        lines.extend(_column_lines(col, items, p.number))
    p.lines = lines
    _set_column_edges(p)


def _column_lines(col: str, items: list[Segment | Table], page: int) -> list[Line]:
    """One column group's lines (rows of segments, and one line per table), top to bottom."""
    segs = [it for it in items if isinstance(it, Segment)]
    tables = [it for it in items if isinstance(it, Table)]
    col_lines: list[Line] = []
    for row in group_rows(segs):
        words = [w for s in row for w in s.words]
        text = " ".join(s.text for s in row)
        col_lines.append(Line(words, text, col, page))
    for t in tables:
        words = [w for _, _, ws in t.rows for w in ws]
        text = "\n".join(text for _, text, _ in t.rows)
        col_lines.append(Line(words, text, col, page, table=t))
    col_lines.sort(key=lambda ln: (ln.top, ln.x0))
    return col_lines


def _set_column_edges(p: PageData) -> None:
    """Column edges for indentation tests: the usual left edge, the right edge, the leftmost edge."""
    by_col: dict[str, list[Line]] = {}
    for ln in p.lines:
        if ln.table is None:
            by_col.setdefault(ln.col, []).append(ln)
    for col, col_lines in by_col.items():
        long_lines = [ln for ln in col_lines if len(ln.text) >= 20] or col_lines
        left = most_common(Counter(round(ln.x0) for ln in long_lines))
        rights = sorted(ln.x1 for ln in long_lines)
        right = rights[int(0.9 * (len(rights) - 1))]
        p.edges[col] = (float(left), right, min(ln.x0 for ln in col_lines))
