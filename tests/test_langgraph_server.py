"""langgraph-api's moving entry point, behind ui.service.langgraph_server: an upgrade that moves it fails here."""

from __future__ import annotations

import ast
import importlib.metadata
import importlib.util
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from corpus.errors import ConfigError
from ui.service import langgraph_server

from .paths import ROOT


def test_the_installed_langgraph_api_has_the_entry_point_with_every_keyword_prp_passes():
    # If this fails after upgrading langgraph-api, its entry point moved or changed: update
    # ui/service/langgraph_server.py (ENTRY_POINT, KEYWORDS, run) for the new release, or pin the old one.
    try:
        function = langgraph_server.entry_point()
    except ConfigError as error:
        pytest.fail(f"prp serve cannot start LangGraph's server: {error}")
    assert callable(function)


def test_the_installed_langgraph_api_is_in_the_range_pyproject_supports_and_has_the_store_prp_reads():
    # An upgrade past the bound fails here first: check ENTRY_POINT, KEYWORDS and store() against the
    # new release, then move the bound in pyproject.toml.
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    (bound,) = [r for r in map(Requirement, dependencies) if r.name == "langgraph-api"]
    installed = importlib.metadata.version("langgraph-api")
    assert bound.specifier.contains(installed), f"langgraph-api {installed} is outside {bound.specifier}"
    # Read, not imported: the module needs the running server's configuration to import.
    spec = importlib.util.find_spec("langgraph_api.store")
    assert spec is not None and spec.origin, (
        "langgraph_api.store is gone: update store() in ui/service/langgraph_server.py"
    )
    tree = ast.parse(Path(spec.origin).read_text())
    assert any(isinstance(n, ast.AsyncFunctionDef) and n.name == "get_store" for n in tree.body), (
        "langgraph_api.store has no async get_store: update store() in ui/service/langgraph_server.py"
    )


def test_a_moved_entry_point_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(langgraph_server, "ENTRY_POINT", "langgraph_api.cli:run_server_moved")
    with pytest.raises(
        ConfigError, match=r"has no langgraph_api\.cli:run_server_moved .*ui/service/langgraph_server\.py"
    ):
        langgraph_server.entry_point()


def test_a_keyword_the_entry_point_no_longer_names_is_a_clear_error(monkeypatch):
    # run_server takes **kwargs: a renamed keyword would be swallowed there without a word.
    monkeypatch.setattr(langgraph_server, "KEYWORDS", (*langgraph_server.KEYWORDS, "graph_routes"))
    with pytest.raises(ConfigError, match="no longer takes graph_routes: update ui/service/langgraph_server.py"):
        langgraph_server.entry_point()


def test_run_passes_prp_s_configuration_to_the_entry_point(monkeypatch):
    calls: list[dict] = []

    def fake_server(**keywords):
        calls.append(keywords)

    monkeypatch.setattr(langgraph_server, "entry_point", lambda: fake_server)
    langgraph_server.run("127.0.0.1", 8123, graphs={"research": "g:graph"}, http={"app": "a:app"}, checkpointer={})
    assert calls == [
        {
            "host": "127.0.0.1",
            "port": 8123,
            "graphs": {"research": "g:graph"},
            "http": {"app": "a:app"},
            "checkpointer": {},
            "open_browser": False,
            "allow_blocking": True,
            "server_level": "WARNING",
        }
    ]
