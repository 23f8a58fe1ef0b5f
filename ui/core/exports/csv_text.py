"""CSV as text, the one way every export writes it: UTF-8 without a byte-order mark, "\\n" line ends."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence


def csv_text(columns: Sequence[str], rows: Iterable[dict]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(columns), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()
