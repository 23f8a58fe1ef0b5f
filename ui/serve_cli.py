"""``prp ui``: serve the research chat on this machine."""

from __future__ import annotations

import argparse
import sys

from corpus.library import Library

LOOPBACK = {"127.0.0.1", "localhost", "::1"}


def add_ui_parser(sub: argparse._SubParsersAction) -> None:
    ui = sub.add_parser("ui", help="open the research chat (Gradio) in your browser")
    ui.add_argument("--host", default="127.0.0.1", help="interface to listen on (default 127.0.0.1: this machine only)")
    ui.add_argument("--port", type=int, default=7860, help="port (default 7860)")
    ui.add_argument(
        "--llm",
        choices=["auto", "local"],
        help="local: run a local llama.cpp model while the UI runs (default: PRP_LLM, else auto)",
    )


def cmd_ui(library: Library, args: argparse.Namespace) -> int:
    from strategies.select import open_strategy
    from ui.app import serve

    settings = library.settings.model_copy(update={"llm": args.llm}) if args.llm else library.settings
    if args.host not in LOOPBACK:
        print(
            f"prp ui: listening on {args.host}: anyone who can reach this port can read and change your "
            "library (there is no login)",
            file=sys.stderr,
        )

    def status(node: str, line: str) -> None:
        print(f"[{node}] {line}", file=sys.stderr, flush=True)

    with open_strategy(settings, library, status) as strategy:
        print(
            f"prp ui: {strategy.mode} mode, {settings.describe_store()}; open http://{args.host}:{args.port}/ "
            "(Ctrl-C stops it)",
            file=sys.stderr,
            flush=True,
        )
        serve(library, strategy, args.host, args.port, block=True)
    return 0
