"""From reference-manager exports (BibTeX, CSL-JSON, a Zotero data folder) to what an ingest needs:
each attached file with the entry whose metadata it must carry, and the entries that bring no
file, each with its reason."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path

from pydantic import BaseModel, Field

from corpus.errors import LoadError, ReferenceImportError
from corpus.references.attachments import attachment, not_regular
from corpus.references.bibtex import read_bibtex
from corpus.references.csl_json import read_csl_json
from corpus.references.entries import EntryProblem, ReadEntries, ReferenceEntry
from corpus.references.zotero import DATABASE, read_zotero, zotero_database

READERS = {".bib": read_bibtex, ".bibtex": read_bibtex, ".json": read_csl_json}


class ExportProblem(EntryProblem):
    export: str = Field(description="The export the entry is in.")


class ImportPlan(BaseModel):
    exports: list[Path] = Field(default_factory=list, description="The exports read, in order.")
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
        plan.exports.append(export)
        problems = list(read.problems)
        for entry in read.entries:
            found = attachment(entry, export.parent)
            if isinstance(found, EntryProblem):
                problems.append(found)
            elif found in plan.attached:
                other = plan.attached[found].key
                problems.append(
                    EntryProblem(
                        key=entry.key,
                        reason=f"{found.name} is attached to {other} too: imported once, as {other}",
                        failed=False,
                    )
                )
            else:
                plan.attached[found] = entry
        plan.problems.extend(ExportProblem(export=str(export), **p.model_dump()) for p in problems)
    return plan


def _read(export: Path) -> ReadEntries:
    try:
        return _reader(export)()
    except OSError as exc:
        raise ReferenceImportError(f"{export}: cannot be read ({exc.strerror or exc})") from None
    except LoadError as exc:  # binary content under a .bib or .json name
        raise ReferenceImportError(f"{export}: {exc}") from None


def _reader(export: Path) -> Callable[[], ReadEntries]:
    if (database := zotero_database(export)) is not None:
        return partial(read_zotero, database)
    if export.is_dir():
        raise ReferenceImportError(f"{export}: a folder, but not Zotero's data folder (it holds no {DATABASE})")
    reader = READERS.get(export.suffix.lower())
    if reader is None:
        kinds = ", ".join(sorted(READERS))
        raise ReferenceImportError(
            f"{export}: not a BibTeX or CSL-JSON export (expected one of {kinds}) or Zotero's data folder"
        )
    if export.exists() and not export.is_file():  # reading a pipe or a device could block forever
        raise ReferenceImportError(f"{export}: {not_regular(export)}, not an export file: not read")
    if not export.is_file():
        raise ReferenceImportError(f"{export}: no such file")
    return partial(reader, export)
