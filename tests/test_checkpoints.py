"""Threads an earlier prp wrote: their reports may no longer restore, and are named so, not half-read."""

from __future__ import annotations

import pytest

from graph.checkpoints import StaleThreadError, finished_report
from ui.core.errors import ThreadNotFoundError
from ui.core.exports.record import ReportRecord

# What the serializer hands back for a report type it may no longer restore: the raw fields.
OLD_REPORT = {"title": "Green roofs", "mode": "offline", "markdown": "# Green roofs\n", "citations": []}


def test_a_report_an_earlier_version_wrote_is_a_clear_error():
    assert finished_report("t1", {"topic": "x"}) is None  # still running: no report yet
    with pytest.raises(StaleThreadError, match="thread t1 was written by an earlier version of prp"):
        finished_report("t1", {"report": OLD_REPORT})
    with pytest.raises(ThreadNotFoundError, match="earlier version"):
        ReportRecord.from_state("t1", {"topic": "x", "report": OLD_REPORT})
