"""Section headings: recognised by style together with numbering or a well-known section name."""

from __future__ import annotations

import re

from corpus.loaders.pdf.doc_stats import DocStats
from corpus.loaders.pdf.elements import Line

KNOWN_HEADINGS = frozenset(
    " ".join(phrase.split())
    for line in """abstract|introduction|background|related work|related works|method|methods|
    methodology|approach|model|experiments|experiment|experimental setup|setup|evaluation|results|
    discussion|analysis|conclusion|conclusions|conclusion and future work|future work|limitations|
    ethics statement|ethical considerations|broader impact|acknowledgments|acknowledgements|
    acknowledgment|acknowledgement|references|bibliography|appendix|appendices|keywords|
    ccs concepts|index terms|supplementary material|works cited|literature cited""".split("\n")
    for phrase in line.split("|")
    if phrase.strip()
)
REFERENCE_HEADINGS = frozenset({"references", "bibliography", "works cited", "literature cited", "reference"})

NUMBERED_HEADING = re.compile(
    r"^(?:(?:[1-9]\d?(?:\.\d{1,2}){0,3}\.?)|(?:[A-Z](?:\.\d{1,2}){0,3}\.?)|(?:[IVX]{1,5}\.))\s+(\S.*)$"
)


def heading_kind(ln: Line, doc: DocStats, in_refs: bool, right: float, continues: bool) -> str | None:
    """'numbered' / 'known' / 'styled' when the line is a section heading, else None.

    ``right`` is the column's right edge; ``continues`` says the layout alone would continue the
    current paragraph (normal line pitch, no indent), which rules out headings known only by style.
    """
    text = " ".join(ln.text.split())
    words = text.split()
    if not _could_be_heading(ln, doc, text, words):
        return None
    m = NUMBERED_HEADING.match(text)
    styled = doc.styled(ln) or (text.isupper() and len(words) <= 8)
    if m and styled and _is_numbered_heading(ln, doc, m.group(1), len(words)):
        return "numbered"
    bare = re.sub(r"^(?:\d+(?:\.\d+)*\.?|[A-Z]\.|[IVX]+\.)\s+", "", text).rstrip(":.").strip().lower()
    if bare in KNOWN_HEADINGS and styled:
        return "known"
    if in_refs or continues:
        return None
    if _is_bold_heading(ln, doc, text, len(words), right):
        return "styled"
    return None


def _could_be_heading(ln: Line, doc: DocStats, text: str, words: list[str]) -> bool:
    """Short enough, with some letters, not a table, not a caption, not cut off at a comma."""
    if ln.table is not None or len(text) > 120 or len(text) < 3:
        return False
    if len(words) > 14 or sum(ch.isalpha() for ch in text) < 3:
        return False
    return not (text[-1] in ",;" or doc.is_caption(ln))


def _is_numbered_heading(ln: Line, doc: DocStats, rest: str, nwords: int) -> bool:
    """The text after the number reads as a title: capitalised, not a sentence, not too long."""
    return (
        (rest[0].isupper() or rest[0].isdigit())
        and rest[-1] not in ".:-"
        and not re.search(r"[a-z]\.\s+\S", rest)  # a run-in heading followed by its paragraph
        and nwords <= (12 if ln.bold >= 0.8 or ln.size >= doc.body_size + 0.8 else 10)
    )


def _is_bold_heading(ln: Line, doc: DocStats, text: str, nwords: int, right: float) -> bool:
    """A short bold line of body size or larger, capitalised and not ending a sentence."""
    return (
        ln.bold >= 0.9
        and nwords <= 10
        and (text[0].isupper() or text[0].isdigit())
        and text[-1] not in ".:-?"
        and ln.size >= doc.body_size - 0.3
        and ln.x1 < right - 1.5 * ln.size  # a full line of bold is a run-in heading's paragraph
    )


def continues_heading(prev: Line, ln: Line) -> bool:
    text = ln.text.strip()
    return (
        abs(prev.size - ln.size) < 0.3
        and abs(prev.bold - ln.bold) < 0.2
        and prev.font == ln.font
        and 0 < ln.ctop - prev.ctop < 1.6 * ln.size
        and len(text.split()) <= 10
        and not NUMBERED_HEADING.match(text)
        and not prev.text.rstrip().endswith((".", ":"))
    )
