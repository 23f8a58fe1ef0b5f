"""The ZIP container of a Word, PowerPoint or EPUB file, checked before any library reads it.

python-docx, python-pptx and ebooklib read every member of the package into memory, so a ZIP bomb
(members declaring gigabytes, packed a thousandfold) would be expanded whole. Python's ``zipfile``
never inflates a member past the size its header declares, so checking the declared sizes first
bounds what the libraries can be made to read.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

from corpus.errors import LoadError

MAX_MEMBERS = 20_000
# All members together (media included: the libraries load them too) and any one markup member.
MAX_UNPACKED_BYTES = 256 * 2**20
MAX_MARKUP_BYTES = 32 * 2**20
_MARKUP = re.compile(r"\.(?:xml|rels|xhtml|html?|opf|ncx)$", re.IGNORECASE)


def members(path: Path, kind: str) -> list[str]:
    """The names of the members of ``path``, a ``kind`` file ("Word"), once its sizes are checked.
    Raises ``LoadError`` naming what is wrong: not a ZIP package, or one that unpacks too large."""
    try:
        with zipfile.ZipFile(path) as package:
            infos = package.infolist()
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
        raise LoadError(_unreadable(path, kind, exc)) from None
    if len(infos) > MAX_MEMBERS:
        raise LoadError(f"{kind} package of {len(infos):,} parts, over the limit of {MAX_MEMBERS:,}")
    total = sum(info.file_size for info in infos)
    if total > MAX_UNPACKED_BYTES:
        raise LoadError(
            f"{kind} package unpacks to {total / 2**20:,.0f} MB, over the limit of "
            f"{MAX_UNPACKED_BYTES // 2**20} MB (a ZIP bomb?)"
        )
    for info in infos:
        if _MARKUP.search(info.filename) and info.file_size > MAX_MARKUP_BYTES:
            raise LoadError(
                f"{kind} part {info.filename} unpacks to {info.file_size / 2**20:,.0f} MB, over the limit of "
                f"{MAX_MARKUP_BYTES // 2**20} MB"
            )
    return [info.filename for info in infos]


def _unreadable(path: Path, kind: str, error: Exception) -> str:
    # Office saves a password-protected file in the old binary container (OLE), not as a ZIP package.
    try:
        with path.open("rb") as file:
            ole = file.read(4) == b"\xd0\xcf\x11\xe0"
    except OSError:
        ole = False
    if ole:
        return f"not a readable {kind} file: it is password-protected, or in the old binary format (.doc, .ppt)"
    return f"not a readable {kind} file: its ZIP package is damaged ({error})"
