"""``prp llm serve``: a local OpenAI-compatible model server in the foreground, until Ctrl-C.

It needs no library, so it never holds the embedded index that ``prp report`` in another shell
must open.
"""

from __future__ import annotations

import argparse
import sys

from config import Settings
from strategies.llm.local_server import LocalLLMServer


def run(settings: Settings, args: argparse.Namespace) -> int:
    def status(line: str) -> None:
        print(f"[llm] {line}", file=sys.stderr, flush=True)

    server = LocalLLMServer.from_settings(settings, model_path=args.model_path, port=args.port, on_status=status)
    with server:
        print(server.base_url, flush=True)
        client = server.client_settings(settings)
        env = (
            f"OPENAI_BASE_URL={client.llm.base_url} PRP_LLM_MODEL={client.llm.model} "
            f"PRP_LLM_SCHEMA_FORMAT={client.llm.schema_format} PRP_LLM_TIMEOUT={client.llm.timeout:.0f} "
            f"PRP_LLM_MAX_TOKENS={client.llm.max_tokens}"
        )
        status(f'use it from another shell with: {env} prp report "..."   (Ctrl-C here stops the server)')
        try:
            code = server.wait()
        except KeyboardInterrupt:
            status("stopping")
            return 0
    print(f"prp: error: the llama.cpp server exited with code {code}", file=sys.stderr)
    return 1
