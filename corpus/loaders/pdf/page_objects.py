"""The only part of the loader that touches pdfminer: a page's characters, table rules, cell
shading and drawings (paths and images, where figures are: ``figures``), read from pdfminer's layout
objects in pdfplumber's coordinates."""

from __future__ import annotations

from typing import Any

from pdfminer.layout import LTChar, LTContainer, LTCurve, LTImage, LTLine, LTRect


def _is_rule_color(color: Any) -> bool:
    """Black or neutral grey, as table rules are; not the saturated colours of highlights."""
    if color is None:
        return True
    if isinstance(color, (int, float)):
        return color <= 0.75
    if isinstance(color, (tuple, list)):
        values = [c for c in color if isinstance(c, (int, float))]
        if not values:
            return True
        if len(values) == 1:
            return values[0] <= 0.75
        if len(values) == 4:  # CMYK: grey is K with little colour
            return max(values[:3]) - min(values[:3]) <= 0.15 and (values[3] >= 0.25 or min(values[:3]) >= 0.25)
        return max(values) <= 0.35 or (max(values) - min(values) <= 0.15 and max(values) <= 0.75)
    return False  # patterns and other exotic colour spaces: not a table rule


Rule = tuple[float, float, float]  # (start, end, position): x0, x1, y of a horizontal rule
Box = tuple[float, float, float, float]  # x0, x1, top, bottom


class Drawn:
    """What a page draws besides its text: the boxes of its paths (lines, rectangles, curves) and
    images, kept only as geometry. A stroked rectangle stands for its four edges (a page frame or a
    text box's border encloses text without drawing over it), which join what touches them but do
    not count as drawing."""

    __slots__ = ("boxes", "images", "edges")

    def __init__(self) -> None:
        self.boxes: list[Box] = []
        self.images: list[Box] = []
        self.edges: list[Box] = []


def extract_page_objects(page: Any) -> tuple[list[dict], list[Rule], list[Rule], list[Box], Drawn]:
    """Characters and table rules of a page, straight from pdfminer's layout objects.

    pdfplumber's ``page.chars`` turns every object on the page (each glyph, path and image) into a
    dictionary of ~25 resolved attributes, which costs more than pdfminer's own parsing. Here only
    the few attributes the loader uses are read, with pdfplumber's coordinate conventions (top-left
    origin, MediaBox offsets), so bounding boxes are exactly pdfplumber's.
    Returns (chars, horizontal rules (x0, x1, y), vertical rules (top, bottom, x), bands of light
    grey cell shading (x0, x1, top, bottom), the drawing's paths and images).
    """
    height = float(page.height)
    mb_x0, mb_top = float(page.mediabox[0]), float(page.mediabox[1])
    chars: list[dict] = []
    horizontal: list[tuple[float, float, float]] = []
    vertical: list[tuple[float, float, float]] = []
    shades: list[Box] = []
    drawn = Drawn()

    def walk(objs: Any) -> None:
        for obj in objs:
            if isinstance(obj, LTChar):
                font = obj.fontname
                if isinstance(font, bytes):
                    font = font.decode("latin-1", "replace")
                top = height - obj.y1 + mb_top
                chars.append(
                    {
                        "text": obj.get_text(),
                        "x0": obj.x0 + mb_x0,
                        "x1": obj.x1 + mb_x0,
                        "top": top,
                        "doctop": top,
                        "bottom": height - obj.y0 + mb_top,
                        "baseline": height - obj.matrix[5] + mb_top,
                        "upright": obj.upright,
                        "size": obj.size,
                        "fontname": font,
                    }
                )
            elif isinstance(obj, LTContainer):
                walk(obj)
            elif isinstance(obj, (LTCurve, LTImage)):
                _drawn(obj, drawn, height, mb_x0, mb_top)
                if isinstance(obj, (LTLine, LTRect, LTImage)):
                    _rules(obj, height, mb_x0, mb_top, horizontal, vertical, shades)

    walk(page.layout)
    return chars, _merge_rules(horizontal, 30.0), _merge_rules(vertical, 10.0), _merge_shades(shades), drawn


def _rules(
    obj: Any,
    height: float,
    mb_x0: float,
    mb_top: float,
    horizontal: list[Rule],
    vertical: list[Rule],
    shades: list[Box],
) -> None:
    """The table rules and cell shading a line, rectangle or thin image draws."""
    width = obj.x1 - obj.x0
    thick = obj.y1 - obj.y0
    if isinstance(obj, LTImage):  # thin image masks: macOS Quartz draws rules this way
        if width >= 30 and thick <= 2.0:
            horizontal.append((obj.x0 + mb_x0, obj.x1 + mb_x0, height - (obj.y0 + obj.y1) / 2 + mb_top))
        return
    box = (obj.x0 + mb_x0, obj.x1 + mb_x0, height - obj.y1 + mb_top, height - obj.y0 + mb_top)
    if thick <= 2.0 or width <= 2.0:
        _thin_rule(obj, box, horizontal, vertical)
    elif isinstance(obj, LTRect):
        _box_rules(obj, box, horizontal, vertical, shades)


def _thin_rule(obj: Any, box: Box, horizontal: list[Rule], vertical: list[Rule]) -> None:
    """A rule: a line or a thin filled rectangle, in a rule's colour, long enough to be one."""
    x0, x1, top, bottom = box
    width, thick = obj.x1 - obj.x0, obj.y1 - obj.y0
    color = obj.non_stroking_color if (isinstance(obj, LTRect) and obj.fill) else obj.stroking_color
    if not _is_rule_color(color):
        return
    if thick <= 2.0 and width >= 10:
        horizontal.append((x0, x1, (top + bottom) / 2))
    elif width <= 2.0 and thick >= 10:
        vertical.append((top, bottom, (x0 + x1) / 2))


def _box_rules(obj: LTRect, box: Box, horizontal: list[Rule], vertical: list[Rule], shades: list[Box]) -> None:
    """A stroked box, such as a table cell's border: its four edges are rules. A filled one, not too
    tall, in a shade's colour: a shaded cell or row of a table."""
    x0, x1, top, bottom = box
    if obj.stroke and _is_rule_color(obj.stroking_color):
        horizontal.extend(((x0, x1, top), (x0, x1, bottom)))
        vertical.extend(((top, bottom, x0), (top, bottom, x1)))
    elif obj.fill and obj.y1 - obj.y0 <= 40 and _is_shade_color(obj.non_stroking_color):
        shades.append((x0, x1, top, bottom))


def _drawn(obj: Any, drawn: Drawn, height: float, mb_x0: float, mb_top: float) -> None:
    x0, x1 = obj.x0 + mb_x0, obj.x1 + mb_x0
    top, bottom = height - obj.y1 + mb_top, height - obj.y0 + mb_top
    if isinstance(obj, LTImage):
        drawn.images.append((x0, x1, top, bottom))
    elif isinstance(obj, LTRect) and obj.stroke and not obj.fill and x1 - x0 > 2 and bottom - top > 2:
        drawn.edges.extend(((x0, x1, top, top), (x0, x1, bottom, bottom), (x0, x0, top, bottom), (x1, x1, top, bottom)))
    else:
        drawn.boxes.append((x0, x1, top, bottom))


def _is_shade_color(color: Any) -> bool:
    """A light neutral grey, as table cells are shaded with."""
    if isinstance(color, (int, float)):
        values = [float(color)]
    elif isinstance(color, (tuple, list)) and color and all(isinstance(c, (int, float)) for c in color):
        values = [float(c) for c in color]
        if len(values) == 4:  # CMYK: little colour, a little black
            return max(values[:3]) - min(values[:3]) <= 0.1 and 0.03 <= values[3] <= 0.4
    else:
        return False
    return max(values) - min(values) <= 0.1 and 0.6 <= min(values) and max(values) <= 0.97


def _merge_shades(shades: list[Box]) -> list[Box]:
    """Join shaded cells of one row into a band."""
    shades.sort(key=lambda b: (round(b[2]), round(b[3]), b[0]))
    bands: list[list[float]] = []
    for x0, x1, top, bottom in shades:
        last = bands[-1] if bands else None
        if last and abs(last[2] - top) <= 1 and abs(last[3] - bottom) <= 1 and x0 <= last[1] + 2:
            last[1] = max(last[1], x1)
        else:
            bands.append([x0, x1, top, bottom])
    return [(b[0], b[1], b[2], b[3]) for b in bands if b[1] - b[0] >= 30]


def _merge_rules(rules: list[tuple[float, float, float]], min_length: float) -> list[tuple[float, float, float]]:
    """Join collinear rules (start, end, position) that touch, such as the borders of adjacent
    cells, into one; drop those shorter than ``min_length``."""
    rules.sort(key=lambda r: (r[2], r[0], r[1]))
    lines: list[list[tuple[float, float, float]]] = []  # rules at (nearly) the same position
    for rule in rules:
        if lines and rule[2] - lines[-1][0][2] <= 1.0:
            lines[-1].append(rule)
        else:
            lines.append([rule])
    out: list[tuple[float, float, float]] = []
    for line in lines:
        pos = line[0][2]
        line.sort()
        start, end = line[0][0], line[0][1]
        for a, b, _ in line[1:]:
            if a <= end + 2:
                end = max(end, b)
            else:
                if end - start >= min_length:
                    out.append((start, end, pos))
                start, end = a, b
        if end - start >= min_length:
            out.append((start, end, pos))
    out.sort(key=lambda r: (r[2], r[0], r[1]))
    return out
