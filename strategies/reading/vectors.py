"""Dense vectors for the offline strategy: the project's ``Embedder`` behind a small text cache.

The embedder returns normalised vectors, so a dot product is the cosine. Research branches run in
parallel threads and often embed the same sentences (the contradiction pass re-reads every
finding's evidence), so vectors are cached by text under a lock. Caching cannot change results:
the model embeds a text the same way alone or in a batch.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from corpus.embeddings import Embedder

# Bounded so a long-running server does not grow without limit (384 floats = 1.5 KB each).
MAX_CACHED_TEXTS = 20_000


class Vectors:
    def __init__(self, embedder: Embedder):
        self.embedder = embedder
        self._passages: dict[str, np.ndarray] = {}
        self._queries: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    def passages(self, texts: Sequence[str]) -> np.ndarray:
        """One row per text (shape ``(len(texts), dim)``), embedded as passages."""
        if not texts:
            return np.zeros((0, self.embedder.dim), dtype=np.float32)
        unique = list(dict.fromkeys(texts))
        with self._lock:
            found = {t: self._passages[t] for t in unique if t in self._passages}
        missing = [t for t in unique if t not in found]
        if missing:
            vectors = np.asarray(self.embedder.embed_passages(missing), dtype=np.float32)
            fresh = dict(zip(missing, vectors, strict=True))
            found.update(fresh)
            with self._lock:
                if len(self._passages) + len(fresh) > MAX_CACHED_TEXTS:
                    self._passages.clear()
                self._passages.update(fresh)
        return np.stack([found[t] for t in texts])

    def query(self, text: str) -> np.ndarray:
        with self._lock:
            cached = self._queries.get(text)
        if cached is not None:
            return cached
        vector = np.asarray(self.embedder.embed_query(text), dtype=np.float32)
        with self._lock:
            if len(self._queries) >= MAX_CACHED_TEXTS:
                self._queries.clear()
            self._queries[text] = vector
        return vector


def cosine_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cosines between rows of ``a`` and rows of ``b`` (inputs are unit vectors)."""
    if len(a) == 0 or len(b) == 0:
        return np.zeros((len(a), len(b)), dtype=np.float32)
    return np.clip(a @ b.T, -1.0, 1.0)


class Meaning:
    """The judge's meaning comparisons (``strategies.reading.claim_checks.Meaning``) over ``Vectors``."""

    def __init__(self, vectors: Vectors):
        self.vectors = vectors

    def similarity(self, text: str, others: Sequence[str]) -> float:
        """The best cosine of ``text`` with any of ``others`` or with all of them read together."""
        candidates = list(dict.fromkeys([*others, " ".join(others)] if len(others) > 1 else others))
        if not candidates:
            return 0.0
        rows = self.vectors.passages([text, *candidates])
        return float(cosine_matrix(rows[:1], rows[1:]).max())
