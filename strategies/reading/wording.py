"""How a text is worded: as a question, from its first word or after a scope."""

from __future__ import annotations

import re

_QUESTION_START = re.compile(
    r"^(what|which|who|whom|whose|how|why|when|where|whether|is|are|was|were|do|does|did|can|could|"
    r"should|would|will|has|have|had)\b",
    re.IGNORECASE,
)


def is_question(text: str) -> bool:
    """Ends with "?" or opens with a question word or an auxiliary ("What…", "Does…")."""
    text = text.strip()
    return text.endswith("?") or bool(_QUESTION_START.match(text))


def opens_as_question(text: str) -> bool:
    """Worded as a question from its first word ("How do…", "Is…"), or its last clause is, after a
    scope ("<paper title>: what datasets did they use?"); not a phrase ("rain on roofs?")."""
    return bool(_QUESTION_START.match(_LAST_CLAUSE.split(text.strip())[-1]))


_LAST_CLAUSE = re.compile(r"[:;]\s+|[.!]\s+(?=[A-Z])")
