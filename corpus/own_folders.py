"""The library's own folders, which an ingest by path may never be given.

The data directory holds the library's uploads, exports, caches and index, and the models directory
the embedding models; ingesting either (or a folder whose walk would reach one) would make the
library's own files documents of it. A folder that holds one only as a hidden folder (the default
``.prp``) is fine: an ingest never walks into hidden folders (``corpus.ingest.discover``). Nor
may it be given a folder or a file that ``corpus.off_limits.refusal``, the one rule of every
surface, refuses: the filesystem's root, a system folder or a file in one, another library's data
directory or a file in it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from config import Settings
from corpus.errors import RefusedPathError
from corpus.ingest import hidden
from corpus.off_limits import refusal


def check_ingest_paths(paths: Sequence[Path], settings: Settings) -> None:
    """Raise ``RefusedPathError`` for the first path that is, is inside or would walk into the data
    or the models directory, or is a folder or file ``corpus.off_limits.refusal`` refuses."""
    protected = {
        "data directory": settings.storage.data_dir.resolve(),
        "models directory": settings.models_dir.resolve(),
    }
    for path in paths:
        resolved = Path(path).expanduser().resolve()
        for what, folder in protected.items():
            if resolved.is_relative_to(folder):
                where = "is" if resolved == folder else "is inside"
                raise RefusedPathError(
                    f"{path} {where} the library's {what} ({folder}), whose files are the library's own, "
                    "not documents to ingest"
                )
            if folder.is_relative_to(resolved) and resolved.is_dir() and not hidden(folder.relative_to(resolved)):
                raise RefusedPathError(
                    f"{path} holds the library's {what} ({folder}), whose files are the library's own: "
                    "ingest the folders beside it instead"
                )
        reason = refusal(resolved)
        if reason:
            raise RefusedPathError(f"{path} is refused: {reason}")
