"""Decompression bombs: a PDF stream that inflates to gigabytes from a few kilobytes.

pdfminer inflates a content stream whole, in memory, before reading it: a 1 MB PDF whose page
content is a FlateDecode stream of 1 GB of spaces took 14 s and 3 GB of memory to open here, and a
10 MB one would exhaust the machine and take the ingest down with it. So before a PDF is opened its
Flate streams are inflated *without keeping the output*, a megabyte at a time, and a stream that grows
past ``MAX_STREAM_BYTES`` at a ratio beyond ``MAX_RATIO`` stops the file. Real streams do not: page
content compresses 3-10 to 1. Image streams are left alone: pdfminer never inflates them to read text,
and a large blank scan does inflate at such ratios.
"""

from __future__ import annotations

import re
import zlib

MAX_STREAM_BYTES = 64 * 1024 * 1024
MAX_RATIO = 200
STEP = 1 << 20

_STREAM = re.compile(rb"(?<!end)stream\r?\n")


def bomb_stream(data: bytes) -> str | None:
    """Why ``data`` (a whole PDF) is a decompression bomb, or None."""
    view = memoryview(data)
    for match in _STREAM.finditer(data):
        # Images are never inflated to read text (a large blank scan does inflate hugely): skip them.
        header = data[max(0, data.rfind(b" obj", 0, match.start())) : match.start()]
        if b"/Image" in header:
            continue
        start = match.end()
        end = data.find(b"endstream", start)
        packed = view[start : end if end >= 0 else len(data)]
        inflated, consumed = _inflated_ratio(packed)
        if inflated > MAX_STREAM_BYTES and inflated > MAX_RATIO * consumed:
            return (
                f"a stream of {len(packed):,} bytes inflates to more than {MAX_STREAM_BYTES // (1 << 20)} MB "
                "(a decompression bomb)"
            )
    return None


def _inflated_ratio(packed: memoryview) -> tuple[int, int]:
    """Bytes the stream inflates to (counted up to just past the limit) and the packed bytes they came
    from; (0, n) when it is not Flate data."""
    inflater = zlib.decompressobj()
    size = 0
    pending: bytes | memoryview = packed
    try:
        # Past the end of the Flate data (a trailing newline) the tail is never consumed: stop at eof.
        while pending and size <= MAX_STREAM_BYTES and not inflater.eof:
            size += len(inflater.decompress(pending, STEP))
            pending = inflater.unconsumed_tail
    except zlib.error:
        pass
    return size, len(packed) - len(pending)
