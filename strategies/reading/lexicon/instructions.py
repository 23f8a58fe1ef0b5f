"""Words of instructions addressed to a model (prompt injection), never a research topic."""

from __future__ import annotations

# Words that mark a phrase as an instruction rather than a topic: document text that tries to
# steer the research ("ignore your instructions and ...") must never become a sub-question.
# Source: hand-kept from prompt-injection phrasing ("ignore your instructions").
INJECTION_WORDS = frozenset(
    """ignore ignored ignoring disregard forget instruction instructions prompt prompts system
    assistant you your yours yourself override jailbreak previous command commands execute
    respond reply chatgpt llm gpt openai ai password secret""".split()
)

# Sentences with one of these contribute no phrases at all (instructions, not content).
# Source: hand-kept from prompt-injection phrasing: the words of ``INJECTION_WORDS`` no topic uses.
STRONG_INJECTION_WORDS = frozenset(
    """ignore ignored ignoring disregard instruction instructions prompt prompts assistant
    override jailbreak chatgpt llm openai""".split()
)

# Sentences addressing the reader ("you", "your") with one of these verbs are instructions too.
# Source: hand-kept from prompt-injection phrasing.
DIRECTIVE_VERBS = frozenset(
    """must answer respond reply write say tell output print pretend act follow obey repeat
    translate summarize summarise recommend conclude""".split()
)

# Source: standard English grammar: the second-person pronouns.
SECOND_PERSON = frozenset({"you", "your", "yours", "yourself"})
