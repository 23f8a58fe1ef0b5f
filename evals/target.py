"""The function LangSmith evaluates: one example in; what prp answered, cited and retrieved out.

It runs the research graph through ``graph.run.run_research`` like every other entry point — one
question as ``prp ask`` does, or a topic as ``prp report`` does — and records, besides the report:
the chunks a retrieval probe returns for the question (the question searched once, as the graph's
first search does, but to depth ``PROBE_K``), the evidence the graph gathered over all its searches,
every displayed citation with the stored text of its blocks, the disagreements shown, and the cost
(seconds per graph step; LLM calls and tokens in LLM mode).
"""

from __future__ import annotations

import contextlib
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path

from langsmith import tracing_context

from config import Settings
from corpus.embeddings import Embedder
from corpus.library import Library
from corpus.retrieval import RetrievedChunk
from evals.cost import metered
from evals.datasets import EvalExample, SourceDocument
from evals.metrics import UNANSWERABLE
from graph.run import run_research
from research.evidence import FindingStatus
from research.options import ResearchOptions
from research.report import FinalReport, ReportSection
from research.strategy import ResearchStrategy
from tools.hybrid_search import hybrid_search

PROBE_K = 10

Labels = dict[str, str]
"""doc_id -> label of an example's own documents (correct | misinfo | noise)."""
LibraryFor = Callable[[EvalExample], AbstractContextManager[tuple[Library, Labels]]]


def shared_library(library: Library) -> LibraryFor:
    """Every example against the same library (the user's, or a cached eval collection)."""
    return lambda example: contextlib.nullcontext((library, {}))


def scratch_libraries(settings: Settings, embedder: Embedder) -> LibraryFor:
    """Every example against a fresh library of its own documents, in a temporary directory."""

    @contextlib.contextmanager
    def open_for(example: EvalExample) -> Iterator[tuple[Library, Labels]]:
        with tempfile.TemporaryDirectory(prefix="prp-eval-") as tmp:
            yield from _scratch(settings, embedder, Path(tmp), example.documents)

    return open_for


def _scratch(
    settings: Settings, embedder: Embedder, root: Path, documents: list[SourceDocument]
) -> Iterator[tuple[Library, Labels]]:
    folder = root / "docs"
    folder.mkdir()
    label_of_path: dict[str, str] = {}
    for i, document in enumerate(documents, start=1):
        path = folder / f"source-{i}.txt"
        path.write_text(document.text, encoding="utf-8")
        label_of_path[str(path.resolve())] = document.label
    # Local mode always: a scratch library must never create collections on a configured server.
    scratch = settings.updated(
        storage={"data_dir": root / "data"}, index={"qdrant_url": None}, embeddings={"models_path": settings.models_dir}
    )
    with Library(scratch, embedder=embedder) as library:
        summary = library.ingest([folder])
        labels: Labels = {}
        for result in summary.files:
            if result.doc_id:
                # Identical texts are stored once; a document is "correct" if any copy is.
                label = label_of_path.get(result.path, "")
                if labels.get(result.doc_id) != "correct":
                    labels[result.doc_id] = label
        yield library, labels


class ResearchTarget:
    def __init__(
        self,
        library_for: LibraryFor,
        strategy: ResearchStrategy,
        options: ResearchOptions,
        trace: bool = False,
    ):
        """``trace``: let the graph's runs be traced (only when results are uploaded to LangSmith)."""
        self.library_for = library_for
        self.strategy = strategy
        self.options = options
        self.trace = trace

    def __call__(self, inputs: dict) -> dict:
        example = EvalExample.model_validate(inputs["example"])
        started = time.perf_counter()
        # A failing example is recorded and scored as failed; the rest of the run goes on.
        try:
            with self.library_for(example) as (library, labels):
                setup = time.perf_counter() - started
                with tracing_context(enabled=False) if not self.trace else contextlib.nullcontext():
                    return {"error": None, "setup_s": round(setup, 4), **self._run(library, labels, example)}
        except Exception as exc:  # noqa: BLE001
            return {"error": f"{type(exc).__name__}: {exc}", "setup_s": round(time.perf_counter() - started, 4)}

    def _run(self, library: Library, labels: Labels, example: EvalExample) -> dict:
        options = self.options
        probe = hybrid_search(library, example.prompt, max(PROBE_K, options.k), options.filters, options.search_mode)
        with metered() as meter:
            t0 = time.perf_counter()
            result = run_research(
                library, self.strategy, example.prompt, single_question=not example.report, options=options
            )
            cost = meter.cost(time.perf_counter() - t0)
        report = result.report
        findings = result.state.get("findings", [])
        return {
            **_answer(report),
            "sub_questions": len(findings),
            "gaps": sum(1 for f in findings if f.status is FindingStatus.GAP),
            "retries": sum(f.retries for f in findings),
            "queries": [q for f in findings for q in f.queries],
            # The answer's citations: the closest passages of a question not answered are no answer's evidence.
            "citations": _citations(library, report, labels),
            "closest": _closest(report),
            "short_answers": _short_answers(report),
            "claims": _claims(report),
            "unverified_claims": report.unverified_claims,
            "dropped_claims": report.dropped_claims,
            "disagreements": _disagreements(report, labels),
            "retrieved": [_chunk(c, labels) for c in probe],
            "evidence": [_chunk(c, labels) for f in findings for c in f.evidence],
            "cost": cost.model_dump(),
            "mode": report.mode,
            "markdown": report.markdown,
        }


def _answer(report: FinalReport) -> dict:
    """What the report answers (its answered sections'), and the confidence and claim it leads with."""
    answered = report.answered_sections()
    return {
        "answer": " ".join(_answer_text(s) for s in answered) or UNANSWERABLE,
        "asserted": " ".join(_answer_text(s) for s in answered if not s.disputed),
        "abstained": not answered,
        # The confidence shown with the answer: its first answered section's (the one a reader reads first).
        "confidence": answered[0].confidence if answered else None,
        # The claim that confidence is shown with first, with its short answer and citations.
        "lead": _lead(answered[0]) if answered and answered[0].claims else None,
    }


def _closest(report: FinalReport) -> list[dict]:
    """The closest passages shown for the questions not answered."""
    return [
        {"number": n, "doc_id": report.citation(n).doc_id, "matched_text": report.citation(n).matched_text}
        for s in report.closest_sections()
        for n in s.closest
    ]


def _citations(library: Library, report: FinalReport, labels: Labels) -> list[dict]:
    """The citations of the report's answers, each with its blocks as the store holds them."""
    stored = library.registry.blocks(b for c in report.citations for b in c.resolution.block_ids)
    documents = library.registry.documents_by_id({c.resolution.doc_id for c in report.citations})
    return [
        {
            "number": c.number,
            "doc_id": c.resolution.doc_id,
            "title": c.resolution.title,
            # The document's file name: page gold names documents by it.
            "file": Path(documents[c.resolution.doc_id].path).name if c.resolution.doc_id in documents else "",
            "label": labels.get(c.resolution.doc_id, ""),
            "block_ids": c.resolution.block_ids,
            "page": c.resolution.page,
            "quote": c.resolution.quote,
            "matched_text": c.resolution.matched_text,
            # Re-read from the store, not taken from the resolution: validity is checked against it.
            "blocks": [
                {"block_id": b, "page": stored[b].page, "text": stored[b].text}
                for b in c.resolution.block_ids
                if b in stored
            ],
            "in_store": all(b in stored for b in c.resolution.block_ids),
        }
        for c in report.answer_citations()
    ]


def _claims(report: FinalReport) -> list[dict]:
    """Every claim as shown: its status and its section's (what became of a model's claims)."""
    return [
        {"text": c.text, "status": c.status.value, "section_status": s.status.value}
        for s in report.sections
        for c in s.claims
    ]


def _answer_text(section: ReportSection) -> str:
    """What a section answers: its short answers where it has them (as QASPER separates the answer from
    its evidence), else its claims; a disputed section's answers are both sides'."""
    leads = [c.answer for c in section.claims if c.answer]
    return " ".join(leads) if leads else " ".join(c.text for c in section.claims)


def _lead(section: ReportSection) -> dict:
    claim = section.claims[0]
    return {"text": claim.text, "answer": claim.answer, "citations": claim.citations}


def _short_answers(report: FinalReport) -> list[dict]:
    """Every bold short answer the report shows, with the question and the sentence it leads (the
    summary repeats sections' claims, so sections are read)."""
    return [
        {"question": s.sub_question.question, "answer": c.answer, "sentence": c.first_line}
        for s in report.sections
        for c in s.claims
        if c.answer
    ]


def _disagreements(report: FinalReport, labels: Labels) -> list[dict]:
    """The disagreements the report shows, each side with its document's label."""
    shown = []
    for item in report.disagreements:
        sides = [report.citation(number) for side in item.sides for number in side.citations]
        shown.append(
            {
                "subject": item.subject,
                "kind": item.kind,
                "sides": [
                    {
                        "doc_id": r.doc_id,
                        "title": r.title,
                        "label": labels.get(r.doc_id, ""),
                        "quote": r.matched_text,
                        "block_text": r.block_text,
                    }
                    for r in sides
                ],
            }
        )
    return shown


def _chunk(chunk: RetrievedChunk, labels: Labels) -> dict:
    return {
        "rank": chunk.rank,
        "doc_id": chunk.doc_id,
        "title": chunk.title,
        "label": labels.get(chunk.doc_id, ""),
        "chunk_id": chunk.chunk_id,
        "score": round(chunk.score, 4),
        "text": chunk.text,
    }
