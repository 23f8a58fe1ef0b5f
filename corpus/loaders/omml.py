"""Word's equations (Office Math Markup, ``m:oMath``) as a line of text, so that a paragraph keeps them:
python-docx's paragraph text reads runs and hyperlinks only, and a paragraph that is an equation came
out empty (a page of equations was refused as "no text could be extracted").

The line is the linear form a reader would type: a fraction "(a+b)/2", scripts "x^2", "a_(n-k)", a root
"√(x)", a sum "∑_(k=1)^n", brackets as written; any other structure is its parts in order. A part
longer than one character is bracketed where the line would otherwise be ambiguous.
"""

from __future__ import annotations

from collections.abc import Callable

from docx.oxml.ns import qn
from lxml import etree

MATH_NS = "http://schemas.openxmlformats.org/officeDocument/2006/math"
EQUATIONS = frozenset({qn("m:oMath"), qn("m:oMathPara")})
# How deep an equation is read: Word nests a few levels; a hostile file's thousands are cut off here.
MAX_DEPTH = 40


def math_text(element: etree._Element, depth: int = 0) -> str:
    """The linear text of an OMML element (an equation or any part of one)."""
    if depth > MAX_DEPTH or not isinstance(element.tag, str):
        return ""
    if element.tag == qn("m:t"):
        return element.text or ""
    name = etree.QName(element).localname
    parts = {etree.QName(c).localname: c for c in element if isinstance(c.tag, str)}
    if (shape := _SHAPES.get(name)) is not None:
        return shape(lambda part: _part(parts.get(part), depth), parts)
    if name == "d":
        return _delimited(element, depth)
    separator = " " if name == "oMathPara" else ""
    return separator.join(math_text(c, depth + 1) for c in element if not _is_properties(c))


def _part(element: etree._Element | None, depth: int) -> str:
    return math_text(element, depth + 1) if element is not None else ""


def _is_properties(element: etree._Element) -> bool:
    return isinstance(element.tag, str) and element.tag.endswith("Pr") and element.tag.startswith(f"{{{MATH_NS}}}")


def _grouped(text: str) -> str:
    return text if len(text) <= 1 else f"({text})"


def _scripts(sub: str, sup: str) -> str:
    return (f"_{_grouped(sub)}" if sub else "") + (f"^{_grouped(sup)}" if sup else "")


def _nary(part: Callable[[str], str], parts: dict) -> str:
    """A sum, product or integral: its sign (an integral when Word leaves it out), limits, body."""
    sign = parts["naryPr"].find(qn("m:chr")) if "naryPr" in parts else None
    symbol = sign.get(qn("m:val")) if sign is not None else "∫"
    return f"{symbol}{_scripts(part('sub'), part('sup'))} {part('e')}"


def _delimited(element: etree._Element, depth: int) -> str:
    """Brackets with their parts, ``(a, b)``: Word's defaults are round brackets and "|" between."""
    properties = element.find(qn("m:dPr"))

    def char(name: str, default: str) -> str:
        found = properties.find(qn(f"m:{name}")) if properties is not None else None
        return found.get(qn("m:val"), "") if found is not None else default

    inner = char("sepChr", "|").join(math_text(e, depth + 1) for e in element.iterfind(qn("m:e")))
    return f"{char('begChr', '(')}{inner}{char('endChr', ')')}"


_SHAPES: dict[str, Callable[[Callable[[str], str], dict], str]] = {
    "f": lambda part, _: f"{_grouped(part('num'))}/{_grouped(part('den'))}",
    "sSup": lambda part, _: part("e") + _scripts("", part("sup")),
    "sSub": lambda part, _: part("e") + _scripts(part("sub"), ""),
    "sSubSup": lambda part, _: part("e") + _scripts(part("sub"), part("sup")),
    "sPre": lambda part, _: _scripts(part("sub"), part("sup")) + part("e"),
    "rad": lambda part, _: (f"{_grouped(part('deg'))}" if part("deg") else "") + f"√{_grouped(part('e'))}",
    "nary": _nary,
}
