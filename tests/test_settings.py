"""``Settings``: each section reads its own variables, explicit values go to their section."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from config import LLMSettings, Settings, StorageSettings


def test_every_section_reads_its_variables_and_only_them(monkeypatch):
    monkeypatch.setenv("PRP_DATA_DIR", "/data")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://llm")
    monkeypatch.setenv("prp_llm_timeout", "7")  # the names are read case-insensitively, as ever
    # A field's own name in the environment is no setting of prp's.
    for name, value in {"MODEL": "nope", "API_KEY": "nope", "MODE": "local", "COLLECTION": "nope"}.items():
        monkeypatch.setenv(name, value)
    settings = Settings()
    assert settings.storage.data_dir == Path("/data") and settings.llm.base_url == "http://llm"
    assert settings.llm.timeout == 7.0
    assert (settings.llm.model, settings.llm.api_key, settings.llm.mode) == ("gpt-4o-mini", None, "auto")
    assert settings.index.collection == "prp_chunks"


def test_explicit_values_go_to_their_section_and_the_rest_still_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("PRP_LLM_MODEL", "from-env")
    monkeypatch.setenv("PRP_LLM_RERANK", "false")
    settings = Settings(storage=StorageSettings(data_dir="lib"), llm=LLMSettings(planning_model="planner"))
    assert settings.storage.data_dir == Path("lib")
    assert settings.llm.model_for("planning") == "planner" and settings.llm.model_for("answering") == "from-env"
    assert settings.llm.rerank is False
    changed = settings.updated(llm={"mode": "local"})
    assert changed.llm.mode == "local" and settings.llm.mode == "auto" and changed.storage == settings.storage
    with pytest.raises(ValidationError):
        Settings(PRP_DATA_DIR="lib")  # the old flat form fails loudly
