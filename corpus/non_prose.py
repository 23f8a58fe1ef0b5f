"""Runs of text no reader reads: images inline as ``data:`` URIs, base64 and hex blobs, tokens
hundreds of characters long without a space. Kept in the document's blocks (a citation still
resolves to the block as written) but out of its chunks, so they are neither embedded (a 1 MB blob
made 3,284 chunks and took minutes) nor matched by a search; the ingest summary names them.

What counts, token by token (whitespace-separated):

- a **data URI**: a token holding ``data:<type>/<subtype>`` followed by ``;`` or ``,``, from
  ``data:`` on (the ``![figure](`` before it is kept), and the blob tokens right after it (an
  exporter wraps base64 at 76 characters);
- a **blob**: consecutive tokens of the base64 or hex alphabets, each at least ``BLOB_TOKEN``
  characters long with a digit in it, together at least ``BLOB_RUN`` characters (a commit hash or a
  checksum on its own, or two, is an identifier someone may search for, and stays);
- a **long token**: any token of ``LONG_TOKEN`` characters or more (no word, URL or identifier is
  that long).

Linear in the text: one pass over its tokens.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from pydantic import BaseModel

LONG_TOKEN = 200
BLOB_TOKEN = 40
BLOB_RUN = 200

DATA_URI = "data: URI"
BLOB = "base64 or hex blob"
LONG = "long token without spaces"
_PLURALS = {DATA_URI: "data: URIs", BLOB: "base64 or hex blobs", LONG: "long tokens without spaces"}

_TOKEN = re.compile(r"\S+")
_DATA = re.compile(r"data:[a-z]+/[a-z0-9.+-]+[;,]", re.IGNORECASE)
_BLOB = re.compile(r"[A-Za-z0-9+/=_-]+")
_CANDIDATE = re.compile(rf"data:|[A-Za-z0-9+/=_-]{{{BLOB_TOKEN}}}|\S{{{LONG_TOKEN}}}", re.IGNORECASE)
# Closing brackets and quotes after a blob belong to the markup around it, not to the run.
_CLOSERS = ")]}>\"'.,;"


@dataclass(frozen=True)
class Run:
    start: int
    end: int
    kind: str


class NonProse(BaseModel):
    """What was kept out of a document's chunks, per kind: how many runs and how many characters."""

    kind: str
    runs: int
    chars: int

    def describe(self) -> str:
        """ "3 data: URIs (1.9 MB)"."""
        return f"{self.runs} {self.kind if self.runs == 1 else _PLURALS[self.kind]} ({_size(self.chars)})"


def runs(text: str) -> list[Run]:
    """The non-prose runs of ``text``, in order, without overlaps."""
    if _CANDIDATE.search(text) is None:  # ordinary prose: one pass in C, no token looked at
        return []
    found: list[Run] = []
    current: list[int] = []  # start, end of the run being built
    kind = ""
    open_ended = False  # the run's last token was a full blob line: a short last line may follow
    for match in _TOKEN.finditer(text):
        start, end = match.span()
        token = match.group()
        data = _DATA.search(token)
        core = token.rstrip(_CLOSERS)
        if data is not None:
            _close(found, current, kind)
            current, kind = [start + data.start(), start + len(core)], DATA_URI
        elif current and (_blobby(core) or (open_ended and _tail(core))):
            current[1] = start + len(core)
        elif _blobby(core):
            current, kind = [start, start + len(core)], BLOB
        elif len(token) >= LONG_TOKEN:
            _close(found, current, kind)
            found.append(Run(start, end, LONG))
            current, kind = [], ""
        else:
            _close(found, current, kind)
            current, kind = [], ""
        open_ended = bool(current) and core == token and len(core) >= BLOB_TOKEN
    _close(found, current, kind)
    return found


def strip(text: str) -> str:
    """``text`` without its non-prose runs (a space before each one dropped, so none doubles)."""
    found = runs(text)
    if not found:
        return text
    pieces, last = [], 0
    for run in found:
        pieces.append(text[last : run.start].rstrip(" \t"))
        last = run.end
    pieces.append(text[last:])
    return "".join(pieces).strip()


def summarise(texts: Iterable[str]) -> list[NonProse]:
    """Per kind, the runs of all ``texts`` (a document's blocks), in a fixed order."""
    counts: dict[str, list[int]] = {}
    for text in texts:
        for run in runs(text):
            entry = counts.setdefault(run.kind, [0, 0])
            entry[0] += 1
            entry[1] += run.end - run.start
    order = (DATA_URI, BLOB, LONG)
    return [NonProse(kind=k, runs=counts[k][0], chars=counts[k][1]) for k in order if k in counts]


def _blobby(token: str) -> bool:
    return len(token) >= BLOB_TOKEN and any(c.isdigit() for c in token) and _BLOB.fullmatch(token) is not None


def _tail(token: str) -> bool:
    """The short last line of a wrapped blob: its alphabet, and a character no word has."""
    return _BLOB.fullmatch(token) is not None and any(c.isdigit() or c in "+/=" for c in token)


def _close(found: list[Run], current: list[int], kind: str) -> None:
    """Keep the run being built if it is one: a data URI always, a blob when long enough."""
    if not current:
        return
    start, end = current
    if kind == DATA_URI or end - start >= BLOB_RUN:
        found.append(Run(start, end, kind))


def _size(chars: int) -> str:
    if chars >= 1_000_000:
        return f"{chars / 1_000_000:.1f} MB"
    if chars >= 1_000:
        return f"{chars / 1_000:.0f} KB"
    return f"{chars} characters"
