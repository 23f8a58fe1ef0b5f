"""Token-aware chunking with the real tokenizer, and the locally assembled embedding models."""

from __future__ import annotations

import json
from itertools import pairwise

import numpy as np
import pytest
from fastembed import TextEmbedding

from config import DEFAULT_EMBED_MODEL, EmbeddingSettings, Settings, StorageSettings
from corpus.chunking import chunk_document, split_sentences
from corpus.embeddings import Embedder, assemble_bm25
from corpus.errors import ConfigError
from corpus.models import Block, BlockKind, DocType, Document

DOC = Document(doc_id="d" * 16, title="Rooftop Study", path="/x", type=DocType.TEXT, page_count=3, sha256="0" * 64)


def block(seq: int, text: str, section: str = "Results", kind: BlockKind = BlockKind.PARAGRAPH, page: int = 1) -> Block:
    return Block(block_id=f"b{seq}", doc_id=DOC.doc_id, seq=seq, page=page, section=section, kind=kind, text=text)


def sentence(i: int) -> str:
    return f"Observation {i} shows that the substrate layer retained water for several hours after the storm."


def test_chunks_fit_the_model_window_exactly(embedder: Embedder):
    blocks = [block(i, " ".join(sentence(i * 10 + j) for j in range(4)), page=1 + i // 3) for i in range(12)]
    chunks = chunk_document(DOC, blocks, embedder.max_tokens, embedder.count_tokens_batch)
    assert len(chunks) > 2
    for c in chunks:
        # Recount the exact text the model will see: it must never be truncated.
        assert embedder.count_tokens(c.embed_text) <= embedder.max_tokens
        assert c.embed_text.startswith("Rooftop Study | Results")
    # Whole blocks in reading order, with one block of overlap between neighbours.
    for a, b in pairwise(chunks):
        assert a.chunk.block_ids[-1] == b.chunk.block_ids[0]
    covered = [bid for c in chunks for bid in c.chunk.block_ids]
    assert sorted(set(covered), key=lambda x: int(x[1:])) == [b.block_id for b in blocks]
    assert chunks[-1].chunk.page_end == 4


def test_sections_are_not_mixed_and_references_are_flagged(embedder: Embedder):
    blocks = [
        block(0, "Methods", section="Methods", kind=BlockKind.HEADING),
        block(1, sentence(1) + " " + sentence(2), section="Methods"),
        block(2, "Results", section="Results", kind=BlockKind.HEADING),
        block(3, sentence(3) + " " + sentence(4), section="Results"),
        block(4, "Smith, J. (2020). Roofs. Journal of Roofs.", section="References", kind=BlockKind.REFERENCE),
    ]
    chunks = [c.chunk for c in chunk_document(DOC, blocks, embedder.max_tokens, embedder.count_tokens_batch)]
    assert [c.block_ids for c in chunks] == [["b0", "b1"], ["b2", "b3"], ["b4"]]
    assert [c.is_reference for c in chunks] == [False, False, True]


def test_a_section_too_short_to_stand_alone_joins_the_next(embedder: Embedder):
    # A paper's title and its ID line, then the abstract: a title-only chunk would match every query
    # about the paper and be evidence for none.
    blocks = [
        block(0, "Rooftop Study", section="Rooftop Study", kind=BlockKind.HEADING),
        block(1, "Paper ID: 1503.00841", section="Rooftop Study"),
        block(2, "Abstract", section="Abstract", kind=BlockKind.HEADING),
        block(3, sentence(1) + " " + sentence(2), section="Abstract"),
        block(4, "Methods", section="Methods", kind=BlockKind.HEADING),
        block(5, sentence(3) + " " + sentence(4), section="Methods"),
    ]
    chunked = chunk_document(DOC, blocks, embedder.max_tokens, embedder.count_tokens_batch)
    assert [c.chunk.block_ids for c in chunked] == [["b0", "b1", "b2", "b3"], ["b4", "b5"]]
    assert chunked[0].chunk.section == "Abstract" and chunked[0].embed_text.startswith("Rooftop Study | Abstract")


def test_the_references_heading_opens_the_bibliography_chunk(embedder: Embedder):
    # Alone, the one-word heading was a chunk that ranked for any query about the document.
    blocks = [
        block(0, sentence(1) + " " + sentence(2), section="Conclusion"),
        block(1, "References", section="References", kind=BlockKind.HEADING),
        block(2, "Smith, J. (2020). Roofs. Journal of Roofs.", section="References", kind=BlockKind.REFERENCE),
        block(3, "Lee, K. (2021). Sedum. Roof Letters.", section="References", kind=BlockKind.REFERENCE),
    ]
    chunks = [c.chunk for c in chunk_document(DOC, blocks, embedder.max_tokens, embedder.count_tokens_batch)]
    assert [c.block_ids for c in chunks] == [["b0"], ["b1", "b2", "b3"]]
    assert [c.is_reference for c in chunks] == [False, True]


def test_long_block_is_split_at_sentences_and_keeps_its_id(embedder: Embedder):
    long_text = " ".join(sentence(i) for i in range(40))
    chunks = chunk_document(DOC, [block(0, long_text)], embedder.max_tokens, embedder.count_tokens_batch)
    assert len(chunks) >= 3
    for c in chunks:
        assert c.chunk.block_ids == ["b0"]
        assert c.chunk.text.endswith(".")  # cut at a sentence boundary
        assert embedder.count_tokens(c.embed_text) <= embedder.max_tokens
    assert " ".join(c.chunk.text for c in chunks) == long_text


def test_a_heading_opens_a_chunk_with_the_passage_it_heads(embedder: Embedder):
    """A page without heading markup: its heading line is a paragraph naming the section. When the
    passage after it nearly fills a window, the passage is split to make room for the heading, which
    never becomes a chunk of its own (it would name a topic and state nothing)."""
    section = "When to prompt engineer"

    def chunks_of(*texts: str):
        blocks = [block(i, text, section=section) for i, text in enumerate(texts)]
        return chunk_document(DOC, blocks, embedder.max_tokens, embedder.count_tokens_batch)

    def filled(n: int) -> str:
        return " ".join(sentence(i) for i in range(9)) + " It rained" + " again" * n + "."

    n = 1
    while len(chunks_of(filled(n + 1))) == 1:
        n += 1  # the longest passage that is one chunk alone: no room left for the heading
    passage = filled(n)
    chunks = chunks_of(section, passage)
    assert chunks[0].chunk.text.startswith(f"{section}\n\n{sentence(0)}")
    assert all(c.chunk.text != section for c in chunks)
    assert chunks[0].chunk.block_ids == ["b0", "b1"] and chunks[-1].chunk.text.endswith(passage[-60:])
    for c in chunks:
        assert embedder.count_tokens(c.embed_text) <= embedder.max_tokens


def test_sentence_split_respects_abbreviations():
    text = "Results agree with Lee et al. 2020 on drainage. Fig. 3 shows it. Next sentence here."
    assert split_sentences(text) == [
        "Results agree with Lee et al. 2020 on drainage.",
        "Fig. 3 shows it.",
        "Next sentence here.",
    ]
    # A name's initial and a title end no sentence.
    assert split_sentences("Freedom Suite is an album by David S. Ware. Dr. Lee reviewed it. It sold well.") == [
        "Freedom Suite is an album by David S. Ware.",
        "Dr. Lee reviewed it.",
        "It sold well.",
    ]


def test_sentence_split_at_line_breaks():
    # A line break the loaders kept ends a statement or an item, with or without a full stop.
    text = (
        "Tool use requests are priced like any other request. Tokens come from:\n"
        "The tools parameter (names, descriptions, and schemas)\n"
        "tool_use content blocks in requests and responses\n\n"
        "Dr. Lee added e.g. this line."
    )
    assert split_sentences(text) == [
        "Tool use requests are priced like any other request.",
        "Tokens come from:",
        "The tools parameter (names, descriptions, and schemas)",
        "tool_use content blocks in requests and responses",
        "Dr. Lee added e.g. this line.",
    ]


def test_minilm_assembled_from_wheels_with_256_token_window(embedder: Embedder, models_dir):
    config = json.loads((models_dir / "all-MiniLM-L6-v2" / "tokenizer_config.json").read_text())
    assert config["model_max_length"] == 256
    assert embedder.max_tokens == 256 and embedder.dim == 384
    a, b, c = embedder.embed_passages(
        ["Green roofs retain rainfall.", "Vegetated roofs hold back storm water.", "The stock market fell."]
    )
    assert np.dot(a, b) > np.dot(a, c)
    assert abs(np.linalg.norm(a) - 1) < 1e-3


def test_bm25_stopwords_are_loaded(embedder: Embedder):
    assert "the" in embedder.sparse.model.stopwords
    assert len(embedder.embed_sparse_query("the of and").indices) == 0


def test_missing_stopword_list_is_an_error(tmp_path, models_dir, monkeypatch):
    # If the stopword file cannot be provided, BM25 would silently run without stopwords: refuse.
    monkeypatch.setattr("corpus.embeddings.assemble_bm25", lambda target: target)
    settings = Settings(
        storage=StorageSettings(data_dir=tmp_path / "d"), embeddings=EmbeddingSettings(models_path=models_dir / "fresh")
    )
    with pytest.raises(ConfigError, match="stopword"):
        Embedder(settings)


def test_assemble_bm25_writes_the_project_stopwords(tmp_path):
    folder = assemble_bm25(tmp_path / "bm25")
    words = (folder / "english.txt").read_text().split()
    assert "the" in words and len(words) > 100


def test_onnx_session_sleeps_instead_of_spinning_and_embeds_the_same(embedder: Embedder, models_dir):
    options = embedder.dense.model.model.get_session_options()
    assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"
    stock = TextEmbedding(DEFAULT_EMBED_MODEL, specific_model_path=str(models_dir / "all-MiniLM-L6-v2"))
    text = "Green roofs retain rainfall."
    assert np.allclose(embedder.embed_passages([text])[0], next(iter(stock.passage_embed([text]))), atol=1e-6)


def test_passages_batched_by_length_come_back_in_order_with_the_same_vectors(embedder: Embedder):
    # Batches group texts of like length (less padding); each vector is the one the text gets alone.
    texts = ["short", "a much longer passage about green roofs and stormwater " * 12, "mid-length text here", ""]
    together = embedder.embed_passages(texts)
    assert together == [embedder.embed_passages([text])[0] for text in texts]


def test_a_long_block_keeps_its_line_breaks_in_its_chunks(embedder: Embedder):
    lines = [f"Item {i} of the parameter list is described here in a few plain words" for i in range(60)]
    text = "\n".join(lines)
    chunks = chunk_document(DOC, [block(0, text)], embedder.max_tokens, embedder.count_tokens_batch)
    assert len(chunks) > 1
    assert all(line in lines for c in chunks for line in c.chunk.text.split("\n"))


def test_sentence_split_before_a_lower_case_name():
    """A lower-case name opens a sentence; a function word after a lower-case abbreviation does not."""
    assert split_sentences("It is fast. corvidkit is released under the MIT license. See e.g. the docs.") == [
        "It is fast.",
        "corvidkit is released under the MIT license.",
        "See e.g. the docs.",
    ]
    assert split_sentences("We keep lists, tables etc. and drop figures w.r.t. loss. pip installs it.") == [
        "We keep lists, tables etc. and drop figures w.r.t. loss.",
        "pip installs it.",
    ]
    # A function word after a full stop is the same sentence's, as an extraction error leaves it.
    assert split_sentences("As in Table 3. the model works.") == ["As in Table 3. the model works."]
