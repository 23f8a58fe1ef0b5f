"""What a command imports: `prp ask`/`prp ingest` through a running service load neither the index,
the embedding runtime nor the research graph; an offline run in this process loads no LLM client, no
PDF typesetter and no BibTeX reader (docs/architecture/surfaces.md, "What loads when")."""

from __future__ import annotations

import subprocess
import sys

from .paths import ROOT

LOADED = "import sys, {modules}; print(' '.join(sorted({{m.split('.')[0] for m in sys.modules}})))"


def loaded(*modules: str) -> set[str]:
    """The top-level packages a fresh interpreter holds once it imported ``modules``."""
    code = LOADED.format(modules=", ".join(modules))
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split())


def test_commands_through_a_service_and_offline_runs_load_only_what_they_need():
    through_a_service = loaded("ui.cli.research", "ui.cli.documents", "ui.core.connect", "ui.core.remote")
    assert not through_a_service & {"qdrant_client", "fastembed", "onnxruntime", "langgraph", "gradio", "fpdf"}
    offline_run = loaded("ui.core.local", "ui.core.runs", "strategies.select", "corpus.library")
    assert not offline_run & {"openai", "langchain_openai", "fpdf", "markdown_it", "bibtexparser", "gradio"}
