"""LangSmith evaluators: plain functions of the target's ``outputs`` and the example's
``reference_outputs`` (an ``Expected``), each returning ``{"results": [{"key", "score"}, ...]}``.

A metric that does not apply to an example (no gold evidence, no citations, an answerable question for
the abstention score) is left out rather than scored 0, so averages are over the examples it applies to.
A failed run (``outputs["error"]``) gets no scores; the report counts it as failed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel, Field

from evals.datasets import GoldPage
from evals.grounded_verdicts import Lead, lead_cites_gold
from evals.grounded_verdicts import score_keys as grounded_keys
from evals.grounded_verdicts import verdict as grounded_verdict
from evals.metrics import (
    UNANSWERABLE,
    best_over_references,
    first_hit_rank,
    hit_at,
    normalize,
    overlaps,
    precision_recall_f1,
    reciprocal_rank,
    token_f1,
    token_recall,
)
from evals.typed_values import fragment_reason
from evals.value_verdicts import ANSWERED_ANSWERABLE, cites_gold_page, score_keys
from evals.value_verdicts import score as value_score
from prompts.common import SYSTEM
from prompts.judge import JUDGE
from research.ai_address import for_model
from strategies.llm.structured import SchemaFormat, structured_call

HIT_KS = (1, 5, 10)


def _results(*pairs: tuple[str, float | None], comment: str | None = None) -> dict:
    return {"results": [{"key": k, "score": v, "comment": comment} for k, v in pairs if v is not None]}


def _failed(outputs: dict) -> bool:
    return not outputs or bool(outputs.get("error"))


def retrieval(outputs: dict, reference_outputs: dict) -> dict:
    """Gold-evidence hit@k and MRR of the retrieval probe; whether the graph's evidence held any gold."""
    golds = reference_outputs.get("evidence") or []
    if _failed(outputs) or not golds:
        return _results()
    rank = first_hit_rank([c["text"] for c in outputs["retrieved"]], golds)
    found = any(overlaps(c["text"], g) for c in outputs["evidence"] for g in golds)
    # The graph's own first chunk (re-ranked in LLM mode with re-ranking on), where the probe's is the search's.
    first = outputs["evidence"][:1]
    # In LLM mode: was a sentence of the gold evidence among those the model was shown?
    shown = outputs.get("cost", {}).get("shown") or []
    gold_shown = float(any(overlaps(s, g) for s in shown for g in golds)) if shown else None
    return _results(
        *((f"hit@{k}", hit_at(rank, k)) for k in HIT_KS),
        ("mrr", reciprocal_rank(rank)),
        ("evidence_found", float(found)),
        ("evidence_hit@1", float(any(overlaps(c["text"], g) for c in first for g in golds))),
        ("gold_shown", gold_shown),
        comment=f"first gold hit at rank {rank}" if rank else "no gold evidence in the probe's chunks",
    )


def citation_valid(citation: dict) -> bool:
    """The quote is found, after normalisation, in the stored text of the block(s) it resolved to."""
    stored = " ".join(b["text"] for b in citation["blocks"])
    return citation["in_store"] and bool(citation["blocks"]) and normalize(citation["quote"]) in normalize(stored)


def citation_validity(outputs: dict) -> dict:
    """Share of displayed citations whose quote is found in their resolved, stored block (must be 1.0)."""
    citations = [] if _failed(outputs) else outputs["citations"]
    if not citations:
        return _results()
    invalid = [c["number"] for c in citations if not citation_valid(c)]
    comment = f"invalid citations: {invalid}" if invalid else None
    return _results(("citation_validity", 1 - len(invalid) / len(citations)), comment=comment)


def citation_support(outputs: dict, reference_outputs: dict) -> dict:
    """Share of the cited blocks that overlap a gold evidence passage."""
    golds = reference_outputs.get("evidence") or []
    if _failed(outputs) or not golds or not outputs["citations"]:
        return _results()
    blocks = {b["block_id"]: b["text"] for c in outputs["citations"] for b in c["blocks"]}
    supported = sum(1 for text in blocks.values() if any(overlaps(text, g) for g in golds))
    return _results(("citation_support", supported / len(blocks)) if blocks else ("citation_support", None))


def answer(outputs: dict, reference_outputs: dict) -> dict:
    """QASPER's token F1 (best over reference answers), and how much of the best reference the answer holds."""
    references = reference_outputs.get("answers") or []
    if _failed(outputs) or not references:
        return _results()
    prediction = outputs["answer"]
    return _results(
        ("answer_f1", best_over_references(token_f1, prediction, references)),
        ("answer_recall", best_over_references(token_recall, prediction, references)),
    )


def abstention(outputs: dict, reference_outputs: dict) -> dict:
    """On unanswerable questions: did prp say the corpus does not answer? On answerable ones: did it answer?"""
    if _failed(outputs):
        return _results()
    abstained = bool(outputs["abstained"])
    if reference_outputs.get("answerable", True):
        return _results(("answered", float(not abstained)))
    return _results(("abstention", float(abstained)))


def by_value(inputs: dict, outputs: dict, reference_outputs: dict) -> dict:
    """On a set with page gold: the answer's verdict by value (``evals.value_verdicts``) as one-hot
    scores, and on an answered answerable question whether a citation lands on a gold page."""
    if _failed(outputs) or not reference_outputs.get("by_value"):
        return _results()
    example = inputs["example"]
    judged = value_score(
        question=example["question"],
        category=example["category"],
        answers=reference_outputs.get("answers") or [],
        answerable=reference_outputs.get("answerable", True),
        answer=outputs["answer"],
        abstained=bool(outputs["abstained"]),
    )
    pairs = list(score_keys(judged.verdict).items())
    gold = reference_outputs.get("gold_pages") or []
    if judged.verdict in ANSWERED_ANSWERABLE and gold:
        cited = [(c["file"], b["page"]) for c in outputs["citations"] for b in c["blocks"]]
        cited += [(c["file"], c["page"]) for c in outputs["citations"]]
        pages = [GoldPage.model_validate(g) for g in gold]
        pairs.append(("gold_page_cited", float(cites_gold_page(cited, pages))))
    return _results(*pairs, comment=f"{judged.verdict.value}: {judged.short}")


def grounded(inputs: dict, outputs: dict, reference_outputs: dict) -> dict:
    """On a set with gold evidence but no page gold: is the answer shown grounded-right
    (``evals.grounded_verdicts``)? Abstentions, and answers to answerable questions without gold
    evidence, are not checked."""
    golds = reference_outputs.get("evidence") or []
    answerable = reference_outputs.get("answerable", True)
    if _failed(outputs) or reference_outputs.get("by_value") or not outputs.get("lead") or (answerable and not golds):
        return _results()
    lead = Lead.model_validate(outputs["lead"])
    judged = grounded_verdict(
        question=inputs["example"]["question"],
        answers=reference_outputs.get("answers") or [],
        answerable=answerable,
        lead=lead,
        cites_gold=lead_cites_gold(lead, outputs["citations"], golds),
    )
    return _results(*grounded_keys(judged).items(), comment=f"{judged.value}: {_clip_lead(lead)}")


def _clip_lead(lead: Lead) -> str:
    text = f"{lead.answer}: {lead.text}" if lead.answer else lead.text
    return " ".join(text.split())[:200]


def short_answers(outputs: dict) -> dict:
    """Per example with short answers shown: the share that are fragments (``evals.typed_values``);
    ``fragment_rate`` pools them over the run."""
    shown = [] if _failed(outputs) else outputs.get("short_answers", [])
    if not shown:
        return _results()
    reasons = [fragment_reason(a["question"], a["answer"], a["sentence"]) for a in shown]
    fragments = [f"{a['answer']!r}: {r}" for a, r in zip(shown, reasons, strict=True) if r]
    return _results(
        ("fragments", sum(1 for r in reasons if r) / len(shown)),
        comment="; ".join(fragments) or None,
    )


def fragment_rate(outputs: list[dict], reference_outputs: list[dict]) -> dict:
    """Summary evaluator: fragments among all short answers shown in the run (0 when none is shown)."""
    shown = [a for o in outputs if not _failed(o) for a in o.get("short_answers", [])]
    fragments = sum(1 for a in shown if fragment_reason(a["question"], a["answer"], a["sentence"]))
    return _results(("fragment_rate", fragments / len(shown) if shown else 0.0), ("short_answers", float(len(shown))))


def _side_matches(side: dict, snippets: Sequence[str]) -> bool:
    return any(overlaps(side["block_text"], s) or overlaps(side["quote"], s) for s in snippets)


def sides_correct(disagreement: dict, reference_outputs: dict) -> bool:
    """The two sides are the right ones: the expected snippets, or a correct and a misinfo document."""
    a, b = disagreement["sides"]
    wanted = reference_outputs.get("conflict_sides") or []
    if wanted:
        one, two = wanted
        return (_side_matches(a, one) and _side_matches(b, two)) or (_side_matches(a, two) and _side_matches(b, one))
    return {a["label"], b["label"]} == {"correct", "misinfo"}


def states_wrong_answer(outputs: dict, reference_outputs: dict) -> bool:
    """The answer states a wrong answer as fact: the sides of a disagreement, in the disagreement section
    or in a section whose documents disagree, are presented as what each document says, not as fact."""
    text = f" {normalize(outputs.get('asserted', outputs['answer']))} "
    return any(f" {normalize(w)} " in text for w in reference_outputs.get("wrong_answers") or [] if normalize(w))


def contradiction(outputs: dict, reference_outputs: dict) -> dict:
    """Per example: was a disagreement shown; if one was expected, were its sides right and the
    misinformation kept out of the answer? Precision/recall/F1 come from ``contradiction_prf``."""
    expected = reference_outputs.get("conflict")
    if _failed(outputs) or expected is None:
        return _results()
    shown = outputs["disagreements"]
    pairs: list[tuple[str, float | None]] = [("conflict_flagged", float(bool(shown)))]
    if expected:
        pairs.append(("conflict_sides", float(any(sides_correct(d, reference_outputs) for d in shown))))
    if reference_outputs.get("wrong_answers"):
        pairs.append(("avoids_wrong_answer", float(not states_wrong_answer(outputs, reference_outputs))))
    return _results(*pairs)


def contradiction_outcome(outputs: dict, reference_outputs: dict) -> tuple[bool, bool, bool] | None:
    """(expected, flagged, fully right) for one example, or None when not scored."""
    expected = reference_outputs.get("conflict")
    if _failed(outputs) or expected is None:
        return None
    shown = outputs["disagreements"]
    right = (
        bool(expected)
        and any(sides_correct(d, reference_outputs) for d in shown)
        and not states_wrong_answer(outputs, reference_outputs)
    )
    return bool(expected), bool(shown), right


def contradiction_prf(outputs: list[dict], reference_outputs: list[dict]) -> dict:
    """Summary evaluator. ``conflict_*``: a flagged disagreement on a question whose sources disagree
    counts as found. ``conflict_strict_*``: only if its two sides are the right ones (a correct and a
    misinfo document, or the expected snippets) and the answer does not state the wrong answer."""
    outcomes = [o for o in map(contradiction_outcome, outputs, reference_outputs) if o is not None]
    if not outcomes:
        return _results()
    flagged_tp, strict_tp, false_pos, expected = _conflict_counts(outcomes)
    loose = precision_recall_f1(flagged_tp, false_pos, expected - flagged_tp)
    strict = precision_recall_f1(strict_tp, false_pos + flagged_tp - strict_tp, expected - strict_tp)
    return _results(
        *((f"conflict_{k}", v) for k, v in loose.items()),
        *((f"conflict_strict_{k}", v) for k, v in strict.items()),
    )


def _conflict_counts(outcomes: list[tuple[bool, bool, bool]]) -> tuple[int, int, int, int]:
    """From (expected, flagged, fully right) outcomes: the disagreements flagged where expected, those
    also fully right, those flagged where none was expected, and those expected."""
    flagged_tp = sum(1 for e, f, _ in outcomes if e and f)
    strict_tp = sum(1 for e, f, r in outcomes if e and f and r)
    false_pos = sum(1 for e, f, _ in outcomes if f and not e)
    expected = sum(1 for e, _, _ in outcomes if e)
    return flagged_tp, strict_tp, false_pos, expected


def cost(outputs: dict) -> dict:
    """Seconds per research run; in LLM mode also model calls and tokens."""
    if _failed(outputs):
        return _results()
    spent = outputs["cost"]
    pairs: list[tuple[str, float | None]] = [("latency_s", spent["seconds"])]
    if outputs.get("mode", "offline") != "offline":
        pairs += [
            ("llm_calls", spent["llm_calls"]),
            ("llm_tokens", spent["input_tokens"] + spent["output_tokens"]),
            ("llm_retries", spent.get("retries", 0)),
        ]
    return _results(*pairs)


EVALUATORS: list[Callable] = [
    retrieval,
    citation_validity,
    citation_support,
    answer,
    abstention,
    by_value,
    grounded,
    short_answers,
    contradiction,
    cost,
]
SUMMARY_EVALUATORS: list[Callable] = [contradiction_prf, fragment_rate]


# --- LLM-judged, only when an LLM is configured -----------------------------------------------------


class Verdict(BaseModel):
    groundedness: float = Field(ge=0.0, le=1.0)
    relevance: float = Field(ge=0.0, le=1.0)
    reason: str = ""


MAX_CITED_CHARS = 6000


def make_judge(llm: BaseChatModel, schema_format: SchemaFormat = "auto") -> Callable[[dict, dict], dict]:
    """An evaluator asking ``llm`` whether the answer is grounded in its citations and relevant."""

    def llm_judge(inputs: dict, outputs: dict) -> dict:
        if _failed(outputs):
            return _results()
        cited = "\n".join(
            f"[{b['block_id']}] {for_model(b['text'])}" for c in outputs["citations"] for b in c["blocks"]
        )
        cited = f"<evidence>\n{escape(cited[:MAX_CITED_CHARS], quote=False)}\n</evidence>"
        answer_text = (
            "The documents do not answer this question." if outputs["answer"] == UNANSWERABLE else outputs["answer"]
        )
        prompt = JUDGE.format(
            question=inputs["question"],
            answer=answer_text,
            cited=cited if outputs["citations"] else "(none)",
        )
        verdict = structured_call(
            llm, Verdict, [SystemMessage(content=SYSTEM), HumanMessage(content=prompt)], "judge", schema_format
        )
        return _results(
            ("groundedness", verdict.groundedness), ("relevance", verdict.relevance), comment=verdict.reason
        )

    return llm_judge
