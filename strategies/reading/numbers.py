"""Quantities in prose: "about 2 °C", "50 to 60 percent", "at most 0.5 °C", "115 kg/m2", "by 2027".

Each mention becomes an interval in a canonical unit, so "50 to 60 percent" and "57%" can be
compared (they agree: 57 lies inside 50-60) and "about 2 °C" and "about 0.3 °C" cannot both hold.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Canonical unit -> pattern (longest alternatives first). Units of different dimension never
# compare; mm and m are kept apart on purpose (a depth and a height are rarely the same subject).
_UNIT_PATTERNS: list[tuple[str, str]] = [
    ("°C", r"°\s?C\b|º\s?C\b|degrees? (?:C|Celsius)\b"),
    ("pp", r"percentage points?\b"),
    ("%", r"%|percent\b|per cent\b"),
    ("kg/m2", r"kg\s?(?:/|per)\s?(?:m2|m²|square met(?:re|er))\b"),
    ("g/m2", r"g(?: C)?\s?(?:/|per)\s?(?:m2|m²|square met(?:re|er))\b"),
    ("kN/m2", r"kN\s?(?:/|per)\s?(?:m2|m²)\b"),
    ("Wh/m2", r"k?Wh\s?(?:/|per)\s?(?:m2|m²)\b"),
    ("L/m2", r"(?:L|litres?|liters?)\s?(?:/|per)\s?(?:m2|m²)\b"),
    ("mg/L", r"mg\s?(?:/|per)\s?(?:L|litre|liter)\b"),
    ("µg/m3", r"(?:µg|ug|micrograms?)\s?(?:/|per)\s?(?:m3|m³)\b"),
    ("kWh", r"kWh\b"),
    ("m2", r"m2\b|m²|square met(?:re|er)s?\b"),
    ("ha", r"hectares?\b|ha\b"),
    ("mm", r"mm\b|millimet(?:re|er)s?\b"),
    ("cm", r"cm\b|centimet(?:re|er)s?\b"),
    ("km", r"km\b|kilomet(?:re|er)s?\b"),
    ("m", r"m\b|met(?:re|er)s?\b"),
    ("K", r"K\b|kelvin\b"),
    ("deg", r"degrees?\b"),
    ("years", r"years?\b"),
    ("months", r"months?\b"),
    ("weeks", r"weeks?\b"),
    ("days", r"days?\b"),
    ("hours", r"hours?\b|h\b"),
    ("minutes", r"minutes?\b|min\b"),
    ("storeys", r"stor(?:e)?ys?\b|stories\b|floors?\b"),
    ("species", r"species\b"),
]
_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_MENTION = re.compile(
    rf"(?<![\w.,/-])(?P<a>{_NUMBER})(?:\s*(?:-|–|—|to|and)\s*(?P<b>{_NUMBER}))?\s*"
    rf"(?P<unit>{'|'.join(f'(?:{p})' for _, p in _UNIT_PATTERNS)})",
)
_UNIT_RES = [(name, re.compile(rf"^(?:{p})$")) for name, p in _UNIT_PATTERNS]
_APPROX = re.compile(r"\b(?:about|around|roughly|approximately|approx\.|nearly|almost|some|circa|~)\s*$", re.I)
_UPPER = re.compile(
    r"\b(?:up to|at most|less than|fewer than|below|under|no more than|maximum of|max\.?|"
    r"not exceeding)\s*$",
    re.I,
)
_LOWER = re.compile(
    r"\b(?:at least|more than|over|above|exceeding|exceeds?|minimum of|greater than|"
    r"upwards of)\s*$",
    re.I,
)
_NEGATED = re.compile(r"\b(?:no|not|never|none|nothing|nowhere)\b", re.I)
_YEAR = re.compile(r"(?<![\w.,/-])(1[89]\d{2}|20\d{2})(?![\w%°/-]|\.\d|\s*(?:-|–|to)\s*\d)")

# Relative tolerance around a value: a stated figure covers +-10%, a hedged one ("about") +-20%.
EXACT_TOLERANCE = 0.10
APPROX_TOLERANCE = 0.20


@dataclass(frozen=True)
class Quantity:
    text: str  # as written, with its hedge: "about 2 °C"
    unit: str
    low: float
    high: float  # float("inf") for "more than X"
    start: int
    end: int


def _value(text: str) -> float:
    return float(text.replace(",", ""))


def _unit(raw: str) -> str:
    for name, pattern in _UNIT_RES:
        if pattern.match(raw):
            return name
    return raw


def quantities(sentence: str) -> list[Quantity]:
    out: list[Quantity] = []
    for m in _MENTION.finditer(sentence):
        unit = _unit(m.group("unit"))
        a = _value(m.group("a"))
        b = _value(m.group("b")) if m.group("b") else a
        low, high = min(a, b), max(a, b)
        before = sentence[max(0, m.start() - 25) : m.start()]
        start = m.start()
        hedge = _APPROX.search(before) or _UPPER.search(before) or _LOWER.search(before)
        tol = EXACT_TOLERANCE
        lower_bound = _LOWER.search(before)
        hedge_start = m.start() - len(before) + (lower_bound.start() if lower_bound else 0)
        lead = sentence[max(0, m.start() - 60) : hedge_start]
        lead = re.split(r"[,;:()]", lead)[-1]  # the same clause only
        if lower_bound and _NEGATED.search(lead):
            low = 0.0  # "no grid cell cooled by more than 0.5 °C" is an upper bound
        elif _UPPER.search(before):
            low = 0.0
        elif lower_bound:
            high = float("inf")
        elif _APPROX.search(before):
            tol = APPROX_TOLERANCE
        if hedge:
            start = m.start() - len(before) + hedge.start()
        low, high = low * (1 - tol), high * (1 + tol)
        text = sentence[start : m.end()].strip()
        out.append(Quantity(text=text, unit=unit, low=low, high=high, start=start, end=m.end()))
    return out


def years(sentence: str) -> list[tuple[int, int, int]]:
    """Calendar years mentioned on their own (not in ranges): (year, start, end)."""
    return [(int(m.group(1)), m.start(), m.end()) for m in _YEAR.finditer(sentence)]


# Intervals must be at least this far apart (ratio of the nearer ends) to be a conflict.
MIN_CONFLICT_RATIO = 1.5


def conflict_ratio(a: Quantity, b: Quantity) -> float:
    """How far apart two quantities of one unit are: 1.0 when their intervals overlap, else the ratio
    of the nearer ends (2 °C vs 0.3 °C -> ~4.4 once both hedges are allowed for)."""
    if a.unit != b.unit:
        return 1.0
    if a.low <= b.high and b.low <= a.high:
        return 1.0
    lower, upper = (a, b) if a.high < b.low else (b, a)
    if lower.high <= 0:
        return float("inf") if upper.low > 0 else 1.0
    return upper.low / lower.high


@dataclass(frozen=True)
class Mention:
    """A number as a text states it, for comparing claims with sources (``strategies.reading.judge``):
    its value, its canonical unit ("" for a bare number) and its bound ("exact", "approx", "upper" for
    "up to 49%", "lower" for "more than 49%")."""

    text: str
    value: float
    unit: str
    bound: str
    start: int
    end: int


_BARE = re.compile(rf"(?<![\w.,/-])(?P<a>{_NUMBER})(?:\s*(?P<scale>[kKMB]\b|thousand\b|million\b|billion\b))?(?!\d)")
_SCALES = {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6, "b": 1e9, "billion": 1e9}


def mentions(text: str) -> list[Mention]:
    """Every number of ``text`` once: with its unit where one follows (a range gives both ends), bare
    otherwise."""
    out: list[Mention] = []
    taken: list[tuple[int, int]] = []
    for m in _MENTION.finditer(text):
        unit = _unit(m.group("unit"))
        if unit == "K" and m.group("unit") == "K" and not text[m.start("unit") - 1].isspace():
            continue  # "10K tweets": thousands (below), not kelvin
        bound = _bound(text[max(0, m.start() - 25) : m.start()])
        for group in ("a", "b"):
            if m.group(group):
                out.append(Mention(m.group(group) + unit, _value(m.group(group)), unit, bound, m.start(), m.end()))
        taken.append((m.start(), m.end()))
    for m in _BARE.finditer(text):
        if any(s <= m.start() < e for s, e in taken):
            continue
        bound = _bound(text[max(0, m.start() - 25) : m.start()])
        scale = _SCALES.get((m.group("scale") or "").lower(), 1.0)
        out.append(Mention(m.group(0), _value(m.group("a")) * scale, "", bound, m.start(), m.end()))
    return sorted(out, key=lambda x: x.start)


def _bound(before: str) -> str:
    if _UPPER.search(before):
        return "upper"
    if _LOWER.search(before):
        return "lower"
    return "approx" if _APPROX.search(before) else "exact"
