"""Uploaded files (the research chat, ``PUT /api/uploads``): checked, renamed safely, stored under
the data directory.

Each file is judged on its own: a wrong type, an oversized or empty file is rejected with the
reason, and the rest are stored and ingested. Stored names keep only safe characters, so an upload
called ``../../x.pdf`` or ``C:\\evil\\x.pdf`` lands as ``x.pdf`` inside ``uploads/`` and nowhere
else; a different file with a name already taken gets ``-2``, ``-3``... The library indexes the
stored copies in place, so citations and page images keep working after the browser's temporary
upload is gone.

Content is stored once, whatever it is called: an upload whose bytes are already a document of the
library is not stored but answered with that document, and one whose bytes are already stored under
``uploads/`` (waiting for its ingest) is that stored file. So N uploads of one file under N names
leave one copy, not N copies of which the library indexes one.
"""

from __future__ import annotations

import re
import shutil
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath, PureWindowsPath

from config import Settings
from corpus.ingest import sha256_of
from corpus.parsing import SUFFIX_TYPES, doc_id_for
from corpus.registry import DocumentRecord, Registry

MAX_NAME_CHARS = 120
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True)
class StoredUpload:
    name: str  # as the user named it
    path: Path  # the stored copy, under ``settings.storage.uploads_dir``
    new: bool  # False when an identical file was already stored (under this name or another)


@dataclass(frozen=True)
class RejectedUpload:
    name: str
    reason: str
    duplicate_of: DocumentRecord | None = None  # not stored because the library holds the same bytes


def allowed_suffixes() -> list[str]:
    return sorted(SUFFIX_TYPES)


def sanitize_filename(name: str) -> str:
    """A safe basename: no directories, no leading dots, ASCII letters, digits, ``._-`` only."""
    base = PureWindowsPath(PurePosixPath(name).name).name  # strips both / and \ directories
    base = unicodedata.normalize("NFKD", base).encode("ascii", "ignore").decode()
    stem, dot, suffix = base.rpartition(".")
    if not dot:
        stem, suffix = base, ""
    stem = _UNSAFE.sub("_", stem).strip("._-") or "upload"
    suffix = _UNSAFE.sub("", suffix).lower()
    stem = stem[: MAX_NAME_CHARS - len(suffix) - 1]
    return f"{stem}.{suffix}" if suffix else stem


def check_upload(name: str, path: Path, max_bytes: int) -> str | None:
    """Why this upload cannot be accepted, or ``None``."""
    suffix = Path(sanitize_filename(name)).suffix
    if suffix not in SUFFIX_TYPES:
        return f"file type '{suffix or '(none)'}' is not supported (allowed: {', '.join(allowed_suffixes())})"
    try:
        size = path.stat().st_size
    except OSError as exc:
        return f"the upload could not be read ({exc.strerror or exc})"
    if size == 0:
        return "the file is empty"
    if size > max_bytes:
        return f"the file is {size / 1e6:.1f} MB, over the {max_bytes / 1e6:g} MB limit (PRP_UPLOAD_MAX_MB)"
    return None


def store_uploads(
    files: Iterable[tuple[str, Path]], settings: Settings, registry: Registry
) -> tuple[list[StoredUpload], list[RejectedUpload]]:
    """Copy each acceptable ``(original name, temporary path)`` into the uploads folder, unless
    ``registry`` already holds its content as a ready document (then it is rejected, naming it)."""
    folder = settings.storage.uploads_dir.resolve()
    folder.mkdir(parents=True, exist_ok=True)
    max_bytes = int(settings.limits.upload_max_mb * 1_000_000)
    stored: list[StoredUpload] = []
    rejected: list[RejectedUpload] = []
    for name, source in files:
        problem = check_upload(name, source, max_bytes)
        if problem:
            rejected.append(RejectedUpload(name, problem))
            continue
        sha = sha256_of(source)
        held = registry.document(doc_id_for(sha))
        if held is not None and held.status == "ready":
            reason = (
                f"same content as '{held.title}' (document {held.doc_id}), already in the library: not stored again"
            )
            rejected.append(RejectedUpload(name, reason, duplicate_of=held))
            continue
        existing = _stored_copy(folder, sha, source.stat().st_size)
        if existing is not None:
            stored.append(StoredUpload(name, existing, new=False))
            continue
        target = _free_name(folder, sanitize_filename(name))
        if not target.resolve().is_relative_to(folder):  # cannot happen after sanitising; never trust it
            rejected.append(RejectedUpload(name, "unsafe file name"))
            continue
        shutil.copyfile(source, target)
        stored.append(StoredUpload(name, target, new=True))
    return stored, rejected


def _stored_copy(folder: Path, sha: str, size: int) -> Path | None:
    """A file already stored with these bytes (only files of the same size are read)."""
    for path in sorted(folder.iterdir()):
        if path.is_file() and path.stat().st_size == size and sha256_of(path) == sha:
            return path
    return None


def _free_name(folder: Path, safe_name: str) -> Path:
    stem, suffix = Path(safe_name).stem, Path(safe_name).suffix
    candidate, n = folder / safe_name, 1
    while candidate.exists():
        n += 1
        candidate = folder / f"{stem}-{n}{suffix}"
    return candidate


def discard(upload: StoredUpload) -> None:
    """Remove a copy made by this upload (e.g. the file failed to parse), never an older one."""
    if upload.new:
        upload.path.unlink(missing_ok=True)
