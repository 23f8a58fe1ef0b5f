"""The short answer a sentence gives to a question: the phrase a reader looks for, found without a model.

A question's *answer type* comes from its grammar (English question words, not any corpus's wording):
"when / what year" wants a date, "how many / what is the population of" a quantity, "who" a name,
"where / in which city" a place, "is / does / did ..." yes or no, "what / which <noun>" a thing of
that kind, and anything else ("why", "how does") a description, which has no short answer.

The phrase is found in one sentence: candidates of the wanted type (dates, quantities, capitalised
names, noun phrases) that are not part of what the question already says, ranked by how close they
stand to the words the sentence shares with the question; for "what <noun>" questions the dense
model also says which candidate is most like the noun ("sport" ~ "American football"). Yes/no comes
from polarity: a sentence that covers the question's terms asserts it, unless a negation governs
them.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from corpus.text import figures

from .numbers import quantities
from .text import content_stems, content_words, matched, stem, stopwords
from .vectors import Vectors


class AnswerType(StrEnum):
    DATE = "date"
    QUANTITY = "quantity"
    NAME = "name"  # who
    PLACE = "place"  # where
    THING = "thing"  # what / which <noun>
    YES_NO = "yes_no"
    DESCRIPTION = "description"


@dataclass(frozen=True)
class QuestionType:
    kind: AnswerType
    noun: str = ""  # the asked-for noun of "what <noun>" / "what is the <noun> of" questions
    counted: bool = False  # "how many": a count of things, never a measurement ("60 mm")


_AUX = r"(?:is|are|was|were|do|does|did|can|could|has|have|had|will|would|should|shall|may|might|must)"
_YES_NO = re.compile(rf"^{_AUX}\b", re.IGNORECASE)
_AUX_WORD = re.compile(rf"^{_AUX}$", re.IGNORECASE)
_DATE_Q = re.compile(r"^(?:when\b|(?:in |on )?(?:what|which) (?:year|date|day|month|decade|century)\b)", re.IGNORECASE)
_QUANTITY_Q = re.compile(r"^how (?:many|much|long|big|large|old|far|tall|high|deep|wide|heavy|fast|often)\b", re.I)
_NAME_Q = re.compile(r"^(?:who|whom|whose)\b", re.IGNORECASE)
_PLACE_Q = re.compile(
    r"^(?:where\b|(?:in |at |from )?(?:what|which) (?:city|country|state|town|place|region|county|province|"
    r"continent|location|village)\b)",
    re.IGNORECASE,
)
# "what sport is", "which datasets do", "what is the population of", "what are the main results of"
_THING_Q = re.compile(
    r"^(?:in |on |for |by |from |with )?(?:what|which)\s+(?:(?:is|are|was|were)\s+(?:the\s+|a\s+|an\s+)?)?"
    r"(?:(?:main|primary|exact|total|current|estimated|official|overall|best|first|last|other|new|"
    r"different|specific|original)\s+)*(?P<noun>[a-z][\w-]*(?:\s+(?!(?:is|are|was|were|do|does|did|has|have|had|of|"
    r"in|on|for|to|by|from|with|per|about|between|among|regarding|that|which|the|a|an)\b)[a-z][\w-]*)?)",
    re.IGNORECASE,
)
# Nouns whose answers are quantities: general English, not any dataset's wording.
QUANTITY_NOUNS = frozenset(
    {
        "population",
        "number",
        "size",
        "length",
        "height",
        "width",
        "depth",
        "area",
        "age",
        "count",
        "amount",
        "percentage",
        "proportion",
        "share",
        "rate",
        "ratio",
        "accuracy",
        "score",
        "total",
        "cost",
        "price",
        "weight",
        "speed",
        "temperature",
        "capacity",
        "duration",
        "distance",
        "value",
    }
)
# "Who is the artist of", "who were the directors of": the role asked for.
_ROLE = re.compile(r"^who(?:m)?\s+(?:is|are|was|were)\s+the\s+(?:current\s+|first\s+|main\s+)?([a-z][\w-]*)\b", re.I)
# "What is known about", "what are reported": a participle after "what is" asks for a description.
_PARTICIPLE = re.compile(r"^(?:\w+ed|known|said|meant|done|shown|found|given|seen|made|taken)$")
# Nouns that ask for an account, not a name or a figure ("what are the main findings").
DESCRIPTION_NOUNS = frozenset(
    "finding findings result results effect effects impact impacts benefit benefits role evidence advantage "
    "advantages disadvantages limitation limitations challenge challenges approach approaches method methods "
    "difference differences relationship contribution contributions purpose goal reason reasons cause causes "
    "problem problems issue issues idea ideas conclusion conclusions implication implications outcome outcomes "
    "insight insights lesson lessons trend trends risk risks precaution precautions measure measures step steps "
    "factor factors feature features strategy strategies recommendation recommendations practice practices".split()
)
_NOT_A_NOUN = frozenset({"is", "are", "was", "were", "do", "does", "did", "kind", "type", "sort", "of", "the"})


def question_type(question: str) -> QuestionType:
    """The answer type of a question; a "<title>: <question>" prefix is looked past."""
    text = _last_clause(question)
    if _YES_NO.match(text):
        return QuestionType(AnswerType.YES_NO)
    if _DATE_Q.match(text):
        return QuestionType(AnswerType.DATE)
    found = _QUANTITY_Q.match(text)
    if found:
        # "how many spider species", "how much money": the counted thing names the answer's unit.
        unit = re.match(r"\s+([a-z][\w-]*(?:\s+[a-z][\w-]*)?)", text[found.end() :], re.IGNORECASE)
        words = [w for w in (unit.group(1).lower().split() if unit else []) if w not in _NOT_A_NOUN]
        words = list(itertools.takewhile(lambda w: w not in stopwords() and not _AUX_WORD.match(w), words))
        counted = text.lower().startswith("how many")
        return QuestionType(AnswerType.QUANTITY, " ".join(words), counted=counted)
    if _NAME_Q.match(text):
        role = _ROLE.match(text)
        return QuestionType(AnswerType.NAME, role.group(1).lower() if role else "")
    if _PLACE_Q.match(text):
        return QuestionType(AnswerType.PLACE)
    found = _THING_Q.match(text)
    if found:
        noun = found.group("noun").lower()
        if noun.split()[0] in {"kind", "type", "sort"}:  # "what kind of sport" asks for a sport
            rest = re.match(r"\s*of\s+(?:a\s+|an\s+)?([a-z][\w-]*)", text[found.end() :], re.IGNORECASE)
            noun = rest.group(1).lower() if rest else noun
        if noun.split()[0] in _NOT_A_NOUN or noun.split()[0] in stopwords() or _PARTICIPLE.match(noun.split()[0]):
            return QuestionType(AnswerType.DESCRIPTION)
        if {noun.split()[0], noun.split()[-1]} & DESCRIPTION_NOUNS:
            return QuestionType(AnswerType.DESCRIPTION, noun)
        if any(stem(w) in {stem(n) for n in QUANTITY_NOUNS} for w in noun.split()):  # "price per", "area"
            return QuestionType(AnswerType.QUANTITY, noun)
        return QuestionType(AnswerType.THING, noun)
    return QuestionType(AnswerType.DESCRIPTION)


def _last_clause(question: str) -> str:
    """ "Paper title: What do they use?" -> "What do they use?" (the question after a title)."""
    text = " ".join(question.split())
    if ": " in text:
        tail = text.rsplit(": ", 1)[1]
        if re.match(r"^(?:what|which|who|whom|whose|when|where|why|how|in|on|" + _AUX[3:-1] + r")\b", tail, re.I):
            return tail
    return text


# --- candidates in a sentence --------------------------------------------------------------------------------

_MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|"
    r"Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)
_DATE = re.compile(
    rf"\b(?:\d{{1,2}}\s+{_MONTH}\s+\d{{3,4}}|{_MONTH}\s+\d{{1,2}},?\s+\d{{3,4}}|{_MONTH}\s+\d{{3,4}}|"
    r"(?:1[0-9]|20)\d{2}s?)\b"
)
_NUMBER = re.compile(
    r"(?<![\w.,])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:\s*(?:%|percent|per cent)|\s+(?!(?:the|a|an|and|or|of|in|on|"
    r"to|for|by|with|there|that|which|is|are|was|were)\b)[a-z][a-z-]+)?"
)
# A capitalised run: "Mahesh Bhatt", "David S. Ware", "Houghton County, Michigan", "Philadelphia Atoms".
_NAME = re.compile(
    r"(?:[A-Z][\w'’.-]*|\d+[A-Z]\w*)(?:(?:\s+|\s*,\s+(?=[A-Z][a-z]+(?:\W|$)))(?:(?:of|de|la|le|van|von|der|du|"
    r"the|and|&)\s+)?(?:[A-Z][\w'’.-]*))*"
)
# Dates and life events belong to date answers, never to a thing's name ("born May").
_EVENT_WORD = re.compile(rf"^(?:{_MONTH}|born|died|founded|established)$", re.IGNORECASE)
_YEAR_ONLY = re.compile(r"(?:1[0-9]|20)\d{2}")
_WORD = re.compile(r"[A-Za-z][\w'’-]*|\d[\d,.]*")
_NEGATION = re.compile(r"\b(?:not|no|never|neither|nor|none|cannot|without)\b|n't\b", re.IGNORECASE)
# A candidate farther than this many words from every shared word is hardly the answer to it.
PROXIMITY_WORDS = 12
MAX_PHRASE_WORDS = 3
MAX_NAME_WORDS = 6
# For "what <noun>" questions: weight of the cosine to the noun against proximity.
W_NOUN = 0.6
# A figure whose unit is this unlike the counted noun counts something else ("14 roofs" for "how many
# species": cosine 0.15; "3,559 inhabitants" for "population": 0.55, "5,000 people": 0.6).
MIN_UNIT_SIMILARITY = 0.25
# Between equally placed candidates, a fuller name ("Blitzen Trapper" over "American").
LENGTH_BONUS = 0.05


@dataclass(frozen=True)
class Phrase:
    text: str
    start: int
    end: int
    score: float


def answer_phrase(question: str, sentence: str, vectors: Vectors | None = None) -> Phrase | None:
    """The short answer ``sentence`` gives to ``question``, or None (a description question, or no
    candidate of the wanted type outside the question's own words)."""
    qtype = question_type(question)
    if qtype.kind in (AnswerType.YES_NO, AnswerType.DESCRIPTION):
        return None
    q_stems = frozenset(content_stems(question))
    anchors = _anchor_positions(sentence, q_stems)
    # A candidate restating the question ("60 mm" of "at 60 mm of substrate") is no answer.
    asked = set(figures(question))
    candidates = [
        c
        for c in _candidates(qtype, sentence)
        if (figures(c[0]) and not set(figures(c[0])) <= asked)
        or (not figures(c[0]) and not _inside_question(c[0], q_stems))
    ]
    if not candidates:
        return None
    similarity = _noun_similarity(qtype, [c[0] for c in candidates], vectors)
    best: Phrase | None = None
    for (text, start, end), sim in zip(candidates, similarity, strict=True):
        if qtype.kind is AnswerType.QUANTITY and sim is not None and sim < MIN_UNIT_SIMILARITY and content_words(text):
            continue  # "14 green roofs" counts roofs, not the spider species asked about
        distance = min((abs(a - start) if a < start else abs(a - end) for a in anchors), default=len(sentence))
        near = max(0.0, 1.0 - _words_between(sentence, distance) / PROXIMITY_WORDS)
        score = near if sim is None else (1 - W_NOUN) * near + W_NOUN * sim
        score += LENGTH_BONUS * min(len(text.split()) - 1, 2)
        if best is None or score > best.score:
            best = Phrase(text=text, start=start, end=end, score=round(score, 6))
    return best


def _words_between(sentence: str, chars: int) -> int:
    return max(0, round(chars / 6))  # ~6 characters a word with its space


def _anchor_positions(sentence: str, q_stems: frozenset[str]) -> list[int]:
    return [m.start() for m in _WORD.finditer(sentence) if matched(stem(m.group(0).lower()), q_stems)]


def _inside_question(text: str, q_stems: frozenset[str]) -> bool:
    """Every content word of the candidate is already in the question: it restates, not answers."""
    stems = content_stems(text)
    return bool(stems) and all(matched(s, q_stems) for s in stems)


def _candidates(qtype: QuestionType, sentence: str) -> list[tuple[str, int, int]]:
    if qtype.kind is AnswerType.DATE:
        return _spans(_DATE, sentence)
    if qtype.kind is AnswerType.QUANTITY:
        # Measurements ("60 to 80 mm", "2 °C") answer "how much / how long", not "how many".
        found = [] if qtype.counted else [(q.text, q.start, q.end) for q in quantities(sentence)]
        covered = [(s, e) for _, s, e in found]
        found += [
            (t, s, s + len(t))
            for t, s, e in ((_trim_unit(t), s, e) for t, s, e in _spans(_NUMBER, sentence))
            if not any(s < ce and cs < e for cs, ce in covered) and not _YEAR_ONLY.fullmatch(t.strip())
        ]
        found = [_widen(sentence, st, e) for _, st, e in found]
        noun = stem(qtype.noun.split()[-1]) if qtype.noun else ""
        if noun in _COUNT_STEMS:
            found = [c for c in found if not any(q.unit == "%" for q in quantities(c[0]))]  # a population is no share
        elif noun in _MONEY_STEMS:  # a price is an amount of money: "€45 per m2", "120 dollars"
            found = [(t, st, e) for t, st, e in found if _CURRENCY.search(sentence[max(0, st - 4) : e])]
        return [(t, s, e) for t, s, e in found if _stated_figure(t)]
    names = [
        (t, s, e)
        for t, s, e in _spans(_NAME, sentence)
        if (s > 0 or not _sentence_word(t)) and not _modifier(t, sentence[e:]) and not _EVENT_WORD.match(t.split()[0])
    ]
    names = [(t, s, e) for t, s, e in names if len(t.split()) <= MAX_NAME_WORDS]  # a list is not one name
    if qtype.kind in (AnswerType.NAME, AnswerType.PLACE):
        return names
    return names + _noun_phrases(sentence)


# Nouns counted in units of themselves ("a population of 3,559"): a percentage is a share of them.
_COUNT_STEMS = frozenset(stem(n) for n in ("population", "number", "count", "total", "amount"))
# Nouns answered by an amount of money, and the marks of one.
_MONEY_STEMS = frozenset(stem(n) for n in ("price", "cost", "fee", "budget", "salary", "revenue", "expense", "wage"))
_CURRENCY = re.compile(
    r"[$€£¥₹]|\b(?:USD|EUR|GBP|CHF|JPY|dollars?|euros?|pounds?|yen|francs?|cents?|rupees?)\b", re.IGNORECASE
)


def _widen(sentence: str, start: int, end: int) -> tuple[str, int, int]:
    """A figure with its currency sign and a "per <unit>" rate: "€45 per m2", not "45 per"."""
    if start > 0 and sentence[start - 1] in "$€£¥₹":
        start -= 1
    rate = re.match(r"(?:\s+per)?\s+(?:[a-zA-Z][\w²³/]*)", sentence[end:]) if sentence[:end].endswith("per") else None
    if rate is None:
        rate = re.match(r"\s+per\s+[a-zA-Z][\w²³/]*", sentence[end:])
    if rate:
        end += rate.end()
    return sentence[start:end], start, end


def _trim_unit(text: str) -> str:
    """ "5,000 at" -> "5,000": the word after a number is its unit only when it is not a function word."""
    text = text.rstrip(" ,.")
    head, _, last = text.rpartition(" ")
    return head if head and last.lower() in stopwords() else text


def _stated_figure(text: str) -> bool:
    """A figure that can be an answer: not a bare integer ("12"), which in running text is more often a
    reference, list or footnote number than a quantity; "3,559", "1.5" and "47 species" pass."""
    return not re.fullmatch(r"\d+", text.strip())


_DEMONYM = re.compile(r"^[A-Z][a-z]+(?:an|ese|ish|ic|i|ch)$")


def _modifier(text: str, after: str) -> bool:
    """ "American" in "American rock band", "Hindi" in "Hindi movie": a nationality or language before
    a noun describes the answer; it is not the name asked for."""
    return bool(_DEMONYM.match(text)) and bool(re.match(r"\s+[a-z]", after))


def _sentence_word(text: str) -> bool:
    """A capitalised sentence-initial function word ("The", "In") is no name."""
    first = text.split()[0].lower()
    return first in stopwords()


def _spans(pattern: re.Pattern[str], sentence: str) -> list[tuple[str, int, int]]:
    out = []
    for m in pattern.finditer(sentence):
        text = m.group(0).strip().rstrip(".,;:")
        if text:
            start = m.start() + m.group(0).index(text)
            out.append((text, start, start + len(text)))
    return out


def _noun_phrases(sentence: str) -> list[tuple[str, int, int]]:
    """Runs of up to MAX_PHRASE_WORDS content words, cut at stopwords and punctuation."""
    out: list[tuple[str, int, int]] = []
    run: list[re.Match[str]] = []
    stops = stopwords()

    def flush() -> None:
        # Every stretch of up to MAX_PHRASE_WORDS words of the run: "American football" out of "former
        # American football linebacker" is a candidate too, and the question's noun picks among them.
        for i in range(len(run)):
            for j in range(i, min(len(run), i + MAX_PHRASE_WORDS)):
                out.append((sentence[run[i].start() : run[j].end()], run[i].start(), run[j].end()))
        run.clear()

    previous_end = 0
    for m in _WORD.finditer(sentence):
        gap = sentence[previous_end : m.start()]
        previous_end = m.end()
        word = m.group(0)
        breaks = word.lower() in stops or word[0].isdigit() or _EVENT_WORD.match(word)
        if re.search(r"[,;:()\"“”]", gap) or breaks:
            flush()
        if not breaks:
            run.append(m)
    flush()
    return out


def _noun_similarity(qtype: QuestionType, texts: list[str], vectors: Vectors | None) -> list[float | None]:
    if vectors is None or not qtype.noun:
        return [None] * len(texts)
    noun = vectors.query(qtype.noun)
    matrix = vectors.passages(texts)
    return [float(x) for x in np.clip(matrix @ noun, 0.0, 1.0)]


# --- yes / no ---------------------------------------------------------------------------------------------

# A sentence answers a yes/no question when it covers this share of the question's content stems.
YES_NO_COVERAGE = 0.6


def polarity(question: str, sentence: str) -> str | None:
    """ "Yes" when the sentence asserts what the question asks, "No" when a negation governs it,
    None when it does not cover the question's terms."""
    if question_type(question).kind is not AnswerType.YES_NO:
        return None
    q_stems = list(dict.fromkeys(content_stems(_last_clause(question))))
    if not q_stems:
        return None
    s_stems = frozenset(content_stems(sentence))
    covered = sum(1 for s in q_stems if matched(s, s_stems)) / len(q_stems)
    if covered < YES_NO_COVERAGE:
        return None
    question_negated = bool(_NEGATION.search(_last_clause(question)))
    sentence_negated = bool(_NEGATION.search(sentence))
    return "No" if sentence_negated != question_negated else "Yes"
