"""Values a page sets on a line of their own, quoted as the answer to a question asking for them.

Documentation states many answers in no sentence: an address range under its label ("IPv6", then
"2607:6bc0::/48"), a setting in a code example (``apiKey: 'my_api_key'``, ``"max_tokens": 1``). The
sentence-level reading never quotes such a line (it is no statement), so the question went
unanswered, or was answered by a sentence about something else. A line is taken as the answer only
when it names exactly what the question asks for:

- a **labelled value**: the question names an identifier ("IPv6", "max_tokens": an acronym, a word with
  an inner capital, a digit or an underscore), a section of the evidence is headed by that identifier
  and nothing else, and the section's first line below its heading is a bare value (at most
  ``TUNING.tables.max_value_tokens`` tokens, with a digit);
- a **key and its value** (``key: value``, ``key = value``, ``"key": value``), for a question asking how
  a value is set ("how do you *specify* / *pass* / *set* …", ``SETTING_VERBS``): the key is written as
  code writes one (quoted, or with an underscore or an inner capital: ``apiKey``, ``max_tokens``) and
  is either named by the question or made of two or more words the question holds every one of
  (``apiKey`` and "the API key"); its value is a literal (not a comment) the question does not hold
  already (``"stop_reason": "tool_use"`` tells nothing to "what does a stop_reason of tool_use
  indicate?"); one line per key. A key the question names as a condition ("available in a specific
  AWS region") is no answer to it: hence the setting verb.

A plain word as key ("cost: 40", "BLEU: 32.1", often a table's row) or label ("Costs") is never
enough: the question's words would then decide alone, and a near-topic question ("installation
costs") would be answered by a line about something else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from corpus.models import Block, BlockKind
from research.evidence import CitationMarker, Claim
from strategies.reading.tuning import TUNING

from .claim_checks import technical
from .lexicon.verbs import SETTING_VERBS
from .passages import Layout
from .question import ParsedQuestion
from .text import stem, words

# Key and value on one line: a quoted or bare identifier, ":" or "=", a value (not "//", a URL's).
_KEY_VALUE = re.compile(
    r"""^\s*(?P<quote>["']?)(?P<key>[A-Za-z][\w.-]*)(?P=quote)\s*[:=]\s*(?P<value>(?![/=])\S.*?)\s*,?\s*$"""
)
_CODE_KEY = re.compile(r"_|[a-z][A-Z]")
_WORD_PARTS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_QUOTABLE = frozenset({BlockKind.PARAGRAPH, BlockKind.LIST})


@dataclass(frozen=True)
class ValueLine:
    """A line of a block answering the question: the key or label it is found by, and the line."""

    name: str  # the identifier the question names ("IPv6", "apiKey")
    block: Block
    line: str  # verbatim, as the block writes it

    def claim(self) -> Claim:
        """The line quoted, with no short answer before it: the line is the answer, shown whole (a
        question asking for an account shows no bold value)."""
        return Claim(text=self.line, citations=[CitationMarker(block_id=self.block.block_id, quote=self.line)])


def value_lines(question: ParsedQuestion, layout: Layout) -> list[ValueLine]:
    """The lines of the evidence (in its order, each once) setting a value the question asks for."""
    asked = {n.lower() for n in question.names if technical(n)}
    said = question.words
    held = {stem(w) for w in said}
    setting = any(w in SETTING_VERBS for w in said)
    out: list[ValueLine] = []
    keyed: dict[str, int] = {}  # a key's line in ``out``
    labelled: set[str] = set()  # sections whose first line below the label was looked at
    for block in layout.blocks.values():
        if block.kind not in _QUOTABLE:
            continue
        lines = [line.strip() for line in block.text.splitlines() if line.strip()]
        label = block.section.strip()
        if _asked_label(label, lines, asked, labelled):
            # Only the section's first line below its label answers; its key lines are not read.
            labelled.add(label)
            if _bare_value(lines[0]):
                out.append(ValueLine(label, block, lines[0]))
            continue
        for line in lines if setting else []:
            key = _asked_key(line, asked, held)
            if key is not None:
                _add_once(out, keyed, ValueLine(key, block, line.rstrip(",")))
    return out


def _asked_label(label: str, lines: list[str], asked: set[str], labelled: set[str]) -> bool:
    """The block opens a section headed by an identifier the question names, seen here first, and
    has a line below the label."""
    if label.lower() not in asked or not technical(label) or label in labelled:
        return False
    return bool(lines) and lines[0] != label


def _asked_key(line: str, asked: set[str], held: set[str]) -> str | None:
    """The key of a ``key: value`` line whose key is written as code writes one and named by the
    question (see the module's docstring), and whose value is a literal the question does not hold."""
    found = _KEY_VALUE.match(line)
    if found is None or not _literal(found.group("value"), held):
        return None
    key = found.group("key")
    parts = [p.lower() for p in _WORD_PARTS.findall(key)]
    named = key.lower() in asked or (len(parts) >= 2 and all(stem(p) in held for p in parts))
    if not (found.group("quote") or _CODE_KEY.search(key)) or not named:
        return None
    return key


def _add_once(out: list[ValueLine], keyed: dict[str, int], value: ValueLine) -> None:
    """Adds a key's line to ``out`` unless that key has a line there already (``keyed``: a key's
    place in ``out``)."""
    key = value.name.lower()
    if key not in keyed:
        keyed[key] = len(out)
        out.append(value)
    elif out[keyed[key]].line.startswith(value.line):
        # The same line seen again without what a flattened rendering ran into it ("... });").
        out[keyed[key]] = value


def _literal(value: str, held: set[str]) -> bool:
    """A value written as code writes one (a string, a number, a name or call, a list or object; not a
    comment) whose words the question does not hold every one of."""
    if value.startswith(("#", "//", "/*")):
        return False
    stems = {stem(w) for w in words(value)}
    return not stems or not stems <= held


def _bare_value(line: str) -> bool:
    tokens = line.split()
    return (
        len(tokens) <= TUNING.tables.max_value_tokens
        and any(c.isdigit() for c in line)
        and not line.endswith((".", ":"))
    )
