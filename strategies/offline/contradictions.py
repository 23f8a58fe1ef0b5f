"""Contradictions between documents, found without a model: numbers, dates and negations.

Every evidence sentence of every finding is a candidate (not only the chosen claims: a disagreement
often sits in a sentence no answer quoted). Two sentences from *different* documents disagree when

- they are about the same subject: enough shared content stems, and a dense cosine above a
  threshold (for numbers, the words around the two figures must also overlap, so "membrane
  temperature 30 °C lower" is not compared with "air temperature 2 °C lower" on the strength of
  "temperature" alone), and neither names another thing than the other or than the question asks
  about ("2 °C on the Eastfield estate" / "0.3 °C on the Northgate estate"; "in 2019" / "in 2023":
  see ``subjects``), and
- their figures conflict: same unit, intervals (after allowing for hedges and ranges) that do not
  overlap and are at least ``TUNING.judge.min_conflict_ratio`` apart ("50 to 60 percent" and "57%" agree;
  "about 2 °C" and "about 0.3 °C" do not); or they give different years for the same thing; or one
  negates what the other asserts ("do not reduce" vs "reduce"): the same subject and predicate with
  opposite polarity, as the judge reads them (``_opposed``).

Each side is a ``Claim`` quoting its sentence verbatim from its block. Pairs are deduplicated (one
per pair of documents and subject), ordered by strength with deterministic tie-breaks, and capped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from corpus.retrieval import RetrievedChunk
from research.evidence import CitationMarker, Claim, Contradiction, Finding, FindingStatus
from strategies.reading.answerhood import missing_name
from strategies.reading.document_answers import names_what_is_asked
from strategies.reading.extractive import Sentence, analyse, evidence_sentences
from strategies.reading.judge import judge
from strategies.reading.keyphrases import phrase_candidates
from strategies.reading.lexicon.modality import NORMATIVE
from strategies.reading.negations import negated_terms
from strategies.reading.numbers import Quantity, conflict_ratio, quantities, years
from strategies.reading.subjects import different, subject_of
from strategies.reading.text import content_stems, lemmas, matched, normalise_space, stems_match
from strategies.reading.tuning import TUNING
from strategies.reading.vectors import Vectors, cosine_matrix

KIND_PRIORITY = {"numeric": 0, "date": 1, "negation": 2}


@dataclass(frozen=True)
class _Candidate:
    kind: str
    a: Sentence
    b: Sentence
    score: float
    subject: str
    value_a: str
    value_b: str


def _labels(findings: Sequence[Finding]) -> dict[str, str]:
    labels: dict[str, str] = {}
    for finding in findings:
        for chunk in finding.evidence:
            labels.setdefault(chunk.doc_id, _label(chunk))
    return labels


def _label(chunk: RetrievedChunk) -> str:
    title = normalise_space(chunk.title) or chunk.doc_id
    short = re.split(r"(?<=[?!])\s|:\s|\s[-–—]\s", title, maxsplit=1)[0]
    if len(short) > TUNING.disputes.max_label_chars:
        short = short[: TUNING.disputes.max_label_chars].rsplit(" ", 1)[0] + "…"
    return f"{short} ({chunk.year})" if chunk.year else short


_CLAUSE_BREAK = re.compile(r"[,;:()\[\]]|\s[-–—]\s|\b(?:whereas|while|but|which)\b")


@dataclass(frozen=True)
class _Around:
    near: frozenset[str]
    head: frozenset[str]


def _around(sentence: str, start: int, end: int, common: frozenset[str]) -> _Around:
    """Stems next to a figure, within its clause, without the evidence's common stems."""
    breaks_before = [m.end() for m in _CLAUSE_BREAK.finditer(sentence, 0, start)]
    clause_start = breaks_before[-1] if breaks_before else 0
    after_break = _CLAUSE_BREAK.search(sentence, end)
    clause_end = after_break.start() if after_break else len(sentence)
    before = [s for s in content_stems(sentence[clause_start:start]) if s not in common]
    after = [s for s in content_stems(sentence[end:clause_end]) if s not in common]
    near = set(before[-TUNING.disputes.near_before :]) | set(after[: TUNING.disputes.near_after])
    head = set(before[-TUNING.disputes.head_before :]) | set(after[: TUNING.disputes.head_after])
    return _Around(frozenset(near), frozenset(head))


def _comparable(x: _Around, y: _Around) -> int:
    """Shared head stems when the two figures measure the same thing, else 0."""
    shared = _shared(x.head, y.head)
    if shared < TUNING.disputes.min_shared_context or not (_shared(x.near, y.head) or _shared(y.near, x.head)):
        return 0
    return shared


def _shared(a: frozenset[str] | set[str], b: frozenset[str] | set[str]) -> int:
    return sum(1 for s in a if matched(s, b))


def _subject(a: str, b: str, anchor_a: int | None = None) -> str:
    """The noun phrase of ``a`` (or ``b``) that shares most with the other sentence, near the figure."""
    best: tuple[tuple[int, int, int], str] | None = None
    for text, other, anchor in ((a, b, anchor_a), (b, a, None)):
        other_stems = set(content_stems(other))
        for surface, stems in phrase_candidates(text):
            shared = sum(1 for s in stems if matched(s, other_stems))
            if shared == 0:
                continue
            position = text.lower().find(surface)
            distance = abs(position - anchor) if anchor is not None and position >= 0 else 10_000
            key = (shared, len(stems), -distance)
            if best is None or key > best[0]:
                best = (key, surface)
    return best[1] if best else "the same subject"


def _numeric(
    a: Sentence, b: Sentence, qa: list[Quantity], qb: list[Quantity], common: frozenset[str]
) -> tuple[float, Quantity, Quantity] | None:
    """The most comparable conflicting pair of figures of two sentences, with its context overlap."""
    best: tuple[float, Quantity, Quantity] | None = None
    best_key: tuple | None = None
    for x in qa:
        for y in qb:
            if x.unit != y.unit or conflict_ratio(x, y) < TUNING.judge.min_conflict_ratio:
                continue
            context = _comparable(_around(a.text, x.start, x.end, common), _around(b.text, y.start, y.end, common))
            if not context:
                continue
            key = (context, -x.start, -y.start)
            if best_key is None or key > best_key:
                best_key, best = key, (float(context), x, y)
    return best


def _denies(negated: frozenset[str], other_negated: frozenset[str], other_words: frozenset[str]) -> bool:
    """One sentence denies a word (``answerhood.negated_terms``) the other asserts without negation."""
    return any(
        any(stems_match(s, w) for w in other_words) and not any(stems_match(s, o) for o in other_negated)
        for s in negated
    )


def _opposed(a: str, b: str) -> bool:
    """A negation is a disagreement only between two statements of one subject and predicate with
    opposite polarity: the judge reads one sentence as contradicting the other, and neither names
    what the other does not ("with <plan> you can have therapy covered" and "<insurer> does not cover
    all therapy services" are about two things, and the second denies a sweep, not the cover)."""
    if missing_name(a, [b]) is not None or missing_name(b, [a]) is not None:
        return False
    return judge(a, [b]).contradicts or judge(b, [a]).contradicts


def _common_stems(sentences: list[Sentence]) -> frozenset[str]:
    df: dict[str, int] = {}
    for s in sentences:
        for st in s.stems:
            df[st] = df.get(st, 0) + 1
    limit = max(TUNING.disputes.min_common_df, TUNING.disputes.common_share * len(sentences))
    return frozenset(st for st, n in df.items() if n >= limit)


@dataclass(frozen=True)
class _Readings:
    """What each sentence says that a pair test needs, read once per sentence rather than per pair."""

    sentences: list[Sentence]
    common: frozenset[str]
    stems: list[frozenset[str]]
    quantities: list[list[Quantity]]
    normative: list[bool]
    years: list[list[tuple[int, int, int]]]
    single_year: list[bool]
    negated: list[frozenset[str]]
    said: list[frozenset[str]]


def _read(sentences: list[Sentence]) -> _Readings:
    common = _common_stems(sentences)
    ys = [years(s.text) for s in sentences]
    return _Readings(
        sentences=sentences,
        common=common,
        stems=[s.stems - common for s in sentences],
        quantities=[quantities(s.text) for s in sentences],
        normative=[bool(NORMATIVE.search(s.text)) for s in sentences],
        years=ys,
        single_year=[len({y for y, _, _ in found_years}) == 1 for found_years in ys],
        negated=[negated_terms(s.text) for s in sentences],
        said=[lemmas(s.text) for s in sentences],
    )


def _pairs(sentences: list[Sentence]) -> list[tuple[str, int, int, object]]:
    """Lexically plausible pairs (kind, i, j, detail) from different documents, before any embedding."""
    readings = _read(sentences)
    found: list[tuple[str, int, int, object]] = []
    for i in range(len(sentences)):
        for j in range(i + 1, len(sentences)):
            pair = _pair(readings, i, j)
            if pair is not None:
                found.append(pair)
    return found


def _pair(r: _Readings, i: int, j: int) -> tuple[str, int, int, object] | None:
    """The first kind of clash (numeric, date, negation) sentences i and j may have, with its detail."""
    numeric, date, negation = _possible_kinds(r, i, j)
    if r.sentences[i].doc_id == r.sentences[j].doc_id or not (numeric or date or negation):
        return None
    shared = _shared_content(r, i, j)
    if shared < TUNING.disputes.min_shared_stems:
        return None
    # A rule and a measurement: their figures cannot conflict.
    if r.normative[i] == r.normative[j]:
        clash = _figure_clash(r, i, j, numeric, date)
        if clash is not None:
            return clash
    if negation and shared >= TUNING.disputes.negation_shared_stems and _negation_clash(r, i, j):
        return ("negation", i, j, None)
    return None


def _possible_kinds(r: _Readings, i: int, j: int) -> tuple[bool, bool, bool]:
    """Whether the two sentences could clash on a figure, on a year (one each, different), or on a negation."""
    numeric = bool(r.quantities[i] and r.quantities[j])
    date = r.single_year[i] and r.single_year[j] and r.years[i][0][0] != r.years[j][0][0]
    negation = bool(r.negated[i] or r.negated[j])
    return numeric, date, negation


def _figure_clash(r: _Readings, i: int, j: int, numeric: bool, date: bool) -> tuple[str, int, int, object] | None:
    """A numeric clash, else a date clash, between two sentences of the same mood."""
    if numeric:
        hit = _numeric(r.sentences[i], r.sentences[j], r.quantities[i], r.quantities[j], r.common)
        if hit is not None:
            return ("numeric", i, j, hit)
    if date and _years_comparable(r, i, j):
        return ("date", i, j, (r.years[i][0][0], r.years[j][0][0]))
    return None


def _shared_content(r: _Readings, i: int, j: int) -> int:
    """Shared content stems of sentences i and j, or 0 when even prefix matches cannot reach the minimum."""
    # Cheap exact-overlap bound first: prefix matches add at most TUNING.disputes.prefix_slack stems.
    if len(r.stems[i] & r.stems[j]) + TUNING.disputes.prefix_slack < TUNING.disputes.min_shared_stems:
        return 0
    return _shared(r.stems[i], r.stems[j])


def _years_comparable(r: _Readings, i: int, j: int) -> bool:
    """Whether the two sentences' years date the same thing (the words around them overlap)."""
    (_, sa, ea), (_, sb, eb) = r.years[i][0], r.years[j][0]
    around_a = _around(r.sentences[i].text, sa, ea, r.common)
    return bool(_comparable(around_a, _around(r.sentences[j].text, sb, eb, r.common)))


def _negation_clash(r: _Readings, i: int, j: int) -> bool:
    """One sentence denies a word the other asserts, and the judge reads them as opposed."""
    denied = _denies(r.negated[i], r.negated[j], r.said[j]) or _denies(r.negated[j], r.negated[i], r.said[i])
    return denied and _opposed(r.sentences[i].text, r.sentences[j].text)


def find_contradictions(findings: Sequence[Finding], vectors: Vectors) -> list[Contradiction]:
    chunks = [c for f in findings for c in f.evidence]
    sentences = evidence_sentences(chunks)
    if len({s.doc_id for s in sentences}) < 2:
        return []
    labels = _labels(findings)
    pairs = _asked_pairs(findings, sentences, vectors)
    if not pairs:
        return []
    candidates = _candidates(pairs, sentences, vectors)
    candidates.sort(key=lambda x: (KIND_PRIORITY[x.kind], -x.score, x.a.order, x.b.order))
    return [_to_model(c, labels) for c in _distinct(candidates)]


def _asked_pairs(
    findings: Sequence[Finding], sentences: list[Sentence], vectors: Vectors
) -> list[tuple[str, int, int, object]]:
    """The plausible pairs whose two sentences are relevant to a question and about the one thing it asks."""
    relevant = _relevant(findings, vectors)
    asked = [relevant.get((s.block_id, s.text)) for s in sentences]
    return [
        p
        for p in _pairs(sentences)
        if asked[p[1]] is not None and asked[p[2]] is not None and _same_thing(p, sentences, asked)
    ]


def _candidates(
    pairs: list[tuple[str, int, int, object]], sentences: list[Sentence], vectors: Vectors
) -> list[_Candidate]:
    """The pairs whose sentences are also close in meaning, embedding only the first TUNING.disputes.max_embedded involved."""
    involved = list(dict.fromkeys(k for _, i, j, _ in pairs for k in (i, j)))[: TUNING.disputes.max_embedded]
    position = {k: n for n, k in enumerate(involved)}
    matrix = vectors.passages([sentences[k].text for k in involved])
    cos = cosine_matrix(matrix, matrix)
    candidates: list[_Candidate] = []
    for kind, i, j, detail in pairs:
        if i not in position or j not in position:
            continue
        c = round(float(cos[position[i], position[j]]), 6)
        candidate = _candidate(kind, sentences[i], sentences[j], c, detail)
        if candidate is not None:
            candidates.append(candidate)
    return candidates


def _candidate(kind: str, a: Sentence, b: Sentence, c: float, detail: object) -> _Candidate | None:
    """The clash of one pair if its cosine ``c`` (plus, for figures, their context overlap) is strong enough."""
    if kind == "numeric":
        context, qa, qb = detail  # type: ignore[misc]
        strength = c + TUNING.disputes.context_weight * context
        if c >= TUNING.disputes.numeric_cosine and strength >= TUNING.disputes.min_numeric_strength:
            return _Candidate("numeric", a, b, strength, _subject(a.text, b.text, qa.start), qa.text, qb.text)
    elif kind == "date" and c >= TUNING.disputes.date_cosine:
        ya, yb = detail  # type: ignore[misc]
        return _Candidate("date", a, b, c, _subject(a.text, b.text), str(ya), str(yb))
    elif kind == "negation" and c >= TUNING.disputes.negation_cosine:
        return _Candidate("negation", a, b, c, _subject(a.text, b.text), "", "")
    return None


def _distinct(candidates: list[_Candidate]) -> list[_Candidate]:
    """The strongest candidates, in order, one per pair of documents and subject, up to TUNING.disputes.max_contradictions."""
    kept: list[_Candidate] = []
    for cand in candidates:
        if any(_same_disagreement(cand, k) for k in kept):
            continue
        kept.append(cand)
        if len(kept) == TUNING.disputes.max_contradictions:
            break
    return kept


def _relevant(findings: Sequence[Finding], vectors: Vectors) -> dict[tuple[str, str], str]:
    """The sentences at least TUNING.disputes.relevance_share as relevant to their finding's question as its best one,
    each with that question (the first, in plan order): a clash the question is not about ("2 °C"
    against "0.3 °C" of street cooling, in the evidence for "how many hot days were there") is not a
    disagreement on it. A gap (its evidence found not to answer it) takes part only when its best
    sentence names what the question names (``names_what_is_asked``): otherwise that sentence is far
    from the question and every sentence near it would pass the share ("30 °C lower" beneath a roof
    against "2 °C" of street cooling, for "Do insurers give lower premiums to green roofs?")."""
    keep: dict[tuple[str, str], str] = {}
    for finding in findings:
        question = finding.sub_question.question
        analysis = analyse(question, finding.evidence, vectors)
        scored = analysis.scored
        if finding.status is FindingStatus.GAP and not names_what_is_asked(analysis):
            continue
        if scored:
            floor = TUNING.disputes.relevance_share * scored[0].relevance
            for x in scored:
                if x.relevance >= floor:
                    keep.setdefault((x.sentence.block_id, x.sentence.text), question)
    return keep


def _same_thing(pair: tuple[str, int, int, object], sentences: list[Sentence], asked: list[str | None]) -> bool:
    """The two sentences of a clash are about one thing, and the one their question asks about: the
    clashing values aside, neither names another thing (``subjects``)."""
    kind, i, j, detail = pair
    if kind == "numeric":
        values = (detail[1].text, detail[2].text)  # type: ignore[index]
    elif kind == "date":
        values = (str(detail[0]), str(detail[1]))  # type: ignore[index]
    else:
        values = ("", "")
    a = subject_of(sentences[i].text, [values[0]], asked[i] or "")
    b = subject_of(sentences[j].text, [values[1]], asked[j] or "")
    return not (a.off_question or b.off_question or different(a, b))


def _same_disagreement(x: _Candidate, y: _Candidate) -> bool:
    if {x.a.doc_id, x.b.doc_id} != {y.a.doc_id, y.b.doc_id}:
        return False
    sx, sy = x.a.stems | x.b.stems, y.a.stems | y.b.stems
    return len(sx & sy) >= TUNING.disputes.same_subject_share * min(len(sx), len(sy))


def _side(s: Sentence) -> Claim:
    return Claim(text=normalise_space(s.text), citations=[CitationMarker(block_id=s.block_id, quote=s.text)])


def _to_model(c: _Candidate, labels: dict[str, str]) -> Contradiction:
    la, lb = labels.get(c.a.doc_id, c.a.doc_id), labels.get(c.b.doc_id, c.b.doc_id)
    if c.kind == "numeric":
        explanation = f"{la} reports {c.value_a}, {lb} reports {c.value_b} for {c.subject}."
    elif c.kind == "date":
        explanation = f"{la} gives {c.value_a}, {lb} gives {c.value_b} for {c.subject}."
    else:
        denied = _denies(negated_terms(c.b.text), negated_terms(c.a.text), lemmas(c.a.text))
        neg, pos = (lb, la) if denied else (la, lb)
        explanation = f"{pos} asserts what {neg} denies about {c.subject}."
    return Contradiction(subject=c.subject, kind=c.kind, explanation=explanation, side_a=_side(c.a), side_b=_side(c.b))
