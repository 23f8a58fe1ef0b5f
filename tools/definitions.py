"""Definition questions: "What is X?", "What are X?", "What does X do?".

Such a question holds one term, X, and on a documentation site every page mentions X, so neither
BM25 (X is in every chunk) nor the dense model (every page is "about" X) tells the page that defines
X from the one that says "X is controlled by quotas". What does tell them apart is what a reader
looks for: a sentence that defines X ("X is a fully managed service …", "X lets you …") and a page or
section that introduces X ("What is X?", "X overview", "Introduction to X"). ``definition_rank``
orders hits by those, keeping the retriever's order otherwise.
"""

from __future__ import annotations

import re

_QUESTION = re.compile(
    r"^\s*(?:what|who)\s+(?:is|are|was|were)\s+(?:(?:a|an|the)\s+)?(?P<x>[^?]+?)\s*\??\s*$"
    r"|^\s*what\s+(?:does|do|did)\s+(?:(?:a|an|the)\s+)?(?P<y>[^?]+?)\s+do\s*\??\s*$"
    r"|^\s*(?:define|definition of)\s+(?:(?:a|an|the)\s+)?(?P<z>[^?]+?)\s*\??\s*$"
    # "How does Lark Reader define section gists?", "How are section gists defined in Lark Reader?"
    r"|^\s*how\s+(?:does|do|did)\s+(?!(?:i|you|we|one)\s)[^?]+?\s+define\s+(?:(?:a|an|the)\s+)?(?P<w>[^?]+?)\s*\??\s*$"
    r"|^\s*how\s+(?:is|are|was|were)\s+(?:(?:a|an|the)\s+)?(?P<v>[^?]+?)\s+defined\b[^?]*\??\s*$",
    re.IGNORECASE,
)
# A subject is a term, not a clause: no pronoun, preposition or verb of a longer question.
_NOT_A_TERM = frozenset(
    """of in on by for to from at with about their they them we our us its it this that these those
    when how why which who whom used use using between than does do did can could should would will
    has have had been be being not no there here my your his her""".split()
)
MAX_SUBJECT_WORDS = 5
# A list item's number before its term: "(2) Section Gists – …", "3. X is …".
_ENUMERATOR = re.compile(r"^\(?\d{1,2}[.)]\s+")
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
# A footnote or affiliation marker a PDF fuses to a term ("We introduce Orbit,1 a large corpus").
_MARK = r"(?:\s?(?:\d{1,2}|[*†‡§]))?"
_GLOSS = r"(?:\s*\([^)]*\))?"  # "X (eXtended Router) is a …"
# What follows a term that a sentence defines: "is a …", "lets you …", "refers to …".
_DEFINING = re.compile(
    r"^\s*(?:\([^)]*\)\s*)?,?\s*(?:(?:is|are|was)\s+(?:a|an|the|one)\b|(?:lets|allows|enables|helps)\b"
    r"|refers?\s+to\b|stands?\s+for\b|denotes\b|(?:is|are)\s+defined\s+as\b"
    # A term glossed after a dash or a colon, as a list of features names each: "Section Gists – in-situ
    # plain language summaries …".
    r"|[–—:]\s+\S|\s-\s+\S)"
)
# An author introducing a term: "We introduce X, a …", "this paper presents X: …", "we define X as …".
_INTRODUCING = (
    r"\b(?:we|this\s+(?:paper|work|article|report|study))\s+(?:also\s+|then\s+)?"
    r"(?:introduce|present|propose|release|describe|define|call|name|term)s?\s+(?:(?:the|a|an)\s+)?"
)
_AFTER_INTRODUCED = r"\s*[,:]?" + _MARK + r"\s*(?:a|an|the|as|which|that)\b"
# A term named by the sentence that describes it: "…combinations of Predictors, called Recipes".
_NAMING = r"\b(?:called|named|termed|dubbed|known\s+as)\s+(?:the\s+)?"
_OVERVIEW = re.compile(
    r"^(?:what\s+(?:is|are)\s+|introduction\s+to\s+|about\s+|overview\s+of\s+)?(?P<x>.+?)(?:\s+overview)?$"
)


def definition_subject(query: str) -> str | None:
    """X in "What is X?" and the like, when X is a term of at most five words; else None."""
    match = _QUESTION.match(" ".join(query.split()))
    if match is None:
        return None
    subject = next((g for g in match.group("x", "y", "z", "w", "v") if g), "").strip(" .!\"'“”")
    words = subject.split()
    if not words or len(words) > MAX_SUBJECT_WORDS or any(w.lower() in _NOT_A_TERM for w in words):
        return None
    return subject


def defines(text: str, subject: str) -> bool:
    """Whether a sentence of ``text`` defines ``subject`` (case aside): it opens with the term ("The"
    allowed before it) and goes on "is a/an/the …", "lets/allows …", "refers to …"; an author
    introduces it ("We introduce X, a …", "We define X as …"); or it names a thing described before
    it ("…, called X")."""
    if not subject.split():
        return False
    term = r"\s+".join(re.escape(w) for w in subject.split())
    introduced = re.compile(_INTRODUCING + term + _MARK + _GLOSS + _AFTER_INTRODUCED, re.IGNORECASE)
    named = re.compile(_NAMING + term + r"\b", re.IGNORECASE)
    key = subject.casefold()
    for sentence in _SENTENCE.split(text):
        sentence = _ENUMERATOR.sub("", sentence.strip().lstrip("*_#>- "))
        if introduced.search(sentence) or named.search(sentence):
            return True
        lowered = sentence.casefold()
        if lowered.startswith("the ") and not key.startswith("the "):
            lowered, sentence = lowered[4:], sentence[4:]
        rest = re.sub(rf"^{_MARK}", "", sentence[len(key) :])
        if lowered.startswith(key) and _DEFINING.match(rest):
            return True
    return False


def introduces(names: list[str], subject: str) -> bool:
    """Whether one of ``names`` (a page's title parts, its URL's last segment, a section heading)
    introduces ``subject``: "What is X?", "X overview", "Introduction to X", or X alone."""
    key = _words(subject)
    for name in names:
        match = _OVERVIEW.match(_words(name))
        if match and match.group("x") == key:
            return True
    return False


def _words(text: str) -> str:
    return " ".join(re.sub(r"[^\w]+", " ", text.casefold()).split())
