"""Quantity words: nouns answered by a quantity, number and ordinal words, the bounds of a figure."""

from __future__ import annotations

import re

# Nouns whose answers are quantities: general English, not any dataset's wording.
# Source: hand-kept, general English.
QUANTITY_NOUNS = frozenset(
    """population number size length height width depth area age count amount percentage proportion share
    rate ratio accuracy score total cost price fee weight speed temperature capacity duration distance value
    limit maximum minimum threshold cutoff budget salary revenue""".split()
) | frozenset(
    # The measures a paper reports an experiment's outcome in ("what F1 does X reach", "what result does
    # the paper report for X"): general research vocabulary, not any paper's wording.
    """f1 precision recall bleu rouge perplexity auc error loss result""".split()
)

# Measures that name no particular quantity: any table of figures gives a "result", a "score", a "value".
# Source: hand-kept, general English.
GENERAL_MEASURES = frozenset(
    "result results score scores value values number numbers amount total count figure average".split()
)

# How a table's header abbreviates a measure ("P", "R", "Acc."): a column "RoBERTa P" gives RoBERTa's
# precision. Single letters count only as a whole header word in capitals.
# Source: the usual abbreviations of evaluation measures in research papers' tables.
MEASURE_ABBREVIATIONS = {
    "P": "precision",
    "R": "recall",
    "Prec": "precision",
    "Rec": "recall",
    "Acc": "accuracy",
    "Avg": "average",
}

# Measures whose plural asks for an account ("what are the results of the study"), not one figure.
# Source: hand-kept, general English.
ACCOUNT_PLURALS = frozenset({"results", "outcomes", "findings"})

# Nouns whose answers are dates ("what year", "what is the birth date of").
# Source: hand-kept, general English.
DATE_NOUNS = ("date", "year", "birthday", "day", "month")

# Nouns counted in units of themselves ("a population of 3,559").
# Source: hand-kept, general English.
COUNT_NOUNS = ("population", "number", "count", "total", "amount")

# Of those, the nouns counting whole things (a population of 3,559, never of 40.16), unless averaged.
# Source: hand-kept, general English.
WHOLE_COUNT_NOUNS = ("population", "number", "count")
AVERAGING = ("average", "mean", "median", "typical", "expected")
# Of those, the ones that make whatever noun follows a figure: "the average source length", "the median
# age" ask for a number, whatever the noun ("the typical use" does not).
# Source: hand-kept, general English.
STATISTICS = ("average", "mean", "median")

# What a population counts: a figure before another noun counts that ("699 households", "255 male").
# Source: hand-kept, general English.
PEOPLE_WORDS = ("people", "persons", "person", "inhabitants", "residents", "individuals", "citizens", "souls")

# Nouns answered by an amount of money.
# Source: hand-kept, general English.
MONEY_NOUNS = ("money", "price", "cost", "fee", "budget", "salary", "revenue", "expense", "wage")

# What "how <adjective>" measures; the others ("how much", "how big") may be any quantity.
# Source: standard English grammar: the adjectives of "how <adjective>" questions.
MEASURES = {
    "often": "frequency",
    "long": "duration or length",
    "old": "duration",
    "far": "length",
    "tall": "length",
    "high": "length",
    "deep": "length",
    "wide": "length",
}

# Source: standard English grammar: English number words, "half" as 50 %.
NUMBER_WORDS = {
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "hundred": 100,
    "thousand": 1000,
    "twice": 2,
    "double": 2,
    "half": 50,
}

# Source: standard English grammar: small number words and the quantifiers of a list.
COUNTED = re.compile(r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|several|some|few|many|main|key)\b", re.I)

# Source: standard English grammar: ordinals up to the sixth, and "last".
ORDINALS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "1st": 1,
    "2nd": 2,
    "3rd": 3,
    "4th": 4,
    "5th": 5,
    "6th": 6,
    "last": -1,
}

# Source: standard English grammar: the ordinals up to the twelfth.
ORDINAL_NUMBERS = {
    w: str(n)
    for n, w in enumerate(
        "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split(), start=1
    )
}

# Source: general English: words that make a figure approximate.
APPROX = re.compile(r"\b(?:about|around|roughly|approximately|approx\.|nearly|almost|some|circa|~)\s*$", re.I)

# Source: general English: words that make a figure an upper bound.
UPPER = re.compile(
    r"\b(?:up to|at most|(?<!no )(?<!not )(?:less|fewer) than|below|under|no more than|maximum of|max\.?|"
    r"not exceeding|as (?:much|many|long|high|large) as)\s*$",
    re.I,
)

# The words of the bound phrases above: a claim writing one bound in other words ("a minimum of" for
# "at least") has not swapped a term; the bounds themselves are compared on the figures.
# Source: the phrases above.
BOUND_WORDS = frozenset(
    "least most minimum maximum max exactly precisely fewer less more over under above below much many "
    "long high large up upwards exceeding greater".split()
)

# Source: general English: words that make a figure exact, a claim that no bound covers.
EXACTLY = re.compile(r"\b(?:exactly|precisely)\s*$", re.I)

# Source: general English: words that make a figure a lower bound.
LOWER = re.compile(
    r"\b(?:at least|more than|over|above|exceeding|exceeds?|minimum of|greater than|"
    r"upwards of|no (?:fewer|less) than|not (?:fewer|less) than)\s*$",
    re.I,
)
