"""Which sentences a prompt holds: the best ones for the question and their neighbours, within a
token budget, instead of whole chunks.

Sentences are first ranked without the model (``prescore``): by cosine with the question when the
embedder is at hand, plus a share for the question's content words they hold (the words alone
without an embedder), the retrieval rank breaking ties. A question that names its document by title
("<title>: <question>", as retrieval's title scoping reads it) is ranked without the title: every
sentence of that document is near its title, so the title, not the question, decided the order (on
QASPER the gold sentence was among the best 5 of a paper's retrieved sentences for 7 of 29 questions
with the title, 21 without). The model's re-ranking (``strategies/llm/rerank.py``) then reorders the
best of them, and the prompt's budget is filled in that order.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from strategies.llm.evidence import EvidenceSheet, Sentence
from strategies.reading.text import content_stems, question_terms, stem
from strategies.reading.tuning import TUNING
from strategies.reading.vectors import Vectors, cosine_matrix
from tools.title_scope import TitleIndex

# What a prompt's size is counted in when no tokenizer is installed: OpenAI's tokenizers average
# about four characters of English a token.
CHARS_PER_TOKEN = 4
_CL100K = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"


def _cached_vocabulary() -> bool:
    """Whether tiktoken's cl100k vocabulary is already on disk (where tiktoken caches it): tiktoken
    downloads a missing one, and prp makes no network call the user did not configure."""
    folder = os.environ.get("TIKTOKEN_CACHE_DIR") or os.environ.get("DATA_GYM_CACHE_DIR")
    folder = folder or os.path.join(tempfile.gettempdir(), "data-gym-cache")
    return (Path(folder) / hashlib.sha1(_CL100K.encode()).hexdigest()).is_file()


@lru_cache(maxsize=1)
def _encoding():
    if not _cached_vocabulary():
        return None
    try:
        import tiktoken  # langchain-openai's dependency: exact for OpenAI's models, close for others

        return tiktoken.get_encoding("cl100k_base")
    except (ImportError, ValueError, OSError):
        return None


def tokenizer_name() -> str:
    return "tiktoken cl100k_base" if _encoding() is not None else f"estimate (characters / {CHARS_PER_TOKEN})"


def count_tokens(text: str) -> int:
    encoding = _encoding()
    return len(encoding.encode(text)) if encoding is not None else -(-len(text) // CHARS_PER_TOKEN)


def prescore(question: str, sentences: Sequence[Sentence], vectors: Vectors | None) -> list[float]:
    asked = without_titles(question, {s.title for s in sentences})
    texts = [s.text for s in sentences]
    words = term_shares(asked, texts)
    if vectors is None:
        return words
    return [c + TUNING.llm.term_weight * w for c, w in zip(relevance(asked, texts, vectors), words, strict=True)]


def without_titles(question: str, titles: set[str]) -> str:
    """The question without the titles of the documents it names ("<title>: <question>"), as
    retrieval's title scoping reads it; as asked when it names none."""
    scope = TitleIndex((t, t) for t in sorted(titles)).scope(question)
    return scope.query if scope else question


def term_shares(question: str, texts: Sequence[str]) -> list[float]:
    """The share of the question's content terms each text holds."""
    terms = {stem(t) for t in question_terms(question)}
    return [len(terms & set(content_stems(t))) / (len(terms) or 1) for t in texts]


def relevance(question: str, texts: Sequence[str], vectors: Vectors | None) -> list[float]:
    """Each text's MiniLM cosine with the question; without an embedder, the share of the question's
    terms it holds."""
    if not texts:
        return []
    if vectors is not None:
        cosines = cosine_matrix(vectors.query(question)[None, :], vectors.passages(list(texts)))
        return [float(c) for c in cosines[0]]
    return term_shares(question, texts)


def ranked(question: str, sheet: EvidenceSheet, vectors: Vectors | None) -> list[Sentence]:
    """The sheet's sentences, best first for the question."""
    scores = prescore(question, sheet.sentences, vectors)
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], sheet.sentences[i].rank, i))
    return [sheet.sentences[i] for i in order]


def within_budget(best_first: Sequence[Sentence], sheet: EvidenceSheet, budget: int) -> list[Sentence]:
    """Each sentence in turn with its neighbours (context a reader of the sentence needs; a table's row
    read under its columns' names needs none: the next rows are other things' values), while the budget
    (tokens of sentence text) lasts; in sheet order, so blocks read as they are written."""
    chosen: dict[str, Sentence] = {}
    used = 0
    for sentence in best_first:
        context = () if sentence.reading else sheet.neighbours(sentence)
        group = [s for s in (sentence, *context) if s.sid not in chosen]
        cost = sum(count_tokens(s.shown) + 4 for s in group)  # ~4 more for the id
        if not group:
            continue
        if used + cost > budget:
            if chosen:
                break
            group = [sentence]  # at least the best sentence, whatever its length
        chosen.update((s.sid, s) for s in group)
        used += cost
    position = {s.sid: i for i, s in enumerate(sheet.sentences)}
    return sorted(chosen.values(), key=lambda s: position[s.sid])
