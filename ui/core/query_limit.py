"""How long a question, topic or search query may be: one check in the core, so the REST API, the
command line and the chat refuse an over-long one alike, in the same words."""

from __future__ import annotations

from ui.core.errors import QueryTooLongError

#: A question or a topic is a sentence or a paragraph. The embedding model reads only its first
#: ~256 tokens (about 1,000 characters) anyway, while every extra word costs BM25 and the planner
#: work and is echoed in every job view, event and report: a pasted document is a mistake.
MAX_QUERY_CHARS = 4_000


def check_query(text: str, what: str) -> None:
    """Raise ``QueryTooLongError`` if ``text`` (a ``what``: "question", "topic", "search query") is too long."""
    if len(text) > MAX_QUERY_CHARS:
        raise QueryTooLongError(
            f"the {what} is {len(text):,} characters long, over the limit of {MAX_QUERY_CHARS:,}: "
            "shorten it (a question or topic is a sentence or a paragraph; to add a document, ingest it)"
        )
