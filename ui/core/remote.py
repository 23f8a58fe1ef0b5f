"""The core of a running ``prp serve``, asked over its REST API: the same interface (``ui.core.portal``)
and the same typed objects as the core in process, so a command prints the same either way.

Ctrl-C in a command reading a job stops only the reading: the job belongs to the service and goes on
(other clients may be waiting for it too).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx

from config import Settings
from corpus.errors import PrpError
from corpus.models import MetadataOverride
from corpus.registry import DocumentRecord
from ui.core import discovery
from ui.core.conversations import Conversation
from ui.core.errors import ERROR_OF_CODE
from ui.core.exports.formats import ExportFormat
from ui.core.jobs import JobEvent, JobKind, JobView
from ui.core.models import (
    ExportFile,
    Health,
    IngestStarted,
    JobOutcome,
    RunRequest,
    RunStarted,
    SearchRequest,
    SearchResponse,
    SyncRequest,
    SyncStarted,
)
from ui.core.passages import CitationView, CitedPassage, DocumentPages
from ui.core.portal import RunKind
from ui.core.report_json import JsonReport

#: How long a command waits for a running service to answer before opening the library itself.
CONNECT_TIMEOUT = 5.0
#: An event stream that drops (the service restarting, a proxy) is picked up again this many times.
RECONNECTS = 3


class ServiceError(PrpError):
    """The service answered with an error status its body gives no core error's code for (one the
    core raises is raised as itself: ``ui.core.errors.API_ERRORS``); ``detail`` is what it said."""

    def __init__(self, url: str, status: int, detail: str):
        super().__init__(f"the service at {url} answered {status}: {detail}")
        self.status = status
        self.detail = detail


class RemotePortal:
    in_process = False

    def __init__(self, url: str, token: str | None = None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.url = url
        # Reads wait as long as a request takes (a deletion queued behind an ingest); connecting does not.
        self.http = httpx.Client(base_url=url, headers=headers, timeout=httpx.Timeout(None, connect=CONNECT_TIMEOUT))

    @classmethod
    def connect(cls, settings: Settings) -> RemotePortal | None:
        """The service serving ``settings.storage.data_dir``, if one is running and answers."""
        record = discovery.running(settings)
        if record is None:
            return None
        portal = cls(record.url, record.token or settings.service.api_token)
        try:
            portal.http.get("/api/health", timeout=CONNECT_TIMEOUT).raise_for_status()
        except httpx.HTTPError as exc:
            portal.close()
            print(
                f"prp: the service at {record.url} did not answer ({exc}); opening the library directly",
                file=sys.stderr,
            )
            return None
        return portal

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> RemotePortal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def where(self) -> str:
        return f"through the service at {self.url}"

    def health(self) -> Health:
        return Health.model_validate(self._call("GET", "/api/health").json())

    def documents(self) -> list[DocumentRecord]:
        return [DocumentRecord.model_validate(d) for d in self._call("GET", "/api/documents").json()]

    def edit_document(self, doc_id: str, edit: MetadataOverride) -> DocumentRecord:
        body = edit.model_dump(mode="json", exclude_unset=True)
        return DocumentRecord.model_validate(self._call("PATCH", f"/api/documents/{_part(doc_id)}", json=body).json())

    def delete(self, doc_id: str) -> DocumentRecord | None:
        try:
            response = self._call("DELETE", f"/api/documents/{_part(doc_id)}")
        except ServiceError as exc:
            if exc.status == 404:  # no such document: nothing to delete
                return None
            raise
        return DocumentRecord.model_validate(response.json()["deleted"])

    def document_pages(self, doc_id: str) -> DocumentPages:
        return DocumentPages.model_validate(self._call("GET", f"/api/documents/{_part(doc_id)}/pages").json())

    def cite(self, block_id: str) -> CitedPassage:
        return CitedPassage.model_validate(self._call("GET", f"/api/blocks/{_part(block_id)}").json())

    def block_view(self, block_id: str, images: bool = True, quote: str | None = None) -> CitationView:
        params = {"images": images} | ({"quote": quote} if quote is not None else {})
        response = self._call("GET", f"/api/blocks/{_part(block_id)}/view", params=params)
        return CitationView.model_validate(response.json())

    def citation_view(self, thread_id: str, number: int, images: bool = True) -> CitationView:
        path = f"/api/threads/{_part(thread_id)}/citations/{number}"
        return CitationView.model_validate(self._call("GET", path, params={"images": images}).json())

    def search(self, request: SearchRequest) -> SearchResponse:
        body = request.model_dump(mode="json")
        return SearchResponse.model_validate(self._call("POST", "/api/search", json=body).json())

    def ingest(self, paths: Sequence[Path], imports: Sequence[Path] = ()) -> JobView:
        # The service runs elsewhere (in its data directory): it is given the paths as this shell means them.
        def absolute(given: Sequence[Path]) -> list[str]:
            return [str(Path(p).expanduser().resolve()) for p in given]

        body = {"paths": absolute(paths), "imports": absolute(imports)}
        return IngestStarted.model_validate(self._call("POST", "/api/ingest", json=body).json()).job

    def sync(self, dry_run: bool = False) -> JobView:
        body = SyncRequest(dry_run=dry_run).model_dump(mode="json")
        return SyncStarted.model_validate(self._call("POST", "/api/sync", json=body).json()).job

    def research(self, kind: RunKind, request: RunRequest) -> JobView:
        body = request.model_dump(mode="json", exclude_none=True)
        return RunStarted.model_validate(self._call("POST", f"/api/{kind}", json=body).json()).job

    def jobs(self, kind: JobKind | None = None, active: bool = False) -> list[JobView]:
        params = {"active": active} | ({"kind": kind} if kind else {})
        return [JobView.model_validate(j) for j in self._call("GET", "/api/jobs", params=params).json()]

    def job(self, job_id: str) -> JobView:
        return JobView.model_validate(self._call("GET", f"/api/jobs/{_part(job_id)}").json())

    def cancel(self, job_id: str) -> JobView:
        return JobView.model_validate(self._call("POST", f"/api/jobs/{_part(job_id)}/cancel").json())

    def follow(self, job_id: str, on_event: Callable[[JobEvent], None]) -> JobOutcome:
        """A dropped stream is picked up again from the last event seen."""
        last = 0
        for attempt in range(RECONNECTS + 1):
            try:
                for event in self._events(f"/api/jobs/{_part(job_id)}/events", last):
                    if event.event == "result":
                        return JobOutcome.model_validate(event.data)
                    last = event.seq or last
                    on_event(event)
            except httpx.TransportError as exc:
                if attempt == RECONNECTS:
                    raise PrpError(f"lost the service at {self.url} ({exc})") from None
                time.sleep(1.0)
        raise PrpError(f"the service at {self.url} ended the event stream without a result")

    def threads(self) -> list[Conversation]:
        return [Conversation.model_validate(c) for c in self._call("GET", "/api/threads").json()]

    def report(self, thread_id: str) -> JsonReport:
        return JsonReport.model_validate(self._call("GET", f"/api/threads/{_part(thread_id)}").json())

    def exports(self, thread_id: str) -> list[ExportFile]:
        return [
            ExportFile.model_validate(e) for e in self._call("GET", f"/api/threads/{_part(thread_id)}/exports").json()
        ]

    def export(self, thread_id: str, export_format: ExportFormat, with_notes: bool = False) -> bytes:
        params = {"with_notes": "true"} if with_notes else None
        path = f"/api/threads/{_part(thread_id)}/exports/{export_format.value}"
        return self._call("GET", path, params=params).content

    def export_conversation(self, conversation: str, export_format: ExportFormat, with_notes: bool = False) -> bytes:
        params = {"with_notes": "true"} if with_notes else None
        path = f"/api/conversations/{_part(conversation)}/exports/{export_format.value}"
        return self._call("GET", path, params=params).content

    # --- HTTP -----------------------------------------------------------------------------------

    def _call(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        try:
            response = self.http.request(method, path, **kwargs)
        except httpx.HTTPError as exc:
            raise PrpError(f"the service at {self.url} could not be reached ({exc})") from None
        if response.status_code >= 400:
            raise self._error(response)
        return response

    def _error(self, response: httpx.Response) -> Exception:
        """The core's error the body's code names, with the service's words; else a ``ServiceError``."""
        try:
            body = response.json()
        except ValueError:
            body = None
        if not isinstance(body, dict):
            return ServiceError(self.url, response.status_code, response.text)
        detail = body.get("detail", response.text)
        if isinstance(detail, list):  # a request's fields refused: FastAPI's list of what is wrong with each
            detail = "; ".join(_field_error(e) for e in detail)
        error = ERROR_OF_CODE.get(body.get("code", ""))
        return error(str(detail)) if error is not None else ServiceError(self.url, response.status_code, str(detail))

    def _events(self, url: str, after: int) -> Iterator[JobEvent]:
        """Server-sent events; ``result`` (the last) has no number."""
        headers = {"Last-Event-ID": str(after)} if after else {}
        with self.http.stream("GET", url, headers=headers) as response:
            if response.status_code >= 400:
                response.read()
                raise self._error(response)
            event, seq, data = "message", 0, []
            for line in response.iter_lines():
                if not line:
                    if data:
                        yield JobEvent(seq=seq, event=event, data=json.loads("\n".join(data)))
                    event, seq, data = "message", 0, []
                elif line.startswith(":"):
                    continue  # keep-alive
                else:
                    field, _, value = line.partition(":")
                    value = value.removeprefix(" ")
                    if field == "event":
                        event = value
                    elif field == "id" and value.isdigit():
                        seq = int(value)
                    elif field == "data":
                        data.append(value)


def _part(value: str) -> str:
    """An id as one segment of a URL path (an id with a slash or a '?' is still one id, not found)."""
    return quote(value, safe="")


def _field_error(error: Any) -> str:
    if not isinstance(error, dict):
        return str(error)
    where = ".".join(str(p) for p in error.get("loc", ()) if p != "body")
    message = str(error.get("msg", "")).removeprefix("Value error, ")
    return f"{where}: {message}" if where else message
