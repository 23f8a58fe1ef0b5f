"""Parse workers die with the process that started them.

A worker of a ``ProcessPoolExecutor`` holds both ends of its task and result pipes, so when its
parent is killed (``kill -9`` of ``prp serve`` or ``prp ingest``, the out-of-memory killer) it never
reads an end of file: it waits forever, adopted by init, with the parsers' memory (180 MB seen). So
a worker asks to be killed with its parent: on Linux the kernel does it (``PR_SET_PDEATHSIG``, through
libc's ``prctl``), and everywhere a daemon thread looks at the parent's pid every ``WATCH_SECONDS``
and ends the worker once it has changed (the fallback where ``prctl`` is missing).

The kernel's signal comes when the *thread* that started the worker ends: the pool is made and shut
down by the thread that ingests (``corpus.ingest``), which outlives it.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
import threading

PR_SET_PDEATHSIG = 1
#: How often the fallback looks at the parent's pid, in seconds.
WATCH_SECONDS = 1.0


def die_with_parent(parent_pid: int) -> None:
    """In a worker started by ``parent_pid``: end when that process ends."""
    if sys.platform.startswith("linux"):
        _kill_me_with_parent()
    if os.getppid() != parent_pid:  # the parent died before the worker got here
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent_pid,), name="prp-parent-watch", daemon=True).start()


def _kill_me_with_parent() -> None:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # no libc to load (a static build): the watch thread does it
        pass


def _watch_parent(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        threading.Event().wait(WATCH_SECONDS)
    os._exit(1)
