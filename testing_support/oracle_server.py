"""Serve the oracle model (``testing_support.oracle_model``) as an OpenAI-compatible endpoint.

    python -m testing_support.oracle_server --dataset prp:../shared/data/docs-dev/questions.jsonl [--lie]
    OPENAI_BASE_URL=<printed url> OPENAI_API_KEY=oracle prp eval prp:... --corpus ...

It prints its base URL, serves until interrupted, and with ``--log FILE`` writes every claim it made
(JSON lines) when it stops, so what the report made of each can be counted.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import signal
import sys
import threading
from pathlib import Path

from testing_support.llm_fakes import OpenAIStub
from testing_support.oracle_model import Oracle


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m testing_support.oracle_server", description=__doc__)
    parser.add_argument("--dataset", required=True, help="KIND:PATH, as prp eval names it")
    parser.add_argument("--lie", action="store_true", help="one word wrong in every claim, and a sweeping claim")
    parser.add_argument("--port", type=int, default=0, help="0: any free port")
    parser.add_argument("--log", type=Path, help="write the claims made here (JSONL) on exit")
    args = parser.parse_args(argv)
    oracle = Oracle.of(args.dataset, lie=args.lie)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with OpenAIStub(oracle, port=args.port) as stub:
        print(stub.base_url, flush=True)
        try:
            stop.wait()
        except KeyboardInterrupt:
            pass
    if args.log:
        args.log.write_text("".join(json.dumps(dataclasses.asdict(s)) + "\n" for s in oracle.said))
    return 0


if __name__ == "__main__":
    sys.exit(main())
