"""``prp ingest`` of a large folder as a user runs it, watched from outside: its progress lines (the ones
it prints every few seconds when its output is not a terminal), the RSS of its process tree (the
command and its parse workers) and the disk its data directory takes. Killed with ``kill -9`` once a
given number of documents is done, then run again to finish."""

from __future__ import annotations

import os
import re
import resource
import signal
import subprocess
import threading
import time
from pathlib import Path

from startup import DEFAULT_PRP

#: ``ingest: 123/1,000 documents, 456 pages, 789 chunks · …`` (corpus.ingest_progress.IngestProgress.line)
LINE = re.compile(r"ingest: ([\d,]+)/([\d,]+) documents?, ([\d,]+) pages?, ([\d,]+) chunks?")


def number(text: str) -> int:
    return int(text.replace(",", ""))


def tree(root: int) -> set[int]:
    """A process and all its descendants (Linux /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    found, grew = {root}, True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in found} - found
        found |= more
        grew = bool(more)
    return found


def rss_mb(pids: set[int]) -> float:
    total = 0
    for pid in pids:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        match = re.search(r"VmRSS:\s+(\d+) kB", status)
        total += int(match.group(1)) if match else 0
    return total / 1024


def disk_mb(folder: Path) -> float:
    used = 0
    for base, _, names in os.walk(folder):
        for name in names:
            try:
                used += os.lstat(os.path.join(base, name)).st_blocks * 512
            except OSError:
                continue
    return used / 1e6


class Watch:
    """One ``prp ingest`` process: its lines as they come, peak tree RSS sampled twice a second."""

    def __init__(self, command: list[str], env: dict[str, str]):
        self.started = time.perf_counter()
        self._cpu_before = _children_cpu()
        self.process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.peak_rss_mb = 0.0
        self.pids: set[int] = set()  # every process of its tree seen
        self.lines: list[str] = []
        self._sampler = threading.Thread(target=self._sample, daemon=True)
        self._sampler.start()

    def _sample(self) -> None:
        while self.process.poll() is None:
            pids = tree(self.process.pid)
            self.pids |= pids
            self.peak_rss_mb = max(self.peak_rss_mb, rss_mb(pids))
            time.sleep(0.5)

    def progress(self):
        """(seconds since start, documents done, pages, chunks) for each progress line, as printed."""
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.rstrip())
            match = LINE.search(line)
            if match:
                done, _, pages, chunks = (number(g) for g in match.groups())
                yield time.perf_counter() - self.started, done, pages, chunks

    def alive(self) -> list[int]:
        """Processes of its tree still running (not zombies) after it ended."""
        left = []
        for pid in self.pids - {self.process.pid}:
            try:
                state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if state != "Z":
                left.append(pid)
        return left

    def cpu_seconds(self) -> float:
        """CPU time of the command and of the workers it waited for, once it has ended."""
        return _children_cpu() - self._cpu_before

    def seconds(self) -> float:
        return time.perf_counter() - self.started


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def ingest_with_kill(folder: Path, data_dir: Path, env: dict[str, str], kill_at: int) -> dict:
    """Milestones (documents done → wall seconds, chunks, peak RSS, disk) over a killed run and its resumption."""
    size = sum(1 for _ in folder.iterdir())
    marks = sorted({m for m in (100, 300, kill_at, size) if m <= size})
    command = [*DEFAULT_PRP.split(), "ingest", str(folder)]
    first = Watch(command, env)
    milestones: dict[int, dict] = {}
    killed: dict = {}
    for seconds, done, pages, chunks in first.progress():
        _mark(milestones, marks, done, seconds, pages, chunks, first.peak_rss_mb, data_dir)
        if done >= kill_at:
            first.process.send_signal(signal.SIGKILL)
            first.process.wait()
            killed = {"after_s": round(seconds, 1), "documents_done": done, "chunks": chunks}
            print(f"  killed -9 at {done} documents done ({seconds:.0f} s)", flush=True)
            break
    else:
        first.process.wait()
    first_seconds = killed.get("after_s", first.seconds())
    time.sleep(2)  # the parse workers notice their parent is gone
    orphans = first.alive()
    second = Watch(command, env)
    offset_s, offset_chunks = (killed.get("after_s", 0.0), killed.get("chunks", 0))
    last = None
    for seconds, done, pages, chunks in second.progress():
        last = (seconds, done, pages, chunks)
        _mark(milestones, marks, done, offset_s + seconds, pages, offset_chunks + chunks, second.peak_rss_mb, data_dir)
    code = second.process.wait()
    return {
        "killed": killed,
        "workers_left_after_the_kill": len(orphans),
        "resumed_exit": code,
        "resumed_seconds": round(second.seconds(), 1),
        "cpu_s": round(first.cpu_seconds() + second.cpu_seconds(), 1),
        "resumed_last_line": last,
        "resumed_tail": second.lines[-6:],
        "wall_s": round(first_seconds + second.seconds(), 1),
        "peak_tree_rss_mb": round(max(first.peak_rss_mb, second.peak_rss_mb)),
        "disk_mb": round(disk_mb(data_dir)),
        "milestones": milestones,
    }


def _mark(
    milestones: dict, marks: list[int], done: int, seconds: float, pages: int, chunks: int, rss: float, data_dir: Path
) -> None:
    for mark in marks:
        if done >= mark and mark not in milestones:
            milestones[mark] = {
                "wall_s": round(seconds, 1),
                "pages": pages,
                "chunks": chunks,
                "chunks_per_s": round(chunks / seconds, 2),
                "peak_tree_rss_mb": round(rss),
                "disk_mb": round(disk_mb(data_dir)),
            }
            print(f"  {mark} documents: {milestones[mark]}", flush=True)
