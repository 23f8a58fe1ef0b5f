"""``OfflineStrategy``: the research strategy without a language model.

Offline mode is a real mode, not a stub: the same graph runs with deterministic planning
(templates + keyphrases), extractive answers (verbatim sentences, cited), a calibrated sufficiency
judgement, query reformulation, and numeric/date/negation contradiction checks. Same input, same
output: every ranking has a tie-break and nothing depends on set order or randomness.
"""

from __future__ import annotations

from corpus.embeddings import Embedder
from research.evidence import Claim, Contradiction, Finding, FindingStatus, SubQuestion
from research.strategy import Answer
from tools.hybrid_search import RetrievedChunk

from . import assessment
from .contradictions import find_contradictions
from .extractive import analyse, extractive_claims
from .planning import plan_questions
from .text import normalise_space
from .vectors import Vectors

MAX_SUMMARY_CLAIMS = 4
MAX_TITLE_CHARS = 120


class OfflineStrategy:
    mode = "offline"

    def __init__(self, embedder: Embedder):
        self.vectors = Vectors(embedder)

    def plan(self, topic: str, single_question: bool, scout: list[RetrievedChunk]) -> list[SubQuestion]:
        return plan_questions(topic, single_question, scout)

    def answer(self, sub_question: SubQuestion, evidence: list[RetrievedChunk], queries: list[str]) -> Answer:
        analysis = analyse(sub_question.question, evidence, self.vectors)
        claims = extractive_claims(analysis)
        conf = assessment.confidence(analysis) if claims else 0.0
        sufficient = assessment.sufficient(conf)
        tried = [*queries, sub_question.question]
        next_queries = [] if sufficient else assessment.next_queries(sub_question.question, evidence, tried)
        return Answer(claims=claims, confidence=conf, sufficient=sufficient, next_queries=next_queries)

    def suggest(self, finding: Finding) -> list[str]:
        return assessment.suggestions(finding.sub_question.question, finding.evidence, finding.queries)

    def contradictions(self, findings: list[Finding]) -> list[Contradiction]:
        return find_contradictions(findings, self.vectors)

    def summarize(
        self, topic: str, findings: list[Finding], contradictions: list[Contradiction]
    ) -> tuple[str, list[Claim]]:
        """The topic as title; the strongest (first-ranked) claim of each answered section.

        With more answered sections than MAX_SUMMARY_CLAIMS, the most confident sections win (ties:
        plan order); the claims keep plan order. A claim already in the summary is not repeated.
        """
        answered = [(i, f) for i, f in enumerate(findings) if f.status is not FindingStatus.GAP and f.claims]
        ranked = sorted(answered, key=lambda item: (-item[1].confidence, item[0]))
        chosen: list[tuple[int, Claim]] = []
        quotes: set[str] = set()
        for i, finding in ranked:
            for claim in finding.claims:
                key = normalise_space(claim.text).lower()
                if key not in quotes:
                    quotes.add(key)
                    chosen.append((i, claim))
                    break
            if len(chosen) == MAX_SUMMARY_CLAIMS:
                break
        chosen.sort(key=lambda item: item[0])
        return title_from_topic(topic), [c for _, c in chosen]


def title_from_topic(topic: str) -> str:
    title = normalise_space(topic).rstrip(".;,")
    if len(title) > MAX_TITLE_CHARS:
        title = title[:MAX_TITLE_CHARS].rsplit(" ", 1)[0] + "…"
    return title[:1].upper() + title[1:] if title else "Research report"
