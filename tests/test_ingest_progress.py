"""An ingest's counters (``corpus.ingest_progress``): the time left is estimated by bytes worked, the
skipped files counting on neither side, the file being embedded by its share of chunks written."""

from __future__ import annotations

from corpus.ingest_progress import IngestCounter, clock


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_time_left_is_estimated_by_bytes_worked():
    time = Clock()
    counter = IngestCounter(4, {"a.md": 100, "b.pdf": 300, "c.md": 100, "d.md": 100}, now=time)
    counter.file_done("c.md", pages=0, chunks=0, skipped=True)  # unchanged: no work to learn a rate from
    assert counter.snapshot().eta_seconds is None
    time.now = 10.0
    counter.file_done("a.md", pages=1, chunks=4, skipped=False)
    assert counter.snapshot().eta_seconds == 40.0  # 100 bytes in 10 s, 400 to go
    time.now = 25.0
    counter.chunks_written("b.pdf", 6, 12)  # half of b: 250 bytes worked in 25 s, 250 to go
    progress = counter.snapshot()
    assert (progress.done, progress.pages, progress.chunks, progress.current) == (2, 1, 10, "b.pdf")
    assert progress.eta_seconds == 25.0
    time.now = 30.0
    counter.file_done("b.pdf", pages=7, chunks=12, skipped=False)
    progress = counter.snapshot()
    assert (progress.done, progress.pages, progress.chunks, progress.current) == (3, 8, 16, None)
    assert progress.eta_seconds == 7.5 and progress.chunks_per_second == 16 / 30


def test_a_progress_line_says_the_counts_rates_and_time_left():
    time = Clock()
    counter = IngestCounter(25, {"a.pdf": 10}, now=time)
    time.now = 120.0
    counter.file_done("a.pdf", pages=12, chunks=240, skipped=False)
    line = counter.snapshot().line()
    assert line == (
        "ingest: 1/25 documents, 12 pages, 240 chunks · 0.5 documents/min, 2.0 chunks/s · 2m00s elapsed, ~0s left"
    )
    # Heard nothing for 65 s more (a long file being parsed): the time goes on all the same.
    assert "3m05s elapsed" in counter.snapshot().aged(65).line()
    assert [clock(s) for s in (42, 185, 3720)] == ["42s", "3m05s", "1h02m"]
