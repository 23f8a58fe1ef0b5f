"""langgraph-api's moving entry point, behind ui.cli.langgraph_server: an upgrade that moves it fails here."""

from __future__ import annotations

import pytest

from corpus.errors import ConfigError
from ui.cli import langgraph_server


def test_the_installed_langgraph_api_has_the_entry_point_with_every_keyword_prp_passes():
    # If this fails after upgrading langgraph-api, its entry point moved or changed: update
    # ui/cli/langgraph_server.py (ENTRY_POINT, KEYWORDS, run) for the new release, or pin the old one.
    try:
        function = langgraph_server.entry_point()
    except ConfigError as error:
        pytest.fail(f"prp serve cannot start LangGraph's server: {error}")
    assert callable(function)


def test_a_moved_entry_point_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(langgraph_server, "ENTRY_POINT", "langgraph_api.cli:run_server_moved")
    with pytest.raises(ConfigError, match=r"has no langgraph_api\.cli:run_server_moved .*ui/cli/langgraph_server\.py"):
        langgraph_server.entry_point()


def test_a_keyword_the_entry_point_no_longer_names_is_a_clear_error(monkeypatch):
    # run_server takes **kwargs: a renamed keyword would be swallowed there without a word.
    monkeypatch.setattr(langgraph_server, "KEYWORDS", (*langgraph_server.KEYWORDS, "graph_routes"))
    with pytest.raises(ConfigError, match="no longer takes graph_routes: update ui/cli/langgraph_server.py"):
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
