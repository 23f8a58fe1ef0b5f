"""The fields of a Markdown file's YAML front matter, and the bibliography they declare.

Only the simple YAML that front matter uses is read: ``key: value`` lines, inline lists
(``authors: [Jane Doe, John Roe]``) and block lists (``authors:`` followed by ``- Jane Doe`` lines,
or by mappings such as ``- name: Jane Doe`` / ``- given-names: Robbie`` with ``surname: Leeuwen``
on the lines below), a list's items joined with "; ". A document without an author field may still name its authors on
a byline near the top ("By Jane Doe", "*Authors: Jane Doe and John Roe*", or a line of names alone).
"""

from __future__ import annotations

import re
import tomllib

from corpus.loaders.authors import byline_authors, split_names
from corpus.loaders.identifiers import normalise_arxiv_id, normalise_doi
from corpus.models import Bibliography

_FIELD = re.compile(r"^(\w+)[ \t]*:[ \t]*(.*?)[ \t]*$")
_ITEM = re.compile(r"^[ \t]+-[ \t]+(.*?)[ \t]*$|^-[ \t]+(.*?)[ \t]*$")
_AUTHOR_KEYS = ("authors", "author", "creator")
_VENUE_KEYS = ("venue", "journal", "booktitle", "conference", "publisher")
_ARXIV_KEYS = ("arxiv", "arxiv_id", "eprint")
# The byline sits under the title, before the body proper.
BYLINE_SCAN_CHARS = 600


def parse_fields(front_matter: str) -> dict[str, str]:
    """``key: value`` pairs (keys lower-cased, quotes stripped); list values joined with "; ". A list
    item that is a mapping gives the name it holds (``_item_text``)."""
    fields: dict[str, str] = {}
    items: dict[str, list[str | dict[str, str]]] = {}
    key = None
    for line in front_matter.splitlines():
        if (field := _FIELD.match(line)) is not None:
            key = field.group(1).lower()
            fields[key] = _field_value(field.group(2))
            items.pop(key, None)  # a key written again starts its list afresh
        elif key is not None:
            _add_item_line(items, key, line)
    for key, values in items.items():
        listed = "; ".join(v if isinstance(v, str) else _item_text(v) for v in values)
        fields[key] = f"{fields[key]}; {listed}" if fields[key] else listed
    return fields


def _field_value(written: str) -> str:
    """A field's value as written after its key, a flow list ("[a, b]") joined with "; "."""
    value = _unquote(written)
    if value.startswith("[") and value.endswith("]"):
        value = "; ".join(_unquote(v) for v in value[1:-1].split(",") if v.strip())
    return value


def _add_item_line(items: dict[str, list[str | dict[str, str]]], key: str, line: str) -> None:
    """A line under ``key``: a new list item (a mapping when it reads "name: value"), or a further
    "name: value" of the mapping item above it; any other line is ignored."""
    if (item := _ITEM.match(line)) is not None:
        value = _unquote(item.group(1) or item.group(2) or "")
        pair = _PAIR.match(value)
        items.setdefault(key, []).append({"": value, pair.group(1).lower(): _unquote(pair.group(2))} if pair else value)
    elif items.get(key) and isinstance(mapping := items[key][-1], dict):
        if (pair := _PAIR.match(line.strip())) is not None:
            mapping[pair.group(1).lower()] = _unquote(pair.group(2))


# "key: value" inside a list item ("- given-names: Robbie", "    surname: Leeuwen").
_PAIR = re.compile(r"^([A-Za-z][\w-]*)[ \t]*:[ \t]+(.*?)[ \t]*$")
# The parts of a structured name (Citation File Format, JOSS, CSL, Pandoc), in the order they are written.
_NAME_PARTS = (
    ("given-names", "given", "first-name", "firstname", "first"),
    ("dropping-particle",),
    ("non-dropping-particle", "name-particle", "particle"),
    ("family-names", "surname", "family", "last-name", "lastname", "last"),
    ("name-suffix", "suffix"),
)


def _item_text(mapping: dict[str, str]) -> str:
    """A mapping list item as text: its ``name`` (or ``literal``), else a name put together from its
    parts ("given-names: Robbie", "non-dropping-particle: van", "surname: Leeuwen" -> "Robbie van
    Leeuwen"), else the item's first line as written."""
    if whole := mapping.get("name") or mapping.get("literal"):
        return whole
    parts = [next((mapping[k] for k in keys if mapping.get(k)), "") for keys in _NAME_PARTS]
    return " ".join(p for p in parts if p) if parts[3] else mapping[""]


def parse_toml_fields(front_matter: str) -> dict[str, str]:
    """The top-level fields of TOML front matter ("+++" lines, Hugo and Zola) as ``parse_fields``
    gives YAML's: keys lower-cased, lists joined with "; ", dates as text. Front matter that is not
    valid TOML gives no fields."""
    try:
        data = tomllib.loads(front_matter)
    except tomllib.TOMLDecodeError:
        return {}
    fields: dict[str, str] = {}
    for key, value in data.items():
        if isinstance(value, list):
            fields[key.lower()] = "; ".join(str(v) for v in value if not isinstance(v, dict | list))
        elif not isinstance(value, dict):
            fields[key.lower()] = str(value)
    return fields


def _unquote(value: str) -> str:
    return value.strip().strip("'\"").strip()


def opening_lines(text: str) -> list[str]:
    """The lines at the top of ``text`` that may be a byline: not a Markdown heading (a title
    may be a person's name) nor a table's row ("| Domain: | Eukaryota |"), stripped of emphasis marks."""
    lines = (line.strip().strip("*_").strip() for line in text[:BYLINE_SCAN_CHARS].splitlines())
    return [line for line in lines if line and not line.startswith(("#", "|"))]


def text_bibliography(fields: dict[str, str], body: str) -> Bibliography:
    """What the front matter ``fields`` declare, the authors else from a byline at the top of ``body``."""
    authors = next((names for key in _AUTHOR_KEYS if (names := split_names(fields.get(key, "")))), [])
    return Bibliography(
        authors=authors or byline_authors(opening_lines(body)),
        venue=next((fields[key] for key in _VENUE_KEYS if fields.get(key)), None),
        doi=normalise_doi(fields.get("doi", "")),
        arxiv_id=next((found for key in _ARXIV_KEYS if (found := normalise_arxiv_id(fields.get(key, "")))), None),
    )
