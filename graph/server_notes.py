"""LangGraph's server notes for developers, kept out of the user's console.

At start-up the server says that prp's checkpointer has no ``aprune``, ``adelete_for_runs`` or
``acopy_thread`` (history pruning and rollback clean-up: features prp does not use; its threads are
kept whole by design) and that blocking calls are allowed (``prp serve`` allows them on purpose).
These are notes about the server's development mode, not about the user's research, so each is
logged once at debug level on prp's own logger instead.
"""

from __future__ import annotations

import logging

log = logging.getLogger("prp.server")

# Logger name -> the start of the notes it writes that are for developers.
NOTES = {
    "langgraph_api._checkpointer._adapter": ("Custom checkpointer missing",),
    "langgraph_runtime_inmem.queue": ("Heads up: You've set --allow-blocking",),
}


class DevelopmentNotes(logging.Filter):
    """Drops the server's development notes, logging each distinct one once at debug level."""

    def __init__(self, starts: tuple[str, ...]):
        super().__init__()
        self.starts = starts
        self.seen: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        event = record.msg.get("event", "") if isinstance(record.msg, dict) else record.msg
        text = str(event)
        if not text.startswith(self.starts):
            return True
        if text not in self.seen:
            self.seen.add(text)
            log.debug("LangGraph server note: %s", text)
        return False


def quiet_development_notes() -> None:
    """Install the filters (once: a second call finds them there)."""
    for name, starts in NOTES.items():
        logger = logging.getLogger(name)
        if not any(isinstance(f, DevelopmentNotes) for f in logger.filters):
            logger.addFilter(DevelopmentNotes(starts))
