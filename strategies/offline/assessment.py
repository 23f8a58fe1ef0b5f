"""Is the evidence enough, and what to try next: confidence, reformulations and gap suggestions.

Confidence combines three signals of an ``Analysis`` (see ``extractive``):

- ``pool coverage``: the share of the question's *focus* terms (those not found in most candidate
  sentences, i.e. not the general subject) that occur anywhere in the evidence;
- ``best coverage``: the largest share of focus terms one of the top sentences covers;
- ``dense``: the best question-sentence cosine.

``raw = W_POOL x pool + W_BEST x best + W_DENSE x dense`` goes through a logistic centred on
``RAW_CENTER``, so ``confidence >= SUFFICIENT_CONFIDENCE (0.5)`` exactly when ``raw >= RAW_CENTER``.

Calibration (sample corpus, ``sample_corpus/README.md``; k=8 hybrid retrieval per question): the
questions the corpus covers (overview, cooling, stormwater retention, structural loads,
biodiversity, maintenance, fire safety, carbon and air quality, annual rainfall retained) reach
raw 0.71-0.97: every focus term occurs in the evidence and a top sentence covers at least half of
them. The questions it cannot answer (installation costs; cost to install and maintain with
payback; lifecycle cost; subsidies; property values) reach at most raw 0.57: the key term ("cost",
"payback", "subsidies", "property") occurs nowhere, so coverage is at most a half even when the
cosine is high (0.73 for "installation costs" against "Install green roofs on 20 City-owned
buildings"). RAW_CENTER = 0.64 is the midpoint of 0.57 and 0.71; the dense term alone could not
separate the groups (0.62-0.89 covered vs 0.70-0.73 not).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from tools.hybrid_search import RetrievedChunk

from .extractive import Analysis, prose
from .keyphrases import extract_keyphrases
from .text import (
    QUESTION_WORDS,
    content_words,
    has_injection_word,
    matched,
    normalise_space,
    question_terms,
    stem,
    words,
)

W_POOL = 0.35
W_BEST = 0.35
W_DENSE = 0.30
RAW_CENTER = 0.64
# Steepness of the logistic: raw 0.1 above the centre gives confidence ~0.88.
RAW_SCALE = 0.05
SUFFICIENT_CONFIDENCE = 0.5
# Best coverage is measured over this many of the top-ranked sentences.
TOP_SENTENCES = 5
# Pseudo-relevance feedback reads the top chunks of the evidence.
PRF_CHUNKS = 3
PRF_PHRASES = 2
MAX_NEXT_QUERIES = 2

# A tiny thesaurus for reformulating queries and suggesting other terms; keys are stems.
SYNONYMS: dict[str, tuple[str, ...]] = {
    "cost": ("price", "expense", "budget", "payback"),
    "price": ("cost", "expense", "budget"),
    "expen": ("cost", "price", "budget"),
    "payba": ("cost", "savings", "return on investment"),
    "econo": ("cost", "price", "benefit"),
    "insta": ("construction", "retrofit", "build-up"),
    "maint": ("upkeep", "inspection", "care"),
    "lifec": ("service life", "durability", "replacement"),
    "cool": ("temperature reduction", "heat", "air temperature"),
    "tempe": ("heat", "cooling", "warming"),
    "heat": ("temperature", "cooling"),
    "storm": ("runoff", "rainfall", "drainage"),
    "retai": ("captured", "held back", "storage"),
    "runof": ("stormwater", "drainage", "discharge"),
    "biodi": ("species", "habitat", "wildlife"),
    "habit": ("biodiversity", "species", "wildlife"),
    "weigh": ("load", "mass"),
    "load": ("weight", "structural capacity"),
    "energ": ("electricity", "cooling demand"),
    "carbo": ("CO2", "sequestration", "storage"),
    "droug": ("dry spell", "water stress"),
    "irrig": ("watering", "water supply"),
    "polic": ("regulation", "programme", "requirement"),
    "benef": ("advantage", "effect", "performance"),
    "risk": ("hazard", "failure"),
}

# What kind of document would fill a gap about a given term (keys are stems).
DOCUMENT_HINTS: dict[str, str] = {
    "cost": "cost-benefit analyses, contractor price surveys or lifecycle cost studies",
    "price": "cost-benefit analyses, contractor price surveys or lifecycle cost studies",
    "payba": "cost-benefit analyses or lifecycle cost studies",
    "econo": "economic assessments or cost-benefit analyses",
    "lifec": "lifecycle assessments or long-term monitoring reports",
    "maint": "maintenance guides or building operators' records",
    "polic": "policy documents or programme evaluations",
    "tempe": "field measurements or modelling studies",
    "cool": "field measurements or modelling studies",
    "biodi": "ecological surveys",
    "storm": "hydrological monitoring studies or reviews",
}
DEFAULT_DOCUMENT_HINT = "field studies, reviews or technical reports"

_LEADING = re.compile(
    r"^\s*(?:(?:what|which|who|how|why|when|where|whether|does|do|did|is|are|was|were|can|could|"
    r"should|would|will|the|evidence|documents?|sources?|say|says|report|reports|tell|us|"
    r"about|much|many|known|there|any)\b[\s,]*)+",
    re.IGNORECASE,
)


_INNER_QUESTION = re.compile(
    r"\b(?:(?:what|which|who|how|why|when|where)(?:\s+(?:is|are|was|were|do|does|did|much|many))?|do|does|did)\b\s*",
    re.IGNORECASE,
)


def confidence(analysis: Analysis) -> float:
    if not analysis.scored:
        return 0.0
    focus = analysis.focus_terms
    if focus:
        pool = sum(1 for t in focus if analysis.term_doc_freq.get(t, 0) > 0) / len(focus)
        best = max(
            sum(1 for t in focus if matched(t, s.sentence.stems)) / len(focus) for s in analysis.scored[:TOP_SENTENCES]
        )
    else:
        pool = best = 1.0
    dense = max(s.dense for s in analysis.scored)
    raw = W_POOL * pool + W_BEST * best + W_DENSE * dense
    return round(1.0 / (1.0 + math.exp(-(raw - RAW_CENTER) / RAW_SCALE)), 4)


def sufficient(conf: float) -> bool:
    return conf >= SUFFICIENT_CONFIDENCE


def strip_question(question: str) -> str:
    """The question without its question words: "What does the evidence say about X?" -> "X"."""
    text = normalise_space(question).rstrip("?.! ")
    rest = _LEADING.sub("", text)
    rest = _INNER_QUESTION.sub(" ", rest)
    rest = re.sub(r"^(?:an?|the)\s+", "", rest, flags=re.IGNORECASE)
    rest = normalise_space(rest).strip(" ,;")
    return rest or text


def feedback_phrases(question: str, evidence: Sequence[RetrievedChunk], k: int) -> list[str]:
    """Keyphrases of the top evidence chunks the question does not already contain."""
    if not evidence:
        return []
    texts = [prose(c) for c in evidence]
    phrases = extract_keyphrases(
        texts[:PRF_CHUNKS], collection=texts, k=k + 4, exclude_stems=[stem(w) for w in question_terms(question)]
    )
    return [p.text for p in phrases if not has_injection_word(p.text)][:k]


def synonyms_for(question: str) -> list[str]:
    out: list[str] = []
    for word in question_terms(question):
        for synonym in SYNONYMS.get(stem(word), ()):
            if synonym not in out and synonym not in question.lower():
                out.append(synonym)
    return out


def next_queries(question: str, evidence: Sequence[RetrievedChunk], tried: Sequence[str]) -> list[str]:
    """Two new queries: pseudo-relevance feedback and a reformulation without question words.

    Fallbacks (synonym expansion, bare content words) keep the list at two when the first
    candidates were already tried in an earlier round.
    """
    terms = question_terms(question)
    stripped = strip_question(question)
    prf = feedback_phrases(question, evidence, PRF_PHRASES)
    synonyms = synonyms_for(question)
    candidates = [
        " ".join(terms + prf),
        stripped,
        " ".join([stripped, *synonyms[:3]]),
        " ".join(terms + synonyms[3:6]),
        " ".join(terms),
    ]
    seen = {_key(q) for q in tried}
    out: list[str] = []
    for query in candidates:
        query = normalise_space(query)
        if not query or _key(query) in seen:
            continue
        seen.add(_key(query))
        out.append(query)
        if len(out) == MAX_NEXT_QUERIES:
            break
    return out


def _key(query: str) -> str:
    return " ".join(words(query))


def suggestions(question: str, evidence: Sequence[RetrievedChunk], tried: Sequence[str]) -> list[str]:
    """What a researcher could do about a gap: other terms, what the near misses discuss, what to add."""
    tried_words = {w for q in tried for w in words(q)}
    out: list[str] = []
    terms = [s for s in synonyms_for(question) if not set(words(s)) <= tried_words][:4]
    if terms:
        out.append("Try other terms: " + ", ".join(f"'{t}'" for t in terms) + ".")
    near = feedback_phrases(question, evidence, 3)
    if near:
        out.append(
            "The closest passages discuss "
            + ", ".join(f"'{p}'" for p in near)
            + " rather than this question; a narrower question on one of them may be answerable."
        )
    focus = strip_question(question)
    hint = next(
        (DOCUMENT_HINTS[stem(w)] for w in content_words(focus, QUESTION_WORDS) if stem(w) in DOCUMENT_HINTS),
        DEFAULT_DOCUMENT_HINT,
    )
    out.append(f"Add sources on {focus}, e.g. {hint}.")
    return out
