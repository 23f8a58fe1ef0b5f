"""The chat model for LLM mode: langchain-openai against any OpenAI-compatible endpoint."""

from __future__ import annotations

import httpx
from langchain_openai import ChatOpenAI

from corpus.config import Settings

# Local servers (Ollama, vLLM, llama.cpp, LM Studio) ignore the key but the client requires one.
PLACEHOLDER_KEY = "not-needed"


def make_chat_model(settings: Settings) -> ChatOpenAI:
    llama_cpp = settings.llm_schema_format == "llama_cpp"
    return ChatOpenAI(
        model=settings.llm_model,
        api_key=settings.openai_api_key or PLACEHOLDER_KEY,
        base_url=settings.openai_base_url,
        temperature=0,
        timeout=settings.llm_timeout,
        max_tokens=settings.llm_max_tokens,
        # langchain-openai sends the cap as `max_completion_tokens`, which llama-cpp-python's server ignores.
        extra_body={"max_tokens": settings.llm_max_tokens} if llama_cpp and settings.llm_max_tokens else None,
        # The structured-call helper does its own single, informed retry on malformed output.
        max_retries=2,
        # prp's own local server is on loopback: never route it through a proxy from the environment.
        http_client=httpx.Client(trust_env=False, timeout=settings.llm_timeout) if settings.llm == "local" else None,
    )
