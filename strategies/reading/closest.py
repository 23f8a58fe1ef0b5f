"""The passages nearest to a question the library does not answer: shown to the researcher as
evidence, never as an answer.

A gap's report would otherwise say only what was searched; the sentences the research read that come
closest let the reader judge for themselves what the library holds. They are ranked as an answer's
sentences are (``extractive.analyse``, ``preference``), one per block so they show different places,
and only those loosely about the question (relevance above zero, as ``extractive.select`` asks of a
first sentence). A sentence about its own document ("In Section 2 we …", ``about_its_document``) is
evidence of nothing and is left out. Each is one citation marker quoting the sentence verbatim; the
citation node resolves it like any other, and one that does not resolve is never shown.
"""

from __future__ import annotations

from collections.abc import Sequence

from corpus.retrieval import RetrievedChunk
from research.evidence import CitationMarker
from strategies.reading.about_the_topic import about_its_document
from strategies.reading.extractive import analyse, preference
from strategies.reading.text import normalise_space
from strategies.reading.vectors import Vectors

# Enough to compare, few enough not to read as a list of answers.
MAX_CLOSEST = 3


def closest_passages(question: str, evidence: Sequence[RetrievedChunk], vectors: Vectors) -> list[CitationMarker]:
    """Up to MAX_CLOSEST sentences of ``evidence`` nearest to ``question``, best first, each a marker."""
    if not evidence:
        return []
    scored = analyse(question, evidence, vectors).scored
    ranked = sorted(scored, key=lambda c: (-preference(c), c.sentence.chunk_index, c.sentence.order))
    out: list[CitationMarker] = []
    blocks: set[str] = set()
    texts: set[str] = set()
    for item in ranked:
        sentence = item.sentence
        text = normalise_space(sentence.text)
        if item.relevance <= 0 or sentence.block_id in blocks or text in texts or about_its_document(text):
            continue
        blocks.add(sentence.block_id)
        texts.add(text)
        out.append(CitationMarker(block_id=sentence.block_id, quote=sentence.text))
        if len(out) == MAX_CLOSEST:
            break
    return out
