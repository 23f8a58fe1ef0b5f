"""The research chat launched in the test process on a free loopback port, for the UI tests."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from corpus.library import Library
from strategies.offline.strategy import OfflineStrategy


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def running_ui(library: Library) -> Iterator[str]:
    """Serve the chat over ``library`` (offline mode); yields its URL, closes it afterwards."""
    from ui.app import serve

    with pytest.MonkeyPatch.context() as env:
        env.setenv("GRADIO_TEMP_DIR", str(library.settings.data_dir / "gradio-cache"))
        app = serve(library, OfflineStrategy(library.embedder), "127.0.0.1", free_port(), block=False)
        try:
            yield app.local_url
        finally:
            app.close()
