"""Structured output with one informed retry, then a clear error naming the step."""

from __future__ import annotations

from typing import TypeVar

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_openai.chat_models.base import BaseChatOpenAI
from pydantic import BaseModel, ValidationError

from corpus.errors import PrpError

Schema = TypeVar("Schema", bound=BaseModel)


class LLMOutputError(PrpError):
    """The model's answer for a step could not be parsed, even after one retry."""


def structured_call(llm: BaseChatModel, schema: type[Schema], messages: list[BaseMessage], step: str) -> Schema:
    """Ask for ``schema`` as JSON; on a malformed answer, say what was wrong and ask once more."""
    model = llm
    if isinstance(llm, BaseChatOpenAI):
        # Servers that support it (OpenAI, vLLM, llama.cpp) then constrain decoding to the schema.
        model = llm.bind(
            response_format={
                "type": "json_schema",
                "json_schema": {"name": schema.__name__, "schema": schema.model_json_schema()},
            }
        )
    conversation = list(messages)
    error = ""
    for _attempt in range(2):
        reply = model.invoke(conversation)
        text = _content(reply)
        try:
            return schema.model_validate_json(_strip_fences(text))
        except ValidationError as exc:
            error = _brief(exc)
            conversation += [
                AIMessage(content=text),
                HumanMessage(
                    content=f"That answer was not valid JSON for the required schema ({error}). "
                    "Reply again with only the JSON object."
                ),
            ]
    raise LLMOutputError(f"the model's answer for step '{step}' was malformed twice: {error}")


def _content(reply: BaseMessage) -> str:
    content = reply.content
    if isinstance(content, list):  # content blocks
        return "".join(part.get("text", "") if isinstance(part, dict) else str(part) for part in content)
    return str(content)


def _strip_fences(text: str) -> str:
    text = text.strip()
    if text.startswith("```"):
        text = text.split("\n", 1)[1] if "\n" in text else ""
        text = text.rsplit("```", 1)[0]
    return text.strip()


def _brief(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ())) or "document"
    return f"{where}: {first.get('msg', 'invalid')}"
