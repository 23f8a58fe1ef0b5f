"""What one research run costs: seconds per graph step, and in LLM mode model calls and tokens
(prompt and completion, per step), the structured-output path each call took and the retries of
malformed replies (``strategies/llm/structured.py`` tags every request with its step, path and attempt).

``metered()`` installs a LangChain callback handler for everything run inside it, the way LangChain's
own ``get_usage_metadata_callback`` does (a context variable registered as a configure hook), so the
graph is measured exactly as every other entry point runs it.
"""

from __future__ import annotations

import html
import re
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, LLMResult
from langchain_core.tracers.context import register_configure_hook
from pydantic import BaseModel, Field


class Cost(BaseModel):
    seconds: float = 0.0
    node_seconds: dict[str, float] = Field(
        default_factory=dict, description="Per graph step, summed over its runs (concurrent branches add up)."
    )
    node_runs: dict[str, int] = Field(default_factory=dict)
    llm_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    step_tokens: dict[str, int] = Field(
        default_factory=dict, description="Prompt + completion tokens per LLM step (plan, rerank, answer...)."
    )
    structured: dict[str, int] = Field(
        default_factory=dict, description="Calls per structured-output path: json_schema, llama_cpp or prompt."
    )
    retries: int = Field(default=0, description="Calls that asked again after a malformed or cut-off reply.")
    shown: list[str] = Field(
        default_factory=list, description="The evidence sentences the model was shown in its answer prompts."
    )

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens


class CostMeter(BaseCallbackHandler):
    """Times graph steps (LangGraph runs each node as a chain named after it) and counts model calls."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # research branches report from worker threads
        self._started: dict[UUID, tuple[str, float]] = {}
        self._seconds: dict[str, float] = defaultdict(float)
        self._runs: dict[str, int] = defaultdict(int)
        self.llm_calls = 0
        self.input_tokens = 0
        self.output_tokens = 0
        # A structured call's step, path and whether it is a retry, counted once it is answered: a
        # request the server refused its response format on is no call on that path.
        self._calls: dict[UUID, tuple[str, str, bool]] = {}
        self._step_tokens: dict[str, int] = defaultdict(int)
        self._structured: dict[str, int] = defaultdict(int)
        self.retries = 0
        self._shown: dict[str, None] = {}

    def on_chain_start(
        self,
        serialized: dict[str, Any] | None,
        inputs: Any,
        *,
        run_id: UUID,
        name: str | None = None,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        node = (metadata or {}).get("langgraph_node")
        # Only the node's own run: runnables inside a node carry the same metadata under other names.
        if node and (name or "") == node:
            with self._lock:
                self._started[run_id] = (node, time.perf_counter())

    def on_chain_end(self, outputs: Any, *, run_id: UUID, **kwargs: Any) -> None:
        self._stop(run_id)

    def on_chain_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        self._stop(run_id)

    def _stop(self, run_id: UUID) -> None:
        with self._lock:
            started = self._started.pop(run_id, None)
            if started:
                node, t0 = started
                self._seconds[node] += time.perf_counter() - t0
                self._runs[node] += 1

    def on_chat_model_start(
        self,
        serialized: dict[str, Any] | None,
        messages: Any,
        *,
        run_id: UUID,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        metadata = metadata or {}
        with self._lock:
            self.llm_calls += 1
            if "prp_step" in metadata:
                # "answer q2" and "answer q3" are one step.
                step = str(metadata["prp_step"]).split()[0]
                self._calls[run_id] = (step, str(metadata.get("prp_structured")), bool(metadata.get("prp_attempt")))
                if step == "answer":
                    self._shown.update(dict.fromkeys(_evidence_sentences(messages)))

    def on_llm_start(self, serialized: dict[str, Any] | None, prompts: list[str], **kwargs: Any) -> None:
        with self._lock:
            self.llm_calls += 1

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        input_tokens = output_tokens = 0
        for generations in response.generations:
            for generation in generations:
                message = generation.message if isinstance(generation, ChatGeneration) else None
                usage = message.usage_metadata if isinstance(message, AIMessage) else None
                if usage:
                    input_tokens += usage.get("input_tokens", 0)
                    output_tokens += usage.get("output_tokens", 0)
        if not input_tokens and not output_tokens:
            # Older OpenAI-compatible servers report usage only in llm_output.
            usage = (response.llm_output or {}).get("token_usage") or {}
            input_tokens, output_tokens = usage.get("prompt_tokens", 0), usage.get("completion_tokens", 0)
        with self._lock:
            self.input_tokens += input_tokens
            self.output_tokens += output_tokens
            call = self._calls.pop(run_id, None)
            if call:
                step, path, retry = call
                self._step_tokens[step] += input_tokens + output_tokens
                self._structured[path] += 1
                self.retries += retry

    def on_llm_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        with self._lock:
            self._calls.pop(run_id, None)

    def cost(self, seconds: float) -> Cost:
        with self._lock:
            return Cost(
                seconds=round(seconds, 4),
                node_seconds={k: round(v, 4) for k, v in self._seconds.items()},
                node_runs=dict(self._runs),
                llm_calls=self.llm_calls,
                input_tokens=self.input_tokens,
                output_tokens=self.output_tokens,
                step_tokens=dict(self._step_tokens),
                structured=dict(self._structured),
                retries=self.retries,
                shown=list(self._shown),
            )


# An evidence sentence as strategies/llm/evidence.py renders it: "b3.s2 <text>" on a line of its own.
_SENTENCE_LINE = re.compile(r"^b\d+\.s\d+ (.*)$", re.M)


def _evidence_sentences(messages: Any) -> list[str]:
    """The evidence sentences of a chat request's messages (a list of conversations)."""
    found: list[str] = []
    for conversation in messages or []:
        for message in conversation:
            content = getattr(message, "content", "")
            if isinstance(content, str):
                found += [html.unescape(t) for t in _SENTENCE_LINE.findall(content)]
    return found


_current_meter: ContextVar[CostMeter | None] = ContextVar("prp_eval_cost_meter", default=None)
register_configure_hook(_current_meter, inheritable=True)


@contextmanager
def metered() -> Iterator[CostMeter]:
    """Every LangChain/LangGraph run started inside reports to the yielded meter."""
    meter = CostMeter()
    token = _current_meter.set(meter)
    try:
        yield meter
    finally:
        _current_meter.reset(token)
