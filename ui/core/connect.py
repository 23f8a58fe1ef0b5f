"""How a command reaches the core: through the ``prp serve`` serving its data directory when one is
running and answers (it holds the library, and an embedded index allows one opener), otherwise by
opening the library in this process, with jobs that run in the foreground."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from config import Settings
from ui.core.portal import Portal
from ui.core.remote import RemotePortal

if TYPE_CHECKING:
    from ui.core.local import StatusCallback


@contextmanager
def open_portal(
    settings: Settings, on_status: StatusCallback | None = None, *, foreground: bool = True
) -> Iterator[Portal]:
    """``on_status(step, line)`` hears how the research strategy opens in this process (in local LLM
    mode, the model server starting); a service has its own open already. ``foreground=False``: jobs
    run on the portal's threads, as a service's do (a long-lived server such as ``prp mcp``, whose
    requests come and go on threads of their own)."""
    remote = RemotePortal.connect(settings)
    if remote is not None:
        with remote:
            yield remote
        return
    # Imported only now: a command a service answers (``prp ask`` beside ``prp serve``) loads neither
    # the index, the embedding model nor the research graph.
    from corpus.library import Library
    from ui.core.local import LocalPortal

    with Library(settings) as library, LocalPortal(library, foreground=foreground, on_status=on_status) as portal:
        yield portal
