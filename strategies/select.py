"""Which strategy a run uses: LLM mode when an OpenAI-compatible endpoint is configured, offline
mode otherwise; in local LLM mode (``PRP_LLM=local``) the llama.cpp server runs while it is open."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from config import STEPS, Settings
from corpus.errors import ConfigError
from corpus.library import Library
from research.strategy import ResearchStrategy
from strategies.offline.calibration import PRESETS
from strategies.offline.strategy import OfflineStrategy

ProgressCallback = Callable[[str, str], None]
"""Called with (step name, progress line)."""


def llm_configured(settings: Settings) -> bool:
    return bool(settings.llm.api_key or settings.llm.base_url)


def select_strategy(settings: Settings, library: Library) -> ResearchStrategy:
    """LLM mode when an OpenAI-compatible endpoint is configured, offline mode otherwise; LLM mode
    falls back on offline mode's reading where the model's does not stand (``LLMStrategy``).

    Local LLM mode (``PRP_LLM=local``) needs its server running: ``open_strategy`` starts it.
    """
    if settings.llm.mode == "local" and not settings.llm.base_url:
        raise ConfigError("PRP_LLM=local: the local model server is started by open_strategy(), not select_strategy()")
    offline = OfflineStrategy(library.embedder, PRESETS[settings.reading.calibration])
    if llm_configured(settings):
        # Imported only in LLM mode: the OpenAI client and its types take seconds to import, which
        # an offline ``prp ask`` would pay for nothing.
        from strategies.llm.client import make_chat_models
        from strategies.llm.strategy import LLMStrategy

        llms = make_chat_models(settings)
        return LLMStrategy(
            llms["answering"],
            ", ".join(sorted({settings.llm.model_for(step) for step in STEPS})),
            settings.llm.schema_format,
            embedder=library.embedder,
            fallback=offline,
            rerank=settings.llm.rerank,
            rerank_candidates=settings.llm.rerank_candidates,
            evidence_tokens=settings.llm.evidence_budget,
            reader=settings.llm.reader == "on" or (settings.llm.reader == "auto" and settings.llm.mode != "local"),
            step_llms=llms,
        )
    return offline


@contextmanager
def open_strategy(
    settings: Settings, library: Library, on_progress: ProgressCallback | None = None
) -> Iterator[ResearchStrategy]:
    """The strategy for one or more runs; in local LLM mode, llama.cpp's server runs while it is open."""
    if settings.llm.mode != "local":
        yield select_strategy(settings, library)
        return
    from strategies.llm.local_server import LocalLLMServer  # see select_strategy

    status = (lambda line: on_progress("llm", line)) if on_progress else None
    # The server's own log goes beside the data, where a failed start can point to it.
    log_path = settings.storage.data_dir / "llm-server.log"
    with LocalLLMServer.from_settings(settings, log_path=log_path, on_status=status) as server:
        yield select_strategy(server.client_settings(settings), library)
