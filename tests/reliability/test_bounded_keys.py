"""Citation keys are identifiers a LaTeX paper types (issue 48, group 9): a title that was one 100 KB
word made a 100 KB BibTeX key (and a 100 KB ``key`` field and RIS ``ID``). Each part of a key is now
bounded, whatever the title or the author's name, and the keys of one export stay distinct."""

from __future__ import annotations

import re

from corpus.models import Bibliography, DocType, Document
from ui.core.exports.bibliography import BibEntry
from ui.core.exports.bibtex import document_bibtex
from ui.core.exports.citation_keys import PART_CHARS, citation_keys

LONG_WORD = "Photosynthesis" * 7_500  # ~100 KB, one word


def _entry(doc_id: str, title: str, authors: list[str]) -> BibEntry:
    doc = Document(
        doc_id=doc_id, title=title, path=f"/papers/{doc_id}.md", type=DocType.MARKDOWN, page_count=1, year=2021,
        sha256=doc_id, bibliography=Bibliography(authors=authors),
    )  # fmt: skip
    return BibEntry(doc_id, title, doc)


def test_a_100_kb_title_or_name_makes_a_short_key():
    entries = [
        _entry("a1", LONG_WORD, ["Ana Ruiz"]),
        _entry("b2", f"The {LONG_WORD} of roofs", []),
        _entry("c3", "Green roofs", [f"Ana {LONG_WORD}"]),
        _entry("d4", LONG_WORD + " again", ["Ana Ruiz"]),  # the same short key as a1: told apart
    ]
    keys = citation_keys(entries)
    longest = 2 * PART_CHARS + len("2021") + 1
    assert all(len(key) <= longest and re.fullmatch(r"[a-z]+\d{4}[a-z]*", key) for key in keys.values()), keys
    assert len(set(keys.values())) == len(entries)
    assert keys["a1"] == "ruiz2021" + LONG_WORD.lower()[:PART_CHARS] + "a"
    # The BibTeX entry of an author-less document: its key field is bounded too, the title kept whole.
    text = document_bibtex(entries[1].document)
    first_line, key_field = text.splitlines()[0], next(line for line in text.splitlines() if "key =" in line)
    assert len(first_line) < 80 and len(key_field) < 80, (first_line, key_field[:200])
    assert LONG_WORD in text  # the title itself is the document's: exported as it is
