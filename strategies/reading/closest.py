"""The passages nearest to a question the library does not answer: shown to the researcher as
evidence, never as an answer.

A gap's report would otherwise say only what was searched; the sentences the research read that come
closest let the reader judge for themselves what the library holds. They are ranked as an answer's
sentences are (``extractive.analyse``, ``preference``), only those loosely about the question
(relevance above zero, as ``extractive.select`` asks of a first sentence), from different blocks where
the evidence has them. A sentence about its own document ("In Section 2 we …", ``about_its_document``)
is evidence of nothing and is left out, and so is a list's lead-in, which one sentence's quote would
cut from its items. Each is one citation marker quoting the sentence verbatim; the citation node
resolves it like any other, and one that does not resolve is never shown.
"""

from __future__ import annotations

from collections.abc import Sequence

from corpus.retrieval import RetrievedChunk
from research.evidence import CitationMarker
from strategies.reading.about_the_topic import about_its_document
from strategies.reading.extractive import Sentence, analyse, preference
from strategies.reading.text import normalise_space
from strategies.reading.tuning import TUNING
from strategies.reading.vectors import Vectors


def closest_passages(question: str, evidence: Sequence[RetrievedChunk], vectors: Vectors) -> list[CitationMarker]:
    """Up to TUNING.evidence.max_closest sentences of ``evidence`` nearest to ``question``, best first, each a marker."""
    if not evidence:
        return []
    scored = analyse(question, evidence, vectors).scored
    ranked = sorted(scored, key=lambda c: (-preference(c), c.sentence.chunk_index, c.sentence.order))
    candidates: list[Sentence] = []
    for item in ranked:
        text = normalise_space(item.sentence.text)
        # A list's lead-in ("... come from:") quoted without its items says nothing of its own.
        if (
            item.relevance > 0
            and not (item.sentence.items or text.endswith(":"))
            and not about_its_document(text)
            and text not in {normalise_space(c.text) for c in candidates}
        ):
            candidates.append(item.sentence)
    # Different places first: a block's second sentence only where no other block has one to show.
    firsts = [s for i, s in enumerate(candidates) if all(c.block_id != s.block_id for c in candidates[:i])]
    chosen = (firsts + [s for s in candidates if s not in firsts])[: TUNING.evidence.max_closest]
    chosen.sort(key=candidates.index)
    return [CitationMarker(block_id=s.block_id, quote=s.text) for s in chosen]
