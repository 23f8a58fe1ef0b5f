"""The graph as LangGraph Studio / ``langgraph dev`` runs it: JSON run options as context, the served
process's own library and strategy behind them, the same nodes and report."""

from __future__ import annotations

import json

from ui.cli import serve

from .paths import ROOT


def test_the_studio_graph_runs_on_json_options(make_settings, copy_sample, monkeypatch):
    settings = make_settings("studio")
    copy_sample(settings.storage.data_dir, ("test_rig_retention_report_2018.txt",))  # as test_service_process's
    monkeypatch.setenv("PRP_DATA_DIR", str(settings.storage.data_dir))
    monkeypatch.setenv("PRP_MODELS_DIR", str(settings.models_dir))
    from graph import studio

    try:
        # What the server passes: the run's JSON context, validated into the graph's context schema.
        state = studio.graph.invoke(
            {"topic": "How much annual rainfall did the test rig retain?", "single_question": True},
            context={"k": 3, "max_retries": 0, "search_mode": "hybrid"},
        )
        served, strategy = studio.served()
        assert served.settings.storage.data_dir == settings.storage.data_dir and strategy.mode == "offline"
    finally:
        studio.served()[0].close()
        studio.served.cache_clear()
    report = state["report"]
    assert report.citations and report.answered_sections()
    assert all(c.resolution.matched_text in c.resolution.block_text for c in report.citations)


def test_langgraph_dev_serves_what_prp_serve_serves():
    """``langgraph dev`` reads langgraph.json; ``prp serve`` passes the same configuration itself."""
    config = json.loads((ROOT / "langgraph.json").read_text())
    assert config["graphs"] == serve.GRAPHS
    assert config["checkpointer"] == serve.CHECKPOINTER
    assert config["http"] == serve.HTTP


def test_the_server_s_development_notes_stay_out_of_the_console(caplog):
    import logging

    from graph.server_notes import quiet_development_notes

    quiet_development_notes()
    quiet_development_notes()  # once is enough: no second filter
    adapter = logging.getLogger("langgraph_api._checkpointer._adapter")
    assert len(adapter.filters) == 1
    note = "Custom checkpointer missing aprune: ... storage usage will grow without bound for long-lived threads."
    with caplog.at_level(logging.DEBUG):
        adapter.warning(note)
        adapter.warning(note)
        adapter.warning("Something else went wrong")
    shown = [(r.name, r.levelname, r.getMessage()) for r in caplog.records]
    assert ("langgraph_api._checkpointer._adapter", "WARNING", "Something else went wrong") in shown
    assert [s for s in shown if "without bound" in s[2]] == [("prp.server", "DEBUG", f"LangGraph server note: {note}")]
