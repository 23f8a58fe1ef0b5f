"""The typed values crossing the core's interface (``ui.core.portal``), and the REST API's bodies
around them: typed, so the API's OpenAPI page documents every field, and so the CLI reads back from a
running service the same objects the core gives it in process."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import AfterValidator, BaseModel, Field, model_serializer, model_validator

from corpus.ingest import IngestSummary
from corpus.registry import DocumentRecord
from corpus.retrieval import RetrievalOptions, RetrievedChunk
from corpus.sync import SyncSummary
from research.options import ResearchOptions
from tools.title_scope import TitleScope
from ui.core.jobs import JobView
from ui.core.query_limit import MAX_QUERY_CHARS
from ui.core.report_json import JsonReport


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
    query: str = Field(min_length=1, description=f"At most {MAX_QUERY_CHARS:,} characters.")


class SearchResponse(BaseModel):
    query: str
    scope: TitleScope | None = Field(description="The documents the query named by title, when it was scoped to them.")
    results: list[RetrievedChunk]


class RunRequest(BaseModel):
    topic: str = Field(
        min_length=1, description=f"The question (ask) or topic (report), at most {MAX_QUERY_CHARS:,} characters."
    )
    options: ResearchOptions = Field(default_factory=ResearchOptions)
    thread_id: str | None = Field(
        default=None,
        pattern=r"^[A-Za-z0-9._-]{1,64}$",
        description=(
            "Resume this thread if it was interrupted or cancelled; a finished one returns its report, or, "
            "given another question, continues its conversation (as `conversation` does)."
        ),
    )
    conversation: str | None = Field(
        default=None,
        pattern=r"^[A-Za-z0-9._-]{1,64}$",
        description=(
            "Continue this conversation (its id, or the thread id of one of its runs): the run is its next "
            "turn, and a question that leans on the turn before ('and what does it cost?') is read as a "
            "standalone question first."
        ),
    )


class RunStarted(BaseModel):
    job: JobView
    thread_id: str
    events: str = Field(description="Progress as server-sent events; the last event carries the report.")
    report: str = Field(description="The finished report (404 until the run has finished).")


def _absolute(path: str) -> str:
    # The service's working directory is its data directory: a relative path ("", ".") would name
    # the library's own files. A client resolves its paths where it runs (``prp ingest`` does). "~" is
    # a shell's shorthand, and the service's home need not be the caller's (nor is "~" alone a folder
    # anyone means to ingest whole): refused, not expanded, and not read as a folder named "~".
    if path.strip().startswith("~"):
        raise ValueError(
            f"{path!r} starts with '~', which the service does not expand (it would be the service's home "
            "folder, not necessarily yours): name files and folders by their absolute paths"
        )
    if not path.strip() or not Path(path).is_absolute():
        raise ValueError(f"{path!r} is not an absolute path: name files and folders by their absolute paths")
    return path


AbsolutePath = Annotated[str, AfterValidator(_absolute)]


class IngestRequest(BaseModel):
    paths: list[AbsolutePath] = Field(
        default_factory=list,
        description="Files or folders on the service's machine, absolute paths (loopback clients only).",
    )
    imports: list[AbsolutePath] = Field(
        default_factory=list,
        description="Reference-manager exports (BibTeX .bib, CSL-JSON .json) on the service's machine: each "
        "entry's attached file is ingested with the entry's title, authors, year, venue, DOI and arXiv id.",
    )

    @model_validator(mode="after")
    def _something(self) -> IngestRequest:
        if not self.paths and not self.imports:
            raise ValueError("name at least one file, folder or reference-manager export to ingest")
        return self


class IngestStarted(BaseModel):
    job: JobView
    events: str
    stored_as: str | None = Field(default=None, description="Where an uploaded file was stored under the library.")


class SyncRequest(BaseModel):
    dry_run: bool = Field(default=False, description="Only say what a sync would add, re-index and remove.")


class SyncStarted(BaseModel):
    job: JobView
    events: str = Field(description="Progress as server-sent events; the last event carries the sync's summary.")


class DeleteResult(BaseModel):
    deleted: DocumentRecord


class ExportFile(BaseModel):
    format: str
    name: str
    url: str
    bytes: int


class JobOutcome(BaseModel):
    """How a job ended, with what it made (the ``result`` event closing its event stream)."""

    job: JobView
    report: JsonReport | None = Field(default=None, description="A research run's report.")
    summary: IngestSummary | None = Field(default=None, description="An ingest's summary.")
    sync: SyncSummary | None = Field(default=None, description="A sync's summary.")
    deleted: DocumentRecord | None = Field(default=None, description="The document a deletion removed.")

    @model_serializer(mode="wrap")
    def _made_only(self, serialize):
        """Only what this job made: a research run's outcome has a report and no empty summary."""
        return {name: value for name, value in serialize(self).items() if name == "job" or value is not None}
