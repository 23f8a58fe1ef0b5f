"""One entry of a reference manager's library, whatever format it came in, and how its metadata is
laid over a document's own.

The entry is the researcher's curated record of the work, so each field it has wins over what the
loaders extracted from the file; a field it lacks leaves the extracted one in place.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from corpus.models import Bibliography, Document, MetadataOverride


class ReferenceEntry(BaseModel):
    key: str = Field(description="The entry's citation key (BibTeX) or id (CSL-JSON).")
    title: str | None = None
    authors: list[str] = Field(default_factory=list, description='"Given Family", in order.')
    year: int | None = None
    venue: str | None = None
    doi: str | None = None
    arxiv_id: str | None = None
    files: list[str] = Field(
        default_factory=list,
        description="Attached files as the export names them (absolute, or relative to the export's folder).",
    )

    def fields(self) -> list[str]:
        """The document fields this entry sets (``title``, ``year``, ``authors``, ``venue``, ``doi``, ``arxiv_id``)."""
        values = {
            "title": self.title,
            "year": self.year,
            "authors": self.authors,
            "venue": self.venue,
            "doi": self.doi,
            "arxiv_id": self.arxiv_id,
        }
        return [name for name, value in values.items() if value]

    def override(self) -> MetadataOverride:
        """The fields this entry sets, as the registry keeps them (set by an import: a later parse
        of the file does not change them)."""
        return MetadataOverride(**{name: getattr(self, name) for name in self.fields()})

    def apply(self, document: Document) -> Document:
        """``document`` with every field this entry has replaced by the entry's."""
        extracted = document.bibliography
        bibliography = Bibliography(
            authors=self.authors or extracted.authors,
            venue=self.venue or extracted.venue,
            doi=self.doi or extracted.doi,
            arxiv_id=self.arxiv_id or extracted.arxiv_id,
        )
        return document.model_copy(
            update={
                "title": self.title or document.title,
                "year": self.year or document.year,
                "bibliography": bibliography,
            }
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
    """The year a date field starts with ("2021", "2021-05-03", "2021/22"); None if it names none."""
    text = str(raw or "").strip()
    digits = text[:4]
    return int(digits) if len(digits) == 4 and digits.isdigit() else None


def clean(text: str | None) -> str | None:
    """Whitespace folded (exports wrap long fields over lines); None for an empty field."""
    folded = " ".join((text or "").split())
    return folded or None
