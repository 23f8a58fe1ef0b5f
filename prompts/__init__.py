"""Prompt templates for LLM mode, one module per step. Document text is always passed as fenced data."""
