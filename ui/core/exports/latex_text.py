"""Text as BibTeX fields hold it: LaTeX's special characters escaped outside math, math kept as
``$...$``, and in titles the capitals a style must not lower-case braced the way BibTeX users brace
them ("{GPTQ}", "{LLM}s", "{TinyStories}", "{English}").

BibTeX styles write titles in sentence case: every letter after the first is lower-cased unless it is
inside braces. What keeps its capitals: a word with a capital after its first letter (an acronym, a
model's name, "7B"), the names of languages and countries (CLDR's English names, through Babel), the
words the document itself writes capitalised in mid-sentence and never in lower case (a place, a
product: ``proper_words``), a capital that opens a sentence after "?" or "!", and, in a title written
in sentence case, every capitalised word past the first (the title's author capitalised a proper name
there). Math is braced whole, so "$f(Q)$" stays as written.
"""

from __future__ import annotations

import re
from functools import cache

from babel import Locale

# Braces become commands, not "\{": BibTeX counts every brace, escaped or not, so a lone "\{" would
# leave the entry unbalanced.
_ESCAPES = {
    "\\": r"\textbackslash{}",
    "{": r"\textbraceleft{}",
    "}": r"\textbraceright{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}
# Inline math as TeX writers and pandoc read it: "$" then a non-space, a non-space then "$" not
# followed by a digit, so "$5 to $10" stays money.
_MATH = re.compile(r"\$(?=[^\s$])(?:\\.|[^$\\\n])*?(?<=[^\s\\])\$(?!\d)")
_WORD = re.compile(r"[^\W_](?:[\w'’.\-]*[^\W_])?")
# BibTeX keeps the first letter after ": " as written, not after "?" or "!".
_AFTER_COLON = re.compile(r":\s*$")
_SENTENCE = re.compile(r"(?<=[.!?:])\s+")


def escape(text: str) -> str:
    """``text`` with whitespace folded and LaTeX's special characters escaped (no math kept)."""
    return "".join(_ESCAPES.get(ch, ch) for ch in " ".join(text.split()))


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


def with_math(text: str, protect_case: bool = False, names: frozenset[str] = frozenset()) -> str:
    """``text`` escaped outside ``$...$`` math, the math as written (braced when ``protect_case``);
    a math span with unbalanced braces is escaped like text, since BibTeX needs every brace paired."""
    text = " ".join(text.split())
    out, at = [], 0
    for found in _MATH.finditer(text):
        if not _balanced(found.group()):
            continue
        piece = text[at : found.start()]
        out.append(_protected(piece, text[:at], names) if protect_case else escape_keep(piece))
        out.append(f"{{{found.group()}}}" if protect_case else found.group())
        at = found.end()
    rest = text[at:]
    out.append(_protected(rest, text[:at], names) if protect_case else escape_keep(rest))
    return "".join(out)


def escape_keep(text: str) -> str:
    """``escape`` without folding whitespace (``text`` is a piece of a folded whole)."""
    return "".join(_ESCAPES.get(ch, ch) for ch in text)


def title(text: str, names: frozenset[str] = frozenset()) -> str:
    """A title as a BibTeX field: escaped, math kept, the capitals a style must keep braced (``names``:
    words the document writes as proper names, ``proper_words``)."""
    return with_math(text, protect_case=True, names=names)


def proper_words(texts: list[str], title: str) -> frozenset[str]:
    """The words of ``title`` that ``texts`` (the document's own text) write capitalised where a
    sentence does not start, and never in lower case: "Harborview", "Sedum"."""
    wanted = {w.group() for w in _WORD.finditer(title) if w.group()[:1].isupper() and w.group()[1:].islower()}
    capitalised: set[str] = set()
    lower: set[str] = set()
    for text in texts:
        for sentence in _SENTENCE.split(text):
            for word in [w.group() for w in _WORD.finditer(sentence)][1:]:
                if word.islower():
                    lower.add(word)
                elif word in wanted:
                    capitalised.add(word)
    return frozenset(w for w in capitalised if w.lower() not in lower)


@cache
def _proper_names() -> frozenset[str]:
    """Languages' and countries' names in English (one-word ones: "English", "Chinese", "Brazil")."""
    locale = Locale("en")
    names = [*locale.languages.values(), *locale.territories.values()]
    return frozenset(n for n in names if n.isalpha() and n[0].isupper())


def _sentence_case(text: str) -> bool:
    """Whether ``text`` is in sentence case: most of its longer words, past the first, in lower case."""
    words = [w.group() for w in _WORD.finditer(text)][1:]
    long = [w for w in words if len(w) >= 4 and w.isalpha()]
    return bool(long) and sum(w[0].isupper() for w in long) * 2 < len(long)


def _keeps_capitals(word: str, first: bool, sentence_case: bool, names: frozenset[str]) -> bool:
    if any(ch.isupper() for part in word.split("-") for ch in part[1:]):
        return True  # GPTQ, LLMs, TinyStories, 7B, GPT-4 (not "Post-Training": each part capitalised)
    if not word[0].isupper() or first:
        return False
    return word in names or word in _proper_names() or sentence_case


def _protected(piece: str, before: str, names: frozenset[str]) -> str:
    """``piece`` of a title escaped, with the words that keep their capitals braced; ``before`` is the
    title's text up to ``piece`` (a word at the title's start or after ": " needs no braces; one that
    opens a sentence after "?" or "!" does, and keeps its capital)."""
    whole = before + piece
    sentence_case = _sentence_case(whole)
    out, at = [], 0
    for found in _WORD.finditer(piece):
        word = found.group()
        preceding = before + piece[: found.start()]
        first = not preceding.strip() or bool(_AFTER_COLON.search(preceding))
        opens = bool(re.search(r"[?!]\s*$", preceding)) and word[0].isupper()
        keep = opens or _keeps_capitals(word, first, sentence_case, names)
        out.append(escape_keep(piece[at : found.start()]))
        out.append(f"{{{escape_keep(word)}}}" if keep else escape_keep(word))
        at = found.end()
    out.append(escape_keep(piece[at:]))
    return "".join(out)
