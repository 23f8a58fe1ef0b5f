"""A Zotero data folder (``~/Zotero``) read into ``ReferenceEntry`` values, without Zotero's help.

Zotero holds ``zotero.sqlite`` locked while it runs, and it must never be written by anyone else, so
the database is copied to a temporary folder and the copy is opened read-only. Items in the trash,
notes, annotations and attachments themselves are not entries. An item's attachments are its child
attachment items: a stored file is ``storage/<attachment key>/<name>`` (its path reads
``storage:<name>``), a linked file has its absolute path; a linked file relative to Zotero's "base
directory" (``attachments:...``, a preference this folder does not record) cannot be found and is
reported as missing.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
import tempfile
from collections import defaultdict
from pathlib import Path

from corpus.author_names import stored_name
from corpus.errors import ReferenceImportError
from corpus.loaders.identifiers import find_arxiv_id, normalise_doi
from corpus.models import WorkType, work_type
from corpus.references.attachments import file_spec
from corpus.references.entries import ReadEntries, ReferenceEntry, clean, year_of

DATABASE = "zotero.sqlite"
NOT_ENTRIES = ("attachment", "note", "annotation")
VENUE_FIELDS = (
    "publicationTitle",
    "proceedingsTitle",
    "bookTitle",
    "conferenceName",
    "publisher",
    "university",
    "institution",
    "repository",
)
_MASTERS = re.compile(r"\bmaster|\bm\.?\s?(?:sc|a|s|phil)\b", re.IGNORECASE)
_FIELDS = """
SELECT d.itemID, f.fieldName, v.value FROM itemData d
JOIN fields f USING (fieldID) JOIN itemDataValues v USING (valueID)
"""
_CREATORS = """
SELECT ic.itemID, c.firstName, c.lastName, c.fieldMode FROM itemCreators ic
JOIN creators c USING (creatorID) JOIN creatorTypes t USING (creatorTypeID)
WHERE t.creatorType = 'author' ORDER BY ic.itemID, ic.orderIndex
"""
_ITEMS = """
SELECT i.itemID, i.key, t.typeName FROM items i JOIN itemTypes t USING (itemTypeID)
WHERE t.typeName NOT IN ({}) AND i.itemID NOT IN (SELECT itemID FROM deletedItems) ORDER BY i.itemID
""".format(", ".join(f"'{t}'" for t in NOT_ENTRIES))
_ATTACHMENTS = """
SELECT a.parentItemID, i.key, a.path FROM itemAttachments a JOIN items i USING (itemID)
WHERE a.parentItemID IS NOT NULL AND a.path IS NOT NULL
AND a.itemID NOT IN (SELECT itemID FROM deletedItems) ORDER BY a.itemID
"""


def zotero_database(path: Path) -> Path | None:
    """The ``zotero.sqlite`` that ``path`` is or holds, else None."""
    candidate = path / DATABASE if path.is_dir() else path
    return candidate if candidate.name == DATABASE and candidate.is_file() else None


def read_zotero(database: Path) -> ReadEntries:
    storage = database.parent / "storage"
    with tempfile.TemporaryDirectory(prefix="prp-zotero-") as scratch:
        copy = Path(scratch) / DATABASE
        shutil.copyfile(database, copy)
        try:
            db = sqlite3.connect(f"{copy.as_uri()}?mode=ro", uri=True)
            try:
                return _read(db, storage)
            finally:
                db.close()
        except sqlite3.DatabaseError as exc:
            raise ReferenceImportError(f"{database}: not a Zotero database prp can read ({exc})") from None


def _read(db: sqlite3.Connection, storage: Path) -> ReadEntries:
    fields: dict[int, dict[str, str]] = defaultdict(dict)
    for item_id, name, value in db.execute(_FIELDS):
        fields[item_id][name] = str(value)
    authors: dict[int, list[str]] = defaultdict(list)
    for item_id, first, last, single in db.execute(_CREATORS):
        # fieldMode 1: a single-field name (an organisation), one literal.
        name = stored_name(last or "", literal=True) if single else stored_name(last or "", first or "")
        if name:
            authors[item_id].append(name)
    files: dict[int, list[str]] = defaultdict(list)
    for parent, key, path in db.execute(_ATTACHMENTS):
        if path.startswith("storage:"):
            files[parent].append(file_spec(storage / key / path.removeprefix("storage:")))
        elif not path.startswith("attachments:"):
            files[parent].append(file_spec(Path(path)))
        else:  # relative to a base directory this folder does not record: named, so it is reported
            files[parent].append(file_spec(Path(path.removeprefix("attachments:"))))
    read = ReadEntries()
    for item_id, item_key, item_type in db.execute(_ITEMS):
        item = fields.get(item_id, {})
        read.entries.append(_entry(item_key, item_type, item, authors.get(item_id, []), files.get(item_id, [])))
    return read


def _entry(item_key: str, item_type: str, item: dict[str, str], authors: list[str], files: list[str]) -> ReferenceEntry:
    def text(name: str) -> str | None:
        return clean(item.get(name))

    identifiers = [t for t in (text("archiveID"), text("url"), text("extra")) if t]
    return ReferenceEntry(
        key=text("citationKey") or _extra_key(item.get("extra")) or item_key,
        title=text("title"),
        authors=authors,
        year=year_of(text("date")) or None,  # Zotero stores "0000-00-00 ..." for a date without a year
        venue=next((v for v in map(text, VENUE_FIELDS) if v), None),
        doi=normalise_doi(text("DOI") or ""),
        arxiv_id=find_arxiv_id(identifiers),
        entry_type=_work_type(item_type, text("thesisType")),
        files=files,
    )


def _work_type(item_type: str, thesis_type: str | None) -> WorkType | None:
    """Zotero's item type as BibTeX's entry type: a thesis whose "Thesis Type" names a master's degree
    ("Master's thesis", "MSc thesis", "M.A. thesis") is a master's thesis, any other a PhD thesis."""
    kind = work_type(item_type)
    if kind is WorkType.PHDTHESIS and thesis_type and _MASTERS.search(thesis_type):
        return WorkType.MASTERSTHESIS
    return kind


def _extra_key(extra: str | None) -> str | None:
    """Better BibTeX's citation key, kept in Extra as "Citation Key: ..." before Zotero 7 had a field."""
    for line in (extra or "").splitlines():
        name, _, value = line.partition(":")
        if name.strip().lower() == "citation key" and value.strip():
            return value.strip()
    return None
