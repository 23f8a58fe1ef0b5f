"""An oracle stand-in for a strong model: it answers from a dataset's reference answers.

For each question the graph asks (matched to the dataset's example by its wording), the oracle
answers with the reference answer in the annotators' own words, one claim a sentence, citing the
shown sentences that hold the gold evidence, and only those: when no gold sentence was shown to it,
it says the evidence is not sufficient (and proposes the question's terms as a search). It re-ranks
gold sentences first, as a strong model would. ``lie=True`` plays a model that is fluent and wrong:
each claim gets one word wrong (a figure changed where it has one, else a name swapped for another one
the evidence shows, else a content word swapped for another one of the evidence), and it adds a
sweeping claim ("..., in every case") cited to the same sentences.

Every claim it makes is logged (``Oracle.said``) with its kind (``correct``, ``figure``, ``entity``,
``term``, ``sweep``; ``none`` for an answer without claims) and whether a gold sentence was shown, so what the report made of it can be
counted (``benchmarks/oracle_model.py``). ``testing_support.oracle_server`` serves it over HTTP.
"""

from __future__ import annotations

import json
import random
import re
import threading
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from rapidfuzz import fuzz, utils

from corpus.chunking import split_sentences
from evals.datasets import DatasetKind, EvalDataset, EvalExample, load_dataset
from evals.judge_pairs import MAX_CITED, PERTURBATIONS
from evals.metrics import overlaps
from research.report import FinalReport
from strategies.llm.selection import count_tokens
from strategies.reading.claim_checks import content_stems, covered, names
from strategies.reading.numbers import mentions
from strategies.reading.text import question_terms
from testing_support.llm_fakes import sub_question_of
from testing_support.llm_scripts import sentences_in

# A report claim this similar (ratio, case and punctuation ignored) to one the oracle made is that claim:
# grounding may trim a copied label or a trailing period.
SAME_CLAIM = 90
ANSWERED = frozenset({"answered", "answered_after_retry", "disputed"})
# A sub-question this similar (token-set ratio) to an example's question is that example's.
SAME_QUESTION = 90
LIES = ("figure", "entity", "term")
# A table's row as the evidence shows it read under its header: "Table 2, BookSum: samples 405; …".
ROW_READING = re.compile(r"Table\b[^,:]{0,12}, [^:]+: \S")


@dataclass
class Said:
    question: str  # the example's prompt, as the graph asked it
    example_id: str
    kind: str  # correct | figure | entity | term | sweep
    claim: str
    sentence_ids: list[str]
    gold_shown: bool
    call: int  # the answer call it came from (a retry answers again: the report shows the last)


@dataclass
class Oracle:
    dataset: EvalDataset
    lie: bool = False
    said: list[Said] = field(default_factory=list)
    # Tokens of evidence the prompts showed, by question and step ("rerank", "answer"), retries included.
    evidence_tokens: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    # A table question's gold row in its answer prompts, by question: "as a row" (read under its
    # columns' names, ``ROW_READING``), "as a line" (its cells alone) or absent when never shown.
    table_rows: dict[str, str] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _calls: int = 0

    @classmethod
    def of(cls, spec: str, lie: bool = False, limit: int | None = None, sample_seed: int | None = None) -> Oracle:
        return cls(_with_free_form(load_dataset(spec, limit, sample_seed)), lie)

    def __call__(self, step: str, prompt: str) -> dict:
        """The script of an ``OpenAIStub`` (``testing_support.llm_fakes``)."""
        if step == "plan":
            asked = re.search(r"(?:Question|Research topic) \(from the researcher\): (.*)", prompt)
            question = asked.group(1).strip() if asked else ""
            return {"sub_questions": [{"question": question, "rationale": "The researcher's question."}]}
        if step in ("rerank", "answer"):
            self._count_evidence(step, prompt)
        if step == "rerank":
            return self._rerank(prompt)
        if step == "answer":
            return self._answer(prompt)
        if step == "contradictions":
            return {"contradictions": []}
        if step == "read":
            # No second reading: what the report shows of each claim is the judge's own verdict.
            return {"verdicts": []}
        if step == "summary":
            return {"title": "", "summary": []}
        raise ValueError(f"the oracle model does not answer this prompt: {prompt[:200]}")

    def example(self, question: str) -> EvalExample | None:
        folded = utils.default_process(question)
        best = max(
            self.dataset.examples,
            key=lambda e: fuzz.token_set_ratio(folded, e.prompt, processor=utils.default_process),
            default=None,
        )
        if best is None:
            return None
        similar = fuzz.token_set_ratio(folded, best.prompt, processor=utils.default_process) >= SAME_QUESTION
        return best if similar else None

    def _gold(self, example: EvalExample | None, prompt: str) -> dict[str, str]:
        shown = sentences_in(prompt)
        golds = example.expected.evidence if example else []
        return {sid: text for sid, text in shown.items() if any(overlaps(text, g) for g in golds)}

    def _count_evidence(self, step: str, prompt: str) -> None:
        asked = re.search(r"(?:for this sub-question|Sub-question): (.*)", prompt)
        example = self.example(asked.group(1).strip() if asked else "")
        shown = re.search(r"<evidence>(.*?)</evidence>", prompt, re.S)
        if example is not None and shown:
            with self._lock:
                self.evidence_tokens[example.prompt][step] += count_tokens(shown.group(1))

    def _rerank(self, prompt: str) -> dict:
        asked = re.search(r"for this sub-question: (.*)", prompt)
        gold = self._gold(self.example(asked.group(1).strip() if asked else ""), prompt)
        return {"scores": [{"id": sid, "score": 9.0} for sid in list(gold)[:8]]}

    def _answer(self, prompt: str) -> dict:
        question = sub_question_of(prompt)
        example = self.example(question)
        gold = self._gold(example, prompt)
        reference = _reference(example) if example else ""
        call = self._next_call()
        if example is not None and example.category == "table" and gold:
            self._note_row(example, gold)
        if not gold or not reference:
            if example is not None:
                self._log(example, question, "none", "", [], call, gold_shown=bool(gold))
            return {
                "claims": [],
                "sufficient": False,
                "confidence": 0.2,
                "next_queries": [" ".join(question_terms(question))],
            }
        shown = sentences_in(prompt)
        others = tuple(t for sid, t in shown.items() if sid not in gold)
        rng = random.Random(f"oracle:{example.id}")
        claims: list[dict] = []
        for sentence in split_sentences(reference):
            text = " ".join(sentence.split())
            ids = _citing(text, gold)
            kind = "correct"
            if self.lie:
                kind, text = _lie(text, " ".join(gold[i] for i in ids), question, others, rng)
            claims.append({"text": text, "sentence_ids": ids})
            self._log(example, question, kind, text, ids, call)
        if self.lie and claims:
            sweeping = PERTURBATIONS["sweep"](claims[0]["text"], "", "", (), rng)
            claims.append({"text": sweeping, "sentence_ids": claims[0]["sentence_ids"]})
            self._log(example, question, "sweep", sweeping, claims[0]["sentence_ids"], call)
        return {"claims": claims, "sufficient": True, "confidence": 0.95, "next_queries": []}

    def _note_row(self, example: EvalExample, gold: dict[str, str]) -> None:
        seen = "as a row" if any(ROW_READING.match(t) for t in gold.values()) else "as a line"
        with self._lock:
            if self.table_rows.get(example.prompt) != "as a row":
                self.table_rows[example.prompt] = seen

    def _next_call(self) -> int:
        with self._lock:
            self._calls += 1
            return self._calls

    def _log(
        self, example: EvalExample, question: str, kind: str, claim: str, ids: list[str], call: int, gold_shown=True
    ) -> None:
        with self._lock:
            self.said.append(Said(question, example.id, kind, claim, ids, gold_shown, call))


def _citing(claim: str, gold: dict[str, str]) -> list[str]:
    """The ids of the (at most MAX_CITED) gold sentences that together hold most of the claim, as a
    model cites the sentences it drew each part from: each next one the sentence holding most of the
    claim's figures, names and words the ones before it do not (document order kept)."""
    stems = content_stems(claim)
    marks = [n.lower() for n in names(claim)] + [m.text.lower() for m in mentions(claim)]

    def held(sid: str) -> set[str]:
        text = gold[sid].lower()
        found = set(content_stems(text))
        return {f"mark:{m}" for m in marks if m in text} | {s for s in stems if covered([s], found)}

    holding = {sid: held(sid) for sid in gold}
    chosen: list[str] = []
    covered_so_far: set[str] = set()
    while len(chosen) < MAX_CITED:
        # Figures and names count twice: a sentence holding the claim's figure is the one it draws on.
        gain = {
            sid: sum(2 if item.startswith("mark:") else 1 for item in items - covered_so_far)
            for sid, items in holding.items()
            if sid not in chosen
        }
        best = max(gain, key=lambda sid: gain[sid], default=None)
        if best is None or gain[best] == 0:
            break
        chosen.append(best)
        covered_so_far |= holding[best]
    order = list(gold)
    return sorted(chosen, key=order.index) or order[:1]


def shown_claims(report: FinalReport) -> list[dict]:
    """Every claim a report shows, with its status and its section's (as ``prp eval`` records them)."""
    return [
        {"text": c.text, "status": c.status.value, "section_status": s.status.value}
        for s in report.sections
        for c in s.claims
    ]


def fate(said: Said, claims: list[dict]) -> str:
    """What a report shows of a claim the oracle made: ``verified`` (cited, unflagged, in an answered
    section), ``flagged`` (unsupported, contradicted or unverified), ``not answered`` (in a section that is not
    answered) or ``not shown`` (replaced by the documents' sentences, or dropped)."""
    mine = utils.default_process(said.claim)
    ratios = [(fuzz.ratio(mine, utils.default_process(c["text"])), c) for c in claims]
    closest = max((r for r, _ in ratios), default=0)
    # The closest shown claim is this one: "…, in every case" is not the claim "…" shown beside it.
    shown = [c for r, c in ratios if r >= SAME_CLAIM and r == closest]
    if not shown:
        return "not shown"
    if any(c["status"] == "verified" and c["section_status"] in ANSWERED for c in shown):
        return "verified"
    if any(c["status"] in ("unsupported", "unverified", "contradicted") for c in shown):
        return "flagged"
    return "not answered"


def _lie(claim: str, cited: str, question: str, others: tuple[str, ...], rng: random.Random) -> tuple[str, str]:
    """The claim with one word made wrong: the first of LIES that applies; unchanged ("correct") if none."""
    for kind in LIES:
        changed = PERTURBATIONS[kind](claim, cited, question, others, rng)
        if changed and changed != claim:
            return kind, changed
    return "correct", claim


def _reference(example: EvalExample) -> str:
    """The reference answer in the annotators' words: a free-form answer where there is one."""
    free = example.metadata.get("free_form", "")
    answers = [a for a in example.expected.answers if a and a.lower() not in ("unanswerable", "yes", "no")]
    return free or next(iter(answers), "")


def _with_free_form(dataset: EvalDataset) -> EvalDataset:
    """QASPER examples with their first free-form answer (the loader keeps extractive spans first)."""
    if dataset.kind is not DatasetKind.QASPER:
        return dataset
    rows = json.loads(Path(dataset.source, "questions.json").read_text(encoding="utf-8"))
    free = {
        r["question_id"]: next((a["free_form_answer"] for a in r["answers"] if a["free_form_answer"]), "") for r in rows
    }
    examples = [
        e.model_copy(update={"metadata": {**e.metadata, "free_form": free.get(e.id, "")}}) for e in dataset.examples
    ]
    return dataset.model_copy(update={"examples": examples})
