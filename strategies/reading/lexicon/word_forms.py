"""Words whose ending misleads a suffix rule."""

from __future__ import annotations

# Source: hand-kept, general English: verbs and nouns in -ly.
NOT_ADVERBS = frozenset({"apply", "supply", "reply", "comply", "rely", "imply", "multiply", "fly", "family"})

# The endings of English adjectives ("physiological", "synthetic", "comparative", "continuous"), and
# the common nouns that end the same way ("signal", "topic", "objective", "summary").
# Source: standard English derivational suffixes; the nouns hand-kept, general English.
ADJECTIVE_ENDINGS = ("al", "ic", "ive", "ous", "ful", "able", "ible", "less", "ary")
NOT_ADJECTIVES = frozenset(
    """proposal trial journal signal material interval potential total capital hospital portal manual
    festival rival animal arrival approval survival referral rental terminal tutorial topic logic music
    traffic graphic clinic metric epidemic republic critic mechanic objective alternative initiative
    archive narrative perspective incentive executive representative directive variable table cable
    vegetable library summary dictionary glossary vocabulary boundary salary anniversary diary
    commentary secretary itinerary""".split()
)

# Source: hand-kept, general English: the irregular past forms of common verbs, by their base form
# ("Did the survey *find* a decline?" is answered by "the survey *found* …"). Forms that are also
# common nouns or adjectives of another sense ("left", "saw", "rose", "wound") are left out.
_IRREGULAR = {
    "become": "became",
    "begin": "began begun",
    "break": "broke broken",
    "bring": "brought",
    "build": "built",
    "buy": "bought",
    "catch": "caught",
    "choose": "chose chosen",
    "come": "came",
    "deal": "dealt",
    "do": "did done",
    "draw": "drew drawn",
    "drive": "drove driven",
    "eat": "ate eaten",
    "fall": "fell fallen",
    "feel": "felt",
    "fight": "fought",
    "find": "found",
    "fly": "flew flown",
    "forbid": "forbade forbidden",
    "forget": "forgot forgotten",
    "freeze": "froze frozen",
    "get": "got gotten",
    "give": "gave given",
    "go": "went gone",
    "grow": "grew grown",
    "hear": "heard",
    "hold": "held",
    "keep": "kept",
    "know": "knew known",
    "lead": "led",
    "leave": "left",
    "lose": "lost",
    "make": "made",
    "mean": "meant",
    "meet": "met",
    "pay": "paid",
    "rise": "rose risen",
    "run": "ran",
    "say": "said",
    "see": "saw seen",
    "seek": "sought",
    "sell": "sold",
    "send": "sent",
    "show": "shown",
    "sit": "sat",
    "speak": "spoke spoken",
    "spend": "spent",
    "stand": "stood",
    "take": "took taken",
    "teach": "taught",
    "tell": "told",
    "think": "thought",
    "throw": "threw thrown",
    "understand": "understood",
    "win": "won",
    "write": "wrote written",
}
_AMBIGUOUS = frozenset({"left", "saw", "rose", "fell", "ran"})
IRREGULAR_BASE = {form: base for base, forms in _IRREGULAR.items() for form in forms.split() if form not in _AMBIGUOUS}

# Plurals that do not end in -s ("how many *people* live there").
# Source: hand-kept, general English.
IRREGULAR_PLURALS = frozenset({"people", "children", "men", "women", "mice", "geese", "feet", "teeth", "oxen"})
