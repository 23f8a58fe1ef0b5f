"""CSV as text, the one way every export writes it: UTF-8 without a byte-order mark, "\\n" line ends,
no cell a spreadsheet would run."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

from corpus.text import strip_controls

# OWASP's CSV-injection guidance: a cell starting with one of these is read by a spreadsheet as a
# formula (a document's first line "=HYPERLINK(...)" is enough); an apostrophe before it makes the
# spreadsheet show the text as written.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_text(columns: Sequence[str], rows: Iterable[dict]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(columns), lineterminator="\n")
    writer.writeheader()
    writer.writerows({name: _inert(value) for name, value in row.items()} for row in rows)
    return out.getvalue()


def _inert(value: object) -> object:
    """A text cell without control characters, and never a formula; numbers as they are."""
    if not isinstance(value, str):
        return value
    value = strip_controls(value)
    return f"'{value}" if value.startswith(_FORMULA_STARTS) else value
