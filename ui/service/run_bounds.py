"""The same bounds on the LangGraph API as on ``/api``, checked before LangGraph's server reads a request.

LangGraph's server (``ui.service.served``) takes any JSON as a run's input: a 1 MB topic was researched
(17.8 MB answered) and kept as a thread. This ASGI middleware reads the body of every request that
changes something on the LangGraph API's routes, at most ``MAX_BODY_BYTES`` of it, and refuses with 422
and the reason, before any run starts or any state is written:

- a run (``/runs``, ``/runs/wait``, ``/runs/stream``, ``/runs/batch``, crons, and each of them on a
  thread): its input holds only ``topic``, ``asked`` (a follow-up as typed) and ``single_question``,
  the topic and the follow-up within ``ui.core.query_limit`` as on ``/api``; its context (the run's
  options) validates as ``ResearchOptions`` with their bounds; a command's state update as an input;
- a thread's state written directly (``POST /threads/{id}/state``, a new thread's ``supersteps``):
  a topic or follow-up in it within the same limit;
- an assistant's context (its default options): ``ResearchOptions``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from pydantic import ValidationError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from research.options import ResearchOptions
from ui.core.errors import QueryTooLongError
from ui.core.query_limit import MAX_QUERY_CHARS, check_query

#: A run's request is a topic of at most 4,000 characters (24 KB as JSON-escaped CJK) and its options
#: (a few hundred document ids at most): 256 KB leaves room for all that and holds no document.
MAX_BODY_BYTES = 256 * 1024
#: What a run's input may hold: the rest of the graph's state is the graph's own work.
INPUT_FIELDS = frozenset({"topic", "asked", "single_question"})
_LANGGRAPH_PREFIXES = ("/runs", "/threads", "/assistants", "/store", "/ui")
_RUN = re.compile(r"^(?:/threads/[^/]+)?/runs(?:/wait|/stream|/batch|/crons)?/?$")
_STATE = re.compile(r"^/threads/[^/]+/state/?$")
_ASSISTANT = re.compile(r"^/assistants(?:/[^/]+)?/?$")
_CHANGING = frozenset({"POST", "PUT", "PATCH"})


class Refused(ValueError):
    """A request over a bound: its message says which and by how much."""


class RunBounds:
    """ASGI middleware: see the module's docstring."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or scope["method"] not in _CHANGING or not _langgraph(path):
            await self.app(scope, receive, send)
            return
        try:
            body, replay = await _read(receive)
            check_request(path, body)
        except Refused as exc:
            await _refuse(send, str(exc))
            return
        await self.app(scope, replay, send)


def _langgraph(path: str) -> bool:
    return any(path == p or path.startswith(f"{p}/") for p in _LANGGRAPH_PREFIXES)


async def _read(receive: Receive) -> tuple[bytes, Receive]:
    """The whole body (``Refused`` past ``MAX_BODY_BYTES``), and a ``receive`` that gives it again."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise Refused("the client disconnected")
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise Refused(
                f"the request is over {MAX_BODY_BYTES // 1024} KB, the limit on the LangGraph API: a topic or "
                f"question is at most {MAX_QUERY_CHARS:,} characters (to add a document, ingest it)"
            )
        chunks.append(chunk)
        if not message.get("more_body"):
            break
    body = b"".join(chunks)
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if sent:
            return await receive()  # what follows the body: the client's disconnect
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return body, replay


def check_request(path: str, body: bytes) -> None:
    """``Refused`` if a request to the LangGraph API at ``path`` with this JSON body is over a bound."""
    try:
        payload = json.loads(body) if body.strip() else {}
    except ValueError:
        return  # not JSON: LangGraph's server refuses it itself, having started nothing
    if _RUN.match(path):
        for run in payload if isinstance(payload, list) else [payload]:  # /runs/batch: a list of runs
            _check_run(run)
    elif _STATE.match(path):
        _check_state(_field(payload, "values"), "the state update")
    elif path.rstrip("/") == "/threads":
        for superstep in _items(_field(payload, "supersteps")):
            for update in _items(_field(superstep, "updates")):
                _check_state(_field(update, "values"), "a superstep's update")
    elif _ASSISTANT.match(path):
        _check_options(_field(payload, "context"))


def _check_run(run: object) -> None:
    if not isinstance(run, dict):
        raise Refused("a run is a JSON object")
    given = run.get("input")
    if given is not None:
        if not isinstance(given, dict):
            raise Refused('a run\'s input is an object: {"topic": "...", "single_question": true}')
        extra = sorted(set(given) - INPUT_FIELDS)
        if extra:
            raise Refused(
                f"a run's input holds only {', '.join(sorted(INPUT_FIELDS))}, not {', '.join(extra)}: "
                "the rest of the research state is the graph's own work"
            )
        topic = given.get("topic")
        if not isinstance(topic, str) or not topic.strip():
            raise Refused("a run's input needs a topic (or a question, with single_question true)")
        _check_state(given, "the input")
    _check_options(run.get("context"))
    command = run.get("command")
    if isinstance(command, dict):
        _check_state(command.get("update"), "the command's update")


def _check_state(values: object, what: str) -> None:
    """A topic and a follow-up in ``values`` (a state update) within the query limit."""
    for update in _items(values):
        if not isinstance(update, dict):
            continue
        for name, kind in (("topic", "topic"), ("asked", "question")):
            text = update.get(name)
            if text is None:
                continue
            if not isinstance(text, str):
                raise Refused(f"{name} in {what} is text")
            if name == "topic" and update.get("single_question"):
                kind = "question"
            try:
                check_query(text, kind)
            except QueryTooLongError as exc:
                raise Refused(str(exc)) from None


def _check_options(context: object) -> None:
    if context is None:
        return
    try:
        ResearchOptions.model_validate(context)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'options'}: {e['msg']}" for e in exc.errors())
        raise Refused(f"the run's options (context) are not valid: {problems}") from None


def _field(payload: object, name: str) -> object:
    return payload.get(name) if isinstance(payload, dict) else None


def _items(value: object) -> Iterator[object]:
    """A list's items; a single value as one; nothing for None."""
    if isinstance(value, list):
        yield from value
    elif value is not None:
        yield value


async def _refuse(send: Send, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 422, "headers": headers})
    await send({"type": "http.response.body", "body": body})
