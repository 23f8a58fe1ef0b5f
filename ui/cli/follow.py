"""Following a job from the command line until it ends."""

from __future__ import annotations

import sys
from collections.abc import Callable

from ui.core.jobs import JobEvent, JobView
from ui.core.models import JobOutcome
from ui.core.portal import Portal


def follow(portal: Portal, job: JobView, on_event: Callable[[JobEvent], None], what: str) -> JobOutcome:
    """The job's outcome, its events handed to ``on_event`` on the way. Ctrl-C stops the reading;
    a job that goes on without this process (a service's) is left running, with how to find it."""
    try:
        return portal.follow(job.job_id, on_event)
    except KeyboardInterrupt:
        if portal.job(job.job_id).state.finished:  # it ran in this process, and stopped with it
            raise
        print(
            f"\nprp: stopped following; {what} goes on, {portal.where} "
            f"(job {job.job_id}: GET /api/jobs/{job.job_id}, cancel with POST /api/jobs/{job.job_id}/cancel)",
            file=sys.stderr,
        )
        raise SystemExit(130) from None
