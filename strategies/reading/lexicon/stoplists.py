"""Extra stopwords (beside ``corpus.text.stopwords``): frequent in evidence, never what a passage is about."""

from __future__ import annotations

# Units, hedges and document furniture: frequent in evidence, never what a passage is about.
# Source: hand-kept: SI and common unit symbols, hedges, citation furniture, connectives.
GENERIC_WORDS = frozenset(
    """mm cm km m2 m3 kg kwh wh kn mg ha per percent cent percentage degrees about approximately
    roughly around also however et al table fig figure section page vol pp eq approx versus vs
    thus therefore hence whereas although""".split()
)

# Function words the stopword list lacks; they end a phrase ("cell using building").
# Source: hand-kept: prepositions and quantifiers missing from corpus/resources' stopword list, and Latin abbreviations.
PHRASE_BREAKERS = frozenset(
    """least less fewer without within among several various next minus plus using used via
    upon onto towards toward whose whereby alongside beside besides despite across along around throughout
    behind beyond near e.g i.e etc""".split()
)
