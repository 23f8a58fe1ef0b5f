"""Words whose ending misleads a suffix rule."""

from __future__ import annotations

# Source: hand-kept, general English: verbs and nouns in -ly.
NOT_ADVERBS = frozenset({"apply", "supply", "reply", "comply", "rely", "imply", "multiply", "fly", "family"})
