"""Offline decomposition of a topic into 3-6 sub-questions, from templates and keyphrases.

1. The topic is split into a subject and facets: "Green roofs in cities: cooling, stormwater
   retention and installation costs" has the subject "Green roofs in cities" (core "green roofs")
   and the facets "cooling", "stormwater retention", "installation costs". Separators: ':' (subject
   before it), ',', ';', ' and ', ' vs '. A topic phrased as a question is not split.
   A facet worded as a clause ("how quantization affects accuracy, memory and latency", "why
   retrieval helps") is one facet, asked about as it is; a topic worded as an indirect question
   ("How quantization and pruning trade accuracy for memory") is asked about, not repeated.
2. An overview question on the subject (or the topic itself when it is a question), one question
   per facet, then 1-2 questions on salient keyphrases of the scout chunks the topic does not
   already cover and that more than one document uses (one paper's term for its own method is not a
   facet of the topic), then generic templates if there are still fewer than three. Every question
   is a whole question naming the topic's subject.
3. Near-duplicates are dropped by comparing the focus phrases (rapidfuzz token-set ratio).

The topic is the researcher's text; the scout chunks are *document* text, i.e. data. Only noun-like
keyphrases are taken from them (see ``keyphrases``), never sentences, so a document cannot inject
an imperative sub-question.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz

from corpus.retrieval import RetrievedChunk
from research.evidence import SubQuestion
from strategies.reading.extractive import prose
from strategies.reading.keyphrases import extract_keyphrases, phrase_candidates
from strategies.reading.lexicon.question_words import DIRECT_QUESTION_WORDS
from strategies.reading.lexicon.topics import RELATIONAL_NOUNS
from strategies.reading.lexicon.word_forms import ADJECTIVE_ENDINGS, NOT_ADJECTIVES
from strategies.reading.text import (
    content_words,
    has_injection_word,
    is_verbish,
    matched,
    normalise_space,
    stem,
    stopwords,
)
from strategies.reading.tuning import TUNING
from strategies.reading.wording import is_question

MAX_FACETS = TUNING.planning.max_questions - 1

# The words the templates below frame a sub-question with, which no answer needs to repeat.
TEMPLATE_WORDS = frozenset(
    "evidence say main findings measurements figures sources report limitations uncertainties note recommend "
    "regarding relation".split()
)

_FACET_SPLIT = re.compile(r"\s*(?:[,;]|\band\b|\bvs\.?|\bversus\b)\s*", re.IGNORECASE)
# Words that open a clause ("how quantization affects accuracy"), not a noun phrase.
_CLAUSE_START = re.compile(r"^(how|why|when|where|whether|what|which|who|if)\b", re.IGNORECASE)
_COMPARE_SPLIT = re.compile(r"\s+(?:vs\.?|versus)\s+", re.IGNORECASE)
# A phrase opening on a preposition says where or when something is, not what it is.
_PLACE = re.compile(
    r"(?:outside|inside|beyond|within|without|under|over|towards?|into|across|among|between|through|against|"
    r"beneath|above|below|behind|after|before|during|since|until|around|about|on|in|at|for|from|with|by)\s",
    re.IGNORECASE,
)
_CONNECTOR = re.compile(r"\s+\b(of|for|in|on|at|within|across|under|among)\b\s+", re.IGNORECASE)


@dataclass(frozen=True)
class TopicParts:
    subject: str  # "Green roofs in cities"
    core: str  # "green roofs"
    connector: str  # how a facet attaches to the core: "installation costs of green roofs"
    facets: list[str]
    is_question: bool
    comparison: list[str]  # the sides of an "A vs B" topic
    # What a title's tail says its subject is, when it is not a list of facets:
    # "Orbit: An Open Corpus of Field Notes".
    description: str = ""


def is_indirect_question(text: str) -> bool:
    """A clause that is not itself a question: "how quantization affects accuracy", "whether roofs
    pay off" (no "?", and no auxiliary or "much"/"many" after its first word within two words)."""
    words = text.strip().lower().split()
    if not words or text.strip().endswith("?") or not _CLAUSE_START.match(words[0]):
        return False
    if words[0] in ("whether", "if"):
        return True
    return words[0] in ("how", "why", "when", "where") and not any(w in DIRECT_QUESTION_WORDS for w in words[1:3])


def _lower_first(text: str) -> str:
    """Sentence case to running text: "Green roofs" -> "green roofs". A name keeps its case ("NASA
    data", "Orbit", "CiteSee", "Multi-LexSum", a one-word topic), and so does a title in Title Case
    ("Dense Passage Retrieval for …"): lowering only its first word would read as a typo."""
    words = text.split()
    first = words[0] if words else ""
    rest = first[1:].replace("-", "")
    # The article "A" is a capital letter alone ("A guide for people with cancer").
    plain = first[:1].isupper() and ((rest.isalpha() and rest.islower()) or first == "A")
    if len(words) < 2 or not plain or is_title_case(text):
        return text
    return text[0].lower() + text[1:]


def _name_like(word: str) -> bool:
    """A word written as a name: a digit, a capital after the first letter, or all capitals."""
    letters = [c for c in word if c.isalpha()]
    return (
        any(c.isdigit() for c in word)
        or any(c.isupper() for c in word[1:])
        or (len(letters) >= 2 and all(c.isupper() for c in letters))
    )


def is_title_case(text: str) -> bool:
    """Whether ``text`` is written in Title Case, as paper and book titles are: most of its words
    after the first, leaving out small words and acronyms, start with a capital."""
    words = [w for w in text.split()[1:] if w[:1].isalpha() and w.lower() not in stopwords()]
    words = [w for w in words if not (w.isupper() and len(w) > 1)]
    capitalised = sum(1 for w in words if w[:1].isupper())
    return bool(words) and capitalised * 3 >= len(words) * 2


def _clean(text: str) -> str:
    return normalise_space(text).strip(" .,:;!?-–—\"'")


def _core_of(subject: str, scout_texts: Sequence[str], question: bool = False) -> str:
    """The head noun phrase of a subject: "Green roofs in cities" -> "green roofs".

    A title in Title Case is its own core (cutting "Dense Passage Retrieval for Open-Domain QA" at
    "for" loses what it names), and so is a subject with no head to cut at ("Small language
    models", never its most frequent word "small"). For a question, the candidate phrase found most
    often in the scout chunks, weighted by its length, is the core.
    """
    if not question:
        head = _CONNECTOR.split(subject, maxsplit=1)[0]
        cut = head != subject and not is_title_case(subject) and _is_noun_head(head)
        return _lower_first(_clean(head if cut else subject))
    options = [s for s, _ in phrase_candidates(subject)]
    if not options:
        return _lower_first(_clean(subject))
    lowered = [t.lower() for t in scout_texts]

    def weight(phrase: str) -> tuple[int, int, int]:
        df = sum(1 for t in lowered if phrase in t)
        return (df * len(phrase.split()), len(phrase.split()), -options.index(phrase))

    return _as_written(max(dict.fromkeys(options), key=weight), subject)


def _is_noun_head(head: str) -> bool:
    """Whether the words before a connector name a thing ("green roofs" of "green roofs in cities"),
    not a relation ("the effects of …"), an activity ("improving detection of …"), a lone common
    word ("overview of …") or a clause ("indexing data stored in …")."""
    words = re.sub(r"^(the|a|an)\s+", "", head.strip(), flags=re.IGNORECASE).split()
    if not content_words(head) or " ".join(words).lower() in RELATIONAL_NOUNS or words[0].lower().endswith("ing"):
        return False
    if any(is_verbish(w.lower()) for w in words[1:]):
        return False
    return len(words) >= 2 or _name_like(words[0])


def _as_written(phrase: str, text: str) -> str:
    """``phrase`` (lower-cased by the candidate reader) as ``text`` writes it, so names keep their case."""
    found = re.search(re.escape(phrase), text, flags=re.IGNORECASE)
    return _lower_first(found.group(0)) if found else phrase


# A topic opening with a verb's -ing form and its object: "Evaluating summaries", "Summarising cases".
_GERUND_WITH_OBJECT = re.compile(r"^[A-Za-z]{3,}ing\s+(?!(?:of|and|or)\b)[a-z]")


def split_topic(topic: str, scout_texts: Sequence[str] = ()) -> TopicParts:
    text = _clean(topic)
    if _asks_a_question(topic, text):
        return TopicParts(text, _core_of(text, scout_texts, question=True), "of", [], True, [])
    subject, tail, connector = _subject_and_tail(text)
    if ":" in text and _is_description(tail):
        return _described_topic(subject, tail, scout_texts)
    facets = _facets(tail) if tail else []
    facets = [_lower_first(f) for f in dict.fromkeys(facets)]
    comparison = [_lower_first(_clean(p)) for p in _COMPARE_SPLIT.split(tail)] if _COMPARE_SPLIT.search(tail) else []
    return TopicParts(subject, _core_of(subject, scout_texts), connector, facets, False, comparison)


def _asks_a_question(topic: str, text: str) -> bool:
    """A topic asked as a question, or worded as an indirect one with no title before a colon, is
    asked about whole rather than split into facets."""
    if is_question(topic) and not is_indirect_question(topic):
        return True
    return is_indirect_question(text) and ":" not in text


def _subject_and_tail(text: str) -> tuple[str, str, str]:
    """The subject, the tail that lists its facets, and the connector a facet attaches with."""
    if ":" in text:
        subject, _, tail = text.partition(":")
        # An action with its object ("Evaluating summaries") has facets in it, not of it: "datasets
        # in evaluating summaries".
        return _clean(subject), _clean(tail), "in" if _GERUND_WITH_OBJECT.match(_clean(subject)) else "of"
    # "cooling and stormwater benefits of green roofs": the subject follows the last connector.
    parts = _CONNECTOR.split(text)
    if len(parts) >= 3 and _FACET_SPLIT.search(parts[0]) and not is_title_case(text):
        return _clean(" ".join(parts[2:])), _clean(parts[0]), parts[1].lower()
    return text, "", "of"


def _described_topic(subject: str, tail: str, scout_texts: Sequence[str]) -> TopicParts:
    """A title whose tail after the colon describes its subject rather than listing facets."""
    if _PLACE.match(subject):
        # "Outside the web: standalone binaries using a compiler": the head says where the
        # subject is, so the tail names the subject.
        return TopicParts(tail, _core_of(tail, scout_texts), "of", [], False, [])
    return TopicParts(subject, _core_of(subject, scout_texts), "of", [], False, [], _lower_first(tail))


def _is_description(tail: str) -> bool:
    """Whether the part after a title's colon describes its subject rather than listing facets: it
    is a title in Title Case ("Real-World Summaries of …"), opens with an article ("A Unified
    Toolkit for …", "a guide for …"), or is one long phrase ("standalone WebAssembly binaries using
    Emscripten"). A clause ("how A changes B") is a facet of its own."""
    if _CLAUSE_START.match(tail):
        return False
    if is_title_case(tail) or re.match(r"(a|an|the)\s", tail, flags=re.IGNORECASE):
        return True
    return not _FACET_SPLIT.search(tail) and len(tail.split()) >= TUNING.planning.min_description_words


def _facets(tail: str) -> list[str]:
    """The facets of a topic's tail: noun phrases split at ",", ";", "and", "vs"; a clause ("how X
    affects A, B and C") is one facet, running on to the next clause or the next ";"."""
    facets: list[str] = []
    for piece in re.split(r"\s*;\s*", tail):
        clause: list[str] = []
        for part in (p for p in (_clean(p) for p in piece.split(",")) if p):
            if _CLAUSE_START.match(part) or (clause and not _CLAUSE_START.match(part)):
                if _CLAUSE_START.match(part) and clause:
                    facets.append(", ".join(clause))
                    clause = []
                clause.append(part)
            else:
                facets += _noun_phrases(part)
        if clause:
            facets.append(", ".join(clause))
    return facets


def _noun_phrases(part: str) -> list[str]:
    """ "cooling and stormwater retention" lists two facets; "comparative physiological and metabolomics
    analysis" is one: a piece ending on an adjective modifies the head noun of the last piece, so the
    list is of modifiers and splitting it would leave "comparative physiological" headless."""
    pieces = [p for p in (_clean(f) for f in _FACET_SPLIT.split(part)) if p]
    if len(pieces) > 1 and len(pieces[-1].split()) > 1 and any(_is_adjective(p.split()[-1]) for p in pieces[:-1]):
        return [part]
    return pieces


def _is_adjective(word: str) -> bool:
    """A lower-case word with an adjective's ending that is not a common noun ending so."""
    return word.islower() and word.endswith(ADJECTIVE_ENDINGS) and len(word) > 4 and word not in NOT_ADJECTIVES


def _facet_question(facet: str, parts: TopicParts) -> str:
    """The question on one facet: a clause is asked about as written, in the subject's evidence."""
    if _CLAUSE_START.match(facet):
        return f"What does the evidence on {parts.core} say about {facet.rstrip('?')}?"
    return f"What does the evidence say about {_about(facet, parts)}?"


def _description_question(parts: TopicParts) -> str:
    """ "Orbit: An Open Corpus of Field Notes" asks what Orbit is; a description that is
    not a name's gloss ("Outside the web: standalone WebAssembly binaries") is asked about itself."""
    words = parts.subject.split()
    glossed = re.match(r"(a|an|the)\s", parts.description, flags=re.IGNORECASE)
    if glossed and len(words) == 1 and (words[0][:1].isupper() or _name_like(words[0])):
        return f"What is {parts.subject}?"
    return f"What does the evidence say about {parts.description}?"


def _about(facet: str, parts: TopicParts) -> str:
    """ "installation costs" -> "installation costs of green roofs", unless it names the core already."""
    core_stems = [stem(w) for w in content_words(parts.core)]
    facet_stems = {stem(w) for w in content_words(facet)}
    if core_stems and all(matched(s, facet_stems) for s in core_stems):
        return facet
    return f"{facet} {parts.connector} {parts.core}"


@dataclass
class _Planned:
    focus: str
    question: str
    rationale: str


def _is_duplicate(focus: str, kept: list[_Planned]) -> bool:
    return any(fuzz.token_set_ratio(focus.lower(), k.focus.lower()) >= TUNING.planning.duplicate_ratio for k in kept)


def _texts_by_document(scout: Sequence[RetrievedChunk]) -> dict[str, str]:
    """The scout chunks' prose, lower-cased, joined by document."""
    joined: dict[str, list[str]] = {}
    for chunk in scout[: TUNING.planning.scout_chunks]:
        joined.setdefault(chunk.doc_id, []).append(prose(chunk).lower())
    return {doc_id: " ".join(texts) for doc_id, texts in joined.items()}


def _scout_texts(scout: Sequence[RetrievedChunk]) -> list[str]:
    """The prose of the top scout chunks (running headers and tables would yield journal names)."""
    return [text for text in (prose(c) for c in scout[: TUNING.planning.scout_chunks]) if text]


def plan_questions(topic: str, single_question: bool, scout: Sequence[RetrievedChunk]) -> list[SubQuestion]:
    topic = normalise_space(topic)
    if single_question or not topic:
        return [SubQuestion(id="q1", question=topic, rationale="The question as asked (single-question mode).")]
    texts = _scout_texts(scout)
    parts = split_topic(topic, texts)
    planned = [_opening_question(topic, parts)]
    _add_topic_questions(planned, parts)
    _add_scout_questions(planned, topic, parts, texts, _texts_by_document(scout))
    _add_fallback_questions(planned, parts)
    return [SubQuestion(id=f"q{i}", question=p.question, rationale=p.rationale) for i, p in enumerate(planned, 1)]


def _add(planned: list[_Planned], focus: str, question: str, rationale: str) -> None:
    """Plan a question unless the plan is full or an earlier question has the same focus."""
    if len(planned) < TUNING.planning.max_questions and not _is_duplicate(focus, planned):
        planned.append(_Planned(focus, question, rationale))


def _opening_question(topic: str, parts: TopicParts) -> _Planned:
    """The first question: the researcher's own question, the comparison the topic asks for, or an
    overview of the subject before its facets."""
    if parts.is_question and is_indirect_question(topic):
        return _Planned(
            parts.subject,
            f"What does the evidence say about {_lower_first(_clean(topic))}?",
            "The researcher's question, answered directly.",
        )
    if parts.is_question:
        return _Planned(
            parts.subject,
            _sentence_case(topic if topic.endswith("?") else topic + "?"),
            "The researcher's question, answered directly.",
        )
    if parts.comparison:
        sides = " and ".join(parts.comparison)
        return _Planned(
            parts.subject,
            f"How do {sides} compare for {parts.core}?",
            "The topic asks for a comparison; this question sets the sides against each other.",
        )
    return _Planned(
        parts.subject,
        f"What are the main findings about {_lower_first(parts.subject)}?",
        "Sets out what the sources establish overall before the specific facets."
        if parts.facets
        else "Sets out what the sources establish about the topic as a whole.",
    )


def _add_topic_questions(planned: list[_Planned], parts: TopicParts) -> None:
    """The questions on what the topic itself names: the subject's description, then each facet."""
    if parts.description:
        _add(
            planned,
            parts.description,
            _description_question(parts),
            f"The topic describes {parts.subject} as '{parts.description}'.",
        )
    for facet in parts.facets[:MAX_FACETS]:
        _add(planned, facet, _facet_question(facet, parts), f"The topic names '{facet}' explicitly.")


def _add_scout_questions(
    planned: list[_Planned], topic: str, parts: TopicParts, texts: list[str], by_document: dict[str, str]
) -> None:
    """Up to two questions on keyphrases the scout chunks share that the topic does not name."""
    topic_stems = {stem(w) for w in content_words(topic)}
    phrases = (
        extract_keyphrases(texts, k=12, min_count=TUNING.planning.min_scout_count, exclude_stems=topic_stems)
        if texts
        else []
    )
    # Multi-word phrases name a concept ("saturated weight"); a lone word ("street") only if no phrase does.
    phrases = [p for p in phrases if len(p.stems) >= 2] or phrases[:1]
    scout_added = 0
    for phrase in phrases:
        if scout_added >= TUNING.planning.max_scout_questions or len(planned) >= TUNING.planning.max_questions:
            break
        if not _is_scout_facet(phrase.text, phrase.stems, topic_stems, by_document):
            continue
        before = len(planned)
        _add(
            planned,
            phrase.text,
            f"What do the sources report about the {phrase.text} in relation to {parts.core}?",
            f"'{phrase.text}' is prominent in the passages retrieved for the topic but is not named in it.",
        )
        scout_added += len(planned) - before


def _is_scout_facet(text: str, stems: Sequence[str], topic_stems: set[str], by_document: dict[str, str]) -> bool:
    """Whether a scout keyphrase may be asked about: a short, harmless phrase, mostly not the topic's
    own words, not all stopwords, and used by more than one document (one paper's name for its own
    method is not a facet of the topic)."""
    return not (
        has_injection_word(text)
        or len(text) > TUNING.planning.max_phrase_chars
        or sum(1 for s in stems if s in topic_stems) * 2 >= len(stems)
        or all(w in stopwords() for w in text.split())
        or sum(1 for doc_text in by_document.values() if text.lower() in doc_text) < 2
    )


def _add_fallback_questions(planned: list[_Planned], parts: TopicParts) -> None:
    """Generic questions, added only while the plan has fewer than three."""
    fallbacks = [
        (
            "measurements figures",
            f"What measurements or figures do the sources report for {parts.core}?",
            "Quantitative results anchor the report and let the figures be compared across sources.",
        ),
        (
            "limitations uncertainties",
            f"What limitations or uncertainties do the sources note about {parts.core}?",
            "Knowing where the evidence is weak tells how far the conclusions can be trusted.",
        ),
        (
            "recommendations",
            f"What do the sources recommend regarding {parts.core}?",
            "Recommendations turn the findings into actions.",
        ),
    ]
    for focus, question, rationale in fallbacks:
        if len(planned) >= TUNING.planning.min_questions:
            break
        _add(planned, focus, question, rationale)


def _sentence_case(text: str) -> str:
    return text[:1].upper() + text[1:]
