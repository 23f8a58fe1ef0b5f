"""Unit tests of the eval harness: metrics, evaluators, dataset loaders, cost meter, judge, collections,
and the ``prp eval`` command on a tiny corpus."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage

from evals import evaluators as ev
from evals.collections import READY_MARKER, content_hash, eval_settings, open_collection
from evals.cost import metered
from evals.datasets import DatasetError, load_dataset, sample
from evals.metrics import UNANSWERABLE, normalize, overlaps, precision_recall_f1, token_f1, token_recall
from research.options import ResearchOptions
from strategies.offline.strategy import OfflineStrategy
from testing_support.llm_fakes import ScriptedChatModel

from .paths import ROOT, SAMPLE_DOCS, shared_data

SAMPLE = ROOT / "evals" / "datasets" / "sample.jsonl"


# --- metrics ----------------------------------------------------------------------------------------


def test_token_f1_is_qaspers():
    assert token_f1("the BERT model", "BERT model") == 1.0  # articles and case do not count
    assert token_f1("BERT and ELMo", "BERT") == pytest.approx(2 * (1 / 3) * 1 / (1 / 3 + 1))
    assert token_f1(UNANSWERABLE, UNANSWERABLE) == 1.0
    assert token_f1("some answer", UNANSWERABLE) == 0.0
    assert token_recall("it retained 57% of annual rainfall", "57% of annual rainfall") == 1.0


def test_overlap_works_both_ways():
    paragraph = "Storms smaller than 5 mm were retained at a median of 94 percent. Peak flows fell."
    assert overlaps(paragraph, "Storms smaller than 5 mm were retained at a median of 94 percent")
    assert overlaps("Storms smaller than 5 mm were retained at a median of 94 percent.", paragraph + " " + "x " * 3)
    assert not overlaps(paragraph, "Sedum survives drought")


def test_precision_recall_f1_edges():
    assert precision_recall_f1(2, 1, 1) == pytest.approx({"precision": 2 / 3, "recall": 2 / 3, "f1": 2 / 3})
    assert precision_recall_f1(0, 0, 3) == {"precision": None, "recall": 0.0, "f1": None}
    assert precision_recall_f1(0, 2, 0)["recall"] is None


# --- evaluators -------------------------------------------------------------------------------------


def _citation(quote: str, text: str, number: int = 1, in_store: bool = True) -> dict:
    return {
        "number": number,
        "quote": quote,
        "blocks": [{"block_id": f"b{number}", "text": text}],
        "in_store": in_store,
        "title": "t",
        "label": "",
    }


def _outputs(**overrides) -> dict:
    base = {
        "error": None,
        "answer": "x",
        "abstained": False,
        "citations": [],
        "retrieved": [],
        "evidence": [],
        "disagreements": [],
        "cost": {"seconds": 1.0, "llm_calls": 0, "input_tokens": 0, "output_tokens": 0},
        "mode": "offline",
    }
    return base | overrides


def _scores(result: dict) -> dict:
    return {r["key"]: r["score"] for r in result["results"]}


def test_citation_validity_checks_the_stored_block():
    good = _citation("retained 57% of annual rainfall", "The rig retained 57% of annual\nrainfall.")
    bad = _citation("retained 75% of annual rainfall", "The rig retained 57% of annual rainfall.", number=2)
    gone = _citation("retained 57%", "The rig retained 57%.", number=3, in_store=False)
    assert _scores(ev.citation_validity(_outputs(citations=[good]))) == {"citation_validity": 1.0}
    assert _scores(ev.citation_validity(_outputs(citations=[good, bad, gone])))["citation_validity"] == pytest.approx(
        1 / 3
    )
    assert ev.citation_validity(_outputs())["results"] == []  # nothing cited: not applicable


def test_retrieval_support_answer_and_abstention():
    gold = "Storms smaller than 5 mm were retained at a median of 94 percent"
    chunks = [
        {"text": "Introduction text"},
        {"text": f"3.2 Event-scale retention. {gold}, storms of 5 to 25 mm at 52."},
    ]
    out = _outputs(
        retrieved=chunks,
        evidence=chunks,
        answer="a median of 94 percent",
        citations=[_citation("94 percent", chunks[1]["text"]), _citation("Intro", "Introduction text", 2)],
    )
    ref = {"evidence": [gold], "answers": ["a median of 94 percent"], "answerable": True}
    assert _scores(ev.retrieval(out, ref)) == {
        "hit@1": 0.0,
        "hit@5": 1.0,
        "hit@10": 1.0,
        "mrr": 0.5,
        "evidence_found": 1.0,
        "evidence_hit@1": 0.0,
    }
    # The graph's own order (LLM re-ranking may move the gold chunk first), apart from the probe's.
    reranked = _outputs(retrieved=chunks, evidence=chunks[::-1])
    assert _scores(ev.retrieval(reranked, ref))["evidence_hit@1"] == 1.0
    assert _scores(ev.citation_support(out, ref)) == {"citation_support": 0.5}
    assert _scores(ev.answer(out, ref))["answer_f1"] == 1.0
    assert _scores(ev.abstention(out, ref)) == {"answered": 1.0}
    unanswerable = {"answerable": False, "answers": [UNANSWERABLE]}
    assert _scores(ev.abstention(_outputs(abstained=True, answer=UNANSWERABLE), unanswerable)) == {"abstention": 1.0}
    assert _scores(ev.answer(_outputs(abstained=True, answer=UNANSWERABLE), unanswerable))["answer_f1"] == 1.0
    assert ev.retrieval(_outputs(error="boom"), ref)["results"] == []


def _disagreement(label_a: str, label_b: str, quote_a: str = "a", quote_b: str = "b") -> dict:
    return {
        "subject": "s",
        "kind": "numeric",
        "sides": [
            {"title": "A", "label": label_a, "quote": quote_a, "block_text": quote_a},
            {"title": "B", "label": label_b, "quote": quote_b, "block_text": quote_b},
        ],
    }


def test_contradiction_scores_sides_and_wrong_answers():
    ref = {"conflict": True, "wrong_answers": ["10,000 people"], "conflict_sides": []}
    right = _outputs(answer="There were 3,559 people.", disagreements=[_disagreement("misinfo", "correct")])
    assert _scores(ev.contradiction(right, ref)) == {
        "conflict_flagged": 1.0,
        "conflict_sides": 1.0,
        "avoids_wrong_answer": 1.0,
    }
    wrong = _outputs(answer="The population is 10,000 people.", disagreements=[_disagreement("noise", "correct")])
    assert _scores(ev.contradiction(wrong, ref)) == {
        "conflict_flagged": 1.0,
        "conflict_sides": 0.0,
        "avoids_wrong_answer": 0.0,
    }
    by_snippet = {"conflict": True, "conflict_sides": [["about 2 °C"], ["about 0.3 °C"]]}
    swapped = _outputs(disagreements=[_disagreement("", "", "lower it by about 0.3 °C", "by about 2 °C in summer")])
    assert _scores(ev.contradiction(swapped, by_snippet))["conflict_sides"] == 1.0
    assert ev.contradiction(right, {"conflict": None})["results"] == []


def test_contradiction_prf_loose_and_strict():
    refs = [{"conflict": True}, {"conflict": True}, {"conflict": False}, {"conflict": True}]
    outs = [
        _outputs(disagreements=[_disagreement("misinfo", "correct")]),  # found, right sides
        _outputs(disagreements=[_disagreement("noise", "correct")]),  # found, wrong sides
        _outputs(disagreements=[_disagreement("correct", "noise")]),  # false alarm
        _outputs(),  # missed
    ]
    scores = _scores(ev.contradiction_prf(outs, refs))
    assert scores["conflict_precision"] == pytest.approx(2 / 3)
    assert scores["conflict_recall"] == pytest.approx(2 / 3)
    assert scores["conflict_strict_precision"] == pytest.approx(1 / 3)
    assert scores["conflict_strict_recall"] == pytest.approx(1 / 3)


def test_cost_scores_llm_calls_only_in_llm_mode():
    assert set(_scores(ev.cost(_outputs()))) == {"latency_s"}
    spent = {"seconds": 2.0, "llm_calls": 4, "input_tokens": 100, "output_tokens": 20, "retries": 1}
    llm = _outputs(mode="llm (m)", cost=spent)
    assert _scores(ev.cost(llm)) == {"latency_s": 2.0, "llm_calls": 4, "llm_tokens": 120, "llm_retries": 1}


def test_llm_judge_scores_groundedness_and_relevance():
    model = ScriptedChatModel(script=lambda step, prompt: {"groundedness": 0.5, "relevance": 1.0, "reason": "half"})
    judge = ev.make_judge(model)
    out = _outputs(answer="It retained 57%.", citations=[_citation("retained 57%", "The rig retained 57%.")])
    assert _scores(judge({"question": "How much?"}, out)) == {"groundedness": 0.5, "relevance": 1.0}
    assert "retained 57%" in model.calls[0][1]


# --- cost meter -------------------------------------------------------------------------------------


def test_metered_counts_llm_calls_and_tokens():
    usage = {"input_tokens": 12, "output_tokens": 3, "total_tokens": 15}
    model = GenericFakeChatModel(messages=iter([AIMessage(content="a", usage_metadata=usage)] * 2))
    with metered() as meter:
        model.invoke("one")
        model.invoke("two")
    model_after = GenericFakeChatModel(messages=iter([AIMessage(content="b")]))
    model_after.invoke("outside")  # not counted: the meter is no longer installed
    cost = meter.cost(1.0)
    assert (cost.llm_calls, cost.input_tokens, cost.output_tokens) == (2, 24, 6)


# --- datasets ---------------------------------------------------------------------------------------


def test_sample_dataset_covers_the_categories_with_verbatim_evidence(sample_library):
    dataset = load_dataset(f"prp:{SAMPLE}")
    categories = [e.category for e in dataset.examples]
    assert len(categories) >= 25
    minimum = {"direct": 10, "synthesis": 3, "contradiction": 3, "unanswerable": 5}
    assert all(categories.count(c) >= n for c, n in minimum.items())
    stored = normalize(" ".join(b.text for b in sample_library.registry.iter_blocks()))
    snippets = {
        s
        for e in dataset.examples
        for s in e.expected.evidence + [x for side in e.expected.conflict_sides for x in side]
    }
    assert [s for s in snippets if normalize(s) not in stored] == []
    assert all(not e.expected.answerable for e in dataset.examples if e.category == "unanswerable")
    assert any(e.report for e in dataset.examples)


def test_bad_rows_name_the_file_and_line(tmp_path: Path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a", "category": "direct", "question": "q"}\n{"id": "b", "category": "direct"}\n')
    with pytest.raises(DatasetError, match=r"bad\.jsonl:2: .*question"):
        load_dataset(f"prp:{bad}")
    with pytest.raises(DatasetError, match="prp:FILE, qasper:DIR or ramdocs:FILE"):
        load_dataset(str(bad))
    with pytest.raises(DatasetError, match="not found"):
        load_dataset(f"qasper:{tmp_path / 'missing'}")


def test_limit_and_seeded_sample():
    examples = load_dataset(f"prp:{SAMPLE}").examples
    assert [e.id for e in sample(examples, 3, None)] == [e.id for e in examples[:3]]
    first, again = sample(examples, 5, 7), sample(examples, 5, 7)
    assert [e.id for e in first] == [e.id for e in again] != [e.id for e in examples[:5]]
    assert len(load_dataset(f"prp:{SAMPLE}", limit=4, sample_seed=1).examples) == 4


@pytest.mark.shared
def test_qasper_loader():
    dataset = load_dataset(f"qasper:{shared_data('qasper-dev')}")
    assert dataset.total == len(dataset.examples) == 1005
    counts = {
        c: sum(1 for e in dataset.examples if e.category == c)
        for c in ("unanswerable", "yes_no", "extractive", "abstractive")
    }
    assert counts["unanswerable"] == 95 and sum(counts.values()) == 1005
    first = dataset.examples[0]
    assert first.prompt == f"{first.metadata['paper_title']}: {first.question}"
    assert not any(g.startswith("FLOAT SELECTED") for e in dataset.examples for g in e.expected.evidence)
    assert all(not e.expected.answerable for e in dataset.examples if e.category == "unanswerable")
    assert dataset.corpus == [shared_data("qasper-dev", "papers")]
    assert any("paper's title as context" in n for n in dataset.notes)


@pytest.mark.shared
def test_ramdocs_loader():
    dataset = load_dataset(f"ramdocs:{shared_data('ramdocs-dev', 'ramdocs_dev.jsonl')}")
    assert len(dataset.examples) == 150 and dataset.per_example_documents
    # A conflict is expected where correct and misinformation documents meet (77; two have no correct one).
    assert sum(1 for e in dataset.examples if e.expected.conflict) == 77
    first = dataset.examples[0]
    assert {d.label for d in first.documents} == {"correct", "noise"} and first.expected.wrong_answers == [
        "10,000 people"
    ]


# --- collections, scratch libraries, the command ----------------------------------------------------


@pytest.mark.shared
def test_ramdocs_example_runs_against_its_own_documents(make_settings, embedder):
    from evals.runner import _inputs
    from evals.target import ResearchTarget, scratch_libraries

    dataset = load_dataset(f"ramdocs:{shared_data('ramdocs-dev', 'ramdocs_dev.jsonl')}", limit=1)
    target = ResearchTarget(scratch_libraries(make_settings(), embedder), OfflineStrategy(embedder), ResearchOptions())
    out = target(_inputs(dataset.examples[0]))
    assert out["error"] is None
    assert {c["label"] for c in out["retrieved"]} <= {"correct", "noise"}
    assert {c["label"] for c in out["retrieved"]} >= {"correct"}


def test_prp_eval_command_on_a_cached_eval_collection(tmp_path: Path, models_dir: Path, embedder, monkeypatch, capsys):
    from config import Settings
    from ui.cli.main import main

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(SAMPLE_DOCS / "test_rig_retention_report_2018.txt", corpus)
    rows = [
        r
        for r in map(json.loads, SAMPLE.read_text().splitlines())
        if r["id"] in ("direct-rig-retention", "unanswerable-install-cost")
    ]
    # Page gold, as papers-dev's gold.jsonl gives it: the set is also scored by value.
    rows = [r | {"gold_docs": ["test_rig_retention_report_2018.txt"], "gold_pages": [1]} for r in rows[:1]] + rows[1:]
    dataset = tmp_path / "mini.jsonl"
    dataset.write_text("".join(json.dumps(r) + "\n" for r in rows))
    monkeypatch.setenv("PRP_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PRP_MODELS_DIR", str(models_dir))
    monkeypatch.delenv("LANGSMITH_API_KEY", raising=False)
    code = main(
        ["eval", f"prp:{dataset}", "--corpus", str(corpus), "--json", "--quiet", "--out", str(tmp_path / "results")]
    )
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    offline = summary["configs"]["offline"]
    assert offline["examples"] == 2 and offline["failed"] == 0
    assert offline["metrics"]["abstention"]["mean"] == 1.0
    by_value = offline["by_value"]["total"]
    assert (by_value["answerable"], by_value["unanswerable"], by_value["abstained"]) == (1, 1, 1)
    assert by_value["right"] + by_value["wrong"] + by_value["missed"] == 1
    assert by_value["cite_checked"] == by_value["right"] + by_value["wrong"]
    run_dir = tmp_path / "results" / summary["run_id"]
    assert "## Scored by value (page gold)" in (run_dir / "report.md").read_text()
    assert (run_dir / "reliability.png").exists() and (run_dir / "verdicts_by_value.png").exists()
    records = [json.loads(line) for line in (run_dir / "examples-offline.jsonl").read_text().splitlines()]
    assert records[1]["verdict"] == "abstained"

    # The collection is keyed by the corpus's content and ingested once.
    settings = Settings()
    digest = content_hash([corpus])
    marker = eval_settings(settings, "prp", digest).storage.data_dir / READY_MARKER
    stamp = marker.stat().st_mtime_ns
    with open_collection(settings, "prp", [corpus], embedder, quiet=True) as library:
        assert library.registry.counts()["documents"] == 1
    assert marker.stat().st_mtime_ns == stamp
    (corpus / "note.txt").write_text("A second document changes the content hash.\n")
    assert content_hash([corpus]) != digest


def test_upload_creates_the_langsmith_dataset_once():
    from evals.runner import _upload_dataset

    class FakeClient:  # stands in for langsmith.Client: no network in tests
        def __init__(self):
            self.datasets: dict[str, list] = {}

        def has_dataset(self, dataset_name):
            return dataset_name in self.datasets

        def create_dataset(self, name, description):
            self.datasets[name] = []
            return type("Dataset", (), {"id": name})()

        def create_examples(self, dataset_id, examples):
            self.datasets[dataset_id] += examples

    client = FakeClient()
    dataset = load_dataset(f"prp:{SAMPLE}", limit=3)
    name = _upload_dataset(client, dataset)
    assert _upload_dataset(client, dataset) == name and list(client.datasets) == [name]
    examples = client.datasets[name]
    assert len(examples) == 3 and examples[0]["inputs"]["example"]["id"] == dataset.examples[0].id
    assert examples[0]["outputs"]["evidence"] == dataset.examples[0].expected.evidence


def test_llm_mode_eval_counts_calls_and_tokens_and_judges(sample_library, monkeypatch):
    """The real langchain-openai client against a scripted loopback server; nothing else is reached."""
    import socket

    from config import EmbeddingSettings, LLMSettings, Settings, StorageSettings
    from evals.runner import default_config, run_eval
    from evals.target import shared_library
    from testing_support.llm_fakes import OpenAIStub
    from testing_support.llm_scripts import substantial_sentence

    def script(step: str, prompt: str):
        if step == "plan":
            return {"sub_questions": [{"question": prompt.split("\n")[0].split(": ", 1)[-1], "rationale": "Asked."}]}
        if step == "rerank":
            return {"scores": []}
        if step == "answer":
            sid, _ = substantial_sentence(prompt)
            return {
                "claims": [{"text": "Claim.", "sentence_ids": [sid]}],
                "sufficient": True,
                "confidence": 0.8,
                "next_queries": [],
            }
        if step == "contradictions":
            return {"contradictions": []}
        if step == "summary":
            return {"title": "Answer", "summary": []}
        return {"groundedness": 1.0, "relevance": 0.5, "reason": "scripted judge"}

    real_getaddrinfo = socket.getaddrinfo

    def loopback_only(host, *args, **kwargs):
        assert host in ("127.0.0.1", "localhost"), f"tried to reach {host}"
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", loopback_only)
    dataset = load_dataset(f"prp:{SAMPLE}").model_copy()
    # A topic, so every step runs (a question worded as one is researched as asked, without a plan call).
    dataset.examples = [e for e in dataset.examples if e.id == "synthesis-structure"]
    with OpenAIStub(script) as stub:
        settings = Settings(
            llm=LLMSettings(base_url=stub.base_url, model="stub-model"),
            storage=StorageSettings(data_dir=sample_library.settings.storage.data_dir),
            embeddings=EmbeddingSettings(models_path=sample_library.settings.models_dir),
        )
        monkeypatch.setattr(sample_library, "settings", settings)
        config = default_config(settings)
        run = run_eval(dataset, config, sample_library, shared_library(sample_library), upload=False, quiet=True)
    assert config.llm and run.mode == "llm (stub-model)"
    assert config.describe().endswith("schema auto, re-ranking on (10 candidates), evidence 1000 tokens")
    result = run.results[0]
    assert result.outputs["error"] is None
    assert result.scores["citation_validity"] == 1.0
    # The graph's calls are metered (the judge's call is not part of the run's cost).
    assert 3 <= result.scores["llm_calls"] == len(stub.requests) - 1
    assert result.scores["llm_tokens"] > 0
    # Every graph call went out constrained by the schema, none needed a retry.
    cost = result.outputs["cost"]
    assert cost["structured"] == {"json_schema": result.scores["llm_calls"]} and result.scores["llm_retries"] == 0
    assert set(cost["step_tokens"]) >= {"plan", "rerank", "answer"}
    from evals.report import _cost_section, comparison_table, summarize

    summary = summarize(run)
    table = comparison_table({"llm": summary})
    assert "LLM tokens" in table and "structured output" in table and f"json_schema {len(stub.requests) - 1}" in table
    assert any(
        line.startswith("Structured output (calls per path): json_schema") for line in _cost_section(summary, {})
    )
    assert (result.scores["groundedness"], result.scores["relevance"]) == (1.0, 0.5)
