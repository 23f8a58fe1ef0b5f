"""Topic words: nouns naming a relation rather than a thing."""

from __future__ import annotations

# Nouns that name a relation rather than a thing: "the effect of sleep on memory" is about sleep
# and memory, so its whole phrase, not "the effect", is the subject a question names.
# Source: hand-kept, general English.
RELATIONAL_NOUNS = frozenset(
    """effect effects impact impacts role roles influence use uses application applications benefit
    benefits cost costs risk risks relationship relationships link links association associations
    comparison history future state evaluation analysis design performance""".split()
)
