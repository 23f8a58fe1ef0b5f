"""The import contracts in pyproject.toml ([tool.importlinter], run by `make test` as `lint-imports`):
the project keeps them, every top-level package is under them, and each one breaks when a back-import
is injected into a copy of the project's own code, so a passing `lint-imports` means something."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.paths import ROOT

LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]


def lint_imports(project: Path) -> subprocess.CompletedProcess[str]:
    # lint-imports puts its working directory first on sys.path, so a copy's packages shadow the
    # editable install's.
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-logo", "--no-cache", "pyproject.toml"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_project_keeps_its_import_contracts():
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_top_level_package_is_under_the_contracts():
    packages = {path.parent.name for path in ROOT.glob("*/__init__.py")} - {"tests"}
    assert packages == set(CONFIG["root_packages"]), "add new packages to [tool.importlinter] root_packages"


@pytest.fixture(scope="module")
def project_copy(tmp_path_factory) -> Path:
    """The product's Python files and pyproject.toml, without data, outside the repository."""
    copy = tmp_path_factory.mktemp("project")
    for package in CONFIG["root_packages"]:
        for source in (ROOT / package).rglob("*.py"):
            target = copy / source.relative_to(ROOT)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
    shutil.copyfile(ROOT / "pyproject.toml", copy / "pyproject.toml")
    return copy


@pytest.mark.parametrize(
    ("module", "back_import", "broken"),
    [
        ("corpus/back_import.py", "import ui.core.portal", "Floors: each package imports only the ones below it"),
        ("research/back_import.py", "from nodes import plan", "Floors: each package imports only the ones below it"),
        ("ui/core/back_import.py", "import testing_support.llm_fakes", "Test doubles stay out of the product"),
        ("strategies/reading/back_import.py", "import strategies.llm.strategy", "Strategies: the reading core"),
        ("strategies/offline/back_import.py", "import strategies.llm.client", "The two modes do not import each other"),
        ("nodes/back_import.py", "import strategies.reading.judge", "only through their protocol"),
        ("graph/back_import.py", "import strategies.select", "only through their protocol"),
    ],
)
def test_a_back_import_breaks_its_contract(project_copy, module, back_import, broken):
    injected = project_copy / module
    injected.write_text(back_import + "\n", encoding="utf-8")
    try:
        result = lint_imports(project_copy)
    finally:
        injected.unlink()
    assert result.returncode == 1, result.stdout + result.stderr
    report = result.stdout.split("Broken contracts", 1)[-1]
    assert broken in report
    assert module.removesuffix(".py").replace("/", ".") in report
