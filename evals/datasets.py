"""Eval datasets, named on the command line as ``KIND:PATH``, loaded into typed examples.

- ``prp:FILE``: our own JSONL, one row per question (or topic) with its category, expected evidence
  snippets (verbatim from the documents), reference answers, whether the corpus answers it at all,
  for a disagreement the snippets each side must quote, and optionally the pages that answer it
  (``gold_docs`` file names with ``gold_pages``; a set with them is also scored by value,
  ``evals.value_verdicts``). See ``PrpRow``.
- ``qasper:DIR``: a directory laid out like QASPER dev (``papers/*.txt``, ``questions.json``). All
  papers are pooled in one collection and each question is asked with its paper's title as context.
- ``ramdocs:FILE``: RAMDocs JSONL; every question comes with its own small set of documents, some of
  them correct, some misinformation, some noise.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from enum import StrEnum
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError, model_validator

from corpus.errors import PrpError
from evals.metrics import UNANSWERABLE


class DatasetError(PrpError):
    """A dataset could not be read; the message names the file (and line) and what is wrong."""


class SourceDocument(BaseModel):
    """A document of an example's own document set (RAMDocs)."""

    text: str
    label: str = Field(description="correct | misinfo | noise")
    answer: str = ""


class GoldPage(BaseModel):
    """A page that answers an example: the document's file name and its 1-based page."""

    doc: str
    page: int = Field(ge=1)


class Expected(BaseModel):
    """What a good answer does: the reference side of an example."""

    answerable: bool = Field(default=True, description="False: the report should say the corpus does not answer it.")
    evidence: list[str] = Field(default_factory=list, description="Gold passages or snippets, verbatim.")
    answers: list[str] = Field(default_factory=list, description="Reference answers (one per annotator).")
    conflict: bool | None = Field(default=None, description="Do the sources disagree? None: not scored.")
    conflict_sides: list[list[str]] = Field(
        default_factory=list, description="Snippets each side of the disagreement must quote (two lists)."
    )
    wrong_answers: list[str] = Field(default_factory=list, description="Misinformation never to state as fact.")
    gold_pages: list[GoldPage] = Field(default_factory=list, description="Pages that answer it.")
    by_value: bool = Field(
        default=False,
        description="Score the answer by value (evals.value_verdicts): its set gives page gold, and an "
        "unanswerable question of such a set has none.",
    )


class EvalExample(BaseModel):
    id: str
    category: str
    question: str
    report: bool = Field(default=False, description="Research a topic as a full report instead of one question.")
    asked: str | None = Field(default=None, description="What the graph is given, when it differs from the question.")
    documents: list[SourceDocument] = Field(default_factory=list, description="This example's own documents.")
    expected: Expected = Field(default_factory=Expected)
    metadata: dict = Field(default_factory=dict)

    @property
    def prompt(self) -> str:
        return self.asked or self.question


class DatasetKind(StrEnum):
    PRP = "prp"
    QASPER = "qasper"
    RAMDOCS = "ramdocs"


class EvalDataset(BaseModel):
    name: str
    kind: DatasetKind
    source: Path
    examples: list[EvalExample]
    total: int = Field(description="Examples in the file, before --limit.")
    corpus: list[Path] = Field(default_factory=list, description="Documents for a cached eval collection.")
    notes: list[str] = Field(default_factory=list, description="How the questions were asked; shown in reports.")

    @property
    def per_example_documents(self) -> bool:
        return self.kind is DatasetKind.RAMDOCS


# --- prp:FILE ---------------------------------------------------------------------------------------


class PrpRow(BaseModel):
    """One row of a ``prp:`` JSONL file."""

    model_config = {"extra": "forbid"}

    id: str
    category: str = Field(description="e.g. direct, synthesis, contradiction, unanswerable")
    question: str | None = None
    topic: str | None = Field(default=None, description="A topic researched as a full report.")
    evidence: list[str] = Field(default_factory=list)
    answers: list[str] = Field(default_factory=list)
    expect: str = Field(default="answer", pattern="^(answer|abstain)$")
    disagreement: list[list[str]] | None = Field(
        default=None, description="Two lists of snippets: what each side of the disagreement quotes."
    )
    conflict: bool | None = Field(default=None, description="Defaults to whether a disagreement is given.")
    gold_docs: list[str] = Field(default_factory=list, description="File names of the documents that answer it.")
    gold_pages: list[int] = Field(default_factory=list, description="The 1-based page of each of gold_docs.")

    @model_validator(mode="after")
    def _one_prompt(self) -> PrpRow:
        if (self.question is None) == (self.topic is None):
            raise ValueError("give exactly one of 'question' and 'topic'")
        if self.disagreement is not None and len(self.disagreement) != 2:
            raise ValueError("'disagreement' must be two lists of snippets, one per side")
        if len(self.gold_docs) != len(self.gold_pages):
            raise ValueError("'gold_docs' and 'gold_pages' must be of the same length (one page per document)")
        return self

    def example(self) -> EvalExample:
        conflict = self.conflict if self.conflict is not None else bool(self.disagreement)
        return EvalExample(
            id=self.id,
            category=self.category,
            question=self.topic or self.question or "",
            report=self.topic is not None,
            expected=Expected(
                answerable=self.expect == "answer",
                evidence=self.evidence,
                # An abstention is the right answer to a question the corpus does not answer.
                answers=self.answers or ([UNANSWERABLE] if self.expect == "abstain" else []),
                conflict=conflict,
                conflict_sides=self.disagreement or [],
                gold_pages=[
                    GoldPage(doc=doc, page=page) for doc, page in zip(self.gold_docs, self.gold_pages, strict=True)
                ],
            ),
        )


def load_prp(path: Path) -> EvalDataset:
    examples: list[EvalExample] = []
    for number, line in _lines(path):
        try:
            examples.append(PrpRow.model_validate_json(line).example())
        except ValidationError as exc:
            raise DatasetError(f"{path}:{number}: {_brief(exc)}") from None
    _unique_ids(path, examples)
    if any(e.expected.gold_pages for e in examples):
        examples = [
            e.model_copy(update={"expected": e.expected.model_copy(update={"by_value": True})}) for e in examples
        ]
    return EvalDataset(name=path.stem, kind=DatasetKind.PRP, source=path, examples=examples, total=len(examples))


# --- qasper:DIR -------------------------------------------------------------------------------------


def qasper_reference(answer: dict) -> str:
    """One annotator's answer as a string, as QASPER's official evaluation builds it."""
    if answer["unanswerable"]:
        return UNANSWERABLE
    if answer["extractive_spans"]:
        return ", ".join(answer["extractive_spans"])
    if answer["free_form_answer"]:
        return answer["free_form_answer"]
    if answer["yes_no"] is not None:
        return "Yes" if answer["yes_no"] else "No"
    return ""


def qasper_category(answer: dict) -> str:
    if answer["unanswerable"]:
        return "unanswerable"
    if answer["yes_no"] is not None:
        return "yes_no"
    return "extractive" if answer["extractive_spans"] else "abstractive"


# Evidence naming a table or figure ("FLOAT SELECTED: Table 2: ...") is a caption, not body text.
FLOAT_EVIDENCE = "FLOAT SELECTED"


def load_qasper(directory: Path) -> EvalDataset:
    papers, questions = directory / "papers", directory / "questions.json"
    if not papers.is_dir():
        raise DatasetError(f"{papers}: not found (a qasper: dataset is a directory with papers/ and questions.json)")
    try:
        rows = json.loads(_read(questions))
        examples = []
        for row in rows:
            answers = row["answers"]
            # The first annotator decides the category and whether it is answerable, as the shared
            # data's README counts them (95 unanswerable); the answer F1 takes the best annotator.
            first = answers[0]
            evidence = [
                e for a in answers if not a["unanswerable"] for e in a["evidence"] if not e.startswith(FLOAT_EVIDENCE)
            ]
            examples.append(
                EvalExample(
                    id=row["question_id"],
                    category=qasper_category(first),
                    question=row["question"],
                    asked=f"{row['paper_title']}: {row['question']}",
                    expected=Expected(
                        answerable=not first["unanswerable"],
                        evidence=list(dict.fromkeys(evidence)),
                        answers=[qasper_reference(a) for a in answers],
                    ),
                    metadata={"paper_id": row["paper_id"], "paper_title": row["paper_title"]},
                )
            )
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        raise DatasetError(
            f"{questions}: not laid out like QASPER's questions.json ({type(exc).__name__}: {exc})"
        ) from None
    _unique_ids(questions, examples)
    return EvalDataset(
        name=directory.name,
        kind=DatasetKind.QASPER,
        source=directory,
        examples=examples,
        total=len(examples),
        corpus=[papers],
        notes=[
            "All papers are pooled in one collection. Each question is asked with its paper's title as "
            'context ("<paper title>: <question>"); the search tool recognises the title and searches that '
            "paper for the question (run with title scoping off to search all papers).",
            "Answer F1 is QASPER's token F1, the best over annotators; an abstention answers "
            f'"{UNANSWERABLE}". Category and answerability follow the first annotator.',
        ],
    )


# --- ramdocs:FILE -----------------------------------------------------------------------------------


def ramdocs_category(documents: list[SourceDocument], gold_answers: list[str]) -> str:
    misinfo = any(d.label == "misinfo" for d in documents)
    ambiguous = len(gold_answers) > 1
    return {(True, True): "misinfo+ambiguous", (True, False): "misinfo", (False, True): "ambiguous"}.get(
        (misinfo, ambiguous), "consistent"
    )


def load_ramdocs(path: Path) -> EvalDataset:
    examples: list[EvalExample] = []
    for number, line in _lines(path):
        try:
            row = json.loads(line)
            documents = [
                SourceDocument(text=d["text"], label=d["type"], answer=d.get("answer", "")) for d in row["documents"]
            ]
            labels = {d.label for d in documents}
            examples.append(
                EvalExample(
                    id=f"ramdocs-{number:03d}",
                    category=ramdocs_category(documents, row["gold_answers"]),
                    question=row["question"],
                    documents=documents,
                    expected=Expected(
                        evidence=[d.text for d in documents if d.label == "correct"],
                        answers=row["gold_answers"],
                        conflict="misinfo" in labels and "correct" in labels,
                        wrong_answers=row.get("wrong_answers", []),
                    ),
                    metadata={"disambig_entity": row.get("disambig_entity", [])},
                )
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise DatasetError(f"{path}:{number}: not a RAMDocs row ({type(exc).__name__}: {exc})") from None
    return EvalDataset(
        name=path.stem,
        kind=DatasetKind.RAMDOCS,
        source=path,
        examples=examples,
        total=len(examples),
        notes=[
            "Each question is asked against a library of its own documents (correct, misinformation and "
            "noise), ingested fresh for that question.",
            "A conflict is expected when a question has both correct and misinformation documents.",
        ],
    )


# --- naming and sampling ----------------------------------------------------------------------------

LOADERS = {DatasetKind.PRP: load_prp, DatasetKind.QASPER: load_qasper, DatasetKind.RAMDOCS: load_ramdocs}


def load_dataset(spec: str, limit: int | None = None, sample_seed: int | None = None) -> EvalDataset:
    """``KIND:PATH`` -> the dataset, cut to ``limit`` examples (a seeded random sample with a seed)."""
    kind, sep, location = spec.partition(":")
    if not sep or kind not in DatasetKind.__members__.values():
        raise DatasetError(f"{spec!r}: name a dataset as prp:FILE, qasper:DIR or ramdocs:FILE")
    path = Path(location).expanduser()
    if not path.exists():
        raise DatasetError(f"{path}: not found")
    dataset = LOADERS[DatasetKind(kind)](path)
    return dataset.model_copy(update={"examples": sample(dataset.examples, limit, sample_seed)})


def sample(examples: list[EvalExample], limit: int | None, seed: int | None) -> list[EvalExample]:
    """The first ``limit`` examples, or with a seed a reproducible random sample (in file order)."""
    if limit is None or limit >= len(examples):
        return list(examples)
    if seed is None:
        return examples[:limit]
    chosen = set(random.Random(seed).sample(range(len(examples)), limit))
    return [e for i, e in enumerate(examples) if i in chosen]


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    """The non-blank lines of a JSONL file, with their line numbers (for error messages)."""
    for number, line in enumerate(_read(path).splitlines(), start=1):
        if line.strip():
            yield number, line


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DatasetError(f"{path}: cannot be read ({exc})") from None


def _unique_ids(path: Path, examples: list[EvalExample]) -> None:
    seen: set[str] = set()
    for e in examples:
        if e.id in seen:
            raise DatasetError(f"{path}: duplicate example id {e.id!r}")
        seen.add(e.id)


def _brief(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ())) or "row"
    return f"{where}: {first.get('msg', 'invalid')}"
