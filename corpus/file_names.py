"""File names the operating system gives as bytes that are not UTF-8 (``caf\\xe9.md`` written by a
Latin-1 system, a name copied from an old archive).

Python hands such a name over with its odd bytes as lone surrogates (``caf\\udce9.md``), which
nothing that writes UTF-8 can take: the registry's database, a terminal, a JSON reply, the watch's
notifications. So a walk names such a file, in a form any of them can show (each odd byte replaced
by U+FFFD), and leaves it out with the reason, rather than let one name stop the whole ingest.
"""

from __future__ import annotations

import os
from pathlib import Path

NOT_UTF8 = "its name is not UTF-8 (the bytes shown as \ufffd): not ingested, rename the file to ingest it"


def is_utf8(path: Path | str) -> bool:
    """Whether ``path`` can be written as UTF-8 (it holds no byte the file system gave undecoded)."""
    try:
        str(path).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def shown(path: Path | str) -> str:
    """``path`` as text anything can show: each byte that is not UTF-8 replaced by U+FFFD."""
    return os.fsencode(path).decode("utf-8", errors="replace")
