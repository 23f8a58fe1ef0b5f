"""The parsed question: what one sub-question asks, read once and handed to every reader.

Every step of the reading core (the sentence ranking, the short answer, a table's cell, the yes/no
reading, the documents' disputes, the sufficiency judgement) asks the same things of the question: its
answer type, its terms, the names it gives, what it asks of its subject. ``parse_question`` reads them
once per sub-question (``extractive.analyse`` does, for the evidence it sets the question against);
the readers take the ``ParsedQuestion`` and never parse the question's text again.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from corpus.retrieval import RetrievedChunk
from corpus.text import figures
from strategies.reading.tuning import TUNING
from tools.definitions import definition_subject
from tools.identifiers import query_identifiers

from .alternatives import Alternatives, alternatives_of
from .answerhood import asks_about_own_work, asks_about_the_text, asks_about_the_work
from .claim_checks import form_of, names
from .lexicon.documents import DOCUMENT_NOUN_PATTERN, SOURCE_NOUNS
from .lexicon.function_words import PLURAL_PRONOUNS, SINGULAR_PRONOUNS
from .lexicon.question_words import QUESTION_WORDS
from .lexicon.verbs import CATENATIVE_VERBS
from .question_types import AnswerType, QuestionType, main_clause, question_type
from .shares import asked_majority
from .text import (
    abbreviations,
    content_stems,
    content_words,
    question_terms,
    source_names,
    stem,
    without_source,
    word_tokens,
    words,
)

# "Table 2", "Tab. 3": how a caption names its table and a question names the table it asks about.
TABLE_NAME = re.compile(r"\b(?:Table|Tab\.)\s*([A-Z]?\d+[a-z]?)\b", re.I)
# A question asking which thing its subject is or does: "(Under) which license is X released (under)?",
# "What dataset does X train on?", "What F1 does X obtain on Y?". Its subject stands between the
# auxiliary and its verb, lower-case: a participle after a form of "be", a bare verb after "do"; a
# particle or a prepositional phrase may end the question.
_PREPOSITION = r"(?:on|in|by|with|for|to|from|under|at|as|of|about|over|against|across|during|within)"
_ASKED_OF = re.compile(
    r"^(?:[A-Z]?[a-z]+\s+)?(?:[Ww]hich|[Ww]hat|[Ww]hose|[Hh]ow\s+(?:many|much))\b"
    # One question: no second one joined to it ("… and how do they …").
    r"(?:(?!\b(?:how|what|which|who|when|where|why)\b)[^?])*?\s"
    r"(?:(?:is|are|was|were)\s+(?P<passive>.+?)\s+[a-z]+(?:ed|en|wn|lt|ld|un|de)"
    r"|(?:does|do|did)\s+(?P<active>.+?)\s+[a-z]+)"
    rf"(?:\s+{_PREPOSITION}(?:\s+[^?]*)?)?\s*\?*$"
)
# Words of a subject that name no particular thing: pronouns, the documents and their authors.
_PRONOUNS = PLURAL_PRONOUNS | SINGULAR_PRONOUNS | frozenset(("you", "we", "i", "us", "he", "she"))
# What a question asks its sources with ("What does the evidence say about …?") is no thing it asks of.
_ASKED_SOURCES = frozenset("evidence literature research corpus library data record records".split())
_NO_SUBJECT = SOURCE_NOUNS | _PRONOUNS | _ASKED_SOURCES
_OWNED_DOCUMENT = re.compile(rf"([A-Z][\w-]*)['’]s\s+{DOCUMENT_NOUN_PATTERN}s?\b")


def table_name(text: str) -> str:
    """ "table 2" of a caption or question opening "Table 2" / "Tab. 2"."""
    return "table " + TABLE_NAME.match(text).group(1).lower()


@dataclass(frozen=True)
class ParsedQuestion:
    """A question as the readers use it (see the module docstring)."""

    text: str  # the question proper: a "<title>: " prefix naming the scoped document dropped
    type: QuestionType
    clause: str  # its main clause, past a leading subordinate clause
    stems: tuple[str, ...]  # stems of its content words, in order
    terms: tuple[str, ...]  # stems of its search terms (``question_terms``): what sentences are ranked by
    unsourced: str  # its text without the document it names as its source (``without_source``)
    source_free: tuple[str, ...]  # stems of the content words of ``unsourced``
    relation: frozenset[str]  # what it asks of its subject (``relation_of``)
    words: tuple[str, ...]  # its words, lower-cased
    names: tuple[str, ...]  # the names, acronyms and identifiers it gives
    figures: frozenset[float]  # the figures it states
    conjuncts: tuple[str, ...]  # stems either side of its first "and" (``conjuncts_of``)
    tables: frozenset[str]  # the tables it names ("table 1")
    identifiers: tuple[str, ...]  # exact identifiers it looks up (a DOI, an ISBN, a date)
    defined: str | None  # X of "What is X?"
    about_text: bool  # it asks about a document's layout, plans or release
    about_work: bool  # it asks about a document's own work or a document it names
    own_work: bool  # it asks what the document's own authors did
    alternatives: Alternatives | None  # the two things it asks to choose between ("which is higher: A or B")
    majority: bool | None = None  # it asks whether most (True) or a minority (False) of a whole do a thing
    subject: tuple[str, ...] = ()  # content words of the subject it asks what is or does ("corvidkit")
    governing: tuple[str, ...] = ()  # the verbs it puts its action under, base forms ("agree" of "agree to pay")
    measured: tuple[str, ...] = ()  # stems of the thing whose measure it asks ("dataset" of "the size of the dataset")
    source: tuple[str, ...] = ()  # words of the documents it names as its source ("longeval" of "LongEval's table")
    owners: tuple[
        str, ...
    ] = ()  # of those, the owners of a whole document, often its authors ("smith" of "Smith's survey")
    abbreviations: dict[str, str] = field(default_factory=dict, compare=False)  # "SOTA" -> its words


def parse_question(question: str, evidence: Sequence[RetrievedChunk] = ()) -> ParsedQuestion:
    """``question`` read once; a "<title>: " prefix naming a document of ``evidence`` is dropped."""
    text = asked_of(question, evidence)
    asked = question_type(text)
    unsourced = without_source(text)
    return ParsedQuestion(
        text=text,
        type=asked,
        clause=main_clause(text),
        stems=tuple(dict.fromkeys(content_stems(text))),
        terms=tuple(dict.fromkeys(stem(w) for w in question_terms(text))),
        unsourced=unsourced,
        source_free=tuple(content_stems(unsourced)),
        relation=relation_of(text, asked),
        words=tuple(words(text)),
        names=tuple(names(text)),
        figures=frozenset(figures(text)),
        conjuncts=conjuncts_of(text),
        tables=frozenset(table_name(m.group(0)) for m in TABLE_NAME.finditer(text)),
        identifiers=tuple(query_identifiers(text)),
        defined=definition_subject(text),
        about_text=asks_about_the_text(text),
        about_work=asks_about_the_work(text),
        own_work=asks_about_own_work(text),
        majority=asked_majority(text) if asked.kind is AnswerType.YES_NO else None,
        alternatives=alternatives_of(text),
        subject=subject_words(text),
        governing=governing_verbs(text),
        measured=measured_thing(text, asked),
        source=source_names(text),
        owners=tuple(w for m in _OWNED_DOCUMENT.finditer(text) for w in word_tokens(m.group(1))),
        abbreviations=abbreviations(text),
    )


def asked_of(question: str, evidence: Sequence[RetrievedChunk]) -> str:
    """The question proper: "<title>: <question>" names the document the search was scoped to, and
    its title's words, found all over that document, would otherwise decide which sentence is quoted."""
    title, sep, rest = question.partition(": ")
    titles = {" ".join(word_tokens(c.title)) for c in evidence}
    if sep and rest.strip() and " ".join(word_tokens(title)) in titles:
        return rest.strip()
    return question


def relation_of(question: str, asked: QuestionType) -> frozenset[str]:
    """What the question asks of its subject: its content stems without the names it gives (its
    capitalised words), the words of question templates and, unless a quantity of it is asked for
    ("the population of"), the noun of the answer it wants ("what sport": the answer names a sport
    without the word): "practice", "law" of "In which city did Conry practice law?"."""
    given = {w for w in re.findall(r"[\w'’-]+", question)[1:] if w[0].isupper()}
    left_out = {stem(w) for w in given} | {stem(w) for w in QUESTION_WORDS}
    if asked.kind is not AnswerType.QUANTITY:
        left_out |= {stem(w) for w in asked.noun.split()}
    return frozenset(s for s in content_stems(question) if s not in left_out)


def subject_words(question: str) -> tuple[str, ...]:
    """The content words of the subject a question asks which thing it is or does (``_ASKED_OF``):
    "corvidkit" of "Under which software license is corvidkit released?". The thing a value is asked
    of must be what the answering document is about: another toolkit's licence is no answer. A
    pronoun, a document and its authors name no particular thing; () for other questions."""
    found = _ASKED_OF.match(question.strip())
    if found is None:
        return ()
    subject = found.group("passive") or found.group("active")
    # "Smith's survey" is a document the question reads from, owned by its authors, whom a text seldom
    # names: its source (``source_names``, bound when the evidence names it), no thing it asks of.
    if _OWNED_DOCUMENT.fullmatch(subject):
        return ()
    # A noun phrase, not a clause that goes on past its verb ("Corvid agree to pay in the class").
    if len(subject.split()) > TUNING.question.subject_words or re.search(r"\bto\b|[,;]", subject):
        return ()
    # A pronoun is the whole subject ("does it use"): the words after it are its verb's.
    if not _PRONOUNS.isdisjoint(subject.lower().split()):
        return ()
    said = [w for w in content_words(subject) if w not in _NO_SUBJECT]
    # Of a longer subject only its names tell the thing ("finetuned CorvidBERT"): its other words
    # describe it, and a document may say them otherwise ("fine-tuned").
    named = {w for name in names(subject) for w in word_tokens(name)}
    return tuple(said if len(said) == 1 else [w for w in said if w in named])


def measured_thing(question: str, asked: QuestionType) -> tuple[str, ...]:
    """Stems of the thing a question asks a measure of: "dataset" of "What is the size of the dataset?".
    A figure of the measure said of another thing ("filters of sizes 3, 4 and 5") is not its value."""
    if asked.kind is not AnswerType.QUANTITY or not asked.noun:
        return ()
    head = re.escape(asked.noun.split()[-1])
    found = re.search(rf"\b{head}\s+of\s+(?:(?:the|their|its|this|each|a|an)\s+)?(?P<thing>[^?,;]+)", question, re.I)
    if found is None:
        return ()
    # It ends at a preposition, a verb or a participle ("the training set *used* for …").
    ending = rf"\s+(?:{_PREPOSITION}|when|that|which|is|are|was|were|do|does|did|[a-z]+ed)\b"
    thing = re.split(ending, found.group("thing"))[0]
    return tuple(content_stems(" ".join(thing.split()[: TUNING.question.measured_words])))


def governing_verbs(question: str) -> tuple[str, ...]:
    """The verbs of intent or obligation (CATENATIVE_VERBS, base forms) the question puts its action under:
    "agree" of "How much did Corvid agree to pay?". What a party agreed to pay and what a court ordered it
    to pay are two facts, and a sentence giving the one does not answer for the other."""
    said = words(question)
    found = (
        base
        for i, w in enumerate(said)
        if "to" in said[i + 1 : i + 1 + TUNING.question.governed_within] and said.index("to", i + 1) < len(said) - 1
        for base in sorted(CATENATIVE_VERBS)
        if form_of(w, base)
    )
    return tuple(dict.fromkeys(found))


def conjuncts_of(question: str) -> tuple[str, ...]:
    """Stems of the words either side of the question's first "and" (TUNING.question.conjunct_words each): the things a
    question on "X and Y" asks about, each of which may have its own answer. None without an "and"."""
    before, sep, after = question.partition(" and ")
    if not sep:
        return ()
    joined = " ".join(
        [*before.split()[-TUNING.question.conjunct_words :], *after.split()[: TUNING.question.conjunct_words]]
    )
    return tuple(dict.fromkeys(content_stems(joined)))
