"""EPUB loader, on ebooklib: each document of the spine is a chapter, a section of its own on a page
of its own (the chapter's place in the spine, as a slide's number is a presentation's page).

A chapter is named by the book's table of contents, else by its first heading; one named by neither
is "Chapter N". Its XHTML is read element by element (``corpus.loaders.xhtml``), its headings under
the chapter's name unless the first of them is that name. Title, authors and year are the book's
Dublin Core metadata (``dc:title``, ``dc:creator``, ``dc:date``). A book whose chapters are ciphered
(DRM) is refused by name, as a PDF with a user password is.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from posixpath import normpath

import ebooklib
from ebooklib import epub
from lxml import etree

from corpus.errors import LoadError
from corpus.loaders.archive import members
from corpus.loaders.authors import metadata_authors, split_names
from corpus.loaders.html import parse_html
from corpus.loaders.outline import Outline
from corpus.loaders.titles import clean_title
from corpus.loaders.xhtml import add_xhtml, first_heading
from corpus.models import Bibliography, LoadedDocument, TitleSource

MAX_CHAPTERS = 2000
# Below every XHTML heading (h1 to h6): the chapter's own first heading closes this section as it opens its own.
BEFORE_HEADINGS = 7
# A DRM-protected book lists its ciphered chapters here; fonts alone are often obfuscated, and readable.
_ENCRYPTION = "META-INF/encryption.xml"
_CIPHERED_CHAPTER = re.compile(rb"URI=[\"'][^\"']+\.x?html?[\"']", re.IGNORECASE)
# A creator written as an address, "Live Systems Project <debian-live@lists.debian.org>": its name is
# read without the e-mail, which made it no name at all.
_EMAIL = re.compile(r"\s*[<(\[]?[^\s<>()\[\]@]+@[^\s<>()\[\]]+[>)\]]?")
_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)")


def load_epub(path: Path) -> LoadedDocument:
    book = _open_book(path)
    chapters = _chapters(book)
    outline = _outline(chapters, _toc_names(book.toc))
    title = clean_title(_first(book, "title"))
    date = _YEAR.search(_first(book, "date"))
    return LoadedDocument(
        title=title or None,
        title_source=TitleSource.PROPERTIES if title else None,
        page_count=max(1, len(chapters)),
        year=int(date.group(1)) if date else None,
        bibliography=Bibliography(authors=_authors(book)),
        blocks=outline.blocks,
    )


def _open_book(path: Path) -> epub.EpubBook:
    """The book, refused by name when its chapters are ciphered (DRM) or its package is unreadable."""
    if _ENCRYPTION in members(path, "EPUB") and _CIPHERED_CHAPTER.search(_read(path, _ENCRYPTION)):
        raise LoadError("an EPUB encrypted with DRM: its chapters cannot be read")
    try:
        reader = _PackageReader(str(path), options={"ignore_ncx": True})
        book = reader.load()
        reader.process()
        return book
    except (epub.EpubException, KeyError, ValueError, zipfile.BadZipFile, etree.XMLSyntaxError) as exc:
        raise LoadError(f"not a readable EPUB file ({type(exc).__name__}: {exc})") from None


class _PackageReader(epub.EpubReader):
    """ebooklib's reader, for books whose manifest lists places in a chapter ("about.xhtml#o8") as items
    of their own, as some generators write (Debian's live-manual): such an item has no file of its own,
    and ebooklib refused the whole book for it. It is read as empty: its text is its file's."""

    def read_file(self, name: str) -> bytes:
        try:
            return super().read_file(name)
        except KeyError:
            if "#" in name:
                return b""
            raise


def _chapters(book: epub.EpubBook) -> list[epub.EpubItem]:
    """The spine's documents in reading order, without the table of contents itself or the places in a
    chapter listed as items (``_PackageReader``); a book of more than ``MAX_CHAPTERS`` is refused rather
    than read for minutes."""
    chapters = [book.get_item_with_id(idref) for idref, _ in book.spine]
    chapters = [c for c in chapters if c is not None and c.get_type() == ebooklib.ITEM_DOCUMENT]
    chapters = [c for c in chapters if "#" not in c.file_name or c.get_content()]
    chapters = [c for c in chapters if not isinstance(c, epub.EpubNav)]
    if len(chapters) > MAX_CHAPTERS:
        raise LoadError(f"a book of {len(chapters):,} chapters, over the limit of {MAX_CHAPTERS:,}")
    return chapters


def _outline(chapters: list[epub.EpubItem], names: dict[str, str]) -> Outline:
    """Each chapter on a page of its own, under its name unless its first heading already says it."""
    outline = Outline()
    for number, chapter in enumerate(chapters, start=1):
        root = parse_html(chapter.get_content().decode("utf-8", errors="replace"))
        outline.new_page(number)
        name, heading = names.get(normpath(chapter.file_name), ""), first_heading(root)
        if (name or not heading) and name != heading:
            outline.heading(0, name or f"Chapter {number}", shown=False)
        else:  # what precedes the heading naming the chapter (a paragraph number) is in the chapter too
            outline.heading(BEFORE_HEADINGS, heading, shown=False)
        add_xhtml(outline, root)
    return outline


def _read(path: Path, member: str) -> bytes:
    with zipfile.ZipFile(path) as package:
        return package.read(member)


def _first(book: epub.EpubBook, name: str) -> str:
    values = book.get_metadata("DC", name)
    return str(values[0][0] or "") if values else ""


def _authors(book: epub.EpubBook) -> list[str]:
    names: list[str] = []
    for value, _ in book.get_metadata("DC", "creator"):
        value = _EMAIL.sub("", value or "")
        names += metadata_authors(value) or split_names(value)
    return list(dict.fromkeys(names))


def _toc_names(toc: list | tuple) -> dict[str, str]:
    """The table of contents' name of each file it points at (its first entry for the file)."""
    names: dict[str, str] = {}
    pending = list(toc)
    while pending:
        entry = pending.pop(0)
        if isinstance(entry, tuple) and len(entry) == 2:  # (section, its entries)
            pending[:0] = [entry[0], *entry[1]]
            continue
        href = getattr(entry, "href", None) or getattr(entry, "file_name", None)
        title = " ".join((getattr(entry, "title", "") or "").split())
        if href and title:
            names.setdefault(normpath(href.split("#")[0]), title)
    return names
