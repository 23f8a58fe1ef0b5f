"""Comparative words: which way a comparison between alternatives decides, and what a measure's value is called.

Source: hand-kept, general English.
"""

from __future__ import annotations

# Comparatives (and superlatives) choosing the alternative with the larger value ...
MAX_WORDS = frozenset(
    "higher more longer larger bigger greater better wider taller heavier "
    "highest most longest largest biggest greatest best widest tallest heaviest".split()
)
# ... and with the smaller value.
MIN_WORDS = frozenset("lower fewer less shorter smaller worse lowest fewest least shortest smallest worst".split())
# Comparatives that judge rather than measure: for a measure where lower is better they point the other way.
AMBIGUOUS = frozenset("better best worse worst".split())
# Measures where a lower value is the better one (general research and engineering vocabulary).
LOWER_IS_BETTER = frozenset(
    "perplexity error errors loss latency wer cer runtime time cost costs distance rank mae mse rmse".split()
)
# Comparatives of a count or an amount: "more participants" asks how many.
COUNTING = frozenset("more fewer less most fewest least".split())
# The plain adjective a value question is asked with: "higher" -> "how high".
PLAIN = {
    **{w: "high" for w in "higher highest better best".split()},
    **{w: "low" for w in "lower lowest worse worst".split()},
    **{w: "much" for w in "more most less least".split()},
    **{w: "many" for w in "fewer fewest".split()},
    **{w: "long" for w in "longer longest".split()},
    **{w: "short" for w in "shorter shortest".split()},
    **{w: "large" for w in "larger largest bigger biggest greater greatest".split()},
    **{w: "small" for w in "smaller smallest".split()},
    **{w: "wide" for w in "wider widest".split()},
    **{w: "tall" for w in "taller tallest".split()},
    **{w: "heavy" for w in "heavier heaviest".split()},
}
