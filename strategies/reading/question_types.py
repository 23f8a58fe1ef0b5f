"""What a question asks for: a typed value (and which type), or a description.

A short answer is only ever shown for a question that asks for a *typed value*: a date, a quantity
(count, measurement, amount of money, percentage, duration), yes or no, or the name of a person,
place, organisation, product, model or method — and, for "what sport / genre / profession"
questions, the category it names. Everything else ("What support does X offer?", "How can I ...?",
"What are the key points of ...?") asks for an account, which is answered by quoted sentences with
no bold lead: a phrase cut out of a sentence reads as nonsense in front of it.

The type comes from the question's grammar and from general English nouns that name kinds of
entities ("which *company*", "what *dataset*"), never from any corpus's wording:

- "when / what year" -> a date; "how many / how much / how long" and "what is the <quantity noun>"
  -> a quantity; "who" -> a person's (or body's) name; "where / in which city" -> a place;
  "is / does / can ..." -> yes or no; "what / which <entity noun>" -> a name of that kind.
- A leading subordinate clause is looked past ("When deciding whether to use X, what are ...?" asks
  what follows the comma, not a date), and so is a "<title>: " prefix naming the document asked about.
- A compound question ("What provider does X recommend, and what can it do?") asks for more than one
  value: it is answered as a description.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from enum import StrEnum

from strategies.reading.lexicon.entities import ENTITY_NOUNS
from strategies.reading.lexicon.function_words import NAME_PARTICLES
from strategies.reading.lexicon.months import MONTH_PATTERN
from strategies.reading.lexicon.quantities import ACCOUNT_PLURALS, DATE_NOUNS, MEASURES, QUANTITY_NOUNS, STATISTICS
from strategies.reading.lexicon.question_words import NOT_A_NOUN
from strategies.reading.lexicon.stoplists import PHRASE_BREAKERS
from strategies.reading.lexicon.word_forms import IRREGULAR_BASE, IRREGULAR_PLURALS, NOT_ADVERBS
from strategies.reading.tuning import TUNING

from .text import is_listed_verb, is_past_form, stem, stopwords


class AnswerType(StrEnum):
    DATE = "date"
    QUANTITY = "quantity"
    NAME = "name"  # who
    PLACE = "place"  # where
    THING = "thing"  # what / which <entity noun>: a name of that kind (see ``Entity``)
    YES_NO = "yes_no"
    DESCRIPTION = "description"


class Entity(StrEnum):
    """What kind of name a "what / which <noun>" question asks for."""

    PERSON = "person"
    ORGANISATION = "organisation"
    PRODUCT = "product"  # products, models, tools, languages, formats, versions
    METHOD = "method"  # methods, algorithms, datasets, metrics: named research artefacts
    CATEGORY = "category"  # "what sport": a value of a closed category, written in lower case


@dataclass(frozen=True)
class QuestionType:
    kind: AnswerType
    noun: str = ""  # the asked-for noun of "what <noun>" / "what is the <noun> of" questions
    counted: bool = False  # "how many": a count of things, never a measurement ("60 mm")
    measure: str = ""  # "how often / long / old / far / deep ...": the kind of quantity asked for
    entity: Entity | None = None  # for THING: the kind of name asked for

    @property
    def typed(self) -> bool:
        """The question asks for a typed value: a short answer may lead its answer."""
        return self.kind is not AnswerType.DESCRIPTION


ENTITY_OF_NOUN: dict[str, Entity] = {stem(w): Entity(e) for e, words in ENTITY_NOUNS.items() for w in words.split()}
_QUANTITY_STEMS = frozenset(stem(n) for n in QUANTITY_NOUNS)
_DATE_STEMS = frozenset(stem(n) for n in DATE_NOUNS)

_AUX = r"(?:is|are|was|were|do|does|did|can|could|has|have|had|will|would|should|shall|may|might|must)"
_YES_NO = re.compile(rf"^{_AUX}\b", re.IGNORECASE)
_AUX_WORD = re.compile(rf"^{_AUX}$", re.IGNORECASE)
_DATE_Q = re.compile(
    rf"^(?:when\s+{_AUX}\b|when\b(?=[^,]*\?$)(?!\s+\w+ing\b)|(?:in |on |by )?(?:what|which) (?:year|date|day|month|"
    r"decade|century)\b)",
    re.IGNORECASE,
)
_QUANTITY_Q = re.compile(
    r"^(?:(?:by|to|for|in|of)\s+)?how (?P<how>many|much|long|big|large|old|far|tall|high|deep|wide|heavy|fast|often)\b",
    re.I,
)
_NAME_Q = re.compile(r"^(?:who|whom|whose)\b|^what is the name of\b", re.IGNORECASE)
_PLACE_Q = re.compile(
    r"^(?:where\b|(?:in |at |from )?(?:what|which) (?:city|country|state|town|place|region|county|province|"
    r"continent|location|village)\b)",
    re.IGNORECASE,
)
# "what sport is", "which datasets do", "what is the population of", "what are the main results of"
_THING_Q = re.compile(
    r"^(?:(?:in|on|for|by|from|with|under|at|to|into|through|over|against|across|within|between|among|during|"
    r"after|before|of|via) )?(?:what|which)\s+(?:(?:is|are|was|were)\s+(?:the\s+|a\s+|an\s+)?)?"
    r"(?:(?:main|primary|exact|total|current|estimated|official|overall|best|first|last|other|new|"
    r"different|specific|original)\s+)*(?P<noun>[a-z][\w@-]*(?:\s+(?!(?:is|are|was|were|do|does|did|has|have|had|of|"
    r"in|on|for|to|by|from|with|per|about|between|among|across|over|under|at|within|during|after|before|regarding|"
    r"that|which|the|a|an|can|could|should|would|will|"
    r"may|might|must)\b)[a-z][\w-]*){0,2})",
    re.IGNORECASE,
)
# "What R@10 does BM25 reach?": what a system reaches, achieves or obtains under a measure's name (a
# short name in capitals, or with a digit or "@": "MRR", "nDCG@10", "R@10") is a figure.
_REACHED_MEASURE = re.compile(r"\s+(?:does|do|did)\s+(?:\S+\s+){1,6}?(?:reach|achieve|obtain|attain|score)\b", re.I)
_MEASURE_NAME = re.compile(r"[A-Z][A-Za-z]*[A-Z][\w@-]*|[A-Za-z]+[@\d][\w@-]*")
# "What is <owner>'s <noun>": the noun after the possessive is what is asked for; an owner inside a
# phrase of the noun asked ("the length of X *in Y's survey*") owns that phrase's noun, not the question's.
_POSSESSIVE_Q = re.compile(
    r"^(?:what|which)\s+(?:is|are|was|were)\s+(?:the\s+)?(?:(?!\b(?:of|in|on|for|from|by|with|at|to|per)\s)[^?,])"
    r"{1,60}?['’]s\s+",
    re.I,
)
# "Who is the artist of", "who were the directors of": the role asked for.
_ROLE = re.compile(r"^who(?:m)?\s+(?:is|are|was|were)\s+the\s+(?:current\s+|first\s+|main\s+)?([a-z][\w-]*)\b", re.I)
_QUESTION_START = r"(?:what|which|who|whom|whose|when|where|why|how|in|on|" + _AUX[3:-1] + r")\b"
# A subordinate clause before the question proper: "When deciding whether ..., what ...?"
_SUBORDINATE = re.compile(
    r"^(?:when|if|while|before|after|once|given|for|in|on|to|as|with|without|since|assuming|suppose|"
    r"besides|apart from|other than|beyond|according to)\b[^?]*?,\s+(?=" + _QUESTION_START + ")",
    re.IGNORECASE,
)
# A second question joined to the first ("..., and what ...", "... and through what ..."), or a
# comparison ("... compared to the web interface?"): more than one value is asked for.
_SECOND_QUESTION = re.compile(
    r"(?:,|\band\b|\bor\b|;)\s+(?:and\s+)?(?:(?:through|in|on|at|by|with|from|for|to|of|under)\s+)?"
    r"(?:what|which|who|when|where|why|how)\b|\b(?:compared (?:to|with)|versus|vs\.?|as opposed to)\s",
    re.I,
)
_IN_PLACE = re.compile(
    r"(?<=\s)(?:in |on |at |of |for |by |from )?(?:which|what)\s+[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}\s*\?$", re.I
)
# "Where can you view ...", "where do I set ...": asks where in a product or a text, an account.
_WHERE_HOW_TO = re.compile(r"^where\s+(?:can|could|should|do|does|would|may|might|must)\s", re.I)
# "What two methods", "which three datasets": a list of several values.
_SEVERAL = re.compile(r"^(?:two|three|four|five|six|several|some|many|\d+)$", re.I)
# A plural noun: "instruments", "sports", "genres", "categories" (not "species", "series", "class", "bus").
_PLURAL = re.compile(r"(?<![sui])(?<!specie)(?<!serie)s$")


def question_type(question: str) -> QuestionType:
    """The answer type of a question; a "<title>: " prefix and a leading subordinate clause are
    looked past (see the module docstring)."""
    text = main_clause(question)
    if _SECOND_QUESTION.search(text):
        return QuestionType(AnswerType.DESCRIPTION)
    if _YES_NO.match(text):
        return QuestionType(AnswerType.YES_NO)
    if _DATE_Q.match(text):
        return QuestionType(AnswerType.DATE)
    found = _QUANTITY_Q.match(text)
    if found:
        return _quantity(text, found)
    if _NAME_Q.match(text):
        role = _ROLE.match(text)
        return QuestionType(AnswerType.NAME, role.group(1).lower() if role else "", entity=Entity.PERSON)
    if _PLACE_Q.match(text) and not _WHERE_HOW_TO.match(text):
        return QuestionType(AnswerType.PLACE)
    owned = _POSSESSIVE_Q.match(text)
    if owned:
        # "What is finetuned CorvidBERT's average score ...?" asks for "the average score" of CorvidBERT.
        text = f"what is the {text[owned.end() :]}"
    found = _THING_Q.match(text)
    if found:
        return _thing(text, found)
    # The question word in place: "100 Squadron was formed in which country?"
    in_place = _IN_PLACE.search(text)
    if in_place and not _YES_NO.match(text):
        return question_type(text[in_place.start() :])
    return QuestionType(AnswerType.DESCRIPTION)


def _quantity(text: str, found: re.Match[str]) -> QuestionType:
    """ "how many / how much …": a quantity, of the thing counted when the question names one."""
    # "how many spider species", "how much money": the counted thing names the answer's unit.
    unit = re.match(r"\s+([a-z][\w-]*(?:\s+[a-z][\w-]*)?)", text[found.end() :], re.IGNORECASE)
    raw = unit.group(1).lower().split() if unit else []
    # "How much *did* Corvid agree to pay": an auxiliary next opens the predicate; no thing is counted.
    if raw and _AUX_WORD.match(raw[0]):
        raw = []
    words = [w for w in raw if w not in NOT_A_NOUN]
    words = list(itertools.takewhile(lambda w: w not in stopwords() and not _AUX_WORD.match(w), words))
    # "How many participants *took* part", "how many people *attended*": a verb after the counted noun
    # starts the predicate.
    words = words[:1] + list(itertools.takewhile(lambda w: not _starts_predicate(words[0], w), words[1:]))
    how = found.group("how").lower()
    return QuestionType(AnswerType.QUANTITY, " ".join(words), counted=how == "many", measure=MEASURES.get(how, ""))


def _is_verb(word: str) -> bool:
    return is_listed_verb(word) or word in IRREGULAR_BASE


def _starts_predicate(head: str, word: str) -> bool:
    """``word``, after the counted noun's first word ``head``, is a verb: a listed or past form, or any
    word not in -s after a plural (a compound's plural comes last: "spider species", "GPU hours"; so
    "people *live*" is a subject and its verb)."""
    plural = head in IRREGULAR_PLURALS or (head.endswith("s") and not head.endswith("ss"))
    return _is_verb(word) or is_past_form(word) or (plural and not word.endswith("s"))


def _thing(text: str, found: re.Match[str]) -> QuestionType:
    """ "what / which <noun>": a name when the noun names a kind of entity, a quantity when it names
    a measure ("what is the price"), else a description ("what support", "what are two ways")."""
    noun = _asked_noun(text, found)
    words = noun.split()
    if _no_thing(words):
        return QuestionType(AnswerType.DESCRIPTION)
    # The head of "what political party" is "party"; of "what embeddings provider", "provider". When the
    # noun phrase runs into the verb ("what model should"), the first word is the head.
    heads = [stem(words[-1]), stem(words[0])]
    if _REACHED_MEASURE.match(text[found.end() :]) and _MEASURE_NAME.fullmatch(found.group("noun")):
        return QuestionType(AnswerType.QUANTITY, noun)
    # "What are the results of …" asks for an account; "what result does it report" for a figure, and
    # so does "what is the average <anything>".
    if (any(h in _QUANTITY_STEMS for h in heads) and words[-1] not in ACCOUNT_PLURALS) or words[0] in STATISTICS:
        return QuestionType(AnswerType.QUANTITY, noun)
    if heads[0] in _DATE_STEMS:  # "what is the birth date of" (but "the monthly price" is a price)
        return QuestionType(AnswerType.DATE)
    head = next((w for w in (words[-1], words[0]) if stem(w) in ENTITY_OF_NOUN), None)
    if head is None:
        # The noun of an account ("what *support* does X offer") is a word the answer contains.
        return QuestionType(AnswerType.DESCRIPTION)
    entity = ENTITY_OF_NOUN[stem(head)]
    if entity is Entity.CATEGORY and _PLURAL.search(head):
        # "Which instruments come in the kit?" asks for several: its answer is the list. One name of a
        # list of names is refused as cut out of it (``value_problem``); a category's values are plain
        # words, so one of them would lead as if it were the whole answer.
        return QuestionType(AnswerType.DESCRIPTION)
    return QuestionType(AnswerType.THING, noun, entity=entity)


def _asked_noun(text: str, found: re.Match[str]) -> str:
    """The noun after "what / which", or the one after "kind of" ("what kind of sport" asks for a sport)."""
    noun = found.group("noun").lower()
    if noun.split()[0] in {"kind", "type", "sort"}:
        rest = re.match(r"\s*of\s+(?:a\s+|an\s+)?([a-z][\w-]*)", text[found.end() :], re.IGNORECASE)
        noun = rest.group(1).lower() if rest else noun
    return noun


def _no_thing(words: list[str]) -> bool:
    """The words after "what / which" name no one thing: a function word, a count of several ("what
    two methods") or two things joined."""
    if words[0] in NOT_A_NOUN or words[0] in stopwords() or _SEVERAL.match(words[0]):
        return True
    return bool({"and", "or"} & set(words))


def main_clause(question: str) -> str:
    """The question proper: after a "<title>: " prefix and a leading subordinate clause."""
    text = " ".join(question.split())
    if ": " in text:
        tail = text.rsplit(": ", 1)[1]
        if re.match(_QUESTION_START, tail, re.I):
            text = tail
    return _SUBORDINATE.sub("", text, count=1)


# --- what a value of each type looks like ------------------------------------------------------------

# A month by its name, not any word it opens ("decision", "market", "maybe").
_MONTH_OR_YEAR = re.compile(
    rf"(?<!\d)(?:1\d{{3}}|20\d{{2}})(?!\d)|\b{MONTH_PATTERN}(?![a-z])|\b\d{{1,2}}/\d{{1,2}}/\d{{2,4}}\b",
    re.I,
)
_NUMBER_WORD = re.compile(
    r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|"
    r"thousand|million|billion|half|dozen|once|twice)\b",
    re.I,
)
_NAME_WORD = re.compile(r"^(?:[A-Z][\w'’.-]*|\S*\d\S*|\w+[A-Z]\w*|[a-z][\w.-]*_[\w.-]*)$")


def fits(asked: QuestionType, phrase: str, sentence: str) -> bool:
    """``phrase`` is a value of the asked-for type, whole in ``sentence``: what may be shown as a short
    answer (a changed detail of two edited statements, say, often is not)."""
    return value_problem(asked, phrase, sentence) is None


def value_problem(asked: QuestionType, phrase: str, sentence: str) -> str | None:
    """Why ``phrase`` may not be shown as the short answer to ``asked`` before ``sentence``; None if it
    is a value of the asked-for type, whole in the sentence. The one rule both the answer layer and
    the eval's fragment rate (``evals.typed_values``) apply."""
    if not asked.typed:
        return "the question asks for an account, not a typed value"
    if not phrase.strip():
        return "empty"
    if asked.kind is AnswerType.YES_NO:
        return None if phrase in ("Yes", "No") else "not yes or no"
    found = re.search(rf"(?<![\w]){re.escape(phrase)}(?![\w])", sentence)
    if found is None:
        return "not a whole phrase of its sentence"
    if asked.kind is AnswerType.DATE:
        return None if _MONTH_OR_YEAR.search(phrase) else "not a date"
    if asked.kind is AnswerType.QUANTITY:
        return None if _NUMBER_WORD.search(phrase) else "not a quantity"
    if asked.entity is Entity.CATEGORY:
        return None if category_value(phrase) else "not a category value"
    return _name_problem(asked, phrase, sentence, found)


def _name_problem(asked: QuestionType, phrase: str, sentence: str, found: re.Match[str]) -> str | None:
    """Why ``phrase``, found in ``sentence``, is no name of the asked-for kind; None if it is one."""
    if not _is_name(phrase, asked.noun, place=asked.kind is AnswerType.PLACE):
        return "not a name"
    version = asked.noun.split()[-1:] == ["version"]
    if version and not re.search(r"\d", phrase):
        return "not a version: versions are numbered"
    # A version follows the name of what it versions ("GROBID v0.5.5"): that name is not the value's.
    if _cut_out_of_longer_name(phrase, sentence, found, named_before=version):
        return "cut out of a longer name"
    return None


def category_value(phrase: str) -> bool:
    """ "football", "jazz", "mixed martial arts": a few words naming a kind, none of them a function
    word, a listed verb or an adverb in -ly, and not ending in a past form: "became" of "he became a
    poet", or "widely recognized" of "Doak is widely recognized for his skills in chess", says what the
    subject did or how it is seen, not what it is."""
    words = [w.lower() for w in phrase.split()]
    if not words or len(words) > TUNING.question.max_category_words:
        return False
    if any(w in stopwords() or w in PHRASE_BREAKERS for w in words):
        return False
    adverb = any(
        len(w) > TUNING.question.adverb_min_letters and w.endswith("ly") and w not in NOT_ADVERBS for w in words
    )
    return not (adverb or any(is_listed_verb(w) for w in words) or is_past_form(words[-1]))


def _is_name(phrase: str, noun: str, place: bool = False) -> bool:
    """A few capitalised (or code-like) words, joined by name particles, neither starting nor ending
    with one; a leading "the" ("The Beatles") and the asked-for noun at the end ("the Standard *tier*")
    are not counted."""
    words = _name_words(phrase, noun)
    if (
        len(words) > TUNING.phrasing.max_name_words
        or words[0].lower() in NAME_PARTICLES
        or words[-1].lower() in NAME_PARTICLES
    ):
        return False
    # A place's parts are joined by commas ("Houghton County, Michigan"); other names' are a list.
    return (
        all(w.lower() in NAME_PARTICLES or _NAME_WORD.match(w.rstrip(",") if place else w) for w in words)
        and len(phrase) >= 2
    )


def _name_words(phrase: str, noun: str) -> list[str]:
    """The words of ``phrase`` that must read as a name: without a leading "the" ("The Beatles", "The
    Hague") and without the asked-for noun at its end ("the Standard *tier*")."""
    words = phrase.split()
    if words[0].lower() == "the" and len(words) > 1:
        words = words[1:]
    if noun and len(words) > 1 and words[-1].lower() == noun.split()[-1]:
        words = words[:-1]
    return words


def _cut_out_of_longer_name(phrase: str, sentence: str, found: re.Match[str], named_before: bool = False) -> bool:
    """Whether a capitalised word runs on either side of ``found`` (but the sentence's first; with
    ``named_before``, only after it): the phrase is part of a longer name. One name of a list of names
    ("ELMo, GPT, BERT and XLNet") is cut out of it, too."""
    before = sentence[: found.start()].split()
    after = sentence[found.end() :].split()
    inside = not named_before and len(before) > 1 and before[-1][:1].isupper() and not before[-1].endswith((".", ":"))
    return inside or (bool(after) and after[0][:1].isupper() and not phrase.endswith(","))
