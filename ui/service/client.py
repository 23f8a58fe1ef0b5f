"""The CLI's side of the service: find the ``prp serve`` serving this data directory and call its REST
API, reading back the same typed objects the CLI prints when it opens the library itself."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx

from corpus.config import Settings
from corpus.errors import PrpError
from corpus.registry import DocumentRecord
from ui.service import discovery
from ui.service.jobs import JobView
from ui.service.models import (
    Conversation,
    ExportFile,
    IngestStarted,
    RunRequest,
    RunStarted,
    SearchRequest,
    SearchResponse,
)

#: How long the CLI waits for a running service to answer before opening the library itself.
CONNECT_TIMEOUT = 5.0
#: An event stream that drops (the service restarting, a proxy) is picked up again this many times.
RECONNECTS = 3


class ServiceError(PrpError):
    """The service answered with an error status; ``detail`` is what it said."""

    def __init__(self, url: str, status: int, detail: str):
        super().__init__(f"the service at {url} answered {status}: {detail}")
        self.status = status
        self.detail = detail


class ServiceClient:
    def __init__(self, url: str, token: str | None = None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        # Reads wait as long as a request takes (a deletion queued behind an ingest); connecting does not.
        self.url = url
        self.http = httpx.Client(base_url=url, headers=headers, timeout=httpx.Timeout(None, connect=CONNECT_TIMEOUT))

    @classmethod
    def connect(cls, settings: Settings) -> ServiceClient | None:
        """A client for the service serving ``settings.data_dir``, if one is running and answers."""
        record = discovery.running(settings)
        if record is None:
            return None
        client = cls(record.url, record.token or settings.api_token)
        try:
            client.http.get("/api/health", timeout=CONNECT_TIMEOUT).raise_for_status()
        except httpx.HTTPError as exc:
            client.close()
            print(
                f"prp: the service at {record.url} did not answer ({exc}); opening the library directly",
                file=sys.stderr,
            )
            return None
        return client

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> ServiceClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- calls ----------------------------------------------------------------------------------

    def _call(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        try:
            response = self.http.request(method, path, **kwargs)
        except httpx.HTTPError as exc:
            raise PrpError(f"the service at {self.url} could not be reached ({exc})") from None
        if response.status_code >= 400:
            try:
                detail = response.json().get("detail", response.text)
            except ValueError:
                detail = response.text
            raise ServiceError(self.url, response.status_code, str(detail))
        return response

    def documents(self) -> list[DocumentRecord]:
        return [DocumentRecord.model_validate(d) for d in self._call("GET", "/api/documents").json()]

    def delete(self, doc_id: str) -> DocumentRecord | None:
        try:
            return DocumentRecord.model_validate(self._call("DELETE", f"/api/documents/{doc_id}").json()["deleted"])
        except ServiceError as exc:
            if exc.status == 404:
                return None
            raise

    def search(self, request: SearchRequest) -> SearchResponse:
        body = request.model_dump(mode="json")
        return SearchResponse.model_validate(self._call("POST", "/api/search", json=body).json())

    def ingest(self, paths: list[str]) -> IngestStarted:
        return IngestStarted.model_validate(self._call("POST", "/api/ingest", json={"paths": paths}).json())

    def start_run(self, kind: str, request: RunRequest) -> RunStarted:
        body = request.model_dump(mode="json", exclude_none=True)
        return RunStarted.model_validate(self._call("POST", f"/api/{kind}", json=body).json())

    def cancel(self, job_id: str) -> JobView:
        return JobView.model_validate(self._call("POST", f"/api/jobs/{job_id}/cancel").json())

    def threads(self) -> list[Conversation]:
        return [Conversation.model_validate(c) for c in self._call("GET", "/api/threads").json()]

    def exports(self, thread_id: str) -> list[ExportFile]:
        return [ExportFile.model_validate(e) for e in self._call("GET", f"/api/threads/{thread_id}/exports").json()]

    def download(self, url: str) -> bytes:
        return self._call("GET", url).content

    def follow(self, events_url: str, on_event: Callable[[str, dict], None]) -> dict:
        """Read a job's events until its ``result`` event, whose data is returned; ``on_event`` gets
        every other event. A dropped stream is picked up again from the last event seen."""
        last = 0
        for attempt in range(RECONNECTS + 1):
            try:
                for event, event_id, data in self._events(events_url, last):
                    if event == "result":
                        return data
                    last = event_id or last
                    on_event(event, data)
            except httpx.TransportError as exc:
                if attempt == RECONNECTS:
                    raise PrpError(f"lost the service at {self.url} ({exc})") from None
                time.sleep(1.0)
        raise PrpError(f"the service at {self.url} ended the event stream without a result")

    def _events(self, url: str, after: int) -> Iterator[tuple[str, int | None, dict]]:
        headers = {"Last-Event-ID": str(after)} if after else {}
        with self.http.stream("GET", url, headers=headers) as response:
            if response.status_code >= 400:
                response.read()
                raise ServiceError(self.url, response.status_code, response.text)
            event, event_id, data = "message", None, []
            for line in response.iter_lines():
                if not line:
                    if data:
                        yield event, event_id, json.loads("\n".join(data))
                    event, event_id, data = "message", None, []
                elif line.startswith(":"):
                    continue  # keep-alive
                else:
                    field, _, value = line.partition(":")
                    value = value.removeprefix(" ")
                    if field == "event":
                        event = value
                    elif field == "id" and value.isdigit():
                        event_id = int(value)
                    elif field == "data":
                        data.append(value)
