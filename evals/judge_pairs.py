"""Labelled pairs for the judge of what a sentence states (``strategies.reading.judge``).

Built at run time from the shared dev sets (never copied into the repository), deterministically:

- **paraphrase** (states): a claim in people's own words and the sentences that hold it. QASPER
  free-form answers (annotators' paraphrases) with the sentences of their evidence paragraphs;
  docs-dev reference answers, sentence by sentence, with the sentences of their gold passages that
  share most of their words; RAMDocs answers of correct documents with the document's sentence
  holding the answer. A reference answer whose figures or names its evidence does not hold at all
  (drawn from a table or a section the annotators did not select) is left out: no text states it;
- **other** (does not state): the same claim against another sentence of the same document, chosen at
  random outside the evidence, and **nearest**: the other sentence sharing most of its words (the
  hardest; a paper restating its result in the abstract can make a few of these true);
- perturbations of a positive (do not state), judged against the positive's sentences: **figure**
  (a number changed), **entity** (a name, acronym or identifier swapped for another one of the same
  document that the cited sentences do not hold), **negation** (a "not" added), **sweep** (a hedge
  removed or a sweeping "all"/"always"/"in every case" added), **term** (a lower-case content word
  the sentences hold swapped for another content word of the document).

Each pair belongs to the tuning split or the held-back split by a hash of its question's id, so every
pair of a question falls on one side; the held-back split is never used to choose thresholds.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from corpus.chunking import split_sentences
from evals.datasets import FLOAT_EVIDENCE
from strategies.reading.claim_checks import content_stems, covered, names
from strategies.reading.lexicon.stoplists import GENERIC_WORDS
from strategies.reading.numbers import mentions
from strategies.reading.text import content_words, stem

# One question in HELD_BACK_EVERY falls in the held-back split.
HELD_BACK_EVERY = 3
SEED = 31
# A claim is judged on at most this many sentences of its evidence (those sharing most of its words),
# as a model cites the few sentences it drew from, not a whole section.
MAX_CITED = 3
# Claims shorter than this many content words say too little to perturb (a bare "Yes", "7").
MIN_CLAIM_WORDS = 2
# A claim of fewer words is an answer's bare phrase, not a statement one could negate or generalise.
MIN_STATEMENT_WORDS = 5
STATES, NOT_STATED = "states", "not stated"
KINDS = ("paraphrase", "other", "nearest", "figure", "entity", "negation", "sweep", "term")


@dataclass(frozen=True)
class Pair:
    id: str
    source: str  # qasper | docs-dev | ramdocs
    kind: str  # one of KINDS
    claim: str
    sentences: tuple[str, ...]
    question: str
    context: tuple[str, ...]  # the document's title and the evidence's section
    expected: str  # STATES | NOT_STATED
    held_back: bool

    @property
    def positive(self) -> bool:
        return self.expected == STATES


@dataclass(frozen=True)
class _Positive:
    """A claim and the sentences that state it, with the rest of its document."""

    id: str
    source: str
    claim: str
    sentences: tuple[str, ...]
    question: str
    context: tuple[str, ...]
    others: tuple[str, ...]  # the document's sentences outside the evidence


def held_back(question_id: str) -> bool:
    return int(hashlib.sha1(question_id.encode()).hexdigest(), 16) % HELD_BACK_EVERY == 0


def build(shared: Path) -> list[Pair]:
    """Every pair the dev sets under ``shared/data`` give (those that are missing are skipped)."""
    data = shared / "data"
    positives: list[_Positive] = []
    if (data / "qasper-dev" / "questions.json").exists():
        positives += _qasper(data / "qasper-dev")
    if (data / "docs-dev" / "questions.jsonl").exists():
        positives += _docs_dev(data / "docs-dev")
    if (data / "ramdocs-dev" / "ramdocs_dev.jsonl").exists():
        positives += _ramdocs(data / "ramdocs-dev" / "ramdocs_dev.jsonl")
    return [pair for p in positives for pair in _pairs(p)]


# --- positives --------------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _sentences(text: str) -> tuple[str, ...]:
    return tuple(s for s in (" ".join(s.split()) for s in split_sentences(text)) if len(s.split()) >= 3)


@lru_cache(maxsize=65536)
def _stems(text: str) -> frozenset[str]:
    return frozenset(content_stems(text))


def cited_for(claim: str, evidence: list[str], limit: int = MAX_CITED) -> tuple[str, ...]:
    """The evidence sentences a model would cite for the claim (document order, no repeats): those
    sharing most of its words, and those holding one of its figures or names."""
    evidence = list(dict.fromkeys(evidence))
    stems = content_stems(claim)
    scored = [(covered(stems, _stems(s)), i) for i, s in enumerate(evidence)]
    chosen = {i for score, i in sorted(scored, reverse=True)[:limit] if score > 0}
    marks = [n.lower() for n in names(claim)] + [m.text for m in mentions(claim)]
    holding = [i for i, s in enumerate(evidence) if any(mark in s.lower() for mark in marks)]
    chosen |= set(holding[: 2 * limit])
    return tuple(evidence[i] for i in sorted(chosen))


def _supported(claim: str, text: str) -> bool:
    """Whether a reference answer's figures and names are in its evidence at all (an annotator often
    answers from a table or another section the evidence does not include: such a pair is no positive)."""
    folded = text.lower()
    held = {m.value for m in mentions(text)}
    return all(m.value in held for m in mentions(claim)) and all(n.lower() in folded for n in _marked_names(claim))


def _marked_names(claim: str) -> list[str]:
    """The claim's names, but for a plain capitalised word opening a sentence ("Dataset of 3500 ...",
    "Create the ..."): whether that is a name is what the judge must decide, not the data's cleaning."""
    return [
        n
        for n in names(claim)
        if not (n.isalpha() and n[1:].islower() and re.search(rf"(?:^|[.!?:]\s+){re.escape(n)}\b", claim))
    ]


def _section_of(paper: str, paragraph: str) -> str:
    at = paper.find(paragraph[:200])
    heading = re.findall(r"^#+ (.+)$", paper[: max(at, 0)], re.M)
    return heading[-1].strip() if at >= 0 and heading else ""


def _qasper(directory: Path) -> Iterator[_Positive]:
    for row in json.loads((directory / "questions.json").read_text(encoding="utf-8")):
        path = directory / "papers" / f"{row['paper_id']}.txt"
        if not path.exists():
            continue
        paper = path.read_text(encoding="utf-8")
        for n, answer in enumerate(row["answers"]):
            positive = _qasper_positive(row, n, answer, paper)
            if positive is not None:
                yield positive


def _qasper_positive(row: dict, n: int, answer: dict, paper: str) -> _Positive | None:
    """A QASPER question's ``n``th answer as a pair, with the paper's other sentences; None for an
    answer that is no positive (unanswerable, without evidence, or not supported by it)."""
    claim = " ".join(answer["free_form_answer"].split())
    evidence = [e for e in answer["evidence"] if not e.startswith(FLOAT_EVIDENCE)]
    if answer["unanswerable"] or not claim or not evidence:
        return None
    sentences = [s for e in evidence for s in _sentences(e)]
    cited = cited_for(claim, sentences)
    background = " ".join([row["question"], row["paper_title"], *evidence])
    if not cited or claim.startswith(_CONTENT_MISSING) or not _supported(claim, background):
        return None
    inside = set(sentences)
    return _Positive(
        id=f"{row['question_id']}#{n}",
        source="qasper",
        claim=claim,
        sentences=cited,
        question=row["question"],
        context=(row["paper_title"], _section_of(paper, evidence[0])),
        others=tuple(s for s in _sentences(paper) if s not in inside and not s.startswith("#")),
    )


# QASPER's annotators mark an answer drawn from parts of the paper they did not select as evidence.
_CONTENT_MISSING = "Answer with content missing"


def _docs_dev(directory: Path) -> Iterator[_Positive]:
    gold = json.loads((directory / "gold_docs.json").read_text(encoding="utf-8"))
    for line in (directory / "questions.jsonl").read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        pages = [directory / "docs" / name for name in gold.get(row["question"], [])]
        page_text = "\n".join(p.read_text(encoding="utf-8") for p in pages if p.exists())
        evidence = [s for e in row["evidence"] for s in _sentences(e)]
        inside = set(evidence)
        others = tuple(s for s in _sentences(page_text) if s not in inside and not s.startswith("#"))
        title = next(iter(re.findall(r"^# (.+)$", page_text, re.M)), "")
        background = " ".join([row["question"], title, *row["evidence"]])
        for n, answer in enumerate(row["answers"]):
            for m, claim in enumerate(_sentences(answer)):
                cited = cited_for(claim, evidence)
                if cited and _supported(claim, background):
                    yield _Positive(
                        id=f"{row['id']}#{n}.{m}",
                        source="docs-dev",
                        claim=claim,
                        sentences=cited,
                        question=row["question"],
                        context=(title,),
                        others=others,
                    )


def _ramdocs(path: Path) -> Iterator[_Positive]:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        row = json.loads(line)
        for n, doc in enumerate(row["documents"]):
            answer = " ".join(doc.get("answer", "").split())
            if doc["type"] != "correct" or not answer:
                continue
            sentences = _sentences(doc["text"])
            holding = [s for s in sentences if answer.lower() in s.lower()]
            if not holding:
                continue
            yield _Positive(
                id=f"ramdocs-{number:03d}#{n}",
                source="ramdocs",
                claim=answer,
                sentences=(holding[0],),
                question=row["question"],
                context=(),
                others=tuple(s for s in sentences if s not in holding),
            )


# --- pairs and perturbations ------------------------------------------------------------------------


def _pairs(p: _Positive) -> Iterator[Pair]:
    question_id = p.id.split("#", 1)[0]
    rng = random.Random(f"{SEED}:{p.id}")
    back = held_back(question_id)

    def pair(kind: str, claim: str, sentences: tuple[str, ...], expected: str) -> Pair:
        return Pair(f"{p.id}:{kind}", p.source, kind, claim, sentences, p.question, p.context, expected, back)

    yield pair("paraphrase", p.claim, p.sentences, STATES)
    stems = content_stems(p.claim)
    others = [s for s in p.others if not _restates(p.claim, s)]
    if others:
        yield pair("other", p.claim, (rng.choice(others),), NOT_STATED)
        nearest = max(others, key=lambda s: (covered(stems, _stems(s)), s))
        yield pair("nearest", p.claim, (nearest,), NOT_STATED)
    if len(content_words(p.claim, GENERIC_WORDS)) < MIN_CLAIM_WORDS and not mentions(p.claim):
        return
    cited = " ".join(p.sentences)
    background = " ".join([p.question, *p.context])
    for kind, perturb in PERTURBATIONS.items():
        if kind in ("negation", "sweep") and len(p.claim.split()) < MIN_STATEMENT_WORDS:
            continue  # a bare answer ("Elia Kazan") is not negated or made sweeping
        changed = perturb(p.claim, cited, background, p.others, rng)
        if changed and changed != p.claim:
            yield pair(kind, changed, p.sentences, NOT_STATED)


def _restates(claim: str, sentence: str) -> bool:
    """A sentence outside the evidence that holds the claim's figures and most of its words (an abstract
    repeating a result) is not a negative."""
    if covered(content_stems(claim), _stems(sentence)) < 0.8:
        return False
    held = {m.value for m in mentions(sentence)}
    return all(m.value in held for m in mentions(claim))


def _figure(claim: str, cited: str, _background: str, _others: tuple[str, ...], rng: random.Random) -> str | None:
    """A number of the claim that the cited text holds, changed by a fifth to a half (or a small count
    by one to three), written as the claim writes it."""
    held = {m.value for m in mentions(cited)}
    numbers = [m for m in re.finditer(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.]*\d)", claim) if float(m.group()) in held]
    if not numbers:
        numbers = list(re.finditer(r"(?<![\w.])\d+(?:\.\d+)?", claim))
    if not numbers:
        return None
    m = rng.choice(numbers)
    text = m.group()
    value = float(text)
    if value.is_integer() and value < 20:
        new = value + rng.choice([1, 2, 3])
    else:
        new = value * rng.choice([0.5, 0.7, 1.3, 1.6])
    decimals = len(text.split(".")[1]) if "." in text else 0
    written = f"{new:.{decimals}f}"
    if written == text:
        written = f"{value + 1:.{decimals}f}"
    return claim[: m.start()] + written + claim[m.end() :]


def _entity(claim: str, cited: str, background: str, others: tuple[str, ...], rng: random.Random) -> str | None:
    """A name of the claim swapped for another name of the document that neither the cited text nor the
    question and title hold."""
    mine = [n for n in names(claim) if n.lower() in cited.lower() and len(n) > 1]
    if not mine:
        return None
    held = f"{cited} {background} {claim}".lower()
    pool = [n for n in _names_in(others) if n.lower() not in held]
    if not pool:
        return None
    old = rng.choice(mine)
    pool = [n for n in pool if old.lower() not in n.lower() and n.lower() not in old.lower()]
    if not pool:
        return None
    new = rng.choice(pool)
    return re.sub(rf"(?<!\w){re.escape(old)}(?!\w)", new, claim, count=1)


@lru_cache(maxsize=256)
def _names_in(sentences: tuple[str, ...]) -> list[str]:
    return sorted({n.strip(".,;:") for s in sentences for n in names(s) if len(n.strip(".,;:")) > 2})


@lru_cache(maxsize=256)
def _terms_in(sentences: tuple[str, ...]) -> list[str]:
    return sorted({w for s in sentences for w in content_words(s, GENERIC_WORDS) if len(w) >= 4 and w.isalpha()})


_AUXILIARY = re.compile(
    r"\b(is|are|was|were|can|could|will|would|should|must|may|might|has|have|had|does|do|did)\b(?! not\b)", re.I
)
_VERB_S = re.compile(r"\b([a-z]{3,}(?:es|s))\b")


def _negation(claim: str, *_: object) -> str | None:
    """A "not" after the claim's first auxiliary ("is" -> "is not"), or "It is not the case that ..."."""
    m = _AUXILIARY.search(claim)
    if m:
        return claim[: m.end()] + " not" + claim[m.end() :]
    return f"It is not the case that {claim[:1].lower()}{claim[1:]}"


_HEDGES = [
    (r"\bmay\b", "will always"),
    (r"\bmight\b", "will always"),
    (r"\bcan\b", "always"),
    (r"\bcould\b", "would always"),
    (r"\bsome\b", "all"),
    (r"\bseveral\b", "all"),
    (r"\bmost\b", "all"),
    (r"\bmany\b", "all"),
    (r"\boften\b", "always"),
    (r"\busually\b", "always"),
    (r"\btypically\b", "always"),
    (r"\bgenerally\b", "always"),
    (r"\bhelps? (?:to )?", "guarantees to "),
]


def _sweep(claim: str, *_: object) -> str | None:
    """A hedge made sweeping ("may" -> "will always", "some" -> "all"), else "in every case" added."""
    for pattern, sweeping in _HEDGES:
        m = re.search(pattern, claim, re.I)
        if m:
            return claim[: m.start()] + sweeping + claim[m.end() :]
    return claim.rstrip(" .") + ", in every case."


def _term(claim: str, cited: str, background: str, others: tuple[str, ...], rng: random.Random) -> str | None:
    """A lower-case content word of the claim that the cited text holds, swapped for a content word of
    the document that neither the cited text nor the question holds."""
    cited_stems = {stem(w) for w in content_words(cited, GENERIC_WORDS)}
    mine = [
        w
        for w in content_words(claim, GENERIC_WORDS)
        if len(w) >= 4 and w.isalpha() and stem(w) in cited_stems and re.search(rf"\b{w}\b", claim)
    ]
    if not mine:
        return None
    held = cited_stems | {stem(w) for w in content_words(f"{background} {claim}", GENERIC_WORDS)}
    pool = [w for w in _terms_in(others) if stem(w) not in held]
    if not pool:
        return None
    old = rng.choice(mine)
    new = rng.choice(pool)
    return re.sub(rf"\b{re.escape(old)}\b", new, claim, count=1)


PERTURBATIONS = {"figure": _figure, "entity": _entity, "negation": _negation, "sweep": _sweep, "term": _term}
