"""Units of measurement and money, as the readers of figures spell them."""

from __future__ import annotations

import re

# Canonical unit -> pattern (longest alternatives first). Units of different dimension never
# compare; mm and m are kept apart on purpose (a depth and a height are rarely the same subject).
# Source: SI units and their derived units, with the other units of the sample corpus (degrees, storeys, species)
# and the units a text's length is counted in.
UNIT_PATTERNS: list[tuple[str, str]] = [
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
    ("words", r"words?\b"),
    ("tokens", r"tokens?\b"),
]

# Source: the common units of time, in the plural.
DURATIONS = frozenset({"years", "months", "weeks", "days", "hours", "minutes"})

# Source: SI units of length.
LENGTHS = frozenset({"mm", "cm", "m", "km"})

# Source: how a text's length is counted ("a 5,000-word report", "512 tokens").
TEXT_LENGTHS = frozenset({"words", "tokens"})

# Source: the lists above, by the kinds of ``MEASURES``: "how long" asks a time, a distance or a text's length.
MEASURE_UNITS = {
    "duration": DURATIONS,
    "length": LENGTHS | TEXT_LENGTHS,
    "duration or length": DURATIONS | LENGTHS | TEXT_LENGTHS,
}

# Source: the major currencies' signs, ISO 4217 codes and English names.
CURRENCY = re.compile(
    r"[$€£¥₹]|\b(?:USD|EUR|GBP|CHF|JPY|dollars?|euros?|pounds?|yen|francs?|cents?|rupees?)\b", re.IGNORECASE
)
