"""How many numeric thresholds the reading core still holds in code rather than in its tuning
(``strategies/reading/tuning.py``, issue 47.3): per file and in all.

Counted, by reading each file's syntax tree:
- a module-level constant that is a number (``MIN_COVERAGE = 0.45``);
- a number compared with ``<``, ``>``, ``<=`` or ``>=`` (``if share > 0.6``), or multiplied by
  (``score * 0.8``), anywhere in the file.
Not counted: 0, 1, -1, 2 and 100 (indexes, halves, percentages: facts of counting, not fits), the
tuning module itself and offline mode's calibration presets (data already).

    python benchmarks/thresholds_in_code.py [--show]   # --show prints each one with its line
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
READING_CORE = ("strategies/reading", "strategies/offline", "strategies/llm")
NOT_THRESHOLDS = {0, 1, -1, 2, 100}
# The tuning itself, and offline mode's sufficiency presets (data already, each with its fit).
SKIPPED = {"strategies/reading/tuning.py", "strategies/offline/calibration.py"}


def _number(node: ast.AST) -> float | None:
    """The value of a numeric literal (a negated one too), or None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _number(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return node.value
    return None


def _counted(node: ast.AST) -> bool:
    value = _number(node)
    return value is not None and value not in NOT_THRESHOLDS


def _module_constants(tree: ast.Module) -> list[ast.AST]:
    found = []
    for statement in tree.body:
        value = statement.value if isinstance(statement, (ast.Assign, ast.AnnAssign)) else None
        if value is not None and _counted(value):
            found.append(statement)
    return found


def _compared_or_multiplied(tree: ast.Module) -> list[ast.AST]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(isinstance(op, (ast.Lt, ast.Gt, ast.LtE, ast.GtE)) for op in node.ops):
            found += [side for side in (node.left, *node.comparators) if _counted(side)]
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            found += [side for side in (node.left, node.right) if _counted(side)]
    return found


def thresholds(path: Path) -> list[int]:
    """The line of each threshold left in one file."""
    tree = ast.parse(path.read_text(), filename=str(path))
    return sorted(node.lineno for node in _module_constants(tree) + _compared_or_multiplied(tree))


def count(root: Path = ROOT) -> dict[str, list[int]]:
    """Each reading-core file holding a threshold, with the lines they are on."""
    found = {}
    for folder in READING_CORE:
        for path in sorted((root / folder).rglob("*.py")):
            name = path.relative_to(root).as_posix()
            lines = [] if name in SKIPPED else thresholds(path)
            if lines:
                found[name] = lines
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", action="store_true", help="print each threshold's line")
    args = parser.parse_args()
    found = count()
    for name, lines in found.items():
        print(f"{len(lines):4d}  {name}")
        for line in lines if args.show else ():
            print(f"        {line}: {(ROOT / name).read_text().splitlines()[line - 1].strip()}")
    print(f"{sum(map(len, found.values())):4d}  in all")


if __name__ == "__main__":
    main()
