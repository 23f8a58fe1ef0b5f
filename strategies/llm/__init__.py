"""LLM mode: the research strategy backed by an OpenAI-compatible chat model."""
