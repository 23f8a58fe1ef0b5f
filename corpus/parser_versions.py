"""Which version of the parser produced a document: one number per loader and one for the chunker.

Bump a loader's number when a change to it (or to a module only it uses) changes the blocks, titles
or years it produces for some file; bump ``CHUNKER`` when chunks or the text embedded with them
change. The registry records both numbers per document, and ``prp ingest`` parses a document again,
even though its bytes are unchanged, when either is older than today's (registries written before
versions were recorded hold 0: parsed by an unknown version). Chunks whose embedded text comes out
the same keep their vectors, so a bump costs a parse, not an embedding.

Numbers only ever go up. A change to ``corpus/loaders/titles.py`` or ``corpus/parsing.py`` changes
what every loader produces: bump each loader whose output it changes.
"""

from __future__ import annotations

from dataclasses import dataclass

from corpus.models import DocType

PDF = 12  # 5: figures' text (tick values, axis labels, legends) is a block of its own, in no chunk
# PDF 6: a ruled table's rows are laid on its grid, one cell per column (corpus.loaders.pdf.table_grid)
# PDF 7: a block records its superscript marks (corpus.loaders.pdf.superscripts); a hyphen at a line
# end next to a figure is kept, without a space ("F1-score", "Phi-3-mini")
# PDF 8: scanned pages are read by OCR (corpus.loaders.pdf.ocr_page)
# PDF 9: header names the gutter sets apart are cells of their own, written with the page's spacing
# (corpus.loaders.pdf.table_grid); a bar printed in a cell is written "∣" (corpus.table_text.table_line)
# PDF 10: OCR reads a line at 3/4 of its width (corpus.ocr.REC_SQUEEZE): a scanned page's words can differ
# PDF 11: a block of a page read by OCR keeps the words read, with their boxes (models.Block.words)
# PDF 12: OCR reads lines with the int8 recognition model (corpus.ocr_model): a scanned page's words can differ
MARKDOWN = 10  # 5: a navigation trail without separators under the title is page furniture
# MARKDOWN 6: a page without heading markup has its one-line headings as sections
# MARKDOWN 7: a "# " comment of flattened code is no heading; a one-line question heads a section
# MARKDOWN 8: a block knows the headings its section sits under (the title field's heading path)
# MARKDOWN 9: the heading path leaves out a heading repeating a part of the title (only Markdown,
# HTML and text blocks have heading paths, so their libraries alone need their title fields again)
# MARKDOWN 10, TEXT 4, DOCX, PPTX, EPUB, ODT, LATEX 2: a bar printed in a table cell is written "∣"
TEXT = 4
HTML = 4  # 4: authors from the page's markup (rel="author", a byline element or paragraph)
DOCX = 3  # 3: equations (OMML) are text of their paragraph (corpus.loaders.omml)
PPTX = 2
EPUB = 3  # its chapters' XHTML through corpus.loaders.xhtml
# EPUB 3: a book whose manifest lists places in a chapter as items is read; what precedes a chapter's
# heading is in it; a creator's e-mail is left out of the author's name
ODT = 3  # 3: a file written with indented XML is read (odfpy took the whitespace before the body for it)
LATEX = 3  # 3: \mbox, \texttt and the like keep their text; the TeX logos are words; `quotes' are plain;
# a formula's scripts longer than a character are bracketed ("x^(2n)"), its primes kept ("x''")
CHUNKER = 6  # 3: runs no reader reads (data: URIs, blobs) are in no chunk (corpus.non_prose)
# CHUNKER 4: a section's heading opens a chunk with the passage it heads, never a chunk of its own
# CHUNKER 5: a table is embedded with each row read under its columns' names (corpus.table_text)
# CHUNKER 6: a name over a group of repeated sub-columns ("P R F1") names the whole group; the row
# labels' heading ("Model") names no column of values (corpus.table_text)


@dataclass(frozen=True)
class ParserVersion:
    loader: int
    chunker: int

    def older_than(self, other: ParserVersion) -> bool:
        return self.loader < other.loader or self.chunker < other.chunker


def loader_version(doc_type: DocType) -> int:
    """The loader version of a document type: the sum of the versions of every loader its files go
    through, so that bumping any of them raises it."""
    match doc_type:
        case DocType.PDF:
            return PDF
        case DocType.MARKDOWN:
            return MARKDOWN
        case DocType.TEXT:  # text that uses Markdown headings is read by the Markdown loader
            return TEXT + MARKDOWN
        case DocType.HTML:  # the main content as Markdown, or the page's text when there is none
            return HTML + MARKDOWN + TEXT
        case DocType.DOCX:
            return DOCX
        case DocType.PPTX:
            return PPTX
        case DocType.EPUB:
            return EPUB
        case DocType.ODT:
            return ODT
        case DocType.LATEX:
            return LATEX


def current(doc_type: DocType) -> ParserVersion:
    """The version today's code parses and chunks a document of this type with."""
    return ParserVersion(loader=loader_version(doc_type), chunker=CHUNKER)
