"""The errors the core's operations raise that a caller acts on (``ui.core.portal``)."""

from __future__ import annotations

from corpus.errors import PrpError


class ThreadNotFoundError(PrpError):
    """No finished research run has this thread id."""


class JobNotFoundError(PrpError):
    """No job has this id (finished jobs are kept for a while, then forgotten)."""


class JobFailed(PrpError):
    """A job the caller waited for failed; the message is the job's error."""


class JobFinishedError(PrpError):
    """The job asked to be cancelled had already finished; nothing was changed."""


class QueryTooLongError(PrpError):
    """A question, topic or search query over ``ui.core.query_limit.MAX_QUERY_CHARS``."""


class DocumentNotFoundError(PrpError):
    """No document ready in the library has this id."""


class BlockNotFoundError(PrpError):
    """No block of a document ready in the library has this id."""
