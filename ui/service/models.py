"""What the REST API takes and returns: typed, so its OpenAPI page documents every field, and so the
CLI (``ui.service.client``) reads back the same objects it prints when it opens the library itself."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from corpus.registry import DocumentRecord
from corpus.retrieval import RetrievalOptions, RetrievedChunk
from research.options import ResearchOptions
from tools.title_scope import TitleScope
from ui.service.jobs import JobView


class Health(BaseModel):
    status: str = "ok"
    mode: str = Field(description="offline, or the LLM mode and model research runs use.")
    engine: str = Field(description="Where the index lives: the embedded Qdrant engine's folder, or a server's URL.")
    dense_model: str
    sparse_model: str
    documents: int = Field(description="Documents ready in the library.")
    chunks: int = Field(description="Their chunks, as the registry counts them.")
    data_dir: str
    active_jobs: list[JobView] = Field(description="Ingests, deletions and research runs queued or running.")


class SearchRequest(RetrievalOptions):
    query: str = Field(min_length=1)


class SearchResponse(BaseModel):
    query: str
    scope: TitleScope | None = Field(description="The documents the query named by title, when it was scoped to them.")
    results: list[RetrievedChunk]


class RunRequest(BaseModel):
    topic: str = Field(min_length=1, description="The question (ask) or topic (report).")
    options: ResearchOptions = Field(default_factory=ResearchOptions)
    thread_id: str | None = Field(
        default=None,
        pattern=r"^[A-Za-z0-9._-]{1,64}$",
        description="Resume this thread if it was interrupted or cancelled; a finished one returns its report.",
    )


class RunStarted(BaseModel):
    job: JobView
    thread_id: str
    events: str = Field(description="Progress as server-sent events; the last event carries the report.")
    report: str = Field(description="The finished report (404 until the run has finished).")


class IngestRequest(BaseModel):
    paths: list[str] = Field(
        min_length=1, description="Files or folders on the service's machine (loopback clients only)."
    )


class IngestStarted(BaseModel):
    job: JobView
    events: str
    stored_as: str | None = Field(default=None, description="Where an uploaded file was stored under the library.")


class DeleteResult(BaseModel):
    deleted: DocumentRecord


class ThreadRun(BaseModel):
    """One run (``ui.threads.ThreadSummary``, with its kind spelled out)."""

    thread_id: str
    topic: str
    single_question: bool
    kind: str = Field(description="question or topic report")
    started: str
    finished: bool
    mode: str | None
    citations: int


class Conversation(BaseModel):
    conversation: str
    title: str
    started: str
    runs: list[ThreadRun]


class ExportFile(BaseModel):
    format: str
    name: str
    url: str
    bytes: int


class ErrorBody(BaseModel):
    detail: str | list[Any]
