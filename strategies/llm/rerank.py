"""LLM re-ranking: the model scores a sub-question's candidate sentences 0-10 in one call (ids in,
scores out, as PaperQA2 re-scores its evidence, batched), and the answer is written from the best.

Only the sentences worth something are listed (the rest score 0), so the reply stays a few dozen
tokens however many candidates there are: a small local model writes a few tokens a second.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

from corpus.retrieval import RetrievedChunk
from strategies.llm.evidence import Sentence
from strategies.reading.tuning import TUNING


class ScoreOutput(BaseModel):
    id: str
    score: float


class RerankOutput(BaseModel):
    # maxItems bounds the grammar's list without refusing a longer list from an unconstrained server.
    scores: list[ScoreOutput] = Field(default_factory=list, json_schema_extra={"maxItems": TUNING.llm.max_listed})


def reorder(candidates: Sequence[Sentence], out: RerankOutput) -> list[Sentence]:
    """The candidates the model scored above 0, best first (its order breaking ties, then the
    pre-ranking's); all of them in their pre-ranked order when it scored none."""
    position = {s.sid: i for i, s in enumerate(candidates)}
    scores: dict[str, float] = {}
    for item in out.scores:
        sid = item.id.strip()
        if sid in position and sid not in scores:
            scores[sid] = min(max(item.score, 0.0), 10.0)
    listed = [sid for sid, score in scores.items() if score > 0]
    if not listed:
        return list(candidates)
    order = {sid: i for i, sid in enumerate(listed)}
    listed.sort(key=lambda sid: (-scores[sid], order[sid], position[sid]))
    by_id = {s.sid: s for s in candidates}
    return [by_id[sid] for sid in listed]


def chunks_in_order(evidence: Sequence[RetrievedChunk], best_first: Sequence[Sentence]) -> list[RetrievedChunk]:
    """The evidence chunks re-ranked by their best sentence's place, re-numbered; chunks holding none
    of those sentences follow in their retrieval order."""
    place: dict[str, int] = {}
    for i, sentence in enumerate(best_first):
        place.setdefault(sentence.block_id, i)
    unranked = len(best_first)

    def best(chunk: RetrievedChunk) -> int:
        return min((place.get(b.block_id, unranked) for b in chunk.blocks), default=unranked)

    ordered = sorted(evidence, key=lambda c: (best(c), c.rank))
    return [c.model_copy(update={"rank": i}) for i, c in enumerate(ordered, start=1)]
