"""The service's app (REST API and chat, as ``prp serve`` mounts them) served from the test process
on a free loopback port, for the UI tests."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import uvicorn

from corpus.library import Library
from strategies.offline.strategy import OfflineStrategy
from ui.core.local import LocalPortal
from ui.service.app import create_app


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def running_service(library: Library, token: str | None = None) -> Iterator[str]:
    """Serve the app over ``library`` (offline mode); yields its base URL, stops it afterwards."""
    with pytest.MonkeyPatch.context() as env:
        env.setenv("GRADIO_TEMP_DIR", str(library.settings.storage.data_dir / "gradio-cache"))
        app = create_app(LocalPortal(library, OfflineStrategy(library.embedder)), token)
        port = free_port()
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
        thread = threading.Thread(target=server.run, name="test-service", daemon=True)
        thread.start()
        deadline = time.monotonic() + 60
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test service did not start")
            time.sleep(0.05)
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            server.should_exit = True
            thread.join(30)


@contextmanager
def running_ui(library: Library) -> Iterator[str]:
    """The research chat's URL on a running service."""
    with running_service(library) as base:
        yield f"{base}/chat/"
