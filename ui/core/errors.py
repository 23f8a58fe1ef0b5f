"""The errors the core's operations raise that a caller acts on (``ui.core.portal``), and the one
table (``API_ERRORS``) that carries them over HTTP: the REST API answers each with its status and
code, and ``ui.core.remote.RemotePortal`` raises the same type again from the code, so a call raises
the same error whether the library is in this process or behind a service."""

from __future__ import annotations

from dataclasses import dataclass

from corpus.errors import PrpError, ReferenceImportError, RefusedPathError


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


class CitationNotFoundError(PrpError):
    """A finished run's report has no citation of this number."""


class InvalidValueError(PrpError, ValueError):
    """A value the core refuses (a DOI that is not one, a request's field out of range); a
    ``ValueError``, as a model's own validation error is."""


@dataclass(frozen=True)
class ApiError:
    """One error as the REST API answers it: its HTTP status, and the code its JSON body carries
    (``{"detail": message, "code": code}``) for a client to raise ``error`` again."""

    error: type[PrpError]
    status: int
    code: str


#: Every error a Portal call raises that crosses the REST API. A subclass comes before its base.
API_ERRORS: tuple[ApiError, ...] = (
    ApiError(ThreadNotFoundError, 404, "thread_not_found"),
    ApiError(DocumentNotFoundError, 404, "document_not_found"),
    ApiError(BlockNotFoundError, 404, "block_not_found"),
    ApiError(CitationNotFoundError, 404, "citation_not_found"),
    ApiError(JobNotFoundError, 404, "job_not_found"),
    ApiError(JobFinishedError, 409, "job_finished"),
    ApiError(QueryTooLongError, 422, "query_too_long"),
    ApiError(RefusedPathError, 422, "refused_path"),
    ApiError(ReferenceImportError, 422, "reference_import"),
    ApiError(InvalidValueError, 422, "invalid_value"),
    ApiError(JobFailed, 500, "job_failed"),
)

#: The error a code in an error body names.
ERROR_OF_CODE: dict[str, type[PrpError]] = {e.code: e.error for e in API_ERRORS}
