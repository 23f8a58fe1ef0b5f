"""How firmly a sentence says what it says: sweeping words, limiting words and hedges, obligations."""

from __future__ import annotations

import re

# Source: hand-kept, general English: universal quantifiers and absolutes.
SWEEPING = re.compile(
    r"\b(?:all|every|everyone|everything|always|entirely|completely|totally|fully|permanently|"
    r"eliminat\w*|guarantee\w*|any|whole)\b",
    re.I,
)

# Source: hand-kept, general English: partial quantifiers, hedges and modals of possibility.
LIMITED = re.compile(
    r"\b(?:some|several|many|most|half|part|partly|partially|about|around|roughly|approximately|up to|"
    r"may|might|could|can|often|sometimes|usually|typically|reduce\w*|lower\w*|limit\w*|few|certain)\b",
    re.I,
)

# A requirement or recommendation ("must cover at least 70% of the roof") does not contradict a
# measurement ("roofs cover 23 percent of the plan area"): figures only conflict between two
# statements of the same mood.
# Source: hand-kept, general English: modals of obligation and words of requirement.
NORMATIVE = re.compile(
    r"\b(?:must|should|shall|ought|have to|has to|need to|needs to|required?|requirement|recommend(?:s|ed)?|"
    r"advised?|target)\b",
    re.IGNORECASE,
)

# What a modal says of its verb, by class: a claim saying "must" or "will" where the text says "can"
# or "might" states more than the text. "cannot" and "unable to" fall in the class of "can"; "should"
# in that of "must" ("you should retry" / "you'll need to retry" say the same in instructions).
# Source: standard English grammar: the modal verbs and their periphrastic forms.
MODAL_CLASSES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("possible", re.compile(r"\b(?:can|cannot|can['’]t|could|couldn['’]t|may|might|(?:un)?able to)\b", re.I)),
    (
        "necessary",
        re.compile(
            r"\b(?:must|mustn['’]t|shall|ha(?:ve|s|d) to|needs? to|(?:is|are) required to|should|shouldn['’]t|"
            r"ought to)\b",
            re.I,
        ),
    ),
    ("future", re.compile(r"\b(?:will|won['’]t|is going to|are going to)\b", re.I)),
)
