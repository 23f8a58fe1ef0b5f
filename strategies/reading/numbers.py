"""Quantities in prose: "about 2 °C", "50 to 60 percent", "at most 0.5 °C", "115 kg/m2", "by 2027".

Each mention becomes an interval in a canonical unit, so "50 to 60 percent" and "57%" can be
compared (they agree: 57 lies inside 50-60) and "about 2 °C" and "about 0.3 °C" cannot both hold.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from strategies.reading.lexicon.negation import NEGATED
from strategies.reading.lexicon.quantities import APPROX, LOWER, NUMBER_WORDS, UPPER
from strategies.reading.lexicon.units import UNIT_PATTERNS
from strategies.reading.tuning import TUNING

# Number words that are no count of a unit: "half" is a share, "twice"/"double" a factor.
_NOT_COUNTS = frozenset({"half", "twice", "double"})
_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
# A number spelled out before its unit ("one to two hours", "Three weeks"); "one" counts here, as it
# does not in a bare figure, where it is a pronoun as often as a number.
_SPELLED = {"one": 1.0} | {w: float(v) for w, v in NUMBER_WORDS.items() if w not in _NOT_COUNTS}
_SPELLED_NUMBER = r"(?i:" + "|".join(sorted(_SPELLED, key=len, reverse=True)) + r")\b"
_MENTION = re.compile(
    rf"(?<![\w.,/-])(?P<a>{_NUMBER}|{_SPELLED_NUMBER})(?:\s*(?:-|–|—|to|and)\s*(?P<b>{_NUMBER}|{_SPELLED_NUMBER}))?\s*"
    rf"(?P<unit>{'|'.join(f'(?:{p})' for _, p in UNIT_PATTERNS)})",
)
_UNIT_RES = [(name, re.compile(rf"^(?:{p})$")) for name, p in UNIT_PATTERNS]
_YEAR = re.compile(r"(?<![\w.,/-])(1[89]\d{2}|20\d{2})(?![\w%°/-]|\.\d|\s*(?:-|–|to)\s*\d)")


@dataclass(frozen=True)
class Quantity:
    text: str  # as written, with its hedge: "about 2 °C"
    unit: str
    low: float
    high: float  # float("inf") for "more than X"
    start: int
    end: int


def _value(text: str) -> float:
    spelled = _SPELLED.get(text.lower())
    return spelled if spelled is not None else float(text.replace(",", ""))


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
        hedge = APPROX.search(before) or UPPER.search(before) or LOWER.search(before)
        tol = TUNING.judge.exact_tolerance
        lower_bound = LOWER.search(before)
        hedge_start = m.start() - len(before) + (lower_bound.start() if lower_bound else 0)
        lead = sentence[max(0, m.start() - 60) : hedge_start]
        lead = re.split(r"[,;:()]", lead)[-1]  # the same clause only
        if lower_bound and NEGATED.search(lead):
            low = 0.0  # "no grid cell cooled by more than 0.5 °C" is an upper bound
        elif UPPER.search(before):
            low = 0.0
        elif lower_bound:
            high = float("inf")
        elif APPROX.search(before):
            tol = TUNING.judge.approx_tolerance
        if hedge:
            start = m.start() - len(before) + hedge.start()
        low, high = low * (1 - tol), high * (1 + tol)
        text = sentence[start : m.end()].strip()
        out.append(Quantity(text=text, unit=unit, low=low, high=high, start=start, end=m.end()))
    return out


def is_bound(phrase: str) -> bool:
    """A figure given as a bound, not as the value: "at least 150 words", "up to 600 ms"."""
    digit = re.search(r"\d", phrase)
    return digit is not None and bound_before(phrase[: digit.start()]) in ("upper", "lower")


def years(sentence: str) -> list[tuple[int, int, int]]:
    """Calendar years mentioned on their own (not in ranges): (year, start, end)."""
    return [(int(m.group(1)), m.start(), m.end()) for m in _YEAR.finditer(sentence)]


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
        bound = bound_before(text[max(0, m.start() - 25) : m.start()])
        for group in ("a", "b"):
            if m.group(group):
                out.append(Mention(m.group(group) + unit, _value(m.group(group)), unit, bound, m.start(), m.end()))
        taken.append((m.start(), m.end()))
    for m in _BARE.finditer(text):
        if any(s <= m.start() < e for s, e in taken):
            continue
        bound = bound_before(text[max(0, m.start() - 25) : m.start()])
        scale = _SCALES.get((m.group("scale") or "").lower(), 1.0)
        out.append(Mention(m.group(0), _value(m.group("a")) * scale, "", bound, m.start(), m.end()))
    return sorted(out, key=lambda x: x.start)


def bound_before(before: str) -> str:
    """The bound the words before a figure put on it: upper, lower, approx or exact."""
    if UPPER.search(before):
        return "upper"
    if LOWER.search(before):
        return "lower"
    return "approx" if APPROX.search(before) else "exact"


# Source: the major currencies' signs, ISO 4217 codes and English names, by code.
_CURRENCIES = {
    "USD": r"US\$|\$|USD|dollars?",
    "EUR": r"€|EUR|euros?",
    "GBP": r"£|GBP|pounds? sterling|pounds?",
    "JPY": r"¥|JPY|yen",
    "INR": r"₹|INR|rupees?",
    "CHF": r"CHF|francs?",
}
_CURRENCY_BEFORE = [(code, re.compile(rf"(?:{p})\s?$")) for code, p in _CURRENCIES.items()]
_CURRENCY_AFTER = [
    (code, re.compile(rf"^\s?(?:[kKMB]\b|thousand|million|billion)?\s?(?:{p})\b")) for code, p in _CURRENCIES.items()
]


def currency(text: str, mention: Mention) -> str:
    """The currency ``text`` gives the figure ``mention`` ("$20", "USD 20", "20 euros"): its ISO code,
    "" for none."""
    before, after = text[max(0, mention.start - 4) : mention.start], text[mention.end : mention.end + 20]
    for code, pattern in _CURRENCY_BEFORE:
        if pattern.search(before):
            return code
    for code, pattern in _CURRENCY_AFTER:
        if pattern.search(after):
            return code
    return ""
