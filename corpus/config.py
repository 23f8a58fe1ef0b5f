"""The one ``Settings`` object: every knob prp has, read from the environment (or passed in tests).

Nothing here talks to the network. The defaults run everything on one machine: Qdrant's embedded engine
under the data directory, embedding models assembled from PyPI wheels, SQLite for the registry.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_EMBED_MODEL = "sentence-transformers/all-MiniLM-L6-v2"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=None, extra="ignore", populate_by_name=True)

    data_dir: Path = Field(default=Path(".prp"), validation_alias="PRP_DATA_DIR")
    qdrant_url: str | None = Field(default=None, validation_alias="QDRANT_URL")
    qdrant_api_key: str | None = Field(default=None, validation_alias="QDRANT_API_KEY")
    collection: str = Field(default="prp_chunks", validation_alias="PRP_COLLECTION")
    # Where embedding models are assembled or downloaded; shareable between data directories.
    models_path: Path | None = Field(default=None, validation_alias="PRP_MODELS_DIR")
    embed_model: str = Field(default=DEFAULT_EMBED_MODEL, validation_alias="PRP_EMBED_MODEL")
    # Batches of ~16 keep the ONNX runtime's activations small (a batch of 256 takes 1.4 GB).
    embed_batch_size: int = Field(default=16, validation_alias="PRP_EMBED_BATCH_SIZE")
    # Threads the ONNX runtime embeds with (unset: one per core). The vectors are the same bits whatever
    # the number, so reports do not depend on it (``tests/reliability/test_deterministic_reports.py``).
    embed_threads: int | None = Field(default=None, ge=1, validation_alias="PRP_EMBED_THREADS")
    # Parsing workers run beside the embedding model; one is enough to keep 2 cores busy.
    parse_workers: int = Field(default=1, validation_alias="PRP_PARSE_WORKERS")
    # Chunks one file may make (each embedded, ~0.05 s on a laptop core): a file with more is refused
    # before anything is embedded. A 500-page book makes ~2,500 and 2 MB of Markdown prose ~2,000;
    # 1 MB of base64 makes ~3,300 (the tokenizer reads it a few characters a token).
    max_file_chunks: int = Field(default=10_000, gt=0, validation_alias="PRP_MAX_FILE_CHUNKS")
    # Uploads (the chat and the API of `prp serve`): largest file accepted, in megabytes.
    upload_max_mb: float = Field(default=50.0, gt=0, validation_alias="PRP_UPLOAD_MAX_MB")
    # The research service (`prp serve`): required on every request when set, and required to set
    # before listening beyond loopback.
    api_token: str | None = Field(default=None, validation_alias="PRP_API_TOKEN", repr=False)
    # `prp serve --watch`: the service watches the folders the library was ingested from and syncs
    # what changes in them (ui/core/folder_watch.py).
    watch_folders: bool = Field(default=False, validation_alias="PRP_WATCH")
    # A TrueType font for PDF exports (any Unicode text); unset: DejaVu Sans where the system has it.
    pdf_font: Path | None = Field(default=None, validation_alias="PRP_PDF_FONT")
    shared_dir: Path = Field(
        default=Path(__file__).resolve().parents[1].parent / "shared",
        validation_alias="PRP_SHARED_DIR",
    )

    openai_api_key: str | None = Field(default=None, validation_alias="OPENAI_API_KEY")
    openai_base_url: str | None = Field(default=None, validation_alias="OPENAI_BASE_URL")
    llm_model: str = Field(default="gpt-4o-mini", validation_alias="PRP_LLM_MODEL")
    llm_timeout: float = Field(default=120.0, validation_alias="PRP_LLM_TIMEOUT")
    # Tokens per answer; unset leaves it to the server (local mode caps it, see strategies/llm/local_server.py).
    llm_max_tokens: int | None = Field(default=None, validation_alias="PRP_LLM_MAX_TOKENS")
    # How replies are held to their schema (strategies/llm/structured.py): `json_schema` (OpenAI's
    # structured outputs; vLLM, Ollama, LM Studio, llama-server), `llama_cpp` (`json_object` + `schema`,
    # which llama-cpp-python's server turns into a grammar), `prompt` (the schema in the prompt, parsed
    # and retried), or `auto`: `json_schema`, and `prompt` once the server refuses it.
    llm_schema_format: Literal["auto", "json_schema", "llama_cpp", "prompt"] = Field(
        default="auto", validation_alias="PRP_LLM_SCHEMA_FORMAT"
    )
    # LLM re-ranking: one call per sub-question scores its candidate sentences before the answer.
    llm_rerank: bool = Field(default=True, validation_alias="PRP_LLM_RERANK")
    # Sentences the re-ranking call scores (the best by embedding similarity to the sub-question).
    llm_rerank_candidates: int = Field(default=10, ge=1, le=64, validation_alias="PRP_LLM_RERANK_CANDIDATES")
    # The model as a second reader of its own claims (one call per answer): `auto` asks a served model
    # and not the local 0.5B one (unmeasured there: a small model's reading is no better than its writing).
    llm_reader: Literal["auto", "on", "off"] = Field(default="auto", validation_alias="PRP_LLM_READER")
    # Tokens of evidence sentences (the best and their neighbours) an answer's prompt holds.
    llm_evidence_tokens: int = Field(default=450, ge=50, validation_alias="PRP_LLM_EVIDENCE_TOKENS")
    # `local`: start llama-cpp-python's server on a loopback port for the run (the `local-llm` extra).
    llm: Literal["auto", "local"] = Field(default="auto", validation_alias="PRP_LLM")
    # Any GGUF; unset means Qwen2.5-Coder-0.5B-Instruct, assembled from its PyPI parts into ~/.cache/prp-models.
    local_model_path: Path | None = Field(default=None, validation_alias="PRP_LOCAL_MODEL")
    local_ctx: int = Field(default=8192, validation_alias="PRP_LOCAL_CTX")
    local_threads: int | None = Field(default=None, validation_alias="PRP_LOCAL_THREADS")
    local_start_timeout: float = Field(default=120.0, validation_alias="PRP_LOCAL_START_TIMEOUT")
    # The local server answers one request at a time, so concurrent research branches queue: a
    # request's time includes the answers ahead of it.
    local_timeout: float = Field(default=900.0, validation_alias="PRP_LOCAL_TIMEOUT")

    @property
    def index_path(self) -> Path:
        """The embedded index (one engine shard per collection)."""
        return self.data_dir / "index" / self.collection

    @property
    def local_mode_path(self) -> Path:
        """Where earlier versions kept qdrant-client's local mode store (moved on first open)."""
        return self.data_dir / "qdrant"

    @property
    def registry_path(self) -> Path:
        return self.data_dir / "registry.sqlite"

    @property
    def models_dir(self) -> Path:
        return self.models_path or self.data_dir / "models"

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

    @property
    def uses_embedded_index(self) -> bool:
        return not self.qdrant_url

    def describe_store(self) -> str:
        return f"Qdrant server {self.qdrant_url}" if self.qdrant_url else f"embedded Qdrant at {self.index_path}"
