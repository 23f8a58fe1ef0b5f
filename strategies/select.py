"""Which strategy a run uses: LLM mode when an OpenAI-compatible endpoint is configured, offline
mode otherwise; in local LLM mode (``PRP_LLM=local``) the llama.cpp server runs while it is open."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from corpus.config import Settings
from corpus.errors import ConfigError
from corpus.library import Library
from research.strategy import ResearchStrategy
from strategies.llm.client import make_chat_model
from strategies.llm.local_server import LocalLLMServer
from strategies.llm.strategy import LLMStrategy
from strategies.offline.strategy import OfflineStrategy

ProgressCallback = Callable[[str, str], None]
"""Called with (step name, progress line)."""


def llm_configured(settings: Settings) -> bool:
    return bool(settings.openai_api_key or settings.openai_base_url)


def select_strategy(settings: Settings, library: Library) -> ResearchStrategy:
    """LLM mode when an OpenAI-compatible endpoint is configured, offline mode otherwise; LLM mode
    falls back on offline mode's reading where the model's does not stand (``LLMStrategy``).

    Local LLM mode (``PRP_LLM=local``) needs its server running: ``open_strategy`` starts it.
    """
    if settings.llm == "local" and not settings.openai_base_url:
        raise ConfigError("PRP_LLM=local: the local model server is started by open_strategy(), not select_strategy()")
    offline = OfflineStrategy(library.embedder)
    if llm_configured(settings):
        return LLMStrategy(
            make_chat_model(settings),
            settings.llm_model,
            settings.llm_schema_format,
            embedder=library.embedder,
            fallback=offline,
            rerank=settings.llm_rerank,
            rerank_candidates=settings.llm_rerank_candidates,
            evidence_tokens=settings.llm_evidence_tokens,
            reader=settings.llm_reader == "on" or (settings.llm_reader == "auto" and settings.llm != "local"),
        )
    return offline


@contextmanager
def open_strategy(
    settings: Settings, library: Library, on_progress: ProgressCallback | None = None
) -> Iterator[ResearchStrategy]:
    """The strategy for one or more runs; in local LLM mode, llama.cpp's server runs while it is open."""
    if settings.llm != "local":
        yield select_strategy(settings, library)
        return
    status = (lambda line: on_progress("llm", line)) if on_progress else None
    # The server's own log goes beside the data, where a failed start can point to it.
    log_path = settings.data_dir / "llm-server.log"
    with LocalLLMServer.from_settings(settings, log_path=log_path, on_status=status) as server:
        yield select_strategy(server.client_settings(settings), library)
