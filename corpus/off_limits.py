"""Folders and files no ingest, sync or watch ever takes, and roots that no longer are the folder the
user gave. ``refusal`` is the one rule: every surface that ingests (the CLI, the REST API, MCP, through
``corpus.own_folders``), every sync and the watch (through ``moved``) ask it, for folders and files.

A folder walk (``corpus.ingest.discover``) takes everything readable under the folder it is given,
so the folder must be one that holds a person's documents: never the filesystem's root, nor a system
folder (``/etc``, ``/usr``, ``/proc`` ...: reading ``/proc`` races with processes coming and going),
nor a library's data directory (another library's uploads, exports and models are its own, not
documents). A walk of an allowed folder steps around any library data directory inside it. A file
named by itself is refused in the same places: ``/etc/passwd`` is no more a document than ``/etc``.

A remembered ingest root (``corpus.ingest_roots``) is stored resolved. When the same path now
resolves elsewhere (the folder moved away and a link put in its place, a link in its path swapped),
or it is now the very filesystem root or a system folder (a bind mount put over it), it is not the
folder the user gave: a sync leaves it, and every document from it, alone and says why; the watch
does not watch it. Walking it would add whatever the link reaches and remove the user's documents.
"""

from __future__ import annotations

import os
from pathlib import Path

#: Folders of the operating system: never a folder of documents, nor is anything inside them. The
#: filesystem's root is refused by itself only (everything is inside it).
SYSTEM = tuple(
    Path(p)
    for p in (
        "/bin",
        "/boot",
        "/dev",
        "/etc",
        "/lib",
        "/lib32",
        "/lib64",
        "/libx32",
        "/proc",
        "/run",
        "/sbin",
        "/sys",
        "/usr",
    )
)
#: Folders refused themselves (a walk would reach every user's or program's files) whose sub-folders
#: may hold documents (``/home/ana/papers``, ``/var/www/docs``, ``/srv/share``).
SHARED = tuple(Path(p) for p in ("/", "/home", "/root", "/var", "/srv", "/opt", "/mnt", "/media", "/tmp"))
#: Shared folders whose own files are refused too (those of ``/tmp`` or ``/home`` are not).
ADMINISTRATIVE = (Path("/"), Path("/root"))
#: A library's data directory holds its registry under this name (``config.StorageSettings``).
REGISTRY_NAME = "registry.sqlite"


def is_data_directory(folder: Path) -> bool:
    """Whether ``folder`` is a library's data directory (this one's or another's)."""
    return (folder / REGISTRY_NAME).is_file()


def refusal(path: Path) -> str | None:
    """Why ``path`` (resolved) may not be ingested, synced or watched, or None when it may: the one
    rule for every surface (the CLI, the REST API, MCP, a sync, the watch), for folders and for
    single files alike."""
    return _folder_refusal(path) if path.is_dir() else _file_refusal(path)


def _file_refusal(file: Path) -> str | None:
    """A single file is refused where its folder is: in a system folder (``/etc/passwd``,
    ``/proc/self/environ``, ``/dev/zero``) or a library's data directory. A shared folder is refused
    as a walk for all the other files it holds, so a file named in it (``/tmp/a.md``) is not, save
    in the filesystem's root and the administrator's home, whose files are a system's, not documents."""
    folder = file.parent
    if any(folder == s or folder.is_relative_to(s) for s in SYSTEM) or _same_as_any(folder, SYSTEM):
        return f"{file} is in a system folder, not a document"
    if folder in ADMINISTRATIVE or _same_as_any(folder, ADMINISTRATIVE):
        return f"{file} is in {folder}, which holds a system's files, not documents"
    return _library_refusal(file)


def _library_refusal(path: Path) -> str | None:
    for candidate in (path, *path.parents):
        if is_data_directory(candidate):
            return f"{path} is in a library's data directory ({candidate}), whose files are its own"
    return None


def _folder_refusal(folder: Path) -> str | None:
    if folder in SHARED or _same_as_any(folder, SHARED):
        what = "the filesystem's root" if folder == Path("/") or _same_as_any(folder, SHARED[:1]) else "a shared folder"
        return f"{folder} is {what}: a walk of it would reach every user's and program's files"
    if any(folder == s or folder.is_relative_to(s) for s in SYSTEM) or _same_as_any(folder, SYSTEM):
        return f"{folder} is a system folder, not a folder of documents"
    return _library_refusal(folder)


def moved(stored: Path) -> str | None:
    """Why a root stored (resolved) as ``stored`` is no longer the folder or file the user gave, or
    None while it is. A root that is not there at all is not moved: a sync calls it missing."""
    if not os.path.lexists(stored):
        return None
    now = stored.resolve()
    if now != stored:
        return f"now leads to {now} (a link or a mount put in its place), not the folder ingested: left alone"
    reason = refusal(stored)
    return f"{reason}: left alone" if reason else None


def _same_as_any(folder: Path, folders: tuple[Path, ...]) -> bool:
    """``folder`` is one of ``folders`` under another name (a bind mount of ``/`` over a root)."""
    for other in folders:
        try:
            if os.path.samefile(folder, other):
                return True
        except OSError:
            continue
    return False
