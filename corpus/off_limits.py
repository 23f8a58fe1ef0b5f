"""Folders no ingest, sync or watch ever walks, and roots that no longer are the folder the user gave.

A folder walk (``corpus.ingest.discover``) takes everything readable under the folder it is given,
so the folder must be one that holds a person's documents: never the filesystem's root, nor a system
folder (``/etc``, ``/usr``, ``/proc`` ...: reading ``/proc`` races with processes coming and going),
nor a library's data directory (another library's uploads, exports and models are its own, not
documents). A walk of an allowed folder steps around any library data directory inside it.

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
#: A library's data directory holds its registry under this name (``config.StorageSettings``).
REGISTRY_NAME = "registry.sqlite"


def is_data_directory(folder: Path) -> bool:
    """Whether ``folder`` is a library's data directory (this one's or another's)."""
    return (folder / REGISTRY_NAME).is_file()


def refusal(folder: Path) -> str | None:
    """Why a walk may not start at ``folder`` (resolved), or None when it may."""
    if folder in SHARED or _same_as_any(folder, SHARED):
        what = "the filesystem's root" if folder == Path("/") or _same_as_any(folder, SHARED[:1]) else "a shared folder"
        return f"{folder} is {what}: a walk of it would reach every user's and program's files"
    if any(folder == s or folder.is_relative_to(s) for s in SYSTEM) or _same_as_any(folder, SYSTEM):
        return f"{folder} is a system folder, not a folder of documents"
    for candidate in (folder, *folder.parents):
        if is_data_directory(candidate):
            return f"{folder} is in a library's data directory ({candidate}), whose files are its own"
    return None


def moved(stored: Path) -> str | None:
    """Why a root stored (resolved) as ``stored`` is no longer the folder or file the user gave, or
    None while it is. A root that is not there at all is not moved: a sync calls it missing."""
    if not os.path.lexists(stored):
        return None
    now = stored.resolve()
    if now != stored:
        return f"now leads to {now} (a link or a mount put in its place), not the folder ingested: left alone"
    folder = stored if stored.is_dir() else stored.parent
    reason = refusal(folder)
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
