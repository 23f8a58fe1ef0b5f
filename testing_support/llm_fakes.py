"""Scripted LLMs, faked only at the model boundary.

``ScriptedChatModel`` is a LangChain chat model (``SimpleChatModel``) whose replies come from a script
function of the step and prompt; ``OpenAIStub`` is an OpenAI-compatible HTTP server that answers
``/v1/chat/completions`` from the same kind of script, so the real langchain-openai client runs.
Research branches run concurrently, so scripts answer by what the prompt asks, not by call order.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from langchain_core.language_models.chat_models import SimpleChatModel
from langchain_core.messages import BaseMessage
from pydantic import PrivateAttr

Script = Callable[[str, str], Any]
"""(step, prompt text) -> a JSON-able reply (dict) or a raw string."""


class CutOff(str):
    """A reply ``OpenAIStub`` sends as cut off at the token limit (finish_reason "length")."""


class HttpFailure(int):
    """A reply ``OpenAIStub`` sends as this HTTP status with an error body (a 500, a 503...)."""


class Delayed:
    """A reply ``OpenAIStub`` sends after ``seconds``: longer than the client's timeout, it times out."""

    def __init__(self, seconds: float, reply: Any):
        self.seconds, self.reply = seconds, reply


def step_of(prompt: str) -> str:
    if "Decompose the topic" in prompt or "Restate it as one precise" in prompt:
        return "plan"
    if prompt.startswith("Rate the candidate sentences"):
        return "rerank"
    if "Rewrite the follow-up as one standalone question" in prompt:
        return "condense"
    if prompt.startswith("Sub-question:") or "\nSub-question:" in prompt:
        return "answer"
    if "List the places where two DIFFERENT documents disagree" in prompt:
        return "contradictions"
    if "Write a short report title" in prompt:
        return "summary"
    if prompt.startswith("Read each claim against the sentences cited for it"):
        return "read"
    return "unknown"


def sub_question_of(prompt: str) -> str:
    match = re.search(r"Sub-question: (.*)", prompt)
    return match.group(1).strip() if match else ""


def sentence_ids_in(prompt: str) -> list[str]:
    """The evidence sentences' ids in a prompt, in order."""
    return re.findall(r"^(b\d+\.s\d+) ", prompt, re.M)


class ScriptedChatModel(SimpleChatModel):
    script: Script
    _calls: list[tuple[str, str]] = PrivateAttr(default_factory=list)
    _lock: threading.Lock = PrivateAttr(default_factory=threading.Lock)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    @property
    def calls(self) -> list[tuple[str, str]]:
        return list(self._calls)

    def _call(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any) -> str:
        prompt = messages[-1].content if isinstance(messages[-1].content, str) else str(messages[-1].content)
        # A retry after a malformed answer carries the original prompt earlier in the conversation.
        first_prompt = next((m.content for m in messages if m.type == "human"), prompt)
        step = step_of(first_prompt)
        with self._lock:
            self._calls.append((step, first_prompt))
        reply = self.script(step, first_prompt)
        return reply if isinstance(reply, str) else json.dumps(reply)


class OpenAIStub:
    """A loopback OpenAI-compatible server: ``with OpenAIStub(script) as stub: stub.base_url``.

    ``schema_capable=False`` plays a server that cannot constrain replies: it refuses the
    ``json_schema`` response format with HTTP 400, as llama-cpp-python's server does. ``served_model``:
    the model its replies name whatever was asked for, as a local server names the model it loaded."""

    def __init__(self, script: Script, schema_capable: bool = True, port: int = 0, served_model: str | None = None):
        self.script = script
        self.schema_capable = schema_capable
        self.served_model = served_model
        self.requests: list[dict] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                stub.requests.append(body)
                if not stub.schema_capable and body.get("response_format", {}).get("type") == "json_schema":
                    self._send(400, {"error": {"message": "response_format json_schema is not supported"}})
                    return
                human = [m["content"] for m in body["messages"] if m["role"] == "user"]
                prompt = human[0] if human else ""
                reply = stub.script(step_of(prompt), prompt)
                if isinstance(reply, Delayed):
                    time.sleep(reply.seconds)
                    reply = reply.reply
                if isinstance(reply, HttpFailure):
                    self._send(int(reply), {"error": {"message": "scripted failure", "type": "server_error"}})
                    return
                content = reply if isinstance(reply, str) else json.dumps(reply)
                sent = sum(len(str(m["content"])) for m in body["messages"])
                payload = {
                    "id": f"chatcmpl-{len(stub.requests)}",
                    "object": "chat.completion",
                    "created": 0,
                    "model": stub.served_model or body.get("model", "stub"),
                    "choices": [
                        {
                            "index": 0,
                            "finish_reason": "length" if isinstance(reply, CutOff) else "stop",
                            "message": {"role": "assistant", "content": content},
                        }
                    ],
                    # Four characters a token, every message of the conversation counted.
                    "usage": {
                        "prompt_tokens": sent // 4,
                        "completion_tokens": len(content) // 4,
                        "total_tokens": (sent + len(content)) // 4,
                    },
                }
                self._send(200, payload)

            def _send(self, status: int, payload: dict) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up waiting (a timeout test)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> OpenAIStub:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
