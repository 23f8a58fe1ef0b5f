"""The judge's checks read within one clause: each clause of a claim against the clause of the cited
text that reads most like it (``strategies.reading.clauses``).

- **polarity**: a word the claim affirms that its clause in the text denies, or the reverse ("does
  lend … books that are not catalogued" for "does not lend … books that are not catalogued"): the
  negation is read on the word it governs, so another "not" in either sentence changes nothing;
- **modality**: a claim saying "must" or "will" where the text says "can" or "might" (or any other
  class of modal, ``MODAL_CLASSES``) states more than the text;
- **figures**: a figure the text gives in another clause, to another subject ("the day pass costs
  $30" from "the day pass costs $20, and the annual pass costs $30").
"""

from __future__ import annotations

import re

from corpus.text import stopwords
from strategies.reading.claim_checks import holds, names, same_value
from strategies.reading.clauses import aligned, clauses, closeness
from strategies.reading.lexicon.function_words import AUXILIARIES
from strategies.reading.lexicon.modality import MODAL_CLASSES
from strategies.reading.lexicon.stoplists import GENERIC_WORDS
from strategies.reading.negations import adverb, denied, held_stems, polarity_stem
from strategies.reading.numbers import Mention, currency, mentions
from strategies.reading.opposites import opposed
from strategies.reading.text import content_words, stems_match, words
from strategies.reading.tuning import TUNING


def _has(word: str, held: frozenset[str]) -> bool:
    return any(word == h or stems_match(word, h) for h in held)


def clause_polarity_problem(claim: str, cited: list[str]) -> tuple[str, float] | None:
    """A word the claim's clause affirms and its aligned clause denies, or the reverse, or an opposite
    put for the word with its polarity ("forbidden" for "allowed"): (the reason, how close the clauses
    are), else None."""
    for part in clauses(claim):
        best, close = aligned(part, cited)
        if close < TUNING.judge.aligned:
            continue
        for clause in _same_subject(part, best):
            problem = _polarity_against(part, clause)
            if problem is not None:
                return problem, close
    return None


def _polarity_against(part: str, clause: str) -> str | None:
    mine, mine_held = denied(part), held_stems(part)
    theirs, theirs_held = denied(clause), held_stems(clause)
    affirmed = [w for w in theirs if _has(w, mine_held) and not _has(w, mine)]
    if affirmed:
        return f"the cited text denies {affirmed[0]!r}, which the claim states"
    refused = [w for w in mine if _has(w, theirs_held) and not _has(w, theirs)]
    if refused:
        return f"the claim denies {refused[0]!r}, which the cited text states"
    opposite = opposed(part, clause)
    if opposite is not None:
        return f"the claim says {opposite[0]!r} where the cited text says {opposite[1]!r}"
    return None


def _same_subject(part: str, best: list[str]) -> list[str]:
    """The clauses naming every name of ``part``: one missing a name speaks of another subject ("these
    models do not have the vision capabilities of the Claude 3 family")."""
    return [c for c in best if all(holds(c, n) for n in names(part))]


def modal_verbs(text: str) -> dict[str, frozenset[str]]:
    """The classes of modal (``MODAL_CLASSES``) governing each verb of ``text``, by the verb's stem:
    the first content word after the modal ("can significantly *reduce*", "will not *pass*")."""
    out: dict[str, set[str]] = {}
    stops = stopwords()
    for name, pattern in MODAL_CLASSES:
        for m in pattern.finditer(text):
            for word in words(text[m.end() : m.end() + 60])[: TUNING.judge.modal_reach]:
                if word in stops or word in AUXILIARIES or adverb(word):
                    continue
                out.setdefault(polarity_stem(word), set()).add(name)
                break
    return {k: frozenset(v) for k, v in out.items()}


def modality_problem(claim: str, cited: list[str]) -> str | None:
    """A verb the claim gives a modal of another class than the aligned clause gives the same verb
    ("caching *must* reduce latency" for "caching *can* reduce latency"). A verb the text gives no
    modal is not compared: the text's bare "reduces" states the claim's "can reduce"."""
    for part in clauses(claim):
        mine = modal_verbs(part)
        if not mine:
            continue
        best, close = aligned(part, cited)
        if close < TUNING.judge.aligned:
            continue
        for verb, classes in mine.items():
            theirs = [t for c in best for v, t in modal_verbs(c).items() if v == verb or stems_match(v, verb)]
            if theirs and not any(classes & t for t in theirs):
                return f"the claim says {sorted(classes)[0]} where the cited text says {sorted(theirs[0])[0]}"
    return None


def same_figure(claim: str, figure: Mention, text: str, stated: Mention) -> bool:
    """The same value in the same unit and, where both give one, the same currency."""
    if not same_value(figure, stated):
        return False
    mine, theirs = currency(claim, figure), currency(text, stated)
    return not (mine and theirs and mine != theirs)


def figure_clause_problem(claim: str, cited: list[str]) -> str | None:
    """A figure of the claim's clause that the aligned clause of the text does not give, while it
    gives another of the same unit (the claim's figure belongs to another clause's subject)."""
    for part in clauses(claim):
        figures = [m for m in mentions(part) if not _VERSION.search(part[: m.start])]
        if not figures:
            continue
        best, close = aligned(part, cited)
        if close < TUNING.judge.aligned:
            continue
        if any(_gives(part, f, c) for f in figures for c in best):
            continue  # a clause drawing figures from several of the text's ("23,700 queries, … 1,200 out of scope")
        problem = _figure_of_another_clause(part, figures, best, cited)
        if problem:
            return problem
    return None


def _figure_of_another_clause(part: str, figures: list[Mention], best: list[str], cited: list[str]) -> str | None:
    """The problem with the first of ``figures`` that only a clause other than ``best`` gives, where
    ``best`` gives another figure of its unit."""
    every = [c for t in cited for c in clauses(t)]
    for figure in figures:
        holders = [c for c in every if _gives(part, figure, c)]
        if not holders or any(c in best for c in holders):
            continue
        rivals = [m for c in best for m in mentions(c) if m.unit == figure.unit]
        # The clause giving the figure may be the claim's too, where it holds words of the claim
        # the best clause lacks ("… is 0.6 in layers 2 through 8 but increases from layers 8 through 12").
        if rivals and not any(_adds(part, c, best) for c in holders):
            return f"the cited text gives {rivals[0].text!r}, not {figure.text!r}, for {' '.join(words(part)[:4])!r}"
    return None


def _gives(part: str, figure: Mention, clause: str) -> bool:
    """Whether ``clause`` states ``figure`` of the claim's ``part``."""
    return any(same_figure(part, figure, clause, m) for m in mentions(clause))


# A number right after a capitalised word is a version of a name ("Claude 3", "Instant 1.2"), no quantity.
_VERSION = re.compile(r"\b[A-Z][\w-]*\s+$")


def _adds(part: str, clause: str, best: list[str]) -> bool:
    """Whether ``clause`` holds a content word of ``part`` that no clause of ``best`` holds."""
    return any(
        closeness(w, clause) > 0 and all(closeness(w, b) == 0 for b in best) for w in content_words(part, GENERIC_WORDS)
    )
