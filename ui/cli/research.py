"""``prp ask`` and ``prp report``: a research run through the core, its progress on stderr, the
report where the user asked for it."""

from __future__ import annotations

import argparse
import sys

from config import Settings
from corpus.errors import PrpError
from ui.cli.follow import follow
from ui.cli.output import write_report
from ui.core.connect import open_portal
from ui.core.jobs import JobEvent
from ui.core.models import RunRequest


def run(settings: Settings, args: argparse.Namespace) -> int:
    def status(step: str, line: str) -> None:
        if not args.quiet:
            print(f"[{step}] {line}", file=sys.stderr, flush=True)

    if args.llm:
        settings = settings.updated(llm={"mode": args.llm})
    topic = args.question if args.command == "ask" else args.topic
    with open_portal(settings, on_status=status) as portal:
        if args.llm and not portal.in_process:
            print(f"prp {args.command}: --llm is ignored: the service runs in its own mode", file=sys.stderr)
        job = portal.research(args.command, RunRequest(topic=topic, options=args.options, thread_id=args.thread))
        thread_id = job.info["thread_id"]
        print(f"prp {args.command}: {job.info['mode']} mode, {portal.where}", file=sys.stderr)

        def on_event(event: JobEvent) -> None:
            if event.event == "progress":
                status(event.data["node"], event.data["line"])

        outcome = follow(portal, job, on_event, f"the run (thread {thread_id})")
    if outcome.report is None:
        reason = outcome.job.error or outcome.job.state.value
        # Named before the run, so a run the model's server broke off can be resumed by it.
        raise PrpError(f"{reason}. The steps done so far are saved: rerun with --thread {thread_id} to resume")
    return write_report(args, outcome.report)
