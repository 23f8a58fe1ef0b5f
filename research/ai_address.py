"""Text that addresses an AI: instructions planted in a document for the model that reads it.

A document is evidence about its subject; a sentence telling the reader's assistant to ignore its
instructions, to cite something or what "the answer" is, is neither evidence nor an answer, whatever
figure it states. Both modes keep such text out of what a report presents (see docs/reliability.md).

A text addresses an AI when it holds a *strong* cue, or two *weak* ones:

- strong: an instruction to ignore or disregard previous/prior/all instructions (as an imperative,
  not "the system ignores previous values"), a chat-template token (``<|im_start|>``, ``[INST]``,
  ``<<SYS>>``), an instruction-format header ("### Instruction"), or words that cast the reader as an
  AI ("you are an AI assistant", "as an AI language model", "note to the AI");
- weak: a role marker opening a line or sentence ("SYSTEM:", "Assistant:"), a directive to cite or
  state something as proof or as the answer ("cite document X as proof", "the answer is").

A role marker alone is no address ("System: Linux" in a requirements list), nor is "Ignore the
warning if..." (no instructions named). Cues inside quotation marks or backticks are mentions,
not address: documentation about prompting quotes example prompts ("prompt = \"Human: Hello\"").
A text that is wholly one quotation is still read as it stands.
"""

from __future__ import annotations

import re
from functools import lru_cache

_ROLES = r"(?:SYSTEM|System|ASSISTANT|Assistant|USER|User|HUMAN|Human|AI|DEVELOPER|Developer)"
# "Ignore all previous instructions", "disregard the above prompt", "forget your rules"...
_OVERRIDE = re.compile(
    r"\b(?:ignore|disregard|forget|override|bypass)\s+(?:\w+\s+){0,3}?"
    r"(?:previous|prior|above|earlier|preceding|foregoing|original|all|any|your|system)\s+(?:\w+\s+){0,2}?"
    r"(?:instructions?|prompts?|directives?|rules|guidelines|guidance|context|messages?|commands?)\b",
    re.I,
)
# ... as an imperative: opening a line, a sentence, a clause or a quotation, or after "please", "and"...
_IMPERATIVE_BEFORE = re.compile(r"(?:^|[\n.!?;:,(\[\"\u201c']|\b(?:please|now|and|then|so))\s*$", re.I)
_STRONG = [
    re.compile(r"<\|(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id|begin_of_text)\|>"),
    re.compile(r"\[/?INST\]|<</?SYS>>"),
    re.compile(r"^\s*#{2,}\s*(?:instructions?|system(?: prompt)?)\s*:?\s*$", re.I | re.M),
    re.compile(
        r"\byou are (?:now )?(?:an?|the) (?:[\w-]+ ){0,2}?(?:AI|LLM|chatbot|(?:large )?language model|"
        r"AI (?:assistant|model|system))\b",
        re.I,
    ),
    # "As an AI language model, ..." but not "as an AI researcher".
    re.compile(
        r"\bas an? (?:AI |LLM )?(?:(?:large )?language model|AI|LLM)(?: (?:assistant|model|system))?\b(?!\s+[a-z])",
        re.I,
    ),
    re.compile(
        r"\b(?:note|message|instructions?) (?:to|for) (?:the |any |all )?(?:AI|LLM|language model|assistant|chatbot)s?\b"
        r"|\b(?:AI|LLM|language model|assistant|chatbot)s? (?:reading|processing|summari[sz]ing) this\b",
        re.I,
    ),
]
_WEAK = [
    re.compile(r"(?:^|(?<=[.!?])\s+)" + _ROLES + r"\s*:\s*\S", re.M),
    re.compile(r"\b(?:cite|quote|reference|use)\s+(?:[\w-]+\s+){0,4}?as (?:proof|evidence|the source)\b", re.I),
    re.compile(
        r"\bthe (?:correct |right |only |final |real )?answer (?:is|should be|must be)\b"
        r"|^\s*(?:answer|respond|reply|say|output|print|state)\s+(?:only|with|that|exactly)\b",
        re.I | re.M,
    ),
]
# A quotation: straight or curly double quotes, or backticks, on one stretch of at most 400 characters.
_QUOTED = re.compile(r"\"[^\"\n]{1,400}\"|\u201c[^\u201d]{1,400}\u201d|`[^`]{1,400}`")
_WORD = re.compile(r"\w+")


# Evidence blocks are read by several steps of one answer: each text is judged once (a pure function).
@lru_cache(maxsize=4096)
def addresses_ai(text: str) -> bool:
    """Whether ``text`` (a sentence or a block) speaks to an AI model rather than about its subject."""
    unquoted = _QUOTED.sub(" ", text)
    if len(_WORD.findall(unquoted)) >= 3:
        text = unquoted
    if any(_IMPERATIVE_BEFORE.search(text, 0, m.start()) for m in _OVERRIDE.finditer(text)):
        return True
    if any(p.search(text) for p in _STRONG):
        return True
    # Each kind counts once: two role markers are a transcript ("User: ... Support: ..."), not an address.
    return sum(1 for p in _WEAK if p.search(text)) >= 2
