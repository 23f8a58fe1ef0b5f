"""One source for run options: the model's fields make the CLI flags of every command and the chat's
settings controls, and one validation refuses bad values everywhere."""

from __future__ import annotations

import gradio as gr
import pytest

from corpus.retrieval import DEFAULT_K, MAX_K, RetrievalOptions, SearchMode
from research.options import ResearchOptions, UnresolvedPolicy
from ui.chat.settings_panel import build_settings_panel, options_from
from ui.cli.parser import build_parser

RESEARCH_COMMANDS = [["report", "topic"], ["ask", "question"], ["eval", "prp:x.jsonl"]]


@pytest.mark.parametrize("command", [*RESEARCH_COMMANDS, ["search", "query"]])
def test_flags_left_out_give_the_models_defaults(command):
    options = build_parser().parse_args(command).options
    assert options == (RetrievalOptions() if command[0] == "search" else ResearchOptions())
    assert options.k == DEFAULT_K


@pytest.mark.parametrize("command", [*RESEARCH_COMMANDS, ["search", "query"]])
def test_every_command_states_the_same_default_and_bounds(command, capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args([*command, "--help"])
    assert f"(default {DEFAULT_K}, 1-{MAX_K})" in " ".join(capsys.readouterr().out.split())


def test_flags_become_nested_options():
    args = build_parser().parse_args(
        [
            "ask",
            "q",
            "--k",
            "12",
            "--mode",
            "sparse",
            "--doc",
            "a",
            "--doc",
            "b",
            "--type",
            "pdf",
            "--year-min",
            "2019",
            "--include-references",
            "--no-title-scope",
            "--max-retries",
            "0",
            "--unresolved",
            "drop",
        ]
    )
    o = args.options
    assert (o.k, o.search_mode, o.max_retries, o.unresolved) == (12, SearchMode.SPARSE, 0, UnresolvedPolicy.DROP)
    f = o.filters
    assert (f.doc_ids, [t.value for t in f.types], f.year_min) == (["a", "b"], ["pdf"], 2019)
    assert f.include_references and not f.scope_to_named_documents


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--k", "0"], "--k: Input should be greater than or equal to 1"),
        (["--k", "-1"], "--k: Input should be greater than or equal to 1"),
        (["--k", str(MAX_K + 1)], f"--k: Input should be less than or equal to {MAX_K}"),
        (["--year-min", "2024", "--year-max", "2020"], "Year range is empty: from 2024 to 2020."),
    ],
)
@pytest.mark.parametrize("command", [["search", "query"], ["report", "topic"]])
def test_a_refused_value_is_a_usage_error_naming_the_flag(command, flags, message, capsys):
    with pytest.raises(SystemExit) as exited:
        build_parser().parse_args([*command, *flags])
    assert exited.value.code == 2
    assert message in capsys.readouterr().err


def test_the_chat_controls_take_bounds_and_defaults_from_the_model():
    with gr.Blocks():
        panel = build_settings_panel([])
    k, max_retries, mode, unresolved = (panel.controls[n] for n in ("k", "max_retries", "search_mode", "unresolved"))
    assert (k.minimum, k.maximum, k.value) == (1, MAX_K, DEFAULT_K)
    assert (max_retries.maximum, max_retries.value) == (5, ResearchOptions().max_retries)
    assert mode.value == ResearchOptions().search_mode.value
    assert [value for _, value in unresolved.choices] == [p.value for p in UnresolvedPolicy]
    chosen = {"k": MAX_K, "search_mode": "dense", "include_references": False, "max_retries": 0, "unresolved": "drop"}
    assert options_from(chosen).k == MAX_K
    with pytest.raises(gr.Error, match="Year range is empty"):
        options_from({"k": 8, "search_mode": "hybrid", "year_min": 2024, "year_max": 2020, "max_retries": 2})
