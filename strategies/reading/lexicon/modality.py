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
