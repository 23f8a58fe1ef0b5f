"""The REST API under ``/api``: the core's interface (``ui.core.portal``) over HTTP — health,
documents, uploads, folder sync, search, ask/report runs streamed as server-sent events, jobs,
threads and exports — on the one ``LocalPortal`` of the serving process.

Routes that touch the library are plain ``def``s, so the server runs them on its thread pool and
the event loop (which also serves the chat and the LangGraph API) never waits on a search or a disk.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import anyio
from fastapi import APIRouter, FastAPI, HTTPException, Query, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response, StreamingResponse

from corpus.models import MetadataOverride
from corpus.registry import DocumentRecord
from ui.api.security import is_loopback_client
from ui.core.conversations import Conversation
from ui.core.errors import API_ERRORS, DocumentNotFoundError, InvalidValueError
from ui.core.exports.formats import FILE_NAMES, ExportFormat
from ui.core.ingest_limit import check_named_paths
from ui.core.jobs import Job, JobKind, JobView
from ui.core.local import LocalPortal
from ui.core.models import (
    DeleteResult,
    ExportFile,
    Health,
    IngestRequest,
    IngestStarted,
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

#: Seconds an event stream waits for news before sending a keep-alive comment (proxies close idle streams).
KEEP_ALIVE = 15.0
#: Where the REST API's routes are.
API_PATH = "/api"


def add_api(app: FastAPI, portal: LocalPortal) -> None:
    """The routes under ``/api``, and the core's errors as HTTP statuses with their codes
    (``ui.core.errors.API_ERRORS``), which ``RemotePortal`` raises again."""
    api = APIRouter(prefix=API_PATH)
    for add_routes in (_health, _documents, _passages, _adding, _search, _research, _jobs, _threads):
        add_routes(api, portal)
    app.include_router(api)
    for known in API_ERRORS:
        app.add_exception_handler(known.error, _answer(known.status, known.code))
    app.add_exception_handler(RequestValidationError, _refused_fields)


def _answer(status: int, code: str):
    async def handler(_request: Request, exc: Exception) -> JSONResponse:
        return JSONResponse({"detail": str(exc), "code": code}, status_code=status)

    return handler


async def _refused_fields(_request: Request, exc: Exception) -> JSONResponse:
    """A request whose fields the models refuse: FastAPI's list of what is wrong with each, coded as
    the ``InvalidValueError`` the same values raise in process (a model's ``ValueError``)."""
    invalid = next(e for e in API_ERRORS if e.error is InvalidValueError)
    errors = exc.errors() if isinstance(exc, RequestValidationError) else []
    return JSONResponse({"detail": jsonable_encoder(errors), "code": invalid.code}, status_code=invalid.status)


def _health(api: APIRouter, portal: LocalPortal) -> None:

    @api.get("/health", response_model=Health, tags=["service"])
    def health() -> Health:
        return portal.health()


def _documents(api: APIRouter, portal: LocalPortal) -> None:

    @api.get("/documents", response_model=list[DocumentRecord], tags=["documents"])
    def documents() -> list[DocumentRecord]:
        return portal.documents()

    @api.get("/documents/{doc_id}", response_model=DocumentRecord, tags=["documents"])
    def document(doc_id: str) -> DocumentRecord:
        record = portal.document(doc_id)
        if record is None:
            raise DocumentNotFoundError(f"no document {doc_id}")
        return record

    @api.get("/documents/{doc_id}/pages", response_model=DocumentPages, tags=["documents"])
    def document_pages(doc_id: str) -> DocumentPages:
        """The document's bibliographic fields and its stored text, page by page."""
        return portal.document_pages(doc_id)

    @api.patch("/documents/{doc_id}", response_model=DocumentRecord, tags=["documents"])
    def edit_document(doc_id: str, edit: MetadataOverride) -> DocumentRecord:
        """Sets the fields the body gives (title, year, authors, venue, doi, arxiv_id; null clears
        one): they win over what extraction finds, on every later ingest. A DOI or arXiv id that is
        not one: 422, nothing changed."""
        return portal.edit_document(doc_id, edit)

    @api.delete("/documents/{doc_id}", response_model=DeleteResult, tags=["documents"])
    def delete_document(doc_id: str) -> DeleteResult:
        """Removes the document, its blocks and chunks; waits for an ingest in progress to end first."""
        deleted = portal.delete(doc_id)
        if deleted is None:
            raise HTTPException(404, f"no document {doc_id}")
        return DeleteResult(deleted=deleted)


def _passages(api: APIRouter, portal: LocalPortal) -> None:

    @api.get("/blocks/{block_id}", response_model=CitedPassage, tags=["documents"])
    def block(block_id: str) -> CitedPassage:
        """One block as stored: the text a citation of it must match, its page, bounding box and
        character offsets, its document and the document's BibTeX entry."""
        return portal.cite(block_id)

    @api.get("/blocks/{block_id}/view", response_model=CitationView, tags=["documents"])
    def block_view(block_id: str, images: bool = True, quote: str | None = None) -> CitationView:
        """One block as the evidence panel shows a citation of it (or of ``quote`` in it, its own words
        boxed): the passage around it, its document and BibTeX entry, and for a PDF the page with the
        block framed (base64 PNGs; ``images=false``: none)."""
        return portal.block_view(block_id, images, quote)

    @api.get("/threads/{thread_id}/citations/{number}", response_model=CitationView, tags=["threads"])
    def citation(thread_id: str, number: int, images: bool = True) -> CitationView:
        """Citation ``number`` of a finished run's report as the evidence panel shows it: the quote, the
        passage around it, the document and its BibTeX entry, and for a PDF the page with the cited block
        framed and the quoted words boxed, zoomed and whole (base64 PNGs; ``images=false``: none)."""
        return portal.citation_view(thread_id, number, images)


def _adding(api: APIRouter, portal: LocalPortal) -> None:

    @api.put("/uploads/{filename}", response_model=IngestStarted, status_code=202, tags=["documents"])
    async def upload(filename: str, request: Request) -> IngestStarted:
        """Upload one file as the request body (``curl -T paper.pdf``); it is stored under the
        library's ``uploads/`` and ingested in the background. Larger than PRP_UPLOAD_MAX_MB: 413.
        Content the library already holds (under any name): 409, naming the document; it is not
        stored again."""
        limit = int(portal.settings.limits.upload_max_mb * 1_000_000)
        declared = request.headers.get("content-length")
        if declared and declared.isdigit() and int(declared) > limit:
            raise HTTPException(413, f"the file is over the {limit / 1e6:g} MB limit (PRP_UPLOAD_MAX_MB)")
        incoming = portal.settings.storage.data_dir / "uploads-incoming"
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
            job, stored, rejected = await anyio.to_thread.run_sync(portal.upload, [(filename, partial)])
        finally:
            partial.unlink(missing_ok=True)
        if job is None:
            raise HTTPException(409 if rejected[0].duplicate_of else 422, f"{rejected[0].name}: {rejected[0].reason}")
        return IngestStarted(job=job.view(), events=_events_url(job.id), stored_as=str(stored[0].path))

    @api.post("/ingest", response_model=IngestStarted, status_code=202, tags=["documents"])
    def ingest(body: IngestRequest, request: Request) -> IngestStarted:
        """Ingest files or folders already on this machine (what ``prp ingest`` sends), by absolute
        path. Only a client on this machine may name paths: anyone else uploads. The library's own
        data and models directories (or a folder holding them) are refused: 422; so are more than
        PRP_INGEST_MAX_PATHS paths (name their folder)."""
        if not is_loopback_client(request):
            raise HTTPException(403, "ingest by path is only for clients on this machine; upload the files instead")
        check_named_paths(len(body.paths) + len(body.imports), portal.settings.service.ingest_max_paths)
        job = portal.ingest([Path(p).resolve() for p in body.paths], [Path(p).resolve() for p in body.imports])
        return IngestStarted(job=job, events=_events_url(job.job_id))

    @api.post("/sync", response_model=SyncStarted, status_code=202, tags=["documents"])
    def sync(body: SyncRequest | None = None) -> SyncStarted:
        """Bring the library in step with the folders and files it was ingested from, in the
        background: new files added, changed ones indexed again, documents whose files are gone
        removed; a folder that is missing (a drive not mounted) is reported and left alone.
        ``{"dry_run": true}``: change nothing; the summary says what a sync would do."""
        job = portal.sync(dry_run=body.dry_run if body else False)
        return SyncStarted(job=job, events=_events_url(job.job_id))


def _search(api: APIRouter, portal: LocalPortal) -> None:

    @api.post("/search", response_model=SearchResponse, tags=["search"])
    def search(body: SearchRequest) -> SearchResponse:
        """Hybrid (dense + BM25, fused), dense or sparse search with filters; documents become
        searchable one by one as an ingest makes them ready."""
        return portal.search(body)


def _research(api: APIRouter, portal: LocalPortal) -> None:

    def start(kind: RunKind, body: RunRequest) -> RunStarted:
        job = portal.research(kind, body)
        thread_id = job.info["thread_id"]
        return RunStarted(
            job=job, thread_id=thread_id, events=_events_url(job.job_id), report=f"/api/threads/{thread_id}"
        )

    @api.post("/ask", response_model=RunStarted, status_code=202, tags=["research"])
    def ask(body: RunRequest) -> RunStarted:
        """Answer one question (one sub-question) with a cited answer, in the background."""
        return start("ask", body)

    @api.post("/report", response_model=RunStarted, status_code=202, tags=["research"])
    def report(body: RunRequest) -> RunStarted:
        """Research a topic (several sub-questions) into a cited report, in the background."""
        return start("report", body)


def _jobs(api: APIRouter, portal: LocalPortal) -> None:

    @api.get("/jobs", response_model=list[JobView], tags=["jobs"])
    def jobs(kind: JobKind | None = None, active: bool = False) -> list[JobView]:
        """Newest first; ``?kind=ingest&active=true`` is the ingest in progress, if any."""
        return portal.jobs(kind, active)

    @api.get("/jobs/{job_id}", response_model=JobView, tags=["jobs"])
    def job(job_id: str) -> JobView:
        return portal.job(job_id)

    @api.post("/jobs/{job_id}/cancel", response_model=JobView, tags=["jobs"])
    def cancel(job_id: str) -> JobView:
        """Stop a job at its next step: a research run keeps its checkpoints (resume it with its
        thread id), an ingest stops between files. A job that has already finished: 409."""
        return portal.cancel(job_id)

    @api.get(
        "/jobs/{job_id}/events",
        tags=["jobs"],
        response_class=StreamingResponse,
        responses={200: {"content": {"text/event-stream": {}}, "description": "Server-sent events."}},
    )
    def events(job_id: str, request: Request, after: int = Query(0, ge=0)) -> StreamingResponse:
        """The job's events as server-sent events, from the first (or after ``Last-Event-ID`` /
        ``?after=``): ``state``, ``progress`` (research), ``started``/``file`` (ingest, sync),
        ``removed`` (sync), then one ``result`` event with the finished job and its report
        (research), summary (ingest), sync summary (sync) or deleted document. A client that disconnects stops reading; the job goes on."""
        found = portal.handle(job_id)
        last = request.headers.get("last-event-id", "")
        return StreamingResponse(
            _event_stream(portal, found, int(last) if last.isdigit() else after),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )


def _threads(api: APIRouter, portal: LocalPortal) -> None:

    @api.get("/threads", response_model=list[Conversation], tags=["threads"])
    def threads() -> list[Conversation]:
        """Past research runs grouped into conversations, most recently active first."""
        return portal.threads()

    @api.get("/threads/{thread_id}", response_model=JsonReport, tags=["threads"])
    def thread(thread_id: str) -> JsonReport:
        """A finished run's report: claims, sections, disagreements, gaps, and every citation
        resolved to its document, page, blocks, bounding boxes and character offsets."""
        return portal.report(thread_id)

    @api.get("/threads/{thread_id}/exports", response_model=list[ExportFile], tags=["threads"])
    def exports(thread_id: str) -> list[ExportFile]:
        return portal.exports(thread_id)

    @api.get("/threads/{thread_id}/exports/{export_format}", response_class=FileResponse, tags=["threads"])
    def export(thread_id: str, export_format: ExportFormat, with_notes: bool = False) -> Response:
        """One artifact: evidence CSV, BibTeX, bibliography, report Markdown/PDF, contradictions;
        ``with_notes``: BibTeX entries with a ``note`` naming their prp document (styles print it)."""
        if with_notes:
            name = FILE_NAMES[export_format]
            content = portal.export(thread_id, export_format, with_notes=True)
            return Response(content, headers={"Content-Disposition": f'attachment; filename="{name}"'})
        path = portal.export_file(thread_id, export_format)
        return FileResponse(path, filename=path.name)

    @api.get("/conversations/{conversation}/exports/{export_format}", response_class=Response, tags=["threads"])
    def conversation_export(conversation: str, export_format: ExportFormat, with_notes: bool = False) -> Response:
        """One artifact of a whole conversation (every finished turn; a run's thread id names its
        conversation): evidence table, bibliography and report, citations numbered throughout."""
        content = portal.export_conversation(conversation, export_format, with_notes=with_notes)
        name = FILE_NAMES[export_format]
        return Response(content, headers={"Content-Disposition": f'attachment; filename="{name}"'})


def _events_url(job_id: str) -> str:
    return f"/api/jobs/{job_id}/events"


async def _event_stream(portal: LocalPortal, job: Job, after: int) -> AsyncIterator[str]:
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
    outcome = portal.outcome(job).model_dump(mode="json")
    yield f"event: result\ndata: {json.dumps(outcome)}\n\n"
