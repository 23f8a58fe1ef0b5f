"""The same bounds on the LangGraph API as on ``/api``, checked before LangGraph's server reads a request.

LangGraph's server (``ui.service.served``) takes any JSON as a run's input: a 1 MB topic was researched
(17.8 MB answered) and kept as a thread. This ASGI middleware reads the body of every request that
changes something on the LangGraph API's routes, at most ``MAX_BODY_BYTES`` of it, and refuses with 422
and the reason, before any run starts or any state is written:

- a run (``/runs``, ``/runs/wait``, ``/runs/stream``, ``/runs/batch``, crons, and each of them on a
  thread): its input validates as ``RunInput`` (``topic`` as ``/api``'s ``RunRequest`` takes it,
  ``asked``, a follow-up as typed, and ``single_question``, a true or false: ``"yes please"`` ran as
  true), the topic and the follow-up within ``ui.core.query_limit`` as on ``/api``; its options, the
  context or else ``config.configurable`` (which the server passes on as the context: ``k=100000``
  there was answered 200 with the error inside), validate as ``ResearchOptions`` with their bounds; a
  command's state update as an input; a command's ``goto`` only on a thread that has a research
  state (on a new one it left a thread without a topic listed);
- a thread's state written directly (``POST /threads/{id}/state``, a new thread's ``supersteps``):
  a topic or follow-up in it within the same limit;
- an assistant's context or ``config.configurable`` (its default options): ``ResearchOptions``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator

import anyio
from pydantic import BaseModel, ConfigDict, ValidationError
from starlette.types import ASGIApp, Receive, Scope, Send

from research.options import ResearchOptions
from ui.core.errors import QueryTooLongError
from ui.core.models import RunRequest
from ui.core.query_limit import MAX_QUERY_CHARS, check_query
from ui.service.body_limit import BodyTooLarge, ClientGone, read_body, refuse

#: A run's request is a topic of at most 4,000 characters (24 KB as JSON-escaped CJK) and its options
#: (a few hundred document ids at most): 256 KB leaves room for all that and holds no document.
MAX_BODY_BYTES = 256 * 1024
_TOO_LARGE = (
    f"the request is over {MAX_BODY_BYTES // 1024} KB, the limit on the LangGraph API: a topic or "
    f"question is at most {MAX_QUERY_CHARS:,} characters (to add a document, ingest it)"
)
_LANGGRAPH_PREFIXES = ("/runs", "/threads", "/assistants", "/store", "/ui")
_RUN = re.compile(r"^(?:/threads/(?P<thread>[^/]+))?/runs(?:/wait|/stream|/batch|/crons)?/?$")
_STATE = re.compile(r"^/threads/[^/]+/state/?$")
_ASSISTANT = re.compile(r"^/assistants(?:/[^/]+)?/?$")
_CHANGING = frozenset({"POST", "PUT", "PATCH"})


class RunInput(BaseModel):
    """What a run's input may hold: the topic (as ``/api``'s ``RunRequest`` takes it), a follow-up as
    typed and whether the topic is one question; the rest of the graph's state is the graph's own work.
    Strict: ``"yes please"`` is not a true or false."""

    model_config = ConfigDict(extra="forbid", strict=True)

    topic: str = RunRequest.model_fields["topic"]
    asked: str | None = None
    single_question: bool = False


class Refused(ValueError):
    """A request over a bound: its message says which and by how much."""


class RunBounds:
    """ASGI middleware: see the module's docstring. ``thread_started(thread_id)``: whether the
    thread has a research state (a topic) that a command's ``goto`` could move on from."""

    def __init__(self, app: ASGIApp, thread_started: Callable[[str], bool]):
        self.app = app
        self.thread_started = thread_started

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or scope["method"] not in _CHANGING or not _langgraph(path):
            await self.app(scope, receive, send)
            return
        try:
            body, replay = await read_body(receive, MAX_BODY_BYTES)
            payload = check_request(path, body)
            await self._check_goto(path, payload)
        except BodyTooLarge:
            await refuse(send, 422, _TOO_LARGE)
            return
        except Refused as exc:
            await refuse(send, 422, str(exc))
            return
        except ClientGone:
            return
        await self.app(scope, replay, send)

    async def _check_goto(self, path: str, payload: object) -> None:
        """A command's ``goto`` runs a step of a research already under way: on a new thread it
        would leave a thread without a topic in the list, so it is refused there."""
        run = _RUN.match(path)
        if run is None or not any(_field(_field(r, "command"), "goto") for r in _items(payload)):
            return
        thread_id = run.group("thread")
        if thread_id is None or not await anyio.to_thread.run_sync(self.thread_started, thread_id):
            where = f"thread {thread_id}" if thread_id else "a new thread"
            raise Refused(
                f"command.goto moves a research under way to a step, and {where} has none: start it with an "
                'input ({"topic": "..."}) first'
            )


def _langgraph(path: str) -> bool:
    return any(path == p or path.startswith(f"{p}/") for p in _LANGGRAPH_PREFIXES)


def check_request(path: str, body: bytes) -> object:
    """The JSON of a request to the LangGraph API at ``path``; ``Refused`` if it is over a bound."""
    try:
        payload = json.loads(body) if body.strip() else {}
    except ValueError:
        return None  # not JSON: LangGraph's server refuses it itself, having started nothing
    if _RUN.match(path):
        for run in payload if isinstance(payload, list) else [payload]:  # /runs/batch: a list of runs
            _check_run(run)
    elif _STATE.match(path):
        _check_state(_field(payload, "values"), "the state update")
    elif path.rstrip("/") == "/threads":
        for superstep in _items(_field(payload, "supersteps")):
            for update in _items(_field(superstep, "updates")):
                _check_state(_field(update, "values"), "a superstep's update")
    elif _ASSISTANT.match(path) and isinstance(payload, dict):
        _check_options(_options(payload))
    return payload


def _check_run(run: object) -> None:
    if not isinstance(run, dict):
        raise Refused("a run is a JSON object")
    given = run.get("input")
    if given is not None:
        _check_input(given)
        _check_state(given, "the input")
    _check_options(_options(run))
    command = run.get("command")
    if isinstance(command, dict):
        _check_state(command.get("update"), "the command's update")


def _check_input(given: object) -> None:
    """``given`` as ``RunInput`` validates it: nothing but a topic, a follow-up and a true or false."""
    if not isinstance(given, dict):
        raise Refused('a run\'s input is an object: {"topic": "...", "single_question": true}')
    try:
        RunInput.model_validate(given)
    except ValidationError as exc:
        extra = sorted(str(e["loc"][0]) for e in exc.errors() if e["type"] == "extra_forbidden")
        if extra:
            raise Refused(
                f"a run's input holds only {', '.join(sorted(RunInput.model_fields))}, not {', '.join(extra)}: "
                "the rest of the research state is the graph's own work"
            ) from None
        if not any(e["loc"] == ("topic",) and e["type"] == "missing" for e in exc.errors()):
            raise Refused(f"a run's input is not valid: {_problems(exc)}") from None
    topic = given.get("topic")
    if not isinstance(topic, str) or not topic.strip():
        raise Refused("a run's input needs a topic (or a question, with single_question true)")


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
        raise Refused(f"the run's options (context or configurable) are not valid: {_problems(exc)}") from None


def _options(payload: dict) -> object:
    """The options a run or an assistant gives: its context, else the option fields of its
    ``config.configurable``, which LangGraph's server passes to the graph as the context."""
    context = payload.get("context")
    if context is not None:
        return context
    configurable = _field(_field(payload, "config"), "configurable")
    if not isinstance(configurable, dict):
        return None
    given = {name: value for name, value in configurable.items() if name in ResearchOptions.model_fields}
    return given or None


def _problems(exc: ValidationError) -> str:
    return "; ".join(f"{'.'.join(map(str, e['loc'])) or 'value'}: {e['msg']}" for e in exc.errors())


def _field(payload: object, name: str) -> object:
    return payload.get(name) if isinstance(payload, dict) else None


def _items(value: object) -> Iterator[object]:
    """A list's items; a single value as one; nothing for None."""
    if isinstance(value, list):
        yield from value
    elif value is not None:
        yield value
