"""The REST API under ``/api``: health, documents, search, ask/report runs streamed as server-sent
events, threads and exports. Every route works on the one ``Portal`` of the serving process.

Routes that touch the library are plain ``def``s, so the server runs them on its thread pool and
the event loop (which also serves the chat and the LangGraph API) never waits on a search or a disk.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

import anyio
from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import FileResponse, StreamingResponse

from corpus.embeddings import BM25_MODEL
from corpus.registry import DocumentRecord
from ui.exports.record import ReportRecord, ThreadNotFoundError
from ui.exports.report_json import JsonReport
from ui.exports.writer import FILE_NAMES, ExportFormat, folder_name
from ui.portal import Portal, mode_name
from ui.service.jobs import Job, JobKind, JobState, JobView
from ui.service.models import (
    Conversation,
    DeleteResult,
    ExportFile,
    Health,
    IngestRequest,
    IngestStarted,
    RunRequest,
    RunStarted,
    SearchRequest,
    SearchResponse,
    ThreadRun,
)
from ui.service.security import is_loopback_client
from ui.uploads import store_uploads

#: Seconds an event stream waits for news before sending a keep-alive comment (proxies close idle streams).
KEEP_ALIVE = 15.0
UPLOAD_CHUNK = 1 << 20


def api_router(portal: Portal) -> APIRouter:
    api = APIRouter(prefix="/api")
    for add_routes in (_health, _documents, _search, _research, _jobs, _threads):
        add_routes(api, portal)
    return api


def _job_or_404(portal: Portal, job_id: str) -> Job:
    job = portal.jobs.get(job_id)
    if job is None:
        raise HTTPException(404, f"no job {job_id} (finished jobs are kept for a while, then forgotten)")
    return job


def _record_or_404(portal: Portal, thread_id: str) -> ReportRecord:
    try:
        return portal.record(thread_id)
    except ThreadNotFoundError as exc:
        raise HTTPException(404, str(exc)) from None


def _health(api: APIRouter, portal: Portal) -> None:

    @api.get("/health", response_model=Health, tags=["service"])
    def health() -> Health:
        documents = portal.library.registry.documents()
        return Health(
            mode=mode_name(portal.strategy.mode),
            engine=portal.settings.describe_store(),
            dense_model=portal.settings.embed_model,
            sparse_model=BM25_MODEL,
            documents=len(documents),
            chunks=sum(d.n_chunks for d in documents),
            data_dir=str(portal.settings.data_dir.resolve()),
            active_jobs=[j.view() for j in portal.jobs.list(active=True)],
        )


def _documents(api: APIRouter, portal: Portal) -> None:

    @api.get("/documents", response_model=list[DocumentRecord], tags=["documents"])
    def documents() -> list[DocumentRecord]:
        return portal.library.registry.documents()

    @api.get("/documents/{doc_id}", response_model=DocumentRecord, tags=["documents"])
    def document(doc_id: str) -> DocumentRecord:
        record = portal.library.registry.document(doc_id)
        if record is None or record.status != "ready":
            raise HTTPException(404, f"no document {doc_id}")
        return record

    @api.delete("/documents/{doc_id}", response_model=DeleteResult, tags=["documents"])
    def delete_document(doc_id: str) -> DeleteResult:
        """Removes the document, its blocks and chunks; waits for an ingest in progress to end first."""
        job = portal.delete(doc_id)
        job.wait()
        if job.state is JobState.FAILED:
            raise HTTPException(500, job.error)
        if job.result is None:
            raise HTTPException(404, f"no document {doc_id}")
        return DeleteResult(deleted=job.result)

    @api.put("/uploads/{filename}", response_model=IngestStarted, status_code=202, tags=["documents"])
    async def upload(filename: str, request: Request) -> IngestStarted:
        """Upload one file as the request body (``curl -T paper.pdf``); it is stored under the
        library's ``uploads/`` and ingested in the background. Larger than PRP_UPLOAD_MAX_MB: 413."""
        limit = int(portal.settings.upload_max_mb * 1_000_000)
        declared = request.headers.get("content-length")
        if declared and declared.isdigit() and int(declared) > limit:
            raise HTTPException(413, f"the file is over the {limit / 1e6:g} MB limit (PRP_UPLOAD_MAX_MB)")
        incoming = portal.settings.data_dir / "uploads-incoming"
        incoming.mkdir(parents=True, exist_ok=True)
        partial = incoming / f"{uuid.uuid4().hex}.part"
        try:
            size = 0
            async with await anyio.open_file(partial, "wb") as out:
                async for chunk in request.stream():
                    size += len(chunk)
                    if size > limit:  # stop reading: nothing beyond the cap reaches the disk
                        raise HTTPException(413, f"the file is over the {limit / 1e6:g} MB limit (PRP_UPLOAD_MAX_MB)")
                    await out.write(chunk)
            stored, rejected = await anyio.to_thread.run_sync(store_uploads, [(filename, partial)], portal.settings)
        finally:
            partial.unlink(missing_ok=True)
        if rejected:
            raise HTTPException(422, f"{rejected[0].name}: {rejected[0].reason}")
        job = portal.start_ingest([], stored)
        return IngestStarted(job=job.view(), events=f"/api/jobs/{job.id}/events", stored_as=str(stored[0].path))

    @api.post("/ingest", response_model=IngestStarted, status_code=202, tags=["documents"])
    def ingest(body: IngestRequest, request: Request) -> IngestStarted:
        """Ingest files or folders already on this machine (what ``prp ingest`` sends). Only a client on
        this machine may name paths: anyone else uploads."""
        if not is_loopback_client(request):
            raise HTTPException(403, "ingest by path is only for clients on this machine; upload the files instead")
        job = portal.start_ingest([Path(p).expanduser().resolve() for p in body.paths])
        return IngestStarted(job=job.view(), events=f"/api/jobs/{job.id}/events")


def _search(api: APIRouter, portal: Portal) -> None:

    @api.post("/search", response_model=SearchResponse, tags=["search"])
    def search(body: SearchRequest) -> SearchResponse:
        """Hybrid (dense + BM25, fused), dense or sparse search with filters; documents become
        searchable one by one as an ingest makes them ready."""
        results, scope = portal.search(body.query, body)
        return SearchResponse(query=body.query, scope=scope, results=results)


def _research(api: APIRouter, portal: Portal) -> None:

    def start(body: RunRequest, single: bool) -> RunStarted:
        job = portal.start_research(body.topic, single_question=single, options=body.options, thread_id=body.thread_id)
        thread_id = job.info["thread_id"]
        return RunStarted(
            job=job.view(), thread_id=thread_id, events=f"/api/jobs/{job.id}/events", report=f"/api/threads/{thread_id}"
        )

    @api.post("/ask", response_model=RunStarted, status_code=202, tags=["research"])
    def ask(body: RunRequest) -> RunStarted:
        """Answer one question (one sub-question) with a cited answer, in the background."""
        return start(body, single=True)

    @api.post("/report", response_model=RunStarted, status_code=202, tags=["research"])
    def report(body: RunRequest) -> RunStarted:
        """Research a topic (several sub-questions) into a cited report, in the background."""
        return start(body, single=False)


def _jobs(api: APIRouter, portal: Portal) -> None:

    @api.get("/jobs", response_model=list[JobView], tags=["jobs"])
    def jobs(kind: JobKind | None = None, active: bool = False) -> list[JobView]:
        """Newest first; ``?kind=ingest&active=true`` is the ingest in progress, if any."""
        return [j.view() for j in portal.jobs.list(kind, active)]

    @api.get("/jobs/{job_id}", response_model=JobView, tags=["jobs"])
    def job(job_id: str) -> JobView:
        return _job_or_404(portal, job_id).view()

    @api.post("/jobs/{job_id}/cancel", response_model=JobView, tags=["jobs"])
    def cancel(job_id: str) -> JobView:
        """Stop a job at its next step: a research run keeps its checkpoints (resume it with its
        thread id), an ingest stops between files."""
        found = _job_or_404(portal, job_id)
        found.cancel()
        return found.view()

    @api.get(
        "/jobs/{job_id}/events",
        tags=["jobs"],
        response_class=StreamingResponse,
        responses={200: {"content": {"text/event-stream": {}}, "description": "Server-sent events."}},
    )
    def events(job_id: str, request: Request, after: int = Query(0, ge=0)) -> StreamingResponse:
        """The job's events as server-sent events, from the first (or after ``Last-Event-ID`` /
        ``?after=``): ``state``, ``progress`` (research), ``started``/``file`` (ingest), then one
        ``result`` event with the finished job and its report (research), summary (ingest) or
        deleted document. A client that disconnects stops reading; the job goes on."""
        found = _job_or_404(portal, job_id)
        last = request.headers.get("last-event-id", "")
        start_after = int(last) if last.isdigit() else after
        return StreamingResponse(
            event_stream(found, start_after, lambda j: result_data(portal, j)),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )


def _threads(api: APIRouter, portal: Portal) -> None:

    @api.get("/threads", response_model=list[Conversation], tags=["threads"])
    def threads() -> list[Conversation]:
        """Past research runs grouped into conversations, most recently active first."""
        return [
            Conversation(
                conversation=c.conversation,
                title=c.title,
                started=c.started,
                runs=[ThreadRun(**asdict(r), kind=r.kind) for r in c.runs],
            )
            for c in portal.conversations()
        ]

    @api.get("/threads/{thread_id}", response_model=JsonReport, tags=["threads"])
    def thread(thread_id: str) -> JsonReport:
        """A finished run's report: claims, sections, disagreements, gaps, and every citation
        resolved to its document, page, blocks, bounding boxes and character offsets."""
        record = _record_or_404(portal, thread_id)
        return JsonReport.of(record.thread_id, record.topic, record.single_question, record.report)

    @api.get("/threads/{thread_id}/exports", response_model=list[ExportFile], tags=["threads"])
    def exports(thread_id: str) -> list[ExportFile]:
        paths = portal.exports(_record_or_404(portal, thread_id))
        names = {name: fmt for fmt, name in FILE_NAMES.items()}
        return [
            ExportFile(
                format=names[p.name].value,
                name=p.name,
                url=f"/api/threads/{thread_id}/exports/{names[p.name].value}",
                bytes=p.stat().st_size,
            )
            for p in paths
        ]

    @api.get("/threads/{thread_id}/exports/{export_format}", response_class=FileResponse, tags=["threads"])
    def export(thread_id: str, export_format: ExportFormat) -> FileResponse:
        """One artifact: evidence CSV, BibTeX, bibliography, report Markdown/PDF, contradictions."""
        portal.exports(_record_or_404(portal, thread_id))
        path = portal.settings.exports_dir / folder_name(thread_id) / FILE_NAMES[export_format]
        return FileResponse(path, filename=path.name)


def result_data(portal: Portal, job: Job) -> dict[str, Any]:
    """The ``result`` event closing a finished job's stream."""
    data: dict[str, Any] = {"job": job.view().model_dump(mode="json")}
    if job.kind == "research" and job.result is not None:
        record = job.result
        data["report"] = JsonReport.of(
            record.thread_id, record.topic, record.single_question, record.report
        ).model_dump(mode="json")
    elif job.kind == "ingest" and job.result is not None:
        data["summary"] = job.result.model_dump(mode="json")
    elif job.kind == "delete" and job.result is not None:
        data["deleted"] = job.result.model_dump(mode="json")
    return data


async def event_stream(job: Job, after: int, result: Callable[[Job], dict[str, Any]]) -> AsyncIterator[str]:
    seq = after
    while True:
        batch = await anyio.to_thread.run_sync(job.events_after, seq, KEEP_ALIVE, abandon_on_cancel=True)
        for event in batch:
            seq = event.seq
            yield f"id: {event.seq}\nevent: {event.event}\ndata: {json.dumps(event.data)}\n\n"
        if job.state.finished and not job.events_after(seq):
            break
        if not batch:
            yield ": keep-alive\n\n"
    yield f"event: result\ndata: {json.dumps(result(job))}\n\n"
