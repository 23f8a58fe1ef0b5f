"""Words of opposite sense, as facts of English: the judge reads "forbidden" against "allowed" as it
reads "not allowed", and a prefixed "unsigned" against "signed".

Two kinds: **complementary** pairs, where the one is the other denied ("not allowed" = "forbidden",
"does not lose" = "keeps"), and **contrary** pairs, opposed but with a middle ("did not increase" is not
"decreased"). Base forms; the reader matches their inflections. Kept small and general: no pair a
domain tells apart.
"""

from __future__ import annotations

# Source: hand-kept, general English (antonyms of a thesaurus whose negation is the other word).
COMPLEMENTARY: frozenset[frozenset[str]] = frozenset(
    frozenset(pair.split())
    for pair in (
        "allow forbid",
        "allow prohibit",
        "permit forbid",
        "permit prohibit",
        "include exclude",
        "accept reject",
        "accept decline",
        "keep lose",
        "retain lose",
        "pass fail",
        "succeed fail",
        "present absent",
        "true false",
        "enable disable",
        "agree disagree",
        "like dislike",
        "continue discontinue",
        "connect disconnect",
        "remember forget",
        "required optional",
        "mandatory optional",
        "visible hidden",
        "same different",
        "stop skip",
        "attend skip",
        "open closed",
    )
)

# Source: hand-kept, general English (antonyms of a thesaurus with a middle between them).
CONTRARY: frozenset[frozenset[str]] = frozenset(
    frozenset(pair.split())
    for pair in (
        "increase decrease",
        "increase reduce",
        "rise fall",
        "rise drop",
        "grow shrink",
        "expand shrink",
        "improve worsen",
        "improve degrade",
        "gain lose",
        "win lose",
        "high low",
        "maximum minimum",
        "early late",
        "strong weak",
        "positive negative",
        "cheap expensive",
    )
)

# Prefixes that deny the word they lead ("unsigned", "non-profit", "inactive", "impossible"), and the
# shortest word they may lead: "in" + "put" is no negation.
# Source: standard English derivational morphology (negative prefixes).
NEGATING_PREFIXES: tuple[tuple[str, int], ...] = (
    ("non-", 3),
    ("non", 4),
    ("un", 3),
    ("in", 5),
    ("im", 5),
    ("il", 5),
    ("ir", 5),
)

# Words that open with a negating prefix but deny nothing of the rest ("invaluable" is very valuable,
# "install" no "stall") or whose rest is another word ("unless", "income").
# Source: hand-kept, general English.
NOT_PREFIXED = frozenset(
    """unless until under undergo understand union unit unite universe universal uniform unique unison
    inflammable invaluable infamous insight install instance instead instant intake inspire insist
    incline include income increase inform invest involve intend intense interest internal
    improve impress import impose impair implant impact impart immerse imply""".split()
)

# Verbs whose un- form undoes the act rather than denies it: "unlock" is not "do not lock" (their
# participles are adjectives that deny: an "unlocked" door is one not locked).
# Source: hand-kept, general English (reversative verbs).
REVERSATIVE = frozenset(
    """lock pack load do fold plug install tie wrap cover screw mount block pin zip freeze subscribe
    follow link check select publish register set dress roll hook seal bind mask mute pause""".split()
)
