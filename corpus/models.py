"""The block model: documents, the blocks they are made of, and the chunks that get embedded.

A block is the unit a citation resolves to. PDFs locate a block by page and bounding box; text
formats by a character span into the document's extracted text (``page`` is then always 1, but a
slide's number in a presentation and a chapter's in an EPUB, the span then into that page's text). A block
the collection repeats across documents is flagged ``boilerplate``: its kind stays what the loader
found, because the flag depends on the other documents and can come and go with them.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from corpus.text import strip_controls


class WorkType(StrEnum):
    """The kinds of work, by BibTeX's entry types (the standard styles' own set)."""

    ARTICLE = "article"
    INPROCEEDINGS = "inproceedings"
    PROCEEDINGS = "proceedings"
    BOOK = "book"
    INBOOK = "inbook"
    INCOLLECTION = "incollection"
    BOOKLET = "booklet"
    PHDTHESIS = "phdthesis"
    MASTERSTHESIS = "mastersthesis"
    TECHREPORT = "techreport"
    MANUAL = "manual"
    UNPUBLISHED = "unpublished"
    MISC = "misc"


# Other names for these kinds (BibLaTeX's types, CSL's, Zotero's), as imports and edits may give them.
WORK_TYPE_ALIASES = {
    "conference": "inproceedings",
    "paper-conference": "inproceedings",
    "conferencepaper": "inproceedings",
    "article-journal": "article",
    "journalarticle": "article",
    "article-magazine": "article",
    "article-newspaper": "article",
    "magazinearticle": "article",
    "newspaperarticle": "article",
    "thesis": "phdthesis",
    "report": "techreport",
    "chapter": "incollection",
    "booksection": "incollection",
    "online": "misc",
    "preprint": "misc",
    "webpage": "misc",
    "software": "misc",
    "dataset": "misc",
}


def work_type(name: str | None) -> WorkType | None:
    """The kind of work a type name means ("article", "paper-conference", "Thesis"), None if none."""
    key = "".join((name or "").split()).lower()
    key = WORK_TYPE_ALIASES.get(key, key)
    return WorkType(key) if key in WorkType._value2member_map_ else None


class BlockKind(StrEnum):
    HEADING = "heading"
    PARAGRAPH = "paragraph"
    LIST = "list"
    TABLE = "table"
    CAPTION = "caption"
    FOOTNOTE = "footnote"
    REFERENCE = "reference"
    # Text a figure draws (tick values, axis labels, legends): kept for citations, in no chunk.
    FIGURE = "figure"
    NOTES = "notes"  # a slide's speaker notes


class DocType(StrEnum):
    PDF = "pdf"
    MARKDOWN = "markdown"
    TEXT = "text"
    HTML = "html"
    DOCX = "docx"
    PPTX = "pptx"
    EPUB = "epub"
    ODT = "odt"
    LATEX = "latex"


class TitleSource(StrEnum):
    """Where a document's title came from, best evidence first (``prp docs`` shows it)."""

    EDITED = "edited"  # set by a person or an import (``prp docs edit``, the API)
    FRONT_MATTER = "front matter"  # a Markdown file's front matter
    META_TAGS = "meta tags"  # an HTML page's citation_title, og:title or <title>
    PDF_METADATA = "pdf metadata"  # a PDF's /Title
    PROPERTIES = (
        "properties"  # a Word, PowerPoint or OpenDocument file's properties, an EPUB's metadata, LaTeX's \title
    )
    TITLE_PAGE = "title page"  # a PDF's first page, its title block
    HEADING = "heading"  # the heading or line that opens a text
    URL = "url"  # a saved page's source URL, its last path segment
    FILE_NAME = "file name"  # the file's name, humanised


class BBox(BaseModel):
    """A rectangle in PDF points, origin at the top-left of the page (pdfplumber's convention)."""

    x0: float
    top: float
    x1: float
    bottom: float

    def union(self, other: BBox) -> BBox:
        return BBox(
            x0=min(self.x0, other.x0),
            top=min(self.top, other.top),
            x1=max(self.x1, other.x1),
            bottom=max(self.bottom, other.bottom),
        )


class CharSpan(BaseModel):
    """Half-open character offsets ``[start, end)`` into the document's extracted text."""

    start: int
    end: int


MARKS_DESCRIPTION = (
    "Where the text holds footnote or affiliation marks the page sets as superscripts (PDF): printed, so "
    "kept in the text a citation quotes, but left out of the sentences a reader reads."
)
WORDS_DESCRIPTION = (
    "The words OCR read in the block, with their boxes, in reading order (PDF, pages read by OCR only): "
    "such a page has no text layer to find a quote's words in again, so they are kept."
)


class PageWord(BaseModel):
    """A word printed on a page and its box, in PDF points from the page's top-left (as ``BBox``)."""

    text: str
    x0: float
    top: float
    x1: float
    bottom: float


class RawBlock(BaseModel):
    """A block as a loader produces it, before the document and block ids are assigned."""

    page: int = 1
    bbox: BBox | None = None
    span: CharSpan | None = None
    section: str = ""
    parents: list[str] = Field(
        default_factory=list, description="The headings the section sits under, outermost first (Markdown, HTML)."
    )
    kind: BlockKind = BlockKind.PARAGRAPH
    text: str
    marks: list[CharSpan] = Field(default_factory=list, description=MARKS_DESCRIPTION)
    words: list[PageWord] = Field(default_factory=list, description=WORDS_DESCRIPTION)


class Bibliography(BaseModel):
    """Who wrote a document and where it appeared, as far as the document states it (see
    ``corpus.loaders.pdf.bibliography``); the year is ``year`` on the document itself."""

    authors: list[str] = Field(default_factory=list, description='Names as written, "Given Family".')
    venue: str | None = Field(default=None, description="Journal, proceedings or publisher.")
    doi: str | None = Field(default=None, description="Lower-cased, without a doi: or URL prefix.")
    arxiv_id: str | None = Field(default=None, description='"2101.01234v2" or "hep-th/9901001".')
    entry_type: WorkType | None = Field(
        default=None,
        description="The kind of work as a reference manager's import or an edit named it; None: told from the "
        "venue when exported.",
    )
    url: str | None = Field(default=None, description="Where a crawled or saved page came from (its Source: line).")


class MetadataOverride(BaseModel):
    """Bibliographic fields a person (``prp docs edit``, the API) or an import from a reference
    manager set on a document. Only the fields given are set (``model_fields_set``); they win over
    what the loaders extract, on this parse and every later one (``Registry.override_metadata``).
    A field given as None (or an empty list of authors) clears it."""

    FIELDS: ClassVar[tuple[str, ...]] = ("title", "year", "authors", "venue", "doi", "arxiv_id", "entry_type")

    title: str | None = None
    year: int | None = Field(default=None, ge=1000, le=2999)
    authors: list[str] | None = None
    venue: str | None = None
    doi: str | None = None
    arxiv_id: str | None = None
    entry_type: WorkType | None = None

    @field_validator("entry_type", mode="before")
    @classmethod
    def _type(cls, value: object) -> object:
        if value is None or isinstance(value, WorkType) or not isinstance(value, str) or not value.strip():
            return value or None
        kind = work_type(value)
        if kind is None:
            raise ValueError(f"not a kind of work: {value!r} (one of {', '.join(WorkType)})")
        return kind

    @field_validator("title", "venue", "doi", "arxiv_id")
    @classmethod
    def _strip(cls, value: str | None) -> str | None:
        # One line of visible text: an ESC or U+202E typed into an edit would reach every export and terminal.
        value = " ".join(strip_controls(value).split()) if value is not None else None
        return value or None

    @field_validator("authors")
    @classmethod
    def _names(cls, value: list[str] | None) -> list[str] | None:
        if value is None:
            return None
        # "{Gemma Team}" (BibTeX's way of saying "one name") is stored as the plain literal.
        names = (" ".join(strip_controls(a).split()) for a in value if a.strip())
        names = (n[1:-1].strip() if n.startswith("{") and n.endswith("}") else n for n in names)
        return list(dict.fromkeys(n for n in names if n))

    @model_validator(mode="after")
    def _title_kept(self) -> MetadataOverride:
        # Every document has a title; an edit may change it but not remove it.
        if "title" in self.model_fields_set and self.title is None:
            raise ValueError("a title cannot be empty")
        return self

    def values(self) -> dict[str, object]:
        """The fields this override sets, by name."""
        return {name: getattr(self, name) for name in self.FIELDS if name in self.model_fields_set}

    def apply(self, document: Document) -> Document:
        """``document`` with the fields this override sets (as the registry shows it; an ingest
        applies it before chunking, so the index's payloads and embedded titles agree)."""
        values = self.values()
        top: dict[str, object] = {name: values[name] for name in ("title", "year") if name in values}
        if "title" in top:
            top["title_source"] = TitleSource.EDITED
        bibliography = {name: value for name, value in values.items() if name in Bibliography.model_fields}
        if "authors" in bibliography:
            bibliography["authors"] = bibliography["authors"] or []
        return document.model_copy(
            update={**top, "bibliography": document.bibliography.model_copy(update=bibliography)}
        )


class OcrOptions(BaseModel):
    """How PDF pages without a text layer are read by OCR (``corpus.ocr``; ``IngestSettings``)."""

    model_config = ConfigDict(frozen=True)

    enabled: bool = True
    dpi: int = 200
    max_megapixels: float = 40.0
    page_seconds: float = 30.0
    #: Where the int8 OCR model is built and kept (``corpus.ocr_model``); None: the settings' models folder.
    models_dir: Path | None = None


class OcrRecord(BaseModel):
    """A document some of whose pages were read by OCR: by which engine, which pages, and the pages
    it tried and could not read (each with its reason), so no page is silently empty."""

    engine: str = Field(description='"rapidocr 3.10.0 (PP-OCRv6 small, int8 recognition)".')
    pages: list[int] = Field(default_factory=list, description="Pages whose text came from OCR.")
    unread: list[str] = Field(default_factory=list, description='"page 3: no text recognised".')


class LoadedDocument(BaseModel):
    """What a format loader returns: metadata it could find plus blocks in reading order."""

    title: str | None = None
    title_source: TitleSource | None = None
    page_count: int = 1
    year: int | None = None
    bibliography: Bibliography = Field(default_factory=Bibliography)
    ocr: OcrRecord | None = None
    blocks: list[RawBlock]


class Document(BaseModel):
    doc_id: str
    title: str
    title_source: TitleSource = TitleSource.FILE_NAME
    path: str
    type: DocType
    page_count: int
    year: int | None = None
    sha256: str
    bibliography: Bibliography = Field(default_factory=Bibliography)
    ocr: OcrRecord | None = Field(default=None, description="Set when some pages' text came from OCR.")


class Block(BaseModel):
    block_id: str
    doc_id: str
    seq: int = Field(description="Position of the block in the document's reading order.")
    page: int
    bbox: BBox | None = None
    span: CharSpan | None = None
    section: str = ""
    parents: list[str] = Field(
        default_factory=list, description="The headings the section sits under, outermost first (Markdown, HTML)."
    )
    kind: BlockKind
    text: str
    marks: list[CharSpan] = Field(default_factory=list, description=MARKS_DESCRIPTION)
    words: list[PageWord] = Field(default_factory=list, description=WORDS_DESCRIPTION)
    boilerplate: bool = Field(
        default=False,
        description="Text the collection repeats across documents (navigation, footers, banners): kept "
        "so a citation of it resolves, but in no chunk (see corpus.boilerplate).",
    )


class Chunk(BaseModel):
    chunk_id: str
    doc_id: str
    seq: int
    block_ids: list[str]
    text: str
    section: str
    page_start: int
    page_end: int
    is_reference: bool = False
    parents: list[str] = Field(
        default_factory=list, description="The headings the section sits under, outermost first."
    )


class ParsedDocument(BaseModel):
    """A document with its blocks, ready to be chunked and indexed."""

    document: Document
    blocks: list[Block]
