"""What kind of thing the evidence calls a name: "the Wren corpus" is data, "the EGL approach" a model.

A paper names its datasets, models, measures, tasks and tools with the same capitalised runs and
acronyms; the noun it writes right after a name (past a bracketed abbreviation: "Expected Gradient Length
(EGL) approach") says which kind the name is (``lexicon.entities.ARTEFACT_KINDS``). A short answer to
"which dataset" is then never a name its own documents only ever call an approach or a task.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from .lexicon.entities import ARTEFACT_KINDS

_KIND_OF_NOUN = {noun: kind for kind, nouns in ARTEFACT_KINDS.items() for noun in nouns}


def kind_of_noun(noun: str) -> str | None:
    """The artefact kind a noun names ("corpora" -> "data"), or None."""
    return _KIND_OF_NOUN.get(noun.lower())


class NameKinds:
    """The kinds the evidence's text calls each name (see the module docstring)."""

    def __init__(self, texts: Iterable[str]):
        self._text = "\n".join(texts)
        self.called = lru_cache(maxsize=None)(self._called)

    def _called(self, name: str) -> frozenset[str]:
        """The kinds of the nouns written right after ``name`` (or after its bracketed abbreviation)."""
        after = re.finditer(rf"(?<![\w-]){re.escape(name)}\)?(?:\s*\([^()\n]{{1,40}}\))?\s+([A-Za-z]+)", self._text)
        return frozenset(kind for m in after if (kind := kind_of_noun(m.group(1))) is not None)
