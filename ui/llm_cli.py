"""``prp llm serve``: a local OpenAI-compatible model server in the foreground, until Ctrl-C.

It needs no library, so it never holds the embedded index that ``prp report`` in another shell
must open.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from corpus.config import Settings


def add_llm_parser(sub: argparse._SubParsersAction) -> None:
    llm = sub.add_parser("llm", help="a local LLM (llama.cpp, the local-llm extra)")
    actions = llm.add_subparsers(dest="llm_command", required=True)
    serve = actions.add_parser("serve", help="serve a GGUF model on a loopback port until Ctrl-C")
    serve.add_argument(
        "--model-path",
        type=Path,
        help="a GGUF file (default: PRP_LOCAL_MODEL, else Qwen2.5-Coder-0.5B-Instruct from `make setup-llm`)",
    )
    serve.add_argument("--port", type=int, help="loopback port (default: a free one)")


def cmd_llm(settings: Settings, args: argparse.Namespace) -> int:
    from strategies.llm.local_server import LocalLLMServer

    def status(line: str) -> None:
        print(f"[llm] {line}", file=sys.stderr, flush=True)

    server = LocalLLMServer.from_settings(settings, model_path=args.model_path, port=args.port, on_status=status)
    with server:
        print(server.base_url, flush=True)
        client = server.client_settings(settings)
        env = (
            f"OPENAI_BASE_URL={client.openai_base_url} PRP_LLM_MODEL={client.llm_model} "
            f"PRP_LLM_SCHEMA_FORMAT={client.llm_schema_format} PRP_LLM_TIMEOUT={client.llm_timeout:.0f} "
            f"PRP_LLM_MAX_TOKENS={client.llm_max_tokens}"
        )
        status(f'use it from another shell with: {env} prp report "..."   (Ctrl-C here stops the server)')
        try:
            code = server.wait()
        except KeyboardInterrupt:
            status("stopping")
            return 0
    print(f"prp: error: the llama.cpp server exited with code {code}", file=sys.stderr)
    return 1
