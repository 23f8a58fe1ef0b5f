"""CSL-JSON exports (Zotero's "CSL JSON", pandoc's, citeproc's) read into ``ReferenceEntry`` values.

CSL-JSON has no field for an attached file; a ``file`` string, as some exporters add, is read in
BibTeX's ``file`` syntax. An arXiv id is taken where CSL puts one: ``number`` or ``URL`` of a
preprint ("arXiv:2101.01234", "https://arxiv.org/abs/2101.01234").
"""

from __future__ import annotations

import json
from pathlib import Path

from corpus.author_names import stored_name
from corpus.errors import ReferenceImportError
from corpus.loaders.identifiers import find_arxiv_id, normalise_doi
from corpus.models import work_type
from corpus.parsing import decode_text
from corpus.references.entries import EntryProblem, ReadEntries, ReferenceEntry, clean, year_of

VENUE_FIELDS = ("container-title", "event-title", "publisher")


def read_csl_json(path: Path) -> ReadEntries:
    try:
        items = json.loads(decode_text(path.read_bytes()))
    except json.JSONDecodeError as exc:
        raise ReferenceImportError(f"{path} is not valid JSON ({exc}): export CSL-JSON again") from None
    if isinstance(items, dict) and isinstance(items.get("items"), list):  # the wrapped form some tools write
        items = items["items"]
    if not isinstance(items, list):
        raise ReferenceImportError(f"{path} is not CSL-JSON: expected a list of items")
    read = ReadEntries()
    for n, item in enumerate(items, 1):
        key = (
            str(item.get("id") or item.get("citation-key") or f"(item {n})")
            if isinstance(item, dict)
            else f"(item {n})"
        )
        if not isinstance(item, dict):
            read.problems.append(EntryProblem(key=key, reason="not a CSL-JSON item (an object with fields)"))
            continue
        read.entries.append(_entry(key, item))
    return read


def _entry(key: str, item: dict) -> ReferenceEntry:
    def text(name: str) -> str | None:
        value = item.get(name)
        return clean(value) if isinstance(value, str) else None

    files = item.get("file")
    return ReferenceEntry(
        key=key,
        title=text("title"),
        authors=[name for name in map(_name, item.get("author") or []) if name],
        year=_year(item.get("issued")),
        venue=next((v for v in map(text, VENUE_FIELDS) if v), None),
        doi=normalise_doi(text("DOI") or ""),
        arxiv_id=find_arxiv_id([t for t in (text("number"), text("URL"), text("note")) if t]),
        entry_type=work_type(text("type")),
        files=[files] if isinstance(files, str) and files.strip() else [],
    )


def _name(person: object) -> str | None:
    """A CSL name ({"family", "given", "non-dropping-particle", "suffix"} or {"literal"}) as stored
    (``corpus.author_names.stored_name``: the parts kept as CSL gives them)."""
    if not isinstance(person, dict):
        return None

    def part(*names: str) -> str:
        return " ".join(str(person[n]) for n in names if isinstance(person.get(n), str) and person[n].strip())

    if literal := clean(person.get("literal")):
        return stored_name(literal, literal=True)
    family = part("non-dropping-particle", "family")
    given = part("given", "dropping-particle")
    if not family:
        return clean(given)
    return clean(stored_name(family, given, part("suffix")))


def _year(issued: object) -> int | None:
    """The year of CSL's date: {"date-parts": [[2021, 5]]}, {"raw": "2021-05"} or {"literal": ...}."""
    if not isinstance(issued, dict):
        return year_of(issued if isinstance(issued, (str, int)) else None)
    parts = issued.get("date-parts")
    if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
        return year_of(parts[0][0])
    return year_of(issued.get("raw") or issued.get("literal"))
