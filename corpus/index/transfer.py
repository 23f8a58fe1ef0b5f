"""Copying a library's index between engines: the embedded one and a Qdrant server, either way.

Points go over as stored (vectors and payload, same ids), so nothing is embedded again and copying
twice changes nothing. The registry stays in the data directory: after a copy, the same
``PRP_DATA_DIR`` with or without ``QDRANT_URL`` serves the same library.
"""

from __future__ import annotations

from collections.abc import Callable

from corpus.errors import PrpError
from corpus.index.backend import IndexBackend

BATCH = 256


def copy_index(source: IndexBackend, target: IndexBackend, progress: Callable[[int], None] | None = None) -> int:
    """Every point of ``source`` into ``target``, which must be empty (stale points of documents
    deleted since would otherwise come back in searches). Returns the number of points copied."""
    if not source.count():
        raise PrpError("the source index is empty: nothing to copy")
    if target.count():
        raise PrpError(
            f"the target index already holds {target.count()} points: copy into an empty one (another "
            "PRP_COLLECTION, or delete that collection first)"
        )
    copied, batch = 0, []
    for point in source.scroll(with_vectors=True):
        batch.append(point.as_point())
        if len(batch) == BATCH:
            target.upsert(batch)
            copied, batch = copied + len(batch), []
            if progress:
                progress(copied)
    target.upsert(batch)
    copied += len(batch)
    if progress:
        progress(copied)
    target.optimize()
    if target.count() != source.count():
        raise PrpError(f"the copy holds {target.count()} points, the source {source.count()}: run it again")
    return copied
