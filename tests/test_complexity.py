"""Product functions stay small: at most 15 by radon's cyclomatic count and at most 60 lines.

radon counts boolean operators as branches (ruff's C901 does not, so ruff alone lets a function of
`a and b or c` chains grow unseen). The functions already over a line when the ceiling came in are
listed in ``complexity_debt.json`` with the figure they had: each may shrink, none may grow, a new
function may not join them, and an entry that is paid off (or renamed) must leave the list, so the
list only gets shorter. ``python tests/test_complexity.py --write`` rewrites it from the code.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

from radon.complexity import cc_visit
from radon.visitors import Class, Function

ROOT = Path(__file__).resolve().parent.parent
DEBT = Path(__file__).with_name("complexity_debt.json")
PACKAGES = ("config", "corpus", "tools", "research", "prompts", "strategies", "nodes", "graph", "ui", "evals", "prp")
MAX_COMPLEXITY = 15
MAX_LINES = 60
_CEILINGS = {"complexity": MAX_COMPLEXITY, "lines": MAX_LINES}


def _functions(blocks: list) -> Iterator[Function]:
    for block in blocks:
        if isinstance(block, Class):
            yield from _functions(block.methods)
        else:
            yield block
            yield from _functions(block.closures)


def measured() -> dict[str, dict[str, int]]:
    """Every product function over a ceiling: 'path::name' -> its complexity and length."""
    found: dict[str, dict[str, int]] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for function in _functions(cc_visit(path.read_text(encoding="utf-8"))):
                lines = function.endline - function.lineno + 1
                if function.complexity > MAX_COMPLEXITY or lines > MAX_LINES:
                    key = f"{path.relative_to(ROOT).as_posix()}::{function.fullname}"
                    figures = {"complexity": function.complexity, "lines": lines}
                    # Two functions of one name in a file (a property's getter and setter) keep the larger.
                    previous = found.get(key, figures)
                    found[key] = {name: max(figures[name], previous[name]) for name in figures}
    return found


def test_no_function_grows_past_the_ceiling_or_its_recorded_debt() -> None:
    debt = json.loads(DEBT.read_text(encoding="utf-8"))
    over = measured()
    new = sorted(set(over) - set(debt))
    grown = sorted(
        f"{key}: {over[key]} (recorded {debt[key]})"
        for key in set(over) & set(debt)
        if any(over[key][name] > max(debt[key][name], ceiling) for name, ceiling in _CEILINGS.items())
    )
    paid = sorted(set(debt) - set(over))
    assert not new, f"over {MAX_COMPLEXITY} by radon or {MAX_LINES} lines: {new}"
    assert not grown, f"grew past their recorded figure: {grown}"
    assert not paid, f"now within the ceiling or gone: remove from {DEBT.name}: {paid}"


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    DEBT.write_text(json.dumps(measured(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
