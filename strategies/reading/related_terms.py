"""The words the evidence itself uses for what a question names: the library's own thesaurus.

A question put in other words than its documents' ("costs" where they write "price", "species" where
they write "wildlife") is searched again in theirs, and a gap names them as terms to try. Offline mode
has no thesaurus of English: the words of the evidence, set against the question's by the embedding
model, stand in for one, so what is suggested is always something the library says.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from corpus.retrieval import RetrievedChunk
from strategies.reading.tuning import TUNING

from .extractive import prose
from .lexicon.question_words import QUESTION_WORDS
from .text import content_words, question_terms, stem, strip_question
from .vectors import Vectors, cosine_matrix


def related_terms(question: str, evidence: Sequence[RetrievedChunk], vectors: Vectors, k: int) -> list[str]:
    """Up to ``k`` words of the evidence's statements that mean what one of the question's words the
    evidence lacks means, and share no stem with the question; most alike first (then alphabetically:
    the same evidence gives the same terms in any process). Only the missing words are translated: a
    word the documents use is theirs already, and a word embedding also puts kin near it ("blue" by
    "green"), which a query should not take on."""
    said = [w for chunk in evidence for w in content_words(prose(chunk))]
    held = {stem(w) for w in said}
    words = [w for w in content_words(strip_question(question), QUESTION_WORDS) if w.isalpha()]
    asked = [w for w in words if stem(w) not in held]
    if not asked or k <= 0:
        return []
    own = {stem(w) for w in [*words, *question_terms(question)]}
    counts = Counter(
        w for w in said if w.isalpha() and len(w) >= TUNING.evidence.related_min_letters and stem(w) not in own
    )
    candidates = sorted(counts, key=lambda w: (-counts[w], w))[: TUNING.evidence.related_candidates]
    return _most_alike(asked, candidates, vectors)[:k]


def _most_alike(asked: list[str], candidates: list[str], vectors: Vectors) -> list[str]:
    """The candidates at least TUNING.evidence.related_similarity alike to one of the ``asked`` words, most alike first."""
    if not candidates:
        return []
    similarity = cosine_matrix(vectors.passages(asked), vectors.passages(candidates)).max(axis=0)
    alike = sorted(
        (
            (round(float(s), 6), w)
            for s, w in zip(similarity, candidates, strict=True)
            if s >= TUNING.evidence.related_similarity
        ),
        key=lambda pair: (-pair[0], pair[1]),
    )
    return [w for _, w in alike]
