"""The grounded part of an eval's summary, for a set whose rows give gold evidence but no page gold
(docs-dev, QASPER, RAMDocs): verdicts on the answers shown (``evals.grounded_verdicts``) counted per
category, and the reliability table (confidence shown → share grounded-right), with their Markdown and
the one line ``prp eval`` prints. A set with page gold has its by-value table instead (``value_report``).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from evals.grounded_verdicts import GroundedVerdict, verdict_of
from evals.runner import ExampleResult
from evals.value_report import ReliabilityRow, part_of, reliability_markdown, reliability_table

DEFINITION = (
    "grounded-right: an answerable question, the answer's leading claim cites a block of gold evidence "
    "(of a correct document, where labelled), and it says what a reference answer says: the gold "
    "polarity of a yes/no, a short reference value for a typed question, else a word of the reference "
    "the question lacks"
)
"""What "right" means in this table, named in every output that shows it."""
HIGH = 0.8
"""The confidence from which an answer should be right (issue 46: at least 90% of them)."""
FIELDS = {
    GroundedVerdict.RIGHT: "right",
    GroundedVerdict.UNGROUNDED: "ungrounded",
    GroundedVerdict.UNLIKE: "unlike",
    GroundedVerdict.FALSE_ANSWER: "false_answer",
}


class GroundedCounts(BaseModel):
    """One category's (or the whole set's) answers shown and checked, by verdict."""

    answers: int = 0
    right: int = 0
    ungrounded: int = Field(default=0, description="The lead cites no gold evidence.")
    unlike: int = Field(default=0, description="The lead cites gold but says nothing a reference says.")
    false_answer: int = Field(default=0, description="Answers to unanswerable questions.")

    def add(self, verdict: GroundedVerdict) -> None:
        self.answers += 1
        field = FIELDS[verdict]
        setattr(self, field, getattr(self, field) + 1)


class GroundedSummary(BaseModel):
    definition: str = DEFINITION
    total: GroundedCounts
    by_category: dict[str, GroundedCounts]
    reliability: list[ReliabilityRow]
    unchecked: int = Field(default=0, description="Answers to answerable questions without gold evidence.")
    unconfident: int = Field(default=0, description="Answers checked but shown without a confidence.")


def grounded_summary(results: list[ExampleResult]) -> GroundedSummary | None:
    """The grounded summary of a run, or None when its rows give no gold evidence (or page gold)."""
    rows = [r for r in results if not r.example.expected.by_value]
    if not any(r.example.expected.evidence for r in rows):
        return None
    total, by_category = GroundedCounts(), {}
    shown: list[tuple[float, bool]] = []
    unchecked = unconfident = 0
    for r in rows:
        verdict = verdict_of(r.scores)
        if verdict is None:
            answered = not r.outputs.get("error") and not r.outputs.get("abstained", True)
            unchecked += int(answered and r.example.expected.answerable)
            continue
        total.add(verdict)
        by_category.setdefault(r.example.category, GroundedCounts()).add(verdict)
        confidence = r.outputs.get("confidence")
        if confidence is None:
            unconfident += 1
        else:
            shown.append((confidence, verdict is GroundedVerdict.RIGHT))
    return GroundedSummary(
        total=total,
        by_category=dict(sorted(by_category.items())),
        reliability=reliability_table(shown),
        unchecked=unchecked,
        unconfident=unconfident,
    )


def high_confidence(summary: dict) -> tuple[int, int]:
    """(right, answers) of the answers shown at confidence ``HIGH`` or more."""
    rows = [r for r in summary["reliability"] if r["low"] >= HIGH]
    return sum(r["right"] for r in rows), sum(r["answers"] for r in rows)


def grounded_line(summary: dict) -> str:
    """The figures in one line, as ``prp eval`` prints them after its table."""
    t = GroundedCounts.model_validate(summary["total"])
    high = part_of(*high_confidence(summary))
    return (
        f"grounded-right {part_of(t.right, t.answers)} answers shown (lead cites no gold {t.ungrounded}, "
        f"unlike the references {t.unlike}, answered unanswerable {t.false_answer}); at confidence ≥ {HIGH}: {high}"
    )


def grounded_markdown(summary: dict) -> list[str]:
    """The report's section: the definition, verdicts per category and the reliability table."""
    lines = [
        "## Grounded-right (gold evidence, no page gold)",
        "",
        f"An answer shown is {summary['definition']} (`evals/grounded_verdicts.py`). Answers to answerable "
        f"questions without gold evidence are not checked ({summary['unchecked']} here).",
        "",
        "| category | answers | grounded-right | lead cites no gold | unlike the references | answered unanswerable |",
        "|---|---|---|---|---|---|",
    ]
    rows = {**summary["by_category"], "all": summary["total"]}
    for name, values in rows.items():
        c = GroundedCounts.model_validate(values)
        lines.append(
            f"| {name} | {c.answers} | {part_of(c.right, c.answers)} | {c.ungrounded} | {c.unlike} | {c.false_answer} |"
        )
    return [*lines, "", *reliability_markdown(summary["reliability"], summary["unconfident"], "grounded-right")]
