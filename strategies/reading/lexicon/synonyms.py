"""Common English words that say the same in most sentences: a claim using one for the other has not
swapped a term ("the company" / "the firm", "provides" / "offers", "used" / "employed").

Kept small and general: verbs and nouns of everyday and technical prose whose senses overlap in
nearly every use, never a pair a domain tells apart. Forms are base forms; the reader matches
inflections by stem.
"""

from __future__ import annotations

# Source: hand-kept, general English (common synonym groups of a thesaurus).
SYNONYM_GROUPS: tuple[frozenset[str], ...] = tuple(
    frozenset(group.split())
    for group in (
        "company firm business",
        "offer provide supply give",
        "use employ utilize utilise apply",
        "begin start commence",
        "end finish conclude",
        "need require",
        "get receive obtain",
        "show demonstrate indicate",
        "help assist aid",
        "buy purchase",
        "try attempt",
        "choose select pick",
        "make create produce",
        "build construct",
        "allow permit let enable",
        "reduce lower decrease cut",
        "increase raise boost",
        "large big",
        "small little",
        "fast quick rapid",
        "method approach technique",
        "aim goal objective",
        "car automobile vehicle",
        "staff employees personnel workers",
        "answer reply respond",
        "keep retain",
        "fix repair",
        "check verify",
        "rule regulation",
    )
)
