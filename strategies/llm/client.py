"""The chat model for LLM mode: langchain-openai against any OpenAI-compatible endpoint."""

from __future__ import annotations

import httpx
from langchain_openai import ChatOpenAI

from config import STEPS, Settings, Step

# Local servers (Ollama, vLLM, llama.cpp, LM Studio) ignore the key but the client requires one.
PLACEHOLDER_KEY = "not-needed"


def make_chat_models(settings: Settings) -> dict[Step, ChatOpenAI]:
    """Each step's chat model (``PRP_LLM_PLANNING_MODEL``, ...): one client per distinct model."""
    clients: dict[str, ChatOpenAI] = {}
    for model in {settings.llm.model_for(step) for step in STEPS}:
        clients[model] = make_chat_model(settings, model)
    return {step: clients[settings.llm.model_for(step)] for step in STEPS}


def make_chat_model(settings: Settings, model: str | None = None) -> ChatOpenAI:
    """A client of ``model`` (default: ``PRP_LLM_MODEL``) at the configured endpoint."""
    llama_cpp = settings.llm.schema_format == "llama_cpp"
    return ChatOpenAI(
        model=model or settings.llm.model,
        api_key=settings.llm.api_key or PLACEHOLDER_KEY,
        base_url=settings.llm.base_url,
        temperature=0,
        timeout=settings.llm.timeout,
        max_tokens=settings.llm.max_tokens,
        # langchain-openai sends the cap as `max_completion_tokens`, which llama-cpp-python's server ignores.
        extra_body={"max_tokens": settings.llm.max_tokens} if llama_cpp and settings.llm.max_tokens else None,
        # The structured-call helper does its own single, informed retry on malformed output.
        max_retries=2,
        # prp's own local server is on loopback: never route it through a proxy from the environment.
        http_client=httpx.Client(trust_env=False, timeout=settings.llm.timeout)
        if settings.llm.mode == "local"
        else None,
    )
