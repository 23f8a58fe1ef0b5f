"""Running an eval: one code path through ``langsmith.evaluate``.

Without ``LANGSMITH_API_KEY`` the examples are built locally and ``evaluate`` runs with
``upload_results=False``: the target's own run is kept in memory only (LangSmith's "local" tracing)
and the graph inside it runs with tracing off, so nothing tries to reach LangSmith. With a key the
same call uploads: the examples become a LangSmith dataset and the run an experiment, with the graph's
runs traced under it.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import sys
import time
import uuid
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from langsmith import Client, evaluate, schemas
from pydantic import BaseModel, Field
from tqdm import tqdm

from config import Settings
from corpus.library import Library
from corpus.retrieval import SearchMode
from evals.collections import open_collection
from evals.datasets import EvalDataset, EvalExample
from evals.evaluators import EVALUATORS, SUMMARY_EVALUATORS, make_judge
from evals.metrics import normalize
from evals.target import LibraryFor, ResearchTarget, scratch_libraries, shared_library
from research.options import ResearchOptions
from strategies.select import llm_configured, open_strategy

# Example and dataset ids are derived from names, so the same example keeps its id across runs.
ID_NAMESPACE = uuid.UUID("6f1d8a52-3c1e-4b7a-9d0e-5a2f3c4b1e07")


class RunConfig(BaseModel):
    """One configuration of prp to evaluate."""

    name: str
    options: ResearchOptions = Field(default_factory=ResearchOptions)
    llm: bool = False
    # In LLM mode, the settings that shape the model's calls: runs with and without re-ranking differ here.
    llm_settings: str = ""

    def describe(self) -> str:
        mode = "LLM" if self.llm else "offline"
        o = self.options
        described = f"{mode}, {o.search_mode.value} retrieval, k={o.k}, {o.max_retries} retry round(s)"
        return f"{described}, {self.llm_settings}" if self.llm_settings else described

    def varied(self, name: str, **options) -> RunConfig:
        return self.model_copy(update={"name": name, "options": self.options.model_copy(update=options)})


def llm_available(settings: Settings) -> bool:
    return llm_configured(settings) or settings.llm.mode == "local"


def default_config(settings: Settings, options: ResearchOptions | None = None) -> RunConfig:
    llm = llm_available(settings)
    shaped = (
        f"schema {settings.llm.schema_format}, re-ranking {'on' if settings.llm.rerank else 'off'} "
        f"({settings.llm.rerank_candidates} candidates), evidence {settings.llm.evidence_budget} tokens"
    )
    return RunConfig(
        name="llm" if llm else "offline",
        options=options or ResearchOptions(),
        llm=llm,
        llm_settings=shaped if llm else "",
    )


def compare_configs(base: RunConfig, settings: Settings) -> list[RunConfig]:
    """The base configuration, each other retrieval mode, no retries, and offline vs LLM where configured."""
    mode = base.options.search_mode
    configs = [base.varied(mode.value)]
    configs += [base.varied(other.value, search_mode=other) for other in SearchMode if other is not mode]
    configs.append(base.varied(f"{mode.value}, no retries", max_retries=0))
    if llm_available(settings):
        other = not base.llm
        configs.append(base.model_copy(update={"name": f"{mode.value}, {'LLM' if other else 'offline'}", "llm": other}))
    return configs


class ExampleResult(BaseModel):
    example: EvalExample
    outputs: dict
    scores: dict[str, float]
    comments: dict[str, str]


@dataclass
class EvalRun:
    dataset: EvalDataset
    config: RunConfig
    mode: str
    results: list[ExampleResult]
    summary_scores: dict[str, float]
    seconds: float
    experiment: str
    uploaded: bool
    url: str | None = None
    notes: list[str] = field(default_factory=list)


@contextlib.contextmanager
def libraries_for(
    dataset: EvalDataset, library: Library, quiet: bool = False
) -> Iterator[tuple[LibraryFor, list[str]]]:
    """Where the dataset's questions are asked, opened once for every configuration run on it.

    A dataset with its own corpus (QASPER's papers) gets a cached eval collection; one whose examples
    bring their own documents (RAMDocs) gets a scratch library per example; a ``prp:`` dataset asks
    the user's library (or the collection of ``--corpus``). Yields notes for the report.
    """
    if dataset.per_example_documents:
        yield scratch_libraries(library.settings, library.embedder), []
        return
    if dataset.corpus:
        with open_collection(
            library.settings, dataset.kind.value, dataset.corpus, library.embedder, quiet
        ) as collection:
            counts = collection.registry.counts()
            yield (
                shared_library(collection),
                [
                    f"Eval collection: {collection.settings.storage.data_dir} ({counts.get('documents', 0)} documents, "
                    f"{counts.get('chunks', 0)} chunks), ingested once and reused while its sources are unchanged."
                ],
            )
        return
    missing = evidence_missing_from(library, dataset.examples)
    notes = [f"Asked against the library at {library.settings.storage.data_dir}."]
    if missing:
        notes.append(f"{missing} expected evidence snippet(s) are not in any stored block: is the corpus ingested?")
        print(f"prp eval: warning: {notes[-1]}", file=sys.stderr)
    yield shared_library(library), notes


def evidence_missing_from(library: Library, examples: list[EvalExample]) -> int:
    stored = normalize(" ".join(b.text for b in library.registry.iter_blocks()))
    snippets = {s for e in examples for s in e.expected.evidence}
    return sum(1 for s in snippets if normalize(s) not in stored)


def run_eval(
    dataset: EvalDataset,
    config: RunConfig,
    library: Library,
    library_for: LibraryFor,
    *,
    upload: bool,
    quiet: bool = False,
    judge: bool = True,
) -> EvalRun:
    """Evaluate ``config`` on ``dataset`` through ``langsmith.evaluate`` (uploading only if ``upload``).

    In LLM mode the same model also judges groundedness and relevance, unless ``judge`` is False.
    """
    settings = library.settings
    if not config.llm:
        # Offline even when an LLM is configured (the offline side of a comparison).
        settings = settings.updated(llm={"api_key": None, "base_url": None, "mode": "auto"})
    started = time.perf_counter()
    with open_strategy(settings, library) as strategy:
        target = ResearchTarget(library_for, strategy, config.options, trace=upload)
        evaluators = list(EVALUATORS)
        if judge and config.llm:
            evaluators.append(make_judge(strategy.llm, settings.llm.schema_format))
        client = Client() if upload else offline_client()
        data = _upload_dataset(client, dataset) if upload else _local_examples(dataset)
        experiment = _Experiment(dataset, config, client, upload, strategy.mode)
        results, rows = experiment.run(target, data, evaluators, quiet)
        mode = strategy.mode
    example_results = [_result(row) for row in rows]
    return EvalRun(
        dataset=dataset,
        config=config,
        mode=mode,
        results=example_results,
        summary_scores=summary_scores_of(example_results),
        seconds=time.perf_counter() - started,
        experiment=results.experiment_name,
        uploaded=upload,
        url=results.url if upload else None,
    )


@dataclass(frozen=True)
class _Experiment:
    """One ``langsmith.evaluate`` experiment: a configuration on a dataset, with a progress bar."""

    dataset: EvalDataset
    config: RunConfig
    client: Client
    upload: bool
    mode: str

    def run(
        self, target: ResearchTarget, data: str | list[schemas.Example], evaluators: list, quiet: bool
    ) -> tuple[Any, list]:
        """``evaluate``'s results (langsmith names their type privately) and their rows."""
        bar = tqdm(
            total=len(self.dataset.examples),
            desc=f"{self.dataset.name} · {self.config.name}",
            unit="q",
            file=sys.stderr,
            disable=quiet or None,
        )

        def predict(inputs: dict) -> dict:
            outputs = target(inputs)
            bar.update(1)
            if outputs.get("error"):
                bar.write(f"prp eval: {inputs['example']['id']}: {outputs['error']}", file=sys.stderr)
            return outputs

        predict.__name__ = "prp_research"
        # langsmith announces the experiment on stdout (kept for --json) and warns that
        # upload_results=False is in beta: the announcement is dropped, the warning silenced.
        with contextlib.redirect_stdout(io.StringIO()), bar, warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=".*upload_results.* is in beta")
            results = evaluate(
                predict,
                data=data,
                evaluators=evaluators,
                summary_evaluators=SUMMARY_EVALUATORS,
                experiment_prefix=f"prp-{self.dataset.name}-{self.config.name.replace(', ', '-').replace(' ', '-')}",
                description=f"prp {self.config.describe()} on {self.dataset.kind.value}:{self.dataset.source}",
                metadata={
                    "config": self.config.model_dump(mode="json"),
                    "dataset": self.dataset.name,
                    "mode": self.mode,
                },
                max_concurrency=0,
                client=self.client,
                upload_results=self.upload,
                # Offline, evaluators run untraced: an LLM judge's calls must not look for a tracer.
                disable_evaluator_tracing=not self.upload,
            )
            return results, list(results)


def summary_scores_of(results: list[ExampleResult]) -> dict[str, float]:
    """The summary evaluators' scores, computed locally on the rows (as evaluate() did for LangSmith)."""
    outputs = [r.outputs for r in results]
    references = [r.example.expected.model_dump(mode="json") for r in results]
    return {
        item["key"]: item["score"]
        for evaluator in SUMMARY_EVALUATORS
        for item in evaluator(outputs, references)["results"]
    }


def _result(row) -> ExampleResult:
    outputs = row["run"].outputs if row["run"] is not None else None
    example = EvalExample.model_validate(row["example"].inputs["example"])
    scores, comments = {}, {}
    for r in row["evaluation_results"]["results"]:
        if r.score is not None:
            scores[r.key] = float(r.score)
        if r.comment:
            comments[r.key] = r.comment
    return ExampleResult(
        example=example, outputs=outputs or {"error": "the run produced no outputs"}, scores=scores, comments=comments
    )


def offline_client() -> Client:
    """A client that never talks to LangSmith: ``evaluate`` wants one even with ``upload_results=False``,
    and a default ``Client()`` starts a background thread that fetches the server's info at once."""
    return Client(api_key="offline", auto_batch_tracing=False, info=schemas.LangSmithInfo())


def _inputs(example: EvalExample) -> dict:
    return {"question": example.prompt, "example": example.model_dump(mode="json")}


def _local_examples(dataset: EvalDataset) -> list[schemas.Example]:
    dataset_id = uuid.uuid5(ID_NAMESPACE, f"{dataset.kind.value}:{dataset.name}")
    return [
        schemas.Example(
            id=uuid.uuid5(ID_NAMESPACE, f"{dataset_id}/{e.id}"),
            dataset_id=dataset_id,
            inputs=_inputs(e),
            outputs=e.expected.model_dump(mode="json"),
            metadata={"category": e.category, "id": e.id},
        )
        for e in dataset.examples
    ]


def _upload_dataset(client: Client, dataset: EvalDataset) -> str:
    """The examples as a LangSmith dataset, named by their content so a rerun reuses it."""
    payload = [
        (_inputs(e), e.expected.model_dump(mode="json"), {"category": e.category, "id": e.id}) for e in dataset.examples
    ]
    digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:10]
    name = f"prp-{dataset.kind.value}-{dataset.name}-{digest}"
    if not client.has_dataset(dataset_name=name):
        created = client.create_dataset(name, description=f"prp eval dataset {dataset.kind.value}:{dataset.source}")
        client.create_examples(
            dataset_id=created.id,
            examples=[{"inputs": i, "outputs": o, "metadata": m} for i, o, m in payload],
        )
    return name
