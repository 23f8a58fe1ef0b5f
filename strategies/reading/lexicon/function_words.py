"""Closed-class English words: auxiliaries, pronouns, articles, prepositions and the particles of names."""

from __future__ import annotations

# Source: standard English grammar.
BE = frozenset({"is", "are", "was", "were"})

# Source: standard English grammar.
QUESTION_AUXILIARIES = BE | frozenset("do does did has have had can could should would will may might must".split())

# Source: standard English grammar.
AUXILIARIES = frozenset(
    "do does did is are was were be been can could should would will may might must has have had shall".split()
)

# The auxiliary agreeing with a plural subject put where a singular pronoun stood.
# Source: standard English grammar.
PLURAL_AUXILIARY = {"does": "do", "is": "are", "was": "were", "has": "have"}

# Source: standard English grammar.
PLURAL_PRONOUNS = frozenset({"they", "them", "their", "these", "those"})

# Source: standard English grammar.
SINGULAR_PRONOUNS = frozenset({"it", "its", "this", "that"})

# Source: standard English grammar.
DEMONSTRATIVES = frozenset({"this", "that", "these", "those"})

# Words after which "that" + noun is a demonstrative ("compare that study"), not a relative clause
# ("the studies that measured") or a conjunction ("true that roofs cool").
# Source: hand-kept with the follow-up rules: prepositions, and verbs that take an object.
BEFORE_DEMONSTRATIVE = frozenset("about in of on from for to with and compare than".split())

# Source: standard English grammar: articles and prepositions.
VERB_FOLLOWERS = frozenset("to the a an on in into of for with from by at over under".split())

# Source: the particles of English and European personal, place and organisation names.
NAME_PARTICLES = frozenset({"of", "de", "la", "le", "van", "von", "der", "du", "the", "and", "&", "for", "del", "da"})

# Multi-word prepositions and connectives: their content-looking words ("terms", "comes", "instead")
# name nothing a question asks about ("the key differences in *terms of* their training").
# Source: standard English grammar (complex prepositions).
COMPLEX_PREPOSITIONS = (
    "in terms of",
    "when it comes to",
    "with regard to",
    "in regard to",
    "with respect to",
    "instead of",
    "rather than",
    "in place of",
    "as opposed to",
    "according to",
    "in order to",
)

# Closed-class words that may open a sentence with a capital and name nothing: prepositions and
# quantifiers ("Among all the classes…", "Multiple deltas…") ...
# Source: standard English grammar (prepositions, quantifiers and determiners).
OPENERS = frozenset(
    """about above across after against along amid among around before behind below beneath beside
    besides between beyond despite during except inside like outside over since throughout toward towards
    under underneath unlike upon via within without all any another both each either every few many
    most much multiple neither numerous other several some such various""".split()
)
# ... and connectives, which take a comma there ("However, …").
# Source: standard English grammar (conjunctive adverbs).
CONNECTIVES = frozenset(
    "however moreover furthermore therefore thus hence instead meanwhile nevertheless nonetheless otherwise".split()
)

# What follows a verb opening an instruction ("Create the dataset…", "Calculate a score…").
# Source: standard English grammar (articles and determiners).
DETERMINERS = frozenset("the a an each every all its their your our this these those".split())
