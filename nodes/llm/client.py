"""The chat model for LLM mode: langchain-openai against any OpenAI-compatible endpoint."""

from __future__ import annotations

from langchain_openai import ChatOpenAI

from corpus.config import Settings

# Local servers (Ollama, vLLM, llama.cpp, LM Studio) ignore the key but the client requires one.
PLACEHOLDER_KEY = "not-needed"


def make_chat_model(settings: Settings) -> ChatOpenAI:
    return ChatOpenAI(
        model=settings.llm_model,
        api_key=settings.openai_api_key or PLACEHOLDER_KEY,
        base_url=settings.openai_base_url,
        temperature=0,
        timeout=settings.llm_timeout,
        # The structured-call helper does its own single, informed retry on malformed output.
        max_retries=2,
    )
