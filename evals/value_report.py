"""The by-value part of an eval's summary, for a set with page gold: verdicts counted per category,
the share of answered questions citing a gold page, and the reliability table (confidence shown →
share right), with their Markdown and the one line ``prp eval`` prints.

The reliability table counts every answer shown: a right one, a wrong one, and an answer to a question
the documents do not answer (not right). The confidence is the one the report shows with its answer.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable

from pydantic import BaseModel, Field, computed_field

from evals.runner import ExampleResult
from evals.value_verdicts import Verdict, verdict_of

BUCKET_EDGES = (0.0, 0.2, 0.4, 0.6, 0.8)
"""Lower edges of the confidence buckets; the last runs to 1.0 inclusive."""
ANSWERED = (Verdict.RIGHT, Verdict.WRONG, Verdict.FALSE_ANSWER)


class VerdictCounts(BaseModel):
    """One category's (or the whole set's) verdicts."""

    n: int = 0
    answerable: int = 0
    right: int = 0
    wrong: int = 0
    missed: int = 0
    unanswerable: int = 0
    abstained: int = 0
    false_answer: int = 0
    cited_gold_page: int = Field(default=0, description="Answered answerable questions citing a gold page.")
    cite_checked: int = Field(default=0, description="Answered answerable questions with gold pages to check.")

    def add(self, verdict: Verdict, cited: float | None) -> None:
        self.n += 1
        field = verdict.value.replace(" ", "_")
        setattr(self, field, getattr(self, field) + 1)
        if verdict in (Verdict.ABSTAINED, Verdict.FALSE_ANSWER):
            self.unanswerable += 1
        else:
            self.answerable += 1
        if cited is not None:
            self.cite_checked += 1
            self.cited_gold_page += int(cited)


class ReliabilityRow(BaseModel):
    low: float
    high: float
    answers: int
    right: int

    @computed_field
    @property
    def label(self) -> str:
        return f"{self.low:.1f}–{self.high:.1f}"

    @computed_field
    @property
    def share_right(self) -> float | None:
        return round(self.right / self.answers, 4) if self.answers else None


class ValueSummary(BaseModel):
    total: VerdictCounts
    by_category: dict[str, VerdictCounts]
    reliability: list[ReliabilityRow]
    unconfident: int = Field(default=0, description="Answers shown without a confidence (not in the table).")


def reliability_table(shown: Iterable[tuple[float, bool]]) -> list[ReliabilityRow]:
    """(confidence, right) of every answer shown → one row per confidence bucket."""
    highs = [*BUCKET_EDGES[1:], 1.0]
    counts: Counter[tuple[int, bool]] = Counter()
    for confidence, right in shown:
        bucket = max(0, bisect_right(BUCKET_EDGES, confidence) - 1)
        counts[(bucket, right)] += 1
    return [
        ReliabilityRow(low=low, high=high, answers=counts[(i, True)] + counts[(i, False)], right=counts[(i, True)])
        for i, (low, high) in enumerate(zip(BUCKET_EDGES, highs, strict=True))
    ]


def value_summary(results: list[ExampleResult]) -> ValueSummary | None:
    """The by-value summary of a run, or None when no example was scored by value."""
    total, by_category = VerdictCounts(), {}
    shown: list[tuple[float, bool]] = []
    unconfident = 0
    for r in results:
        verdict = verdict_of(r.scores)
        if verdict is None:
            continue
        cited = r.scores.get("gold_page_cited")
        total.add(verdict, cited)
        by_category.setdefault(r.example.category, VerdictCounts()).add(verdict, cited)
        if verdict in ANSWERED:
            confidence = r.outputs.get("confidence")
            if confidence is None:
                unconfident += 1
            else:
                shown.append((confidence, verdict is Verdict.RIGHT))
    if not total.n:
        return None
    return ValueSummary(
        total=total,
        by_category=dict(sorted(by_category.items())),
        reliability=reliability_table(shown),
        unconfident=unconfident,
    )


def part_of(part: int, whole: int) -> str:
    """ "3/4", or "–" when there is no whole to count against."""
    return f"{part}/{whole}" if whole else "–"


def value_line(summary: dict) -> str:
    """The figures in one line, as ``prp eval`` prints them after its table."""
    t = VerdictCounts.model_validate(summary["total"])
    line = f"by value: right {part_of(t.right, t.answerable)}, wrong {t.wrong}, missed {t.missed}"
    if t.unanswerable:
        line += f"; unanswerable abstained {part_of(t.abstained, t.unanswerable)}"
    return line + f"; cited a gold page {part_of(t.cited_gold_page, t.cite_checked)} answered"


def value_markdown(summary: dict) -> list[str]:
    """The report's section: verdicts per category and the reliability table."""
    lines = [
        "## Scored by value (page gold)",
        "",
        "Each answer's first sentence (or short answer) must hold a gold value, numbers compared by value "
        '(`evals/value_verdicts.py`); "cited a gold page" is over answered answerable questions.',
        "",
        "| category | n | right | wrong | missed | abstained (unanswerable) | cited a gold page |",
        "|---|---|---|---|---|---|---|",
    ]
    rows = {**summary["by_category"], "all": summary["total"]}
    for name, values in rows.items():
        c = VerdictCounts.model_validate(values)
        lines.append(
            f"| {name} | {c.n} | {part_of(c.right, c.answerable)} | {c.wrong} | {c.missed} | "
            f"{part_of(c.abstained, c.unanswerable)} | {part_of(c.cited_gold_page, c.cite_checked)} |"
        )
    return [*lines, "", *reliability_markdown(summary["reliability"], summary.get("unconfident", 0))]


def reliability_markdown(rows: list[dict], unconfident: int, right: str = "right") -> list[str]:
    """The reliability table in Markdown, ``right`` naming what counts as right."""
    lines = [
        f"Reliability: of the answers shown at each confidence, the share {right} (an answer to an unanswerable "
        "question is not right).",
        "",
        f"| confidence | answers | {right} | share {right} |",
        "|---|---|---|---|",
    ]
    for row in rows:
        share = f"{row['share_right']:.2f}" if row["share_right"] is not None else "–"
        lines.append(f"| {row['label']} | {row['answers']} | {row['right']} | {share} |")
    if unconfident:
        lines.append(f"\n{unconfident} answer(s) shown without a confidence are not in the table.")
    return [*lines, ""]
