"""A strong model's answers through the real graph: the oracle model (the dataset's reference answers,
citing the gold sentences it was shown) and its lying twin (one word wrong, and a sweeping claim).
Only the model is faked, at the HTTP boundary; retrieval, grounding and citations run for real on a few
docs-dev pages, and on one QASPER paper for what the model is shown."""

from __future__ import annotations

import json

import pytest

from config import EmbeddingSettings, LLMSettings, Settings, StorageSettings
from config.settings import SERVED_EVIDENCE_TOKENS
from corpus.library import Library
from evals.datasets import load_dataset
from graph.run import run_research
from strategies.select import select_strategy
from testing_support.llm_fakes import OpenAIStub
from testing_support.oracle_model import Oracle, fate, shown_claims
from tests.paths import shared_data

# "Joint Detection and Location of English Puns: What datasets are used in evaluation?": the answer is
# half-way through a 19,000-character paper, and every sentence of it is close to the title.
DEEP_QUESTION = "f56d07f73b31a9c72ea737b40103d7004ef6a079"
# Figures (image limits) and names (an embeddings provider) stated in the pages' sentences.
QUESTIONS = ["anthropic_docs-1", "anthropic_docs-63", "anthropic_docs-72"]


@pytest.fixture(scope="module")
def oracle_library(tmp_path_factory, models_dir, embedder):
    docs_dev = shared_data("docs-dev")
    dataset = load_dataset(f"prp:{docs_dev / 'questions.jsonl'}")
    examples = [e for e in dataset.examples if e.id in QUESTIONS]
    gold = json.loads((docs_dev / "gold_docs.json").read_text())
    pages = sorted({docs_dev / "docs" / name for e in examples for name in gold[e.question]})
    settings = Settings(
        storage=StorageSettings(data_dir=tmp_path_factory.mktemp("oracle")),
        embeddings=EmbeddingSettings(models_path=models_dir),
    )
    library = Library(settings, embedder=embedder)
    library.ingest(pages)
    yield library, dataset.model_copy(update={"examples": examples})
    library.close()


def ask(library, oracle: Oracle) -> dict[str, list[dict]]:
    with OpenAIStub(oracle) as stub:
        llm = LLMSettings(base_url=stub.base_url, api_key="oracle", model="oracle")
        settings = Settings(llm=llm)
        strategy = select_strategy(settings, library)
        return {
            e.prompt: shown_claims(run_research(library, strategy, e.prompt, single_question=True).report)
            for e in oracle.dataset.examples
        }


def fates(oracle: Oracle, claims: dict[str, list[dict]]) -> list[tuple[str, str, str]]:
    last = {s.question: s.call for s in oracle.said}
    return [
        (s.kind, fate(s, claims[s.question]), s.claim) for s in oracle.said if s.call == last[s.question] and s.claim
    ]


def test_the_oracle_cites_only_gold_sentences_it_was_shown_and_is_believed(oracle_library):
    library, dataset = oracle_library
    oracle = Oracle(dataset)
    outcome = fates(oracle, ask(library, oracle))
    assert outcome and all(kind == "correct" for kind, _, _ in outcome)
    assert any(what == "verified" for _, what, _ in outcome), outcome


def test_the_liars_wrong_figures_and_names_are_never_shown_verified_and_its_sweep_is_flagged(oracle_library):
    library, dataset = oracle_library
    oracle = Oracle(dataset, lie=True)
    # At the default budget the liar finds names such as "Sign AI" for "Voyage AI" in the evidence.
    outcome = fates(oracle, ask(library, oracle))
    lies = [(kind, what, claim) for kind, what, claim in outcome if kind in ("figure", "entity")]
    assert lies, outcome
    assert all(what != "verified" for _, what, _ in lies), lies
    sweeping = [(what, claim) for kind, what, claim in outcome if kind == "sweep"]
    assert sweeping and all(what != "verified" for what, _ in sweeping), sweeping
    assert any(what == "flagged" for what, _ in sweeping), sweeping


def test_a_gold_sentence_half_way_through_a_long_paper_reaches_the_answer_prompt_within_its_budget(
    tmp_path, models_dir, embedder
):
    """The question names its paper by title, which every sentence of the paper is near: ranked by the
    question itself, the answer's sentence is re-ranked and shown; the prompt stays within budget."""
    qasper = shared_data("qasper-dev")
    oracle = Oracle.of(f"qasper:{qasper}")
    [example] = [e for e in oracle.dataset.examples if e.id == DEEP_QUESTION]
    oracle.dataset = oracle.dataset.model_copy(update={"examples": [example]})
    settings = Settings(
        storage=StorageSettings(data_dir=tmp_path), embeddings=EmbeddingSettings(models_path=models_dir)
    )
    library = Library(settings, embedder=embedder)
    library.ingest([qasper / "papers" / f"{example.metadata['paper_id']}.txt"])
    try:
        ask(library, oracle)
    finally:
        library.close()
    said = [s for s in oracle.said if s.question == example.prompt]
    # Shown at the first answer (no retry needed): the oracle answers, citing it.
    assert said and all(s.gold_shown and s.call == 1 and s.kind == "correct" for s in said), said
    tokens = oracle.evidence_tokens[example.prompt]
    # The budget counts sentences; the prompt adds a title line per block.
    assert 0 < tokens["answer"] <= 1.2 * SERVED_EVIDENCE_TOKENS and tokens["rerank"] < SERVED_EVIDENCE_TOKENS
