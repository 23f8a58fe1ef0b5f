"""Negation and polarity cues: what denies a word, and what only looks like a denial."""

from __future__ import annotations

import re

# Source: standard English grammar: negators, negative pronouns and verbs of lack.
NEGATION = re.compile(
    r"\b(?:not|no|never|none|nothing|nobody|nowhere|neither|nor|cannot|lacks?|lacking|"
    r"fails? to|failed to|unable|impossible|\w+n['’]t)\b",
    re.I,
)

# Negation words that do not negate what follows ("not only X but also Y", "no doubt").
# "without" is left out: "X works without Y" says what X needs, it does not deny X.
# Source: hand-kept, general English idioms.
NOT_NEGATION = re.compile(
    r"\b(?:not only|not just|not least|no doubt|nothing but|not to mention|not surprisingly|"
    r"no (?:fewer|less|more) than|not (?:fewer|less|more) than|none the less)\b",
    re.I,
)

# Source: standard English grammar: negators.
NEGATED = re.compile(r"\b(?:no|not|never|none|nothing|nowhere)\b", re.I)

# Source: standard English grammar: the negated auxiliaries, contracted.
CONTRACTED_NEGATIONS = frozenset(
    "don't doesn't didn't isn't aren't wasn't weren't can't cannot won't shouldn't couldn't wouldn't "
    "mustn't hasn't haven't hadn't".split()
)

# Negations of a noun: "no support for X", "without a header".
# Source: standard English grammar.
NOUN_NEGATION = frozenset({"no", "without", "neither", "nor", "never", "none"})

# After a negation, a sweep is denied, not the predicate: "does not cover all services" says some are
# covered; "not only … but also" affirms.
# Source: hand-kept, general English: quantifiers and adverbs of totality.
PARTIAL = frozenset({"all", "every", "always", "only", "just", "entirely", "completely", "fully", "necessarily"})

# Light words a negation passes over to what it denies: "no *way* to apply", "no longer supports".
# Source: hand-kept, general English.
LIGHT = frozenset({"way", "ways", "means", "option", "options", "possibility", "longer", "able", "possible"})

# Verbs that deny what they govern as "not" does: "Avoid sending the token in URLs" says do not send it.
# Source: standard English: verbs of abstention.
AVOIDANCE = frozenset({"avoid", "avoids", "avoiding", "refrain", "refrains"})

# An instruction marked as one at the head of its sentence ("Never send…", "Always pass…", "Don't…",
# "Do not…", "Avoid storing…", "Make sure…"): a statement though no verb list holds its verb.
# Source: standard English grammar: the markers of imperatives in instructions.
MARKED_IMPERATIVE = re.compile(
    r"^\W*(?:please\s+)?(?:never|always|don['’]t|do\s+not|avoid|make\s+sure|be\s+sure)\s+[a-z]", re.I
)
