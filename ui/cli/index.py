"""``prp index``: which engine holds the library's index, and copying it to or from a Qdrant server."""

from __future__ import annotations

import argparse
import sys

from tqdm import tqdm

from config import Settings
from corpus.errors import PrpError
from corpus.index import schema
from corpus.index.client import ClientIndex
from corpus.index.transfer import copy_index
from corpus.library import Library


def run(settings: Settings, args: argparse.Namespace) -> int:
    with Library(settings) as library:
        return index(library, args)


def index(library: Library, args: argparse.Namespace) -> int:
    settings = library.settings
    if args.index_command != "copy":
        chunks = library.registry.counts()["chunks"]
        points = library.store.count()
        state = "in step" if points == chunks else "differs: run prp ingest to finish an interrupted one"
        print(f"index: {settings.describe_store()}, collection {settings.index.collection}")
        print(f"points: {points}  registry chunks: {chunks}  ({state})")
        return 0
    url = args.to or args.source
    server = ClientIndex.remote(url, args.api_key or settings.index.qdrant_api_key, settings.index.collection)
    # The data directory's own index, opened as every command opens it (an old local-mode one moves first).
    embedded = Library(settings.updated(index={"qdrant_url": None}), embedder=library.embedder)
    try:
        if args.source and not server.exists():
            raise PrpError(f"{url} has no collection '{settings.index.collection}' to copy (PRP_COLLECTION names it)")
        server.ensure(schema.CollectionSchema(library.embedder.dim))  # or check the existing one's model
        source, target = (embedded.store.backend, server) if args.to else (server, embedded.store.backend)
        with tqdm(total=source.count(), unit="point", desc="prp: copying the index", file=sys.stderr) as bar:
            copied = copy_index(source, target, lambda n: bar.update(n - bar.n))
    finally:
        embedded.close()
        server.close()
    print(f"copied {copied} points {'to' if args.to else 'from'} {url}, collection {settings.index.collection}")
    if args.to:
        print(
            f"use it: export QDRANT_URL={url} PRP_DATA_DIR={settings.storage.data_dir} (the registry stays in the data dir)"
        )
    else:
        print(f"use it: unset QDRANT_URL, keep PRP_DATA_DIR={settings.storage.data_dir}")
    return 0
