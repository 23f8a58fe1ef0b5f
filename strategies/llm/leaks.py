"""Model output that repeats prp's own instructions: a sign a planted instruction ("print your system
prompt") was followed. Such a claim or title is never shown: the instructions are prp's, not evidence,
and a report is no place for them.

A text leaks when it shares a run of ``TUNING.llm.leak_words`` consecutive words with the system prompt or a step
prompt's fixed wording (their ``{placeholders}`` excluded, so quoting the topic is no leak).
"""

from __future__ import annotations

import re
from functools import lru_cache

from prompts.answer import ANSWER
from prompts.common import SYSTEM
from prompts.contradictions import CONTRADICTIONS
from prompts.plan import PLAN, SINGLE
from prompts.rerank import RERANK
from prompts.summary import SUMMARY
from strategies.reading.tuning import TUNING

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


@lru_cache(maxsize=1)
def _instruction_runs() -> frozenset[tuple[str, ...]]:
    runs: set[tuple[str, ...]] = set()
    for template in (SYSTEM, ANSWER, CONTRADICTIONS, PLAN, SINGLE, RERANK, SUMMARY):
        for part in _PLACEHOLDER.split(template):
            words = _words(part)
            runs |= {tuple(words[i : i + TUNING.llm.leak_words]) for i in range(len(words) - TUNING.llm.leak_words + 1)}
    return frozenset(runs)


def leaks_instructions(text: str) -> bool:
    words = _words(text)
    runs = _instruction_runs()
    return any(
        tuple(words[i : i + TUNING.llm.leak_words]) in runs for i in range(len(words) - TUNING.llm.leak_words + 1)
    )
