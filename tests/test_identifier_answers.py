"""Lookup questions answered by the record holding the asked identifier (issue 48): "What is the amount
on invoice 1081?" over a library holding "Invoice 1081 / Amount due: 5405.29 EUR" is answered by that
line, cited, where the sentence reading found no sentence to quote; a ledger's row answers under its
table's header; a look-alike record (a digit away) is never the answer, and a record without the asked
value answers nothing. The library is generated (``testing_support.identifier_corpus``); search, the
embedder and the graph are real."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from config import EmbeddingSettings, Settings, StorageSettings
from corpus.library import Library
from strategies.offline.strategy import OfflineStrategy
from testing_support.identifier_corpus import IdentifierRecord, identifier_corpus, invoice_ledger
from tools.hybrid_search import hybrid_search

from .cli_process import prp_env, run_prp_here

QUESTION = "What is the amount on invoice 1081?"
LINE = "Invoice 1081 Amount due: 5405.29 EUR"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory, models_dir, embedder) -> tuple[Path, list[IdentifierRecord]]:
    """The records and the ledger, ingested into a data directory (closed again)."""
    folder = tmp_path_factory.mktemp("lookups") / "docs"
    records = identifier_corpus(folder) + invoice_ledger(folder)
    data = tmp_path_factory.mktemp("lookup-data")
    with Library(_settings(data, models_dir), embedder=embedder) as library:
        summary = library.ingest([folder])
    assert [f.path for f in summary.files if f.outcome.value != "ok"] == []
    return data, records


def _settings(data: Path, models_dir: Path) -> Settings:
    return Settings(storage=StorageSettings(data_dir=data), embeddings=EmbeddingSettings(models_path=models_dir))


def test_prp_ask_answers_an_invoice_lookup_with_its_line(corpus, models_dir, tmp_path):
    data = tmp_path / "data"
    shutil.copytree(corpus[0], data)  # its own copy: the embedded index takes one process at a time
    done = run_prp_here(["ask", QUESTION], prp_env(data, models_dir, LANGSMITH_TRACING="false"))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "does not answer" not in out
    assert f"- {LINE} [1]" in out
    assert (
        "[1] Invoice 01, block " in out
    )  # a text under no heading: no page or section to name and f": “{LINE}”" in out


@pytest.fixture(scope="module")
def library(corpus, models_dir, embedder) -> Iterator[Library]:
    with Library(_settings(corpus[0], models_dir), embedder=embedder) as library:
        yield library


@pytest.fixture(scope="module")
def strategy(embedder) -> OfflineStrategy:
    return OfflineStrategy(embedder)


def _judge(library: Library, strategy: OfflineStrategy, question: str):
    return strategy.judge(question, hybrid_search(library, question, k=8))


@pytest.mark.parametrize("kind", ["invoice", "ledger"])
def test_every_invoice_is_answered_by_its_own_record(library, strategy, corpus, kind):
    wrong = []
    for record in (r for r in corpus[1] if r.kind == kind):
        judged = _judge(library, strategy, f"What is the amount due on invoice {record.identifier}?")
        first = judged.claims[0] if judged.claims else None
        if not (judged.sufficient and first and record.line in first.text and len(first.citations) >= 1):
            wrong.append((record.identifier, first.text if first else None))
    assert wrong == []


def test_a_ledger_row_is_quoted_under_its_header(library, strategy, corpus):
    row = next(r for r in corpus[1] if r.kind == "ledger")
    judged = _judge(library, strategy, f"What is the amount due on invoice {row.identifier}?")
    first = judged.claims[0]
    assert [c.quote for c in first.citations] == ["Invoice | Issued | Customer | Amount due", row.line]
    assert first.text == f"Invoice | Issued | Customer | Amount due\n{row.line}"


def test_a_record_without_the_asked_value_answers_nothing(library, strategy):
    judged = _judge(library, strategy, "What is the VAT rate on invoice 1081?")
    assert not judged.sufficient
    assert not any("1081" in c.text for c in judged.claims)


def test_a_look_alike_record_is_never_quoted(library, strategy, corpus):
    for record in (r for r in corpus[1] if r.kind == "date"):
        judged = _judge(library, strategy, f"Which roof was inspected on {record.identifier}?")
        assert judged.claims and record.line in judged.claims[0].text
        assert all(record.identifier in c.text for c in judged.claims), [c.text for c in judged.claims]
