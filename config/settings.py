"""The one ``Settings`` object: every knob prp has, in sections, read from the environment (or passed in).

Each section reads its own environment variables (the names users have always set: ``PRP_DATA_DIR``,
``QDRANT_URL``, ``OPENAI_API_KEY``, ...) when it is built; ``Settings()`` builds them all. Explicit values
go to the section they belong to, the rest still coming from the environment::

    Settings(storage=StorageSettings(data_dir=path), llm=LLMSettings(base_url=url))

Nothing here talks to the network or imports the project. The defaults run everything on one machine:
Qdrant's embedded engine under the data directory, embedding models assembled from PyPI wheels, SQLite
for the registry.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field
from pydantic_settings import BaseSettings, EnvSettingsSource, PydanticBaseSettingsSource, SettingsConfigDict

DEFAULT_EMBED_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
# Tokens of evidence in an answer's prompt unless PRP_LLM_EVIDENCE_TOKENS says (see LLMSettings).
SERVED_EVIDENCE_TOKENS, LOCAL_EVIDENCE_TOKENS = 1000, 450

Step = Literal["planning", "answering", "reranking", "condensing"]
"""The LLM calls that may each have their own model (answering covers every call that writes or
reads the report's text: answers, second readings, contradictions, the summary)."""
STEPS: tuple[Step, ...] = get_args(Step)


class _ByVariable(EnvSettingsSource):
    """The environment, read by each field's variable only: a field is given by its name in code
    (``LLMSettings(model=...)``), but ``MODEL`` or ``API_KEY`` in the environment is no setting of prp's."""

    def __init__(self, settings_cls: type[BaseSettings]):
        super().__init__(settings_cls)
        self.config = {**self.config, "populate_by_name": False, "validate_by_name": False}


class _Section(BaseSettings):
    # Only the environment and explicit values: no .env file is read.
    model_config = SettingsConfigDict(env_file=None, extra="ignore", populate_by_name=True)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return init_settings, _ByVariable(settings_cls)


class StorageSettings(_Section):
    """Where prp keeps what it makes."""

    data_dir: Path = Field(
        default=Path(".prp"),
        validation_alias="PRP_DATA_DIR",
        description="registry, embedded index, models, checkpoints, uploads, exports",
    )
    shared_dir: Path = Field(
        default=Path(__file__).resolve().parents[1].parent / "shared",
        validation_alias="PRP_SHARED_DIR",
        description="the shared data the tests, evaluations and benchmarks read",
        json_schema_extra={"shown_default": "../shared"},
    )
    database_url: str | None = Field(
        default=None,
        validation_alias="PRP_DATABASE_URL",
        description="keep the registry, threads and checkpoints in PostgreSQL (postgresql://…) instead of "
        "SQLite files under the data directory, so several `prp serve` workers can share one library",
    )
    min_free_mb: float = Field(
        default=256.0,
        ge=0,
        validation_alias="PRP_MIN_FREE_MB",
        description="free space, in megabytes, an ingest keeps on the data directory's disk: it stops with an "
        "error naming the directory before a write would leave less (the embedded index's memory-mapped files "
        "cannot report a full disk: the process would die of SIGBUS); 0 turns the check off",
    )

    @property
    def local_mode_path(self) -> Path:
        """Where earlier versions kept qdrant-client's local mode store (moved on first open)."""
        return self.data_dir / "qdrant"

    @property
    def registry_path(self) -> Path:
        return self.data_dir / "registry.sqlite"

    @property
    def checkpoint_path(self) -> Path:
        return self.data_dir / "checkpoints.sqlite"

    @property
    def uploads_dir(self) -> Path:
        """Where files uploaded in the research chat are kept (the library indexes them in place)."""
        return self.data_dir / "uploads"

    @property
    def service_file(self) -> Path:
        """Where a running ``prp serve`` says it serves this data directory (read by the CLI)."""
        return self.data_dir / "service.json"

    @property
    def exports_dir(self) -> Path:
        return self.data_dir / "exports"


class IndexSettings(_Section):
    """The vector index: Qdrant's embedded engine, or a Qdrant server."""

    qdrant_url: str | None = Field(
        default=None,
        validation_alias="QDRANT_URL",
        description="use a Qdrant server or cluster instead of the embedded engine",
    )
    qdrant_api_key: str | None = Field(
        default=None, validation_alias="QDRANT_API_KEY", description="the Qdrant server's API key"
    )
    collection: str = Field(default="prp_chunks", validation_alias="PRP_COLLECTION", description="collection name")

    @property
    def uses_embedded_index(self) -> bool:
        return not self.qdrant_url


class EmbeddingSettings(_Section):
    """The embedding model."""

    # Where embedding models are assembled or downloaded; shareable between data directories.
    models_path: Path | None = Field(
        default=None,
        validation_alias="PRP_MODELS_DIR",
        description="where models are assembled (shareable between data directories)",
        json_schema_extra={"shown_default": "$PRP_DATA_DIR/models"},
    )
    model: str = Field(
        default=DEFAULT_EMBED_MODEL,
        validation_alias="PRP_EMBED_MODEL",
        description="dense model (any fastembed model; see docs/architecture/corpus.md, Embedding models)",
    )
    # Batches of ~16 keep the ONNX runtime's activations small (a batch of 256 takes 1.4 GB).
    batch_size: int = Field(
        default=16,
        validation_alias="PRP_EMBED_BATCH_SIZE",
        description="chunks embedded per batch (a batch of 256 takes 1.4 GB)",
    )
    # The vectors are the same bits whatever the number, so reports do not depend on it
    # (``tests/reliability/test_deterministic_reports.py``).
    threads: int | None = Field(
        default=None,
        ge=1,
        validation_alias="PRP_EMBED_THREADS",
        description="threads the ONNX runtime embeds with (unset: one per core); the vectors, and so the "
        "reports, are the same whatever the number",
    )


class IngestSettings(_Section):
    """Reading files into the library."""

    # One worker is enough to keep 2 cores busy beside the embedding model.
    parse_workers: int = Field(
        default=1, validation_alias="PRP_PARSE_WORKERS", description="parsing processes beside the embedding model"
    )
    progress_seconds: float = Field(
        default=5.0,
        gt=0,
        validation_alias="PRP_PROGRESS_SECONDS",
        description="seconds between the progress lines `prp ingest`/`prp sync` print when stderr is not a terminal",
    )
    # A PDF page without a text layer (a scan) is rendered and read by OCR (corpus.ocr) in the parse workers.
    ocr: bool = Field(default=True, validation_alias="PRP_OCR", description="read scanned PDF pages by OCR")
    ocr_dpi: int = Field(
        default=200, ge=72, le=600, validation_alias="PRP_OCR_DPI", description="resolution a page is rendered at"
    )
    ocr_max_megapixels: float = Field(
        default=40.0,
        gt=0,
        validation_alias="PRP_OCR_MAX_MEGAPIXELS",
        description="largest render of one page; a larger page is rendered at a lower resolution",
    )
    ocr_page_seconds: float = Field(
        default=30.0,
        gt=0,
        validation_alias="PRP_OCR_PAGE_SECONDS",
        description="CPU seconds OCR may take on one page; a page that takes longer is named unread in the ingest "
        "report",
    )


class LimitSettings(_Section):
    """What one file or upload may be."""

    # Each chunk is embedded (~0.05 s on a laptop core): a file with more is refused before anything is embedded.
    max_file_chunks: int = Field(
        default=10_000,
        gt=0,
        validation_alias="PRP_MAX_FILE_CHUNKS",
        description="most chunks one file may make; a file with more is refused by name before anything of it "
        "is embedded. A 500-page book makes ~2,500, 2 MB of Markdown prose ~2,000, 1 MB of base64 ~3,300 "
        "(the tokenizer reads it a few characters a token)",
    )
    upload_max_mb: float = Field(
        default=50.0,
        gt=0,
        validation_alias="PRP_UPLOAD_MAX_MB",
        description="largest file the chat and the API of `prp serve` accept for upload, in megabytes",
    )


class LLMSettings(_Section):
    """LLM mode: any OpenAI-compatible endpoint, and a model per step."""

    api_key: str | None = Field(
        default=None,
        validation_alias="OPENAI_API_KEY",
        description="turns on LLM mode (with or without `OPENAI_BASE_URL`)",
    )
    base_url: str | None = Field(
        default=None,
        validation_alias="OPENAI_BASE_URL",
        description="turns on LLM mode: any OpenAI-compatible server",
    )
    model: str = Field(
        default="gpt-4o-mini",
        validation_alias="PRP_LLM_MODEL",
        description="chat model of every step not given its own (the model asked for; a report's header names "
        "the models the server's replies name: a local server answers with the model it loaded)",
    )
    # Each step's model defaults to ``model``: a cheap model may plan and re-rank, a strong one answer.
    planning_model: str | None = Field(
        default=None,
        validation_alias="PRP_LLM_PLANNING_MODEL",
        description="chat model of the planning call (unset: `PRP_LLM_MODEL`)",
    )
    answering_model: str | None = Field(
        default=None,
        validation_alias="PRP_LLM_ANSWERING_MODEL",
        description="chat model of the answers, second readings, contradictions and summary (unset: `PRP_LLM_MODEL`)",
    )
    reranking_model: str | None = Field(
        default=None,
        validation_alias="PRP_LLM_RERANKING_MODEL",
        description="chat model of the re-ranking calls (unset: `PRP_LLM_MODEL`)",
    )
    condensing_model: str | None = Field(
        default=None,
        validation_alias="PRP_LLM_CONDENSING_MODEL",
        description="chat model that rewrites a follow-up as a standalone question (unset: `PRP_LLM_MODEL`)",
    )
    timeout: float = Field(
        default=120.0,
        validation_alias="PRP_LLM_TIMEOUT",
        description="seconds per attempt of an LLM call; the step is named when it runs out",
    )
    # Unset leaves it to the server (local mode caps it, see strategies/llm/local_server.py).
    max_tokens: int | None = Field(
        default=None,
        validation_alias="PRP_LLM_MAX_TOKENS",
        description="tokens per answer (unset: the server's; local mode caps it at 1,536)",
    )
    # How replies are held to their schema (strategies/llm/structured.py).
    schema_format: Literal["auto", "json_schema", "llama_cpp", "prompt"] = Field(
        default="auto",
        validation_alias="PRP_LLM_SCHEMA_FORMAT",
        description="how replies are held to their schema: `json_schema` (OpenAI's structured outputs, strict; "
        "vLLM, Ollama, LM Studio and llama-server decode under it), `llama_cpp` (`json_object` + `schema`, "
        "which llama-cpp-python's server turns into a grammar; local mode sets it), `prompt` (the schema in "
        "the prompt, parsed and retried once), or `auto`: `json_schema`, and `prompt` from the first call the "
        "server refuses it on (HTTP 400)",
    )
    rerank: bool = Field(
        default=True,
        validation_alias="PRP_LLM_RERANK",
        description="LLM re-ranking: one call per sub-question scores its candidate sentences 0-10 before the "
        "answer (`false` to measure without)",
    )
    rerank_candidates: int = Field(
        default=10,
        ge=1,
        le=64,
        validation_alias="PRP_LLM_RERANK_CANDIDATES",
        description="sentences the re-ranking call scores (the best by embedding similarity to the sub-question)",
    )
    # `auto` asks a served model and not the local 0.5B one (unmeasured there: a small model's reading
    # is no better than its writing).
    reader: Literal["auto", "on", "off"] = Field(
        default="auto",
        validation_alias="PRP_LLM_READER",
        description="the model as a second reader: one call per answer asks whether each claim's cited "
        "sentences state it; it may state a claim the judge found unstated for want of words (a synonym) and "
        "unstate one the judge stated by words or meaning, never overrule a verbatim quote or a failed "
        "figure/name/polarity check. `auto`: on for a served model, off for the local 0.5B one",
    )
    # A served model gets room for the answer wherever its paper puts it (QASPER dev, 29 questions, in
    # the pre-ranked order alone: a gold sentence in the prompt for 20 at 450 tokens, 27 at 1,000); the
    # local 0.5B one keeps the budget it was measured with (its prompts are read on the CPU; unmeasured
    # with more).
    evidence_tokens: int | None = Field(
        default=None,
        ge=50,
        validation_alias="PRP_LLM_EVIDENCE_TOKENS",
        description="tokens of evidence sentences in an answer's prompt: the re-ranked ones and their "
        "neighbours, then the best of the rest (unset: 1,000 for a served model, 450 for the local 0.5B one); "
        "the contradiction call shares half as many among the sub-questions",
    )
    mode: Literal["auto", "local"] = Field(
        default="auto",
        validation_alias="PRP_LLM",
        description="`local`: run a local llama.cpp model for the run (`--llm local` does the same)",
    )

    @property
    def evidence_budget(self) -> int:
        """``evidence_tokens``, or its default for the mode."""
        if self.evidence_tokens is not None:
            return self.evidence_tokens
        return LOCAL_EVIDENCE_TOKENS if self.mode == "local" else SERVED_EVIDENCE_TOKENS

    def model_for(self, step: Step) -> str:
        """The chat model ``step``'s calls go to."""
        return getattr(self, f"{step}_model") or self.model


class LocalLLMSettings(_Section):
    """Local LLM mode (`PRP_LLM=local`): llama-cpp-python's server on a loopback port (the `local-llm` extra)."""

    model_path: Path | None = Field(
        default=None,
        validation_alias="PRP_LOCAL_MODEL",
        description="any GGUF file for local mode (unset: Qwen2.5-Coder-0.5B-Instruct, assembled from its PyPI "
        "parts into ~/.cache/prp-models)",
    )
    ctx: int = Field(default=8192, validation_alias="PRP_LOCAL_CTX", description="local model context")
    threads: int | None = Field(
        default=None, validation_alias="PRP_LOCAL_THREADS", description="local model threads (unset: all cores)"
    )
    start_timeout: float = Field(
        default=120.0, validation_alias="PRP_LOCAL_START_TIMEOUT", description="seconds the server may take to start"
    )
    # The server answers one request at a time, so concurrent research branches queue: a request's
    # time includes the answers ahead of it.
    timeout: float = Field(
        default=900.0,
        validation_alias="PRP_LOCAL_TIMEOUT",
        description="seconds per local request (the server answers one at a time)",
    )


class ServiceSettings(_Section):
    """The research service (`prp serve`)."""

    api_token: str | None = Field(
        default=None,
        validation_alias="PRP_API_TOKEN",
        repr=False,
        description="`prp serve`: required on every request when set; required to listen beyond loopback",
    )
    # The service watches the folders the library was ingested from (ui/core/folder_watch.py).
    watch_folders: bool = Field(
        default=False,
        validation_alias="PRP_WATCH",
        description="`prp serve`: watch the ingested folders and sync what changes (as `--watch`)",
    )
    # What one client may make the service hold (ui/service/body_limit.py, http_protocol.py, store_quota.py):
    # a request of /api or /mcp is a few paths or a question, never a document (those are uploaded).
    request_max_kb: int = Field(
        default=1024,
        gt=0,
        validation_alias="PRP_REQUEST_MAX_KB",
        description="`prp serve`: largest request body of `/api` and `/mcp` in kilobytes, uploads aside "
        "(`PRP_UPLOAD_MAX_MB`); a larger one is refused with 413 before it is read further",
    )
    ingest_max_paths: int = Field(
        default=1000,
        gt=0,
        validation_alias="PRP_INGEST_MAX_PATHS",
        description="most files, folders and exports one ingest request of `prp serve`'s API or of the MCP "
        "`ingest` tool (`prp mcp --allow-ingest`) may name (422 beyond; a folder counts once, however many "
        "files it holds)",
    )
    header_max_kb: int = Field(
        default=64,
        gt=0,
        validation_alias="PRP_HEADER_MAX_KB",
        description="`prp serve`: largest request line and headers of one request in kilobytes (431 beyond)",
    )
    header_timeout: float = Field(
        default=15.0,
        gt=0,
        validation_alias="PRP_HEADER_TIMEOUT",
        description="`prp serve`: seconds a client has to send a request's line and headers once it has "
        "connected or started the request (408 and the connection closed after)",
    )
    store_max_items: int = Field(
        default=1000,
        gt=0,
        validation_alias="PRP_STORE_MAX_ITEMS",
        description="`prp serve`: most items the LangGraph API's store (`/store/items`) holds (413 beyond)",
    )
    store_max_mb: float = Field(
        default=10.0,
        gt=0,
        validation_alias="PRP_STORE_MAX_MB",
        description="`prp serve`: most megabytes of JSON values the LangGraph API's store holds (413 beyond)",
    )


class ExportSettings(_Section):
    """Exported reports."""

    pdf_font: Path | None = Field(
        default=None,
        validation_alias="PRP_PDF_FONT",
        description="TrueType font embedded in PDF exports, for any Unicode text (unset: DejaVu Sans where the "
        "system has it)",
    )


class ReadingSettings(_Section):
    """Offline mode's reading."""

    calibration: Literal["fitted", "abstain-more", "answer-more"] = Field(
        default="fitted",
        validation_alias="PRP_CALIBRATION",
        description="offline mode's fitted sufficiency figures, a preset of strategies/offline/calibration.py "
        "(each with its fit): `fitted`, `abstain-more` or `answer-more` (see evaluation.md#calibration)",
    )


class Settings(BaseModel):
    """Every section; each built from the environment unless given."""

    # A misspelt section is an error, not a setting silently dropped.
    model_config = ConfigDict(extra="forbid")

    storage: StorageSettings = Field(default_factory=StorageSettings)
    index: IndexSettings = Field(default_factory=IndexSettings)
    embeddings: EmbeddingSettings = Field(default_factory=EmbeddingSettings)
    ingest: IngestSettings = Field(default_factory=IngestSettings)
    limits: LimitSettings = Field(default_factory=LimitSettings)
    llm: LLMSettings = Field(default_factory=LLMSettings)
    local_llm: LocalLLMSettings = Field(default_factory=LocalLLMSettings)
    service: ServiceSettings = Field(default_factory=ServiceSettings)
    exports: ExportSettings = Field(default_factory=ExportSettings)
    reading: ReadingSettings = Field(default_factory=ReadingSettings)

    def updated(self, **sections: dict[str, object]) -> Settings:
        """A copy with some fields of some sections changed: ``settings.updated(index={"qdrant_url": None})``."""
        return self.model_copy(
            update={name: getattr(self, name).model_copy(update=fields) for name, fields in sections.items()}
        )

    @property
    def index_path(self) -> Path:
        """The embedded index (one engine shard per collection)."""
        return self.storage.data_dir / "index" / self.index.collection

    @property
    def models_dir(self) -> Path:
        return self.embeddings.models_path or self.storage.data_dir / "models"

    def describe_store(self) -> str:
        url = self.index.qdrant_url
        return f"Qdrant server {url}" if url else f"embedded Qdrant at {self.index_path}"
