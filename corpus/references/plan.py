"""From reference-manager exports to what an ingest needs: each attached file with the entry whose
metadata it must carry, and the entries that bring no file, each with its reason."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from pydantic import BaseModel, Field

from corpus.errors import LoadError, ReferenceImportError
from corpus.references.attachments import attachment
from corpus.references.bibtex import read_bibtex
from corpus.references.csl_json import read_csl_json
from corpus.references.entries import EntryProblem, ReadEntries, ReferenceEntry

READERS = {".bib": read_bibtex, ".bibtex": read_bibtex, ".json": read_csl_json}


class ExportProblem(EntryProblem):
    export: str = Field(description="The export the entry is in.")


class ImportPlan(BaseModel):
    attached: dict[Path, ReferenceEntry] = Field(
        default_factory=dict, description="Each attached file, resolved, with its entry."
    )
    problems: list[ExportProblem] = Field(default_factory=list)

    @property
    def files(self) -> list[Path]:
        return list(self.attached)


def plan_import(exports: Iterable[Path]) -> ImportPlan:
    """Read every export; ``ReferenceImportError`` (and nothing planned) if one cannot be read at all."""
    plan = ImportPlan()
    for export in map(Path, exports):
        read = _read(export)
        problems = list(read.problems)
        for entry in read.entries:
            found = attachment(entry, export.parent)
            if isinstance(found, EntryProblem):
                problems.append(found)
            elif found in plan.attached:
                other = plan.attached[found].key
                problems.append(
                    EntryProblem(
                        key=entry.key, reason=f"{found.name} is attached to {other} too: imported once, as {other}"
                    )
                )
            else:
                plan.attached[found] = entry
        plan.problems.extend(ExportProblem(export=str(export), **p.model_dump()) for p in problems)
    return plan


def _read(export: Path) -> ReadEntries:
    reader = READERS.get(export.suffix.lower())
    if reader is None:
        kinds = ", ".join(sorted(READERS))
        raise ReferenceImportError(f"{export}: not a BibTeX or CSL-JSON export (expected one of {kinds})")
    if not export.is_file():
        raise ReferenceImportError(f"{export}: no such file")
    try:
        return reader(export)
    except OSError as exc:
        raise ReferenceImportError(f"{export}: cannot be read ({exc.strerror or exc})") from None
    except LoadError as exc:  # binary content under a .bib or .json name
        raise ReferenceImportError(f"{export}: {exc}") from None
