"""Eval collections: a dataset's documents ingested once into a data directory of their own.

A collection lives under ``$PRP_DATA_DIR/evals/<name>-<digest>``, where the digest is a hash of the
source directory's content (relative paths and file bytes), so an edited corpus gets a fresh
collection and an unchanged one is never re-ingested. The user's own library is never touched. With a
Qdrant server configured, the collection name carries the digest too, so eval collections never mix
with the user's collection on the server.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterable
from pathlib import Path

from tqdm import tqdm

from config import Settings
from corpus import parser_versions
from corpus.embeddings import Embedder
from corpus.ingest import FileResult, Outcome, discover, sha256_of
from corpus.library import Library
from corpus.models import DocType

READY_MARKER = "ingested.json"


def content_hash(paths: Iterable[Path]) -> str:
    """sha256 over every file under ``paths``: relative path and content, in sorted order."""
    digest = hashlib.sha256()
    for root in paths:
        root = Path(root).resolve()
        base = root if root.is_dir() else root.parent
        for path in discover([root]).files:
            digest.update(str(path.relative_to(base)).encode())
            digest.update(b"\0")
            digest.update(sha256_of(path).encode())
            digest.update(b"\n")
    return digest.hexdigest()


def eval_settings(settings: Settings, name: str, digest: str) -> Settings:
    """Settings for one eval collection; embedding models are shared with the user's data dir."""
    key = f"{name}-{digest[:12]}"
    # A server is shared with the user's data: the eval has a collection of its own there.
    index = {} if settings.index.uses_embedded_index else {"collection": f"prp_eval_{key.replace('-', '_')}"}
    return settings.updated(
        storage={"data_dir": settings.storage.data_dir / "evals" / key},
        embeddings={"models_path": settings.models_dir},
        index=index,
    )


def open_collection(
    settings: Settings, name: str, sources: list[Path], embedder: Embedder | None = None, quiet: bool = False
) -> Library:
    """The eval library for ``sources``, ingesting them first unless a previous run already did with
    today's parsers (a parser or chunker whose version went up parses them again: ``parser_versions``).

    Files that fail to load are reported by name (once, when ingested) and the rest is evaluated.
    """
    library = Library(eval_settings(settings, name, content_hash(sources)), embedder=embedder)
    marker = library.settings.storage.data_dir / READY_MARKER
    if marker.exists() and json.loads(marker.read_text()).get("parsers") == _parsers():
        return library
    files = discover(sources)
    with tqdm(total=len(files), unit="file", desc=f"ingest {name}", file=sys.stderr, disable=quiet or None) as bar:

        def progress(result: FileResult) -> None:
            bar.update(1)
            if result.outcome is Outcome.FAILED:
                bar.write(f"prp eval: {result.path}: {result.reason}", file=sys.stderr)

        summary = library.ingest(sources, progress)
    marker.write_text(
        json.dumps({"sources": [str(s) for s in sources], "parsers": _parsers(), **summary.as_dict()}, indent=1)
    )
    return library


def _parsers() -> dict[str, list[int]]:
    """Today's parser versions, by document type (loader, chunker)."""
    return {t.value: [parser_versions.current(t).loader, parser_versions.CHUNKER] for t in DocType}
