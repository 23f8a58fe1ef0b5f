"""Structured output: constrained by the schema where the server can, else parsed and retried once.

The paths (``PRP_LLM_SCHEMA_FORMAT``):

- ``json_schema``: OpenAI's structured outputs, ``response_format={"type": "json_schema", ...}``, which
  OpenAI, vLLM, Ollama's OpenAI-compatible endpoint, LM Studio and llama.cpp's own ``llama-server``
  decode under the schema;
- ``llama_cpp``: ``{"type": "json_object", "schema": ...}``, which llama-cpp-python's server compiles
  into a grammar (it refuses ``json_schema``);
- ``prompt``: the schema written into the prompt, for servers that constrain nothing;
- ``auto`` (the default): ``json_schema``, and ``prompt`` for a call the server refuses it on (HTTP 400)
  and, once refused, for the caller's later calls.

Whatever the path, a reply that does not parse is retried once with what was wrong, then fails naming
the step. Each request carries its step, path and attempt as run metadata, so the cost meter
(``evals/cost.py``) counts the path a run used and its retries.
"""

from __future__ import annotations

import json
from typing import Literal, TypeVar

import openai
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_openai.chat_models.base import BaseChatOpenAI
from pydantic import BaseModel, ValidationError

from corpus.errors import PrpError
from strategies.reading.tuning import TUNING

Schema = TypeVar("Schema", bound=BaseModel)
SchemaFormat = Literal["auto", "json_schema", "llama_cpp", "prompt"]
Path = Literal["json_schema", "llama_cpp", "prompt"]


class LLMOutputError(PrpError):
    """The model's answer for a step could not be parsed, even after one retry."""


class LLMServiceError(PrpError):
    """The model's server could not be reached, timed out or kept failing (after the client's retries)."""


def structured_call(
    llm: BaseChatModel,
    schema: type[Schema],
    messages: list[BaseMessage],
    step: str,
    schema_format: SchemaFormat = "auto",
    refused: set[str] | None = None,
    served: set[str] | None = None,
) -> Schema:
    """Ask for ``schema`` as JSON on the configured path; on a malformed or cut-off answer, say what was
    wrong and ask once more. ``refused``: the paths this server has refused so far, kept by the caller
    across its calls, so that under ``auto`` only its first calls ask for what the server cannot do.
    ``served``: gets the model each reply names (an OpenAI-compatible server's ``model``), which may
    not be the one asked for (a local server answers with the model it has loaded)."""
    refused = set() if refused is None else refused
    path: Path = "json_schema" if schema_format == "auto" else schema_format
    if not isinstance(llm, BaseChatOpenAI) or (schema_format == "auto" and path in refused):
        path = "prompt"  # only an OpenAI-compatible client sends a response format, and only if taken
    try:
        return _attempts(llm, schema, messages, step, path, served)
    except _Refused:
        if schema_format != "auto":
            raise LLMServiceError(
                f"step '{step}': the language model server refused the {path} response format; "
                "set PRP_LLM_SCHEMA_FORMAT=auto or prompt"
            ) from None
        refused.add(path)
        return _attempts(llm, schema, messages, step, "prompt", served)


class _Refused(Exception):
    """The server refused the response format (HTTP 400): it cannot constrain replies that way."""


def _attempts(
    llm: BaseChatModel,
    schema: type[Schema],
    messages: list[BaseMessage],
    step: str,
    path: Path,
    served: set[str] | None = None,
) -> Schema:
    model = llm if path == "prompt" else llm.bind(response_format=response_format(schema, path))
    conversation = list(messages)
    if path == "prompt":
        # Unconstrained decoding: the model needs the schema in words.
        last = conversation[-1]
        conversation[-1] = HumanMessage(content=f"{last.content}\n\nJSON schema: {_schema_text(schema)}")
    error = ""
    for attempt in range(2):
        config = {"metadata": {"prp_step": step, "prp_structured": path, "prp_attempt": attempt}}
        try:
            reply = model.invoke(conversation, config=config)
            if served is not None and (name := (reply.response_metadata or {}).get("model_name")):
                served.add(str(name))
        except openai.BadRequestError as exc:
            if path != "prompt" and attempt == 0:
                raise _Refused from exc
            raise LLMServiceError(
                f"step '{step}': the language model server answered HTTP 400 ({_describe(exc)})"
            ) from None
        except openai.APIConnectionError as exc:  # includes timeouts
            raise LLMServiceError(
                f"step '{step}': the language model server did not answer ({_describe(exc)})"
            ) from None
        except openai.APIStatusError as exc:
            raise LLMServiceError(
                f"step '{step}': the language model server answered HTTP {exc.status_code} ({_describe(exc)})"
            ) from None
        except openai.LengthFinishReasonError:
            error = "cut off at the token limit"
            conversation.append(
                HumanMessage(
                    content="That answer was too long and was cut off. Reply again with a shorter JSON object: "
                    "fewer and shorter items."
                )
            )
            continue
        text = _content(reply)
        try:
            return _parse(schema, _strip_fences(text))
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


def _schema_text(schema: type[BaseModel]) -> str:
    return json.dumps(schema.model_json_schema(), separators=(",", ":"))


def _describe(exc: openai.APIError) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text[:200]}" if text else type(exc).__name__


def response_format(schema: type[BaseModel], path: Path) -> dict:
    json_schema = schema.model_json_schema()
    if path == "llama_cpp":
        # llama-cpp-python's server accepts only `text`/`json_object` and compiles this schema to a grammar.
        return {"type": "json_object", "schema": _bounded(json_schema)}
    return {
        "type": "json_schema",
        "json_schema": {"name": schema.__name__, "schema": _strict(json_schema), "strict": True},
    }


# Keywords OpenAI's strict mode may refuse; the reply is validated by pydantic after decoding anyway.
_NOT_STRICT = {"default", "minimum", "maximum", "minItems", "maxItems", "minLength", "maxLength", "pattern", "format"}


def _strict(node: object) -> object:
    """The schema as OpenAI's strict mode takes it (and so decodes under it, not best-effort): every
    property required, no others allowed, no keyword it refuses. Servers that do not check strictness
    (vLLM, Ollama) decode under it all the same."""
    if isinstance(node, list):
        return [_strict(n) for n in node]
    if not isinstance(node, dict):
        return node
    strict = {k: _strict(v) for k, v in node.items() if k not in _NOT_STRICT and k != "properties"}
    if isinstance(node.get("properties"), dict):
        strict["properties"] = {name: _strict(v) for name, v in node["properties"].items()}
        strict["required"] = list(node["properties"])
        strict["additionalProperties"] = False
    return strict


def _bounded(node: object) -> object:
    """The schema as a grammar should enforce it for a small model: every field written (optional
    fields are otherwise skipped: a 135M model answers ``{"sufficient": false}`` without any claims),
    and every list and string capped (``TUNING.llm.grammar_max_items``, ``TUNING.llm.grammar_max_chars``): it could otherwise
    repeat items or words until the token limit cuts the answer off."""
    if isinstance(node, list):
        return [_bounded(n) for n in node]
    if not isinstance(node, dict):
        return node
    bounded = {k: (v if k == "properties" else _bounded(v)) for k, v in node.items()}
    if isinstance(node.get("properties"), dict):
        bounded["properties"] = {name: _bounded(v) for name, v in node["properties"].items()}
        bounded["required"] = list(node["properties"])
    if bounded.get("type") == "array":
        bounded.setdefault("maxItems", TUNING.llm.grammar_max_items)
    if bounded.get("type") == "string":
        bounded.setdefault("maxLength", TUNING.llm.grammar_max_chars)
    return bounded


def _parse(schema: type[Schema], text: str) -> Schema:
    try:
        # Not strict: llama.cpp's schema grammars let raw newlines and tabs into strings, which is
        # harmless here but invalid JSON to a strict parser.
        data = json.loads(text, strict=False)
    except json.JSONDecodeError:
        return schema.model_validate_json(text)  # raises the ValidationError that says what is wrong
    return schema.model_validate(data)


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
