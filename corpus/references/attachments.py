"""The file an entry brings: its ``file`` field read the way reference managers write it.

Zotero (and Better BibTeX, JabRef, Mendeley) write ``file = {Description:path:mime-type}``, several
separated by ``;``, with ``\\:``, ``\\;`` and ``\\\\`` escaping those characters in a path; a plain
``file = {/abs/path.pdf}`` is read as the path. A relative path is relative to the export's folder
(where Zotero's "export files" puts ``files/12/x.pdf``). The first attachment of a supported type is
the entry's document; an entry with none, or whose file is not there, is a problem to report.
"""

from __future__ import annotations

import stat
from pathlib import Path

from corpus.parsing import SUFFIX_TYPES
from corpus.references.entries import EntryProblem, ReferenceEntry


def attachment(entry: ReferenceEntry, folder: Path) -> Path | EntryProblem:
    """The resolved file ``entry`` attaches, relative paths taken from ``folder``."""
    paths = [_resolve(p, folder) for spec in entry.files for p in attached_paths(spec)]
    if not paths:
        return EntryProblem(key=entry.key, reason="no attached file (the entry has no file field)", failed=False)
    supported = [p for p in paths if p.suffix.lower() in SUFFIX_TYPES]
    if not supported:
        kinds = ", ".join(sorted(SUFFIX_TYPES))
        names = ", ".join(p.name for p in paths)
        return EntryProblem(
            key=entry.key, reason=f"no attached file of a supported type ({names}; supported: {kinds})", failed=False
        )
    found = next((p for p in supported if p.is_file()), None)
    if found is None:
        there = next((p for p in supported if p.exists()), None)
        if there is not None:  # a pipe, socket or device: reading it could block forever
            return EntryProblem(key=entry.key, reason=f"the attached file {there} is {not_regular(there)}: not read")
        return EntryProblem(key=entry.key, reason=f"the attached file {supported[0]} does not exist")
    return found.resolve()


def not_regular(path: Path) -> str:
    """What a path that exists but is no regular file is, as a user would name it."""
    mode = path.stat().st_mode
    kinds = (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a named pipe (FIFO)"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
    )
    return next((name for test, name in kinds if test(mode)), "not a regular file")


def attached_paths(spec: str) -> list[str]:
    """The paths a ``file`` field names, unescaped, in order."""
    paths = []
    for attachment_spec in _split(spec, ";"):
        parts = _split(attachment_spec, ":")
        if len(parts) >= 3:  # Description:path:mime-type (a path with a bare colon keeps it)
            path = ":".join(parts[1:-1])
        elif len(parts) == 2:  # path:mime-type, or a Windows drive letter "C:/..."
            path = attachment_spec if len(parts[0]) == 1 else parts[0]
        else:
            path = attachment_spec
        if path := _unescape(path).strip():
            paths.append(path)
    return paths


def file_spec(path: Path) -> str:
    """``path`` as a ``file`` field names it (escaped, so a colon or semicolon in it stays in it)."""
    return "".join("\\" + ch if ch in "\\:;" else ch for ch in str(path))


def _split(text: str, separator: str) -> list[str]:
    """``text`` cut at each ``separator`` not escaped by a backslash (escapes kept for ``_unescape``)."""
    parts, current, escaped = [], [], False
    for ch in text:
        if escaped:
            current.append(ch)
            escaped = False
        elif ch == "\\":
            current.append(ch)
            escaped = True
        elif ch == separator:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    return [p for p in parts if p.strip()]


def _unescape(text: str) -> str:
    out, escaped = [], False
    for ch in text:
        if escaped or ch != "\\":
            out.append(ch)
            escaped = False
        else:
            escaped = True
    return "".join(out)


def _resolve(path: str, folder: Path) -> Path:
    candidate = Path(path).expanduser()
    return candidate if candidate.is_absolute() else folder / candidate
