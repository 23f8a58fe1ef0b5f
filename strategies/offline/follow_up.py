"""A follow-up question read as a standalone one, without a model.

A turn leans on the one before when it cannot be researched alone (general English rules, no
corpus wording):

- it opens elliptically: "and …", "but …", "so …", "what about …", "how about …";
- it refers to something it does not name: a pronoun with no antecedent in the turn ("what does it
  cost?", "how much does it cost to install them?", "compare that with …"), a demonstrative noun
  ("this method"), a document by its place in the last answer ("the second paper");
- it has too few content words to stand alone ("why?", "how much?").

The rewrite carries the previous turn's *subject*: the noun phrase its (standalone) question asks
about, read from its shape ("How much rainfall do [green roofs] retain?", "What did [the Harborview
cooling model] find?", "What is the cost of [green roofs]?"), else its best keyphrase. The pronoun
that agrees with the subject in number is replaced by it (the verb agreeing: "what does it cost?" ->
"What do green roofs cost?"); an elliptical noun phrase either takes the subject's place in the
previous question ("what about the policy brief?" -> "What did the policy brief find?") when it is
a thing of the same kind (it shares a word with the subject, names a document, or is a name), or
asks about the subject ("and the installation cost?" -> "What is the installation cost of green
roofs?"). A document named by its place ("the second paper") is the n-th document the previous
answer cited: its title stands in the question and the run is scoped to it ("the paper" with one
document cited, likewise; with several, the run is scoped to them all).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from research.conversation import FollowUp, Turn
from strategies.reading.keyphrases import extract_keyphrases
from strategies.reading.lexicon.documents import DOCUMENT_NOUNS, SOURCE_NOUNS
from strategies.reading.lexicon.function_words import (
    BE,
    BEFORE_DEMONSTRATIVE,
    DEMONSTRATIVES,
    PLURAL_AUXILIARY,
    PLURAL_PRONOUNS,
    QUESTION_AUXILIARIES,
    SINGULAR_PRONOUNS,
    VERB_FOLLOWERS,
)
from strategies.reading.lexicon.quantities import ORDINALS
from strategies.reading.lexicon.question_words import ASKING, QUESTION_WORDS
from strategies.reading.lexicon.verbs import COMPARISON_VERBS, REPORTING_VERBS
from strategies.reading.text import is_verbish, question_terms, stem, stopwords
from strategies.reading.tuning import TUNING

_OPENING = re.compile(r"^\s*(?:(?:and|but|also|so|then|okay|ok|now)[\s,]+)+", re.IGNORECASE)
_WHAT_ABOUT = re.compile(r"^\s*(?:what|how)\s+about\s+", re.IGNORECASE)
_WORD = re.compile(r"[\w'’-]+")
_ORDINAL_REFERENCE = re.compile(
    rf"\bthe\s+(?P<ordinal>{'|'.join(ORDINALS)})\s+(?:{'|'.join(sorted(DOCUMENT_NOUNS))})\b", re.IGNORECASE
)
_DOCUMENT_REFERENCE = re.compile(
    r"\b(?:the|this|that)\s+(?:paper|document|study|article|report|brief|review|source|thesis|memo|guide)\b",
    re.IGNORECASE,
)
_COMPARISON = re.compile(r"\b(?:compar\w*|versus|vs\.?|differ\w*|contrast\w*)\b", re.IGNORECASE)
# "What is X?" names its subject however short it is: a definition question stands alone.
_DEFINITION = re.compile(r"^\s*(?:what|who)\s+(?:is|are|was|were)\s+(?!it\b|that\b|this\b|they\b)\w", re.IGNORECASE)
# "does it cost to install", "is it true that": an "it" whose meaning follows in the turn.
_EXTRAPOSED_IT = re.compile(r"\bit\b.*\b(?:to|that|whether|if)\b", re.IGNORECASE)


@dataclass(frozen=True)
class _Subject:
    start: int
    end: int
    text: str

    @property
    def plural(self) -> bool:
        words = self.text.split()
        return bool(words) and _plural(words[-1].lower())


def condense(question: str, history: list[Turn]) -> FollowUp:
    """``question`` as a standalone question, given the conversation's earlier turns (oldest first)."""
    if not history or not leans_on_history(question):
        return FollowUp(question=question)
    previous = history[-1]
    subject = subject_of(previous.question)
    asked = _OPENING.sub("", question).strip()
    text, scope, title = _resolve_documents(asked, previous)
    phrase = _elliptical_phrase(text)
    if title is not None and subject is not None and not _topical(text, title) and not _COMPARISON.search(text):
        # "What did the second paper find?" asks what that document says on the conversation's subject.
        text = f"What does {title} say about {subject.text}?"
    elif phrase is not None and subject is not None:
        text = _from_phrase(phrase, subject, previous.question)
    elif subject is not None:
        text = _with_subject(text, asked, scope, subject)
    return FollowUp(question=_sentence(text), follow_up=True, doc_ids=scope)


def _with_subject(text: str, asked: str, scope: list[str], subject: _Subject) -> str:
    """A turn that is not a noun phrase made to name the previous subject: in place of its pronoun or
    demonstrative, else added when it asks about a document or is too short to stand alone."""
    replaced = _replace_demonstrative(_replace_pronoun(text, subject), subject)
    if replaced != text:
        return replaced
    if (scope or _names_document(text)) and not _shares_word(text, subject.text):
        return _append(text, f" about {subject.text}")  # "What did <the second paper> find about X?"
    if text == asked and len(question_terms(text)) < TUNING.follow_ups.min_standalone_terms:
        return _append(text, f", regarding {subject.text}")
    return text


def leans_on_history(question: str) -> bool:
    """Whether ``question`` cannot be researched without the turn before it (see the module's rules)."""
    if _OPENING.match(question) or _WHAT_ABOUT.match(question):
        return True
    if _ORDINAL_REFERENCE.search(question) or _DOCUMENT_REFERENCE.search(question):
        return True
    if _has_dangling_reference(question):
        return True
    return len(question_terms(question)) < TUNING.follow_ups.min_standalone_terms and not _DEFINITION.match(question)


def _has_dangling_reference(question: str) -> bool:
    """Whether a pronoun or demonstrative of ``question`` refers to nothing the turn names before it."""
    words = [m.group(0).lower() for m in _WORD.finditer(question)]
    for i, word in enumerate(words):
        before = words[:i]
        named_before = [w for w in question_terms(" ".join(before)) if w not in PLURAL_PRONOUNS]
        if _dangles(word, before, named_before, question):
            return True
    return False


def _dangles(word: str, before: list[str], named_before: list[str], question: str) -> bool:
    """Whether ``word`` refers back past the turn: "they" with no plural named before it, "its",
    "this"/"that" opening a clause, or an "it" whose meaning does not follow ("is it true that")."""
    if word in ("they", "them", "their", "these", "those"):
        return not any(_plural(w) for w in named_before)
    if named_before:
        return False
    if word == "its":
        return True
    if word in ("this", "that"):
        return not before or before[-1] in BEFORE_DEMONSTRATIVE | QUESTION_AUXILIARIES
    return word == "it" and not _EXTRAPOSED_IT.search(question)


def subject_of(question: str) -> _Subject | None:
    """The noun phrase ``question`` asks about, as a span of it; None if it has no content word."""
    span = _span_after_auxiliary(list(_WORD.finditer(question)))
    # A capitalised word is a name, however short ("Does A outperform B?").
    if not span or not (question_terms(" ".join(m.group(0) for m in span)) or span[0].group(0)[:1].isupper()):
        return _keyphrase_subject(question)
    start, end = span[0].start(), span[-1].end()
    return _Subject(start, end, question[start:end])


def _span_after_auxiliary(words: list[re.Match[str]]) -> list[re.Match[str]]:
    """The words of the phrase the question's first auxiliary is followed by, auxiliaries left out;
    empty when it has none, or nothing after it."""
    lower = [m.group(0).lower() for m in words]
    aux = next((i for i, w in enumerate(lower) if w in QUESTION_AUXILIARIES), None)
    if aux is None or aux + 1 >= len(words):
        return []
    rest = list(range(aux + 1, len(words)))
    text = [m.group(0) for m in words]
    indexes = _after_last_of(lower, rest) if lower[aux] in BE else _before_verb(text, rest)
    return [words[i] for i in indexes if lower[i] not in QUESTION_AUXILIARIES]


def _after_last_of(lower: list[str], rest: list[int]) -> list[int]:
    """ "What is the cost of green roofs?": the thing is what the last "of" governs."""
    of = [i for i in rest if lower[i] == "of"]
    return [i for i in rest if i > of[-1]] if of and of[-1] < rest[-1] else rest


def _before_verb(words: list[str], rest: list[int]) -> list[int]:
    """ "do green roofs retain", "did the cooling model find": the phrase ends at its verb, the first
    one listed or set before a name ("does A outperform B", a participle after it being no verb of
    the question's own: "… on all evaluated benchmarks"), else the first word a preposition, an
    article or the end follows ("does a green roof add to")."""
    lower = [w.lower() for w in words]
    verb = next((i for i in rest[1:] if _is_verb(lower[i]) or _before_name(words, i)), None)
    if verb is None:
        verb = next((i for i in rest[1:] if i + 1 == len(lower) or lower[i + 1] in VERB_FOLLOWERS), None)
    return [i for i in rest if verb is None or i < verb]


def _is_verb(word: str) -> bool:
    return is_verbish(word) or word in COMPARISON_VERBS


def _before_name(words: list[str], i: int) -> bool:
    """A lower-case word between a word of the subject and a capitalised one is the verb taking that
    name as its object ("A *outperform* B"); after an article or a preposition it modifies the name
    ("the new GPT")."""
    # An article is lower-case after an auxiliary: a capital "A" there is a name ("does A outperform").
    word, before = words[i], words[i - 1]
    following = words[i + 1] if i + 1 < len(words) else ""
    return (
        word.islower()
        and following[:1].isupper()
        and word not in stopwords()
        and before not in stopwords() | VERB_FOLLOWERS
    )


def _keyphrase_subject(question: str) -> _Subject | None:
    """The question's best keyphrase, as a span of it when it is found there; None if it has none."""
    phrases = extract_keyphrases([question], k=1, exclude_stems=[stem(w) for w in QUESTION_WORDS])
    if not phrases:
        return None
    found = re.search(re.escape(phrases[0].text), question, re.IGNORECASE)
    if found is None:
        return _Subject(0, 0, phrases[0].text)
    return _Subject(found.start(), found.end(), found.group(0))


def _plural(word: str) -> bool:
    return word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3


def _resolve_documents(text: str, previous: Turn) -> tuple[str, list[str], str | None]:
    """Documents named by their place in the previous answer, or as "the paper": the text with the
    title put in, the scope, and the title put in (None if none was)."""
    cited = previous.cited
    ordinal = _ORDINAL_REFERENCE.search(text)
    named = _DOCUMENT_REFERENCE.search(text)
    if ordinal:
        n = ORDINALS[ordinal.group("ordinal").lower()]
        if n > len(cited):
            return text, [], None  # no such document: the question goes as asked, unscoped
        document, found = (cited[n - 1] if n > 0 else cited[-1]), ordinal
        # A comparison weighs the named document against what the last answer cited: all of them.
        scope = [d.doc_id for d in cited] if _COMPARISON.search(text) else [document.doc_id]
    elif named and len(cited) == 1:
        document, found, scope = cited[0], named, [cited[0].doc_id]
    else:
        return text, [d.doc_id for d in cited] if named else [], None
    title = _short_title(document.title)
    return text[: found.start()] + title + text[found.end() :], scope, title


def _topical(text: str, title: str) -> bool:
    """Whether ``text`` asks something beyond the document it names and a verb of reporting."""
    return bool(set(question_terms(text)) - set(question_terms(title)) - REPORTING_VERBS)


def _short_title(title: str) -> str:
    """A title as a question can hold it: its main title before a colon, at most a few words."""
    main = title.split(":", 1)[0].strip() if ":" in title else title
    words = main.rstrip("?.!").split()
    return " ".join(words[: TUNING.follow_ups.max_title_words])


def _elliptical_phrase(text: str) -> str | None:
    """The noun phrase of "what about X?" or "(and) the cost?": None if the turn has a verb of its own."""
    rest = _WHAT_ABOUT.sub("", text).strip().rstrip("?.! ")
    words = [w.lower() for w in _WORD.findall(rest)]
    if not words or len(words) > TUNING.follow_ups.max_phrase_words:
        return None
    if rest == text.strip().rstrip("?.! ") and (words[0] not in ("the", "a", "an") or len(words) < 2):
        return None  # no "what about" and no article: "why?", "how much?" are not noun phrases
    if any(w in ASKING or is_verbish(w) for w in words):
        return None
    if any(w in SINGULAR_PRONOUNS | PLURAL_PRONOUNS for w in words):
        return None
    return rest


def _from_phrase(phrase: str, subject: _Subject, previous: str) -> str:
    """ "What about X?": X in the subject's place when it is a thing of its kind, else X of the subject."""
    words = _WORD.findall(phrase)
    if _names_document(phrase):
        on_topic = _document_on_topic(phrase, subject)
        if on_topic is not None:
            return on_topic
    if _same_kind(phrase, words, subject) and subject.end > subject.start:
        before = _agreeing(previous[: subject.start], subject.plural, _plural(words[-1].lower()))
        return before + phrase + previous[subject.end :]
    verb = "are" if _plural(words[-1].lower()) else "is"
    return f"What {verb} {phrase} of {subject.text}?"


def _same_kind(phrase: str, words: list[str], subject: _Subject) -> bool:
    """Whether ``phrase`` is a thing of the subject's kind: it shares a word with it, names a
    document, or is a name (a capital past a leading article)."""
    return (
        _shares_word(phrase, subject.text)
        or any(w.lower() in DOCUMENT_NOUNS for w in words)
        or any(w[:1].isupper() for w in words[1:] + ([words[0]] if words[0].lower() not in ("the", "a", "an") else []))
    )


def _document_on_topic(phrase: str, subject: _Subject) -> str | None:
    """A document in place of another source ("the policy brief" for "the Harborview cooling
    model") is asked what it says on the other's topic: the other's words that neither name a
    source nor are a name (a name tells which model, not what it is about). None when no such
    word is left, or the document's name already has one."""
    carried = [
        w
        for w in _WORD.findall(subject.text)
        if question_terms(w) and w.lower() not in SOURCE_NOUNS and not w[:1].isupper()
    ]
    if carried and not _shares_word(phrase, " ".join(carried)):
        return f"What does {phrase} say about {' '.join(carried)}?"
    return None


def _agreeing(before: str, was_plural: bool, plural: bool) -> str:
    """``before`` (the question up to its subject) with its last word, an auxiliary, agreeing with a
    new subject's number: "Do transformers outperform" -> "Does Mamba outperform"."""
    auxiliary = re.search(r"(\w+)(\s+)$", before)
    if auxiliary is None or was_plural == plural:
        return before
    word = auxiliary.group(1).lower()
    singular = {v: k for k, v in PLURAL_AUXILIARY.items()}
    swapped = PLURAL_AUXILIARY.get(word) if plural else singular.get(word)
    if swapped is None:
        return before
    return before[: auxiliary.start()] + _same_case(swapped, auxiliary.group(1)) + auxiliary.group(2)


def _replace_pronoun(text: str, subject: _Subject) -> str:
    """The pronoun agreeing with ``subject`` in number (else the first one) replaced by it."""
    pronouns = _free_pronouns(text)
    if not pronouns:
        return text
    wanted = PLURAL_PRONOUNS if subject.plural else SINGULAR_PRONOUNS
    chosen = next((m for m in pronouns if m.group(0).lower() in wanted), pronouns[0])
    word = chosen.group(0).lower()
    before, after = text[: chosen.start()], text[chosen.end() :]
    if subject.plural and word in SINGULAR_PRONOUNS - {"its"}:
        # "what does it cost?" -> "what do green roofs cost?": the verb agrees with the plural.
        before = _pluralised_auxiliary(before)
    return before + _standing_for(word, subject) + after


def _free_pronouns(text: str) -> list[re.Match[str]]:
    """The pronouns of ``text`` that stand alone: not a demonstrative before its noun ("this method")
    nor a relative "that"."""
    return [
        m
        for m in _WORD.finditer(text)
        if m.group(0).lower() in PLURAL_PRONOUNS | SINGULAR_PRONOUNS
        and not (m.group(0).lower() in DEMONSTRATIVES and _next_word_is_noun(text, m.end()))
        and not (m.group(0).lower() == "that" and _is_relative(text, m.start()))
    ]


def _standing_for(pronoun: str, subject: _Subject) -> str:
    """The subject as it replaces ``pronoun``: possessive for "its"/"their"."""
    if pronoun in ("its", "their"):
        return f"{subject.text}'" if subject.plural else f"{subject.text}'s"
    return subject.text


def _pluralised_auxiliary(before: str) -> str:
    """``before`` with its last word, if a singular auxiliary, made plural ("does" -> "do")."""
    auxiliary = re.search(r"(\w+)(\s+)$", before)
    if auxiliary and auxiliary.group(1).lower() in PLURAL_AUXILIARY:
        plural = PLURAL_AUXILIARY[auxiliary.group(1).lower()]
        return before[: auxiliary.start()] + _same_case(plural, auxiliary.group(1)) + auxiliary.group(2)
    return before


def _replace_demonstrative(text: str, subject: _Subject) -> str:
    """ "this method" -> "the method of green roofs": the thing is the previous subject's."""
    for match in _WORD.finditer(text):
        word = match.group(0).lower()
        if word in DEMONSTRATIVES and _next_word_is_noun(text, match.end()) and not _is_relative(text, match.start()):
            noun = _WORD.search(text, match.end())
            article = _same_case("the", match.group(0))
            return f"{text[: match.start()]}{article} {noun.group(0)} of {subject.text}{text[noun.end() :]}"
    return text


def _next_word_is_noun(text: str, end: int) -> bool:
    following = _WORD.match(text[end:].lstrip())
    if following is None:
        return False
    word = following.group(0).lower()
    return word not in QUESTION_AUXILIARIES and bool(question_terms(word)) and not is_verbish(word)


def _is_relative(text: str, start: int) -> bool:
    before = _WORD.findall(text[:start])
    return bool(before) and before[-1].lower() not in BEFORE_DEMONSTRATIVE | QUESTION_AUXILIARIES


def _names_document(text: str) -> bool:
    return any(w.lower() in DOCUMENT_NOUNS - {"one"} for w in _WORD.findall(text))


def _shares_word(a: str, b: str) -> bool:
    return bool({stem(w) for w in question_terms(a)} & {stem(w) for w in question_terms(b)})


def _append(text: str, words: str) -> str:
    return text.rstrip().rstrip("?.!").rstrip(" ,") + words + "?"


def _same_case(word: str, like: str) -> str:
    return word.capitalize() if like[:1].isupper() else word


def _sentence(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip(" ,")
    if not text:
        return text
    text = text[0].upper() + text[1:]
    first = _WORD.match(text)
    body = text.rstrip("?.! ")
    # A request ("Compare X with Y") stays one; a question ends as one.
    return f"{body}?" if first is not None and first.group(0).lower() in ASKING else f"{body}."
