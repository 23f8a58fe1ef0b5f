"""A yes/no question about a share of a whole ("Did most of the surveyed papers run human evaluation?"),
answered by the share a sentence states ("119 papers (73%) do not perform human evaluation": No).

Such a question is not answered by the predicate alone: "17 papers (11%) perform human evaluation"
states the predicate of some papers, and says No to "most". The share is read as the sentence gives it
(a percentage, or "N out of M" / "N of the M"), turned round when a negation governs the predicate.
"""

from __future__ import annotations

import re

# "Did most …", "Do most …", "most of …", "the majority of …", "more than half …": the question asks
# whether the share is over half. "Is X the most accurate?" is a superlative, not a share.
_MAJORITY = re.compile(
    r"^\s*(?:do|does|did|are|were|have|had|can|could|will|would)\s+most\b|\bmost\s+of\b|\bthe\s+majority\s+of\b|"
    r"\b(?:more\s+than|over)\s+half\b",
    re.I,
)
_MINORITY = re.compile(r"\ba\s+minority\s+of\b|\b(?:less|fewer)\s+than\s+half\b|\bunder\s+half\b", re.I)
# The quantifier and the whole it takes ("most of the 162", "more than half of all"), left out of the
# predicate the sentence is read against: the whole's figure is not the asked figure.
_QUANTIFIER = re.compile(
    r"\b(?:most|the\s+majority|a\s+minority|(?:more|less|fewer)\s+than\s+half|over\s+half|under\s+half)"
    r"(?:\s+of)?(?:\s+(?:the|all|these|those))?(?:\s+\d[\d,]*)?\b",
    re.I,
)
_PERCENT = re.compile(r"(\d+(?:\.\d+)?)\s?(?:%|percent\b|per\s+cent\b)", re.I)
_PART_OF = re.compile(r"\b(\d[\d,]*)\s+(?:out\s+of\s+|of\s+(?:the\s+|all\s+)?)(\d[\d,]*)\b", re.I)


def asked_majority(question: str) -> bool | None:
    """True when the question asks whether most of a whole do something, False when it asks whether a
    minority do, None when it asks of no share."""
    if _MAJORITY.search(question):
        return True
    if _MINORITY.search(question):
        return False
    return None


def without_quantifier(question: str) -> str:
    """The question as a plain yes/no question of its predicate ("Did the surveyed papers perform
    human evaluation?" of "Did most of the 162 surveyed papers perform human evaluation?")."""
    return re.sub(r"\s{2,}", " ", _QUANTIFIER.sub(" ", question)).strip()


def stated_share(sentence: str) -> float | None:
    """The first share of a whole the sentence states, as a fraction (0.73 of "119 papers (73%)" or of
    "73 of the 100 papers"); None when it states none, or only a figure over the whole."""
    found = []
    for m in _PERCENT.finditer(sentence):
        found.append((m.start(), float(m.group(1)) / 100))
    for m in _PART_OF.finditer(sentence):
        part, whole = (float(g.replace(",", "")) for g in m.groups())
        if 0 < whole and part <= whole:
            found.append((m.start(), part / whole))
    shares = [share for _, share in sorted(found) if 0 <= share <= 1]
    return shares[0] if shares else None


def share_answer(majority: bool, stated: str | None, share: float | None) -> str | None:
    """Yes or No to a question of a share: ``stated`` is the sentence's plain reading of the predicate
    ("Yes": it states it of the share, "No": it denies it), ``share`` the share it gives. Half and half
    answers neither way."""
    if stated is None or share is None:
        return None
    doing = share if stated == "Yes" else 1 - share
    if doing == 0.5:
        return None
    return "Yes" if (doing > 0.5) == majority else "No"
