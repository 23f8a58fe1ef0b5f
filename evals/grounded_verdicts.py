"""Is an answer shown *grounded-right*? The verdict for a set whose rows give gold evidence passages but
no page gold (docs-dev's whole sections, QASPER's paragraphs, RAMDocs' correct documents).

Such a set cannot say whether a value is the gold one by page, so an answer shown is counted right only
as far as the set can tell:

1. the question is answerable (an answer to an unanswerable question is never right);
2. the lead cites gold: the answer's leading claim (the first claim of the first answered section, the
   one the confidence shown belongs to) cites a block overlapping a gold evidence passage, and where
   the set labels its documents, a document labelled correct (RAMDocs' misinformation copies a correct
   document with one value changed, so it overlaps the gold text);
3. the lead says what a reference answer says, by the references' shape:
   - Yes/No references: the lead's short answer (else its sentence) has the gold polarity
     (``value_verdicts.yes_no_right``);
   - a question asking a typed value (``parse_question``), with a reference of at most
     ``SHORT_VALUE_WORDS`` words: the lead's short answer (else its sentence) holds one such
     reference, or each value a reference lists (``value_verdicts.holds``: numbers by value);
   - otherwise, an account: the lead's text has a content word (stem) of a reference answer that the
     question does not have. This only catches a lead saying nothing the reference says (a section's
     table of contents, a sentence beside the point); it cannot tell a partial account from a full one.

An answer to an answerable question whose row gives no gold evidence (QASPER's answers found only in a
table or figure) cannot be checked and is left out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import StrEnum

from pydantic import BaseModel, Field

from evals.metrics import UNANSWERABLE, overlaps
from evals.value_verdicts import holds, yes_no_right
from strategies.reading.lexicon.documents import PLACEHOLDER
from strategies.reading.question import parse_question
from strategies.reading.text import content_stems

SHORT_VALUE_WORDS = 5
"""A reference of at most this many words is a value ("3,559 people", "Groningen Meaning Bank")."""
CORRECT_LABEL = "correct"
# QASPER's references keep the papers' placeholders for citations, tables and formulas ("MultiUN BIBREF32").
_PLACEHOLDER = re.compile(PLACEHOLDER)
_YES_NO = frozenset({"yes", "no"})
_LIST_SEPARATOR = re.compile(r",\s+|;\s*|\s+and\s+")


class GroundedVerdict(StrEnum):
    RIGHT = "grounded-right"
    UNGROUNDED = "lead cites no gold"
    UNLIKE = "unlike the references"
    FALSE_ANSWER = "answered unanswerable"


class Lead(BaseModel):
    """The answer's leading claim as the eval target records it."""

    text: str
    answer: str | None = Field(default=None, description="Its short answer, shown before it.")
    citations: list[int] = Field(default_factory=list, description="Numbers of the citations shown with it.")


def lead_cites_gold(lead: Lead, citations: Iterable[dict], golds: list[str]) -> bool:
    """Does a citation of the lead resolve to a block overlapping gold evidence (in a correct document,
    where documents are labelled)?"""
    return any(
        c["number"] in lead.citations
        and c.get("label", "") in ("", CORRECT_LABEL)
        and any(overlaps(b["text"], g) for b in c["blocks"] for g in golds)
        for c in citations
    )


def references(answers: Iterable[str]) -> list[str]:
    """The reference answers as compared: without abstentions and the papers' placeholders."""
    cleaned = (" ".join(_PLACEHOLDER.sub("", a).split()).strip(" ,;") for a in answers if a != UNANSWERABLE)
    return [a for a in cleaned if a]


def holds_value(text: str, reference: str) -> bool:
    """``text`` holds the reference value, or each value of a reference listing several ("Europarl,
    MultiUN"; "Precision, Recall and F-measure") wherever the text names them."""
    if holds(text, reference):
        return True
    items = [i for i in _LIST_SEPARATOR.split(reference) if i.strip()]
    return len(items) > 1 and all(holds(text, i) for i in items)


def says_a_reference(question: str, lead: Lead, answers: list[str]) -> bool:
    """Condition 3 of the module docstring: the lead says what one of ``answers`` says."""
    refs = references(answers)
    # A claim is one quoted sentence (and the items of a list it leads): read whole, as an abbreviation's
    # full stop ("born in St. Johnsbury") would end a sentence split from it.
    short = lead.answer or lead.text.split("\n", 1)[0]
    if refs and all(a.lower() in _YES_NO for a in refs):
        return any(yes_no_right(question, short, a) for a in refs)
    values = [a for a in refs if len(a.split()) <= SHORT_VALUE_WORDS]
    if values and parse_question(question).type.typed:
        return any(holds_value(short, a) for a in values)
    asked = set(content_stems(question))
    said = set(content_stems(lead.text))
    return any((set(content_stems(a)) - asked) & said for a in refs)


def verdict(*, question: str, answers: list[str], answerable: bool, lead: Lead, cites_gold: bool) -> GroundedVerdict:
    """The verdict on an answer shown (see the module docstring)."""
    if not answerable:
        return GroundedVerdict.FALSE_ANSWER
    if not cites_gold:
        return GroundedVerdict.UNGROUNDED
    return GroundedVerdict.RIGHT if says_a_reference(question, lead, answers) else GroundedVerdict.UNLIKE


# The verdict as scores: ``grounded_right`` on every answer shown that is checked (its mean is the share
# right), ``grounded_cited`` on those to answerable questions (the share whose lead cites gold).
RIGHT_KEY, CITED_KEY = "grounded_right", "grounded_cited"


def score_keys(verdict: GroundedVerdict) -> dict[str, float]:
    scores = {RIGHT_KEY: float(verdict is GroundedVerdict.RIGHT)}
    if verdict is not GroundedVerdict.FALSE_ANSWER:
        scores[CITED_KEY] = float(verdict is not GroundedVerdict.UNGROUNDED)
    return scores


def verdict_of(scores: dict[str, float]) -> GroundedVerdict | None:
    """The verdict ``score_keys`` gave, read back (None: the answer was not checked)."""
    if RIGHT_KEY not in scores:
        return None
    if scores[RIGHT_KEY]:
        return GroundedVerdict.RIGHT
    if CITED_KEY not in scores:
        return GroundedVerdict.FALSE_ANSWER
    return GroundedVerdict.UNLIKE if scores[CITED_KEY] else GroundedVerdict.UNGROUNDED
