"""Citation keys a LaTeX paper cites by: ``lastnameYEARword`` (the first author's family name folded
to ASCII, the year, the first significant word of the title), as reference managers make them.

Each part is at most ``PART_CHARS`` letters: a key is an identifier a LaTeX paper types, and a title
that was one 100 KB word made a 100 KB key. A key depends only on the document's own metadata, so it
is the same in every export that cites the document alone under that key; documents of one export
whose keys clash get "a", "b", ... in the order of their document ids (so a key can gain a letter in
an export that also cites its namesake).
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict

from corpus.author_names import name_parts
from ui.core.exports.bibliography import BibEntry

# Letters Unicode does not decompose into an ASCII letter and a mark.
_FOLDS = str.maketrans({"ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ß": "ss", "ł": "l"})
_FOLDS.update(str.maketrans({"Ł": "L", "đ": "d", "Đ": "D", "þ": "th", "Þ": "Th", "ı": "i"}))
#: Letters kept of the family name and of the title word: whole for nearly every real one, and a key
#: one can still type.
PART_CHARS = 24
# Words too common to tell titles apart.
_STOP_WORDS = frozenset(
    "a an the of on in at for and or to how what why when is are does do from with by towards toward".split()
)


def ascii_letters(text: str) -> str:
    """``text``'s letters folded to lower-case ASCII ("Øvergård" -> "overgard"); other characters go."""
    folded = unicodedata.normalize("NFKD", text.translate(_FOLDS)).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z]", "", folded.lower())


def title_word(title: str, as_written: bool = False) -> str:
    """The title's first word that is not a stop word, folded to ASCII letters ("rooftops"), or as
    written ("Rooftops", BibTeX's ``key`` of an entry without authors)."""
    words = [(ascii_letters(w), w.strip(".,:;!?()[]\"'“”")) for w in title.split()]
    words = [(folded, w) for folded, w in words if folded]
    folded, written = next(
        (pair for pair in words if pair[0] not in _STOP_WORDS), words[0] if words else ("untitled", "Untitled")
    )
    return (written if as_written else folded)[:PART_CHARS]


def base_key(entry: BibEntry) -> str:
    """The key before clashes are told apart; without authors, the title word leads ("rooftops2019")."""
    authors = entry.bib.authors
    family = ascii_letters(name_parts(authors[0]).family)[:PART_CHARS] if authors else ""
    word = title_word(entry.title)
    year = entry.year or "nd"
    return f"{family}{year}{word}" if family else f"{word}{year}"


def citation_keys(entries: list[BibEntry]) -> dict[str, str]:
    """doc_id -> citation key, unique among ``entries``."""
    by_key: dict[str, list[str]] = defaultdict(list)
    for entry in entries:
        by_key[base_key(entry)].append(entry.doc_id)
    keys: dict[str, str] = {}
    for key, doc_ids in by_key.items():
        if len(doc_ids) == 1:
            keys[doc_ids[0]] = key
            continue
        for i, doc_id in enumerate(sorted(doc_ids)):
            keys[doc_id] = f"{key}{_suffix(i)}"
    return keys


def _suffix(i: int) -> str:
    """a, b, ..., z, aa, ab, ...: a letter after the word keeps the key one identifier."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    return letters[i] if i < 26 else _suffix(i // 26 - 1) + letters[i % 26]
