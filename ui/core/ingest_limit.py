"""How many files, folders and exports one ingest request may name (``PRP_INGEST_MAX_PATHS``), on the
surfaces that take paths from another program: ``POST /api/ingest`` and the MCP ``ingest`` tool.

Each named path is resolved and checked before the job starts: 200,000 of them held the service for
22.7 s and 100 MB before anything ran. A folder counts once, so a library of any size is one path.
"""

from __future__ import annotations

from ui.core.errors import InvalidValueError


def check_named_paths(count: int, limit: int) -> None:
    """``InvalidValueError`` (422 over the API) if ``count`` paths are more than ``limit``."""
    if count > limit:
        raise InvalidValueError(
            f"an ingest names at most {limit:,} files, folders and exports (PRP_INGEST_MAX_PATHS), not "
            f"{count:,}: name the folder that holds them instead (its files are all ingested)"
        )
