"""Offline mode is deterministic across processes (issue 34, item 8): the same library, question and
options give byte-identical report JSON whatever the hash seed, the thread counts and the number of
parse workers. Two configurations, each in its own process and its own fresh data directory, ingest
the sample corpus through ``prp ingest`` and answer the same questions and topic through ``prp ask
--json`` and ``prp report --json`` (one configuration's commands run one after another in its process:
two processes are what tells a per-process hash seed apart); the files must be equal byte for byte.
Nothing is excluded from the comparison: the one field that identifies a run, its thread id, is given
(``--thread``), as a user may.

Before, the engine's reciprocal rank fusion ordered chunks with equal scores differently in each
process (its hash maps are seeded per process), which changed which chunks were evidence; and a
confidence was summed over a set of strings, in hash-seed order."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ..cli_process import prp_env, run_prp_commands
from ..paths import SAMPLE_DOCS

RUNS = [
    ("ask", "How much rainfall do green roofs retain?", "q1"),
    ("ask", "How much do green roofs cool the street?", "q2"),
    ("ask", "How much annual rainfall did the test rig retain?", "q3"),
    ("report", "Green roofs in cities: cooling, stormwater and costs", "t1"),
]
CONFIGURATIONS = {
    "one thread": {"PYTHONHASHSEED": "1", "OMP_NUM_THREADS": "1", "PRP_EMBED_THREADS": "1", "PRP_PARSE_WORKERS": "1"},
    "several threads": {
        "PYTHONHASHSEED": "4242",
        "OMP_NUM_THREADS": "2",
        "PRP_EMBED_THREADS": "3",
        "PRP_PARSE_WORKERS": "2",
    },
}


def _reports(root: Path, models_dir: Path, settings: dict[str, str]) -> dict[str, bytes]:
    env = prp_env(root / "data", models_dir, **settings)
    commands = [["ingest", str(SAMPLE_DOCS)]]
    for command, question, thread in RUNS:
        commands.append([command, question, "--thread", thread, "--json", str(root / f"{thread}.json"), "--quiet"])
    done = run_prp_commands(commands, env, timeout=1200)
    assert done.returncode == 0, done.stderr[-2000:]
    return {thread: (root / f"{thread}.json").read_bytes() for _, _, thread in RUNS}


@pytest.mark.timeout(1800)
def test_the_same_question_gets_byte_identical_reports_in_every_process(tmp_path, models_dir):
    found = {name: _reports(tmp_path / name.replace(" ", "-"), models_dir, s) for name, s in CONFIGURATIONS.items()}
    first, second = found.values()
    for _, question, thread in RUNS:
        assert json.loads(first[thread])["citations"], question  # it answered, with citations
        assert first[thread] == second[thread], f"{question!r}: the reports differ between processes"
