"""One entry of a reference manager's library, whatever format it came in, and the metadata it sets.

The entry is the researcher's curated record of the work, so each field it has wins over what the
loaders extracted from the file (``override``); a field it lacks leaves the extracted one in place.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from corpus.models import MetadataOverride, WorkType

# The years a document's year may be (``MetadataOverride.year``).
MIN_YEAR, MAX_YEAR = 1000, 2999


class ReferenceEntry(BaseModel):
    key: str = Field(
        description="The citation key (BibTeX, Zotero's Better BibTeX), id (CSL-JSON) or Zotero's item key."
    )
    title: str | None = None
    authors: list[str] = Field(default_factory=list, description='"Given Family", in order.')
    year: int | None = None
    venue: str | None = None
    doi: str | None = None
    arxiv_id: str | None = None
    entry_type: WorkType | None = Field(default=None, description="The kind of work, where the entry names one.")
    files: list[str] = Field(
        default_factory=list,
        description="Attached files as the export names them (absolute, or relative to the export's folder).",
    )

    def override(self) -> MetadataOverride:
        """The fields this entry sets, as the registry keeps them (set by an import: a later parse
        of the file does not change them)."""
        return MetadataOverride(
            **{name: getattr(self, name) for name in MetadataOverride.FIELDS if getattr(self, name)}
        )


class EntryProblem(BaseModel):
    """An entry that brings no file to ingest, and why (reported by its key, the rest go on)."""

    key: str
    reason: str
    failed: bool = Field(
        default=True,
        description="An error (a file that is not there, an unreadable entry); else the entry simply has "
        "nothing prp reads (no file, only files of other types) and is skipped.",
    )


class ReadEntries(BaseModel):
    """What one export holds: the entries read, and those that could not be read."""

    entries: list[ReferenceEntry] = Field(default_factory=list)
    problems: list[EntryProblem] = Field(default_factory=list)


def year_of(raw: str | int | None) -> int | None:
    """The year a date field starts with ("2021", "2021-05-03", "2021/22"); None if it names none
    (Zotero's "0000-00-00" for a date without a year among them)."""
    digits = str(raw or "").strip()[:4]
    year = int(digits) if len(digits) == 4 and digits.isdigit() else None
    return year if year is not None and MIN_YEAR <= year <= MAX_YEAR else None


def clean(text: str | None) -> str | None:
    """Whitespace folded (exports wrap long fields over lines); None for an empty field."""
    folded = " ".join((text or "").split())
    return folded or None
