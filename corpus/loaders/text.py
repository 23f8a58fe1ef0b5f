"""Plain-text loader: paragraphs split on blank lines, headings and list items found by layout.

Text that uses Markdown headings (``# Title``, ``## Section``) goes to the Markdown loader: many
".txt" files are Markdown, the QASPER papers among them.

Otherwise a heading is a short line standing alone between blank lines ("1. Introduction",
"ABSTRACT", "Results") or a line underlined with ``===``/``---``; the document's first line counts
as a heading up to a longer length. Hard-wrapped lines are joined into one block text, and real
line breaks (an item or a statement per line) stay "\n" in it (``corpus.loaders.line_breaks``);
the block's span covers the raw lines either way.

The title is that first line when it is a heading, unless it is a generic section name
("Introduction", "Overview", "Next steps"): a report's first line is its title, but a text saved
from a web page or cut out of a longer document often starts at its first section, and a section
name says nothing about which document it is, while the file's name usually does (the caller falls
back to it, ``corpus.loaders.titles.file_title``). A heading further down is never the title: it
names a part of the text.
"""

from __future__ import annotations

import re

from corpus.loaders.authors import byline_authors
from corpus.loaders.front_matter import opening_lines
from corpus.loaders.line_breaks import join_lines
from corpus.loaders.markdown import (
    YEAR_SCAN_CHARS,
    find_year,
    is_references_heading,
    line_bounds,
    load_markdown,
    trimmed_span,
)
from corpus.loaders.page_furniture import is_furniture_line, source_url
from corpus.loaders.titles import clean_heading, is_breadcrumb, is_section_name
from corpus.models import Bibliography, BlockKind, LoadedDocument, RawBlock
from corpus.table_text import table_line

_MARKDOWN_HEADING = re.compile(r"^#{1,6}[ \t]+\S", re.M)
_UNDERLINE = re.compile(r"^[ \t]*(?:={3,}|-{3,})[ \t]*$")
_ITEM = re.compile(r"^[ \t]*(?:[-*•]|\d{1,3}[.)]|\[\d{1,3}\])[ \t]+")
_BULLET = re.compile(r"^[ \t]*[-*•][ \t]+")
_CAPTION = re.compile(r"^[ \t]*(?:table|fig(?:ure)?\.?)\s+[\dIVX]+[.:]", re.I)
# Columns of a plain-text table are aligned with runs of spaces or tabs; two spaces after a full
# stop are old-style sentence spacing instead.
_COLUMN_GAP = re.compile(r"(?<![.!?]) {2,}|\t+")
# Inside a References section most entries look like headings (short, capitalised, no full stop),
# so only headings that cannot be an entry end the section.
_BACK_MATTER = re.compile(
    r"^(?:[A-Z\d]{1,3}[.)]?\s+)?(?:appendix|appendices|acknowledge?ments?|supplementary|notes\b)", re.I
)

MAX_HEADING_CHARS = 80
MAX_HEADING_WORDS = 12
MAX_TITLE_CHARS = 200
# A question is a common heading (FAQs); other sentence punctuation at the end means prose.
_SENTENCE_END = ".,;:!"

Line = tuple[int, int]  # (start, end) offsets of one line, without its line break


def load_text(text: str) -> LoadedDocument:
    if _MARKDOWN_HEADING.search(text):
        return load_markdown(text)
    blocks: list[RawBlock] = []
    section, in_references = "", False
    groups, furniture = _without_furniture(text, _groups(text))
    if not groups:  # nothing but a crawler's header lines: they are the text
        groups, furniture = furniture, []
    for index, group in enumerate(groups):
        heading = _heading([text[start:end] for start, end in group], is_first=index == 0, in_references=in_references)
        if heading is not None:
            section, in_references = heading, is_references_heading(heading)
            span = trimmed_span(text, group[0][0], group[-1][1])
            blocks.append(RawBlock(span=span, section=section, kind=BlockKind.HEADING, text=heading))
            continue
        for kind, lines in _body_runs(text, group):
            body = _body_text(kind, [text[start:end] for start, end in lines])
            kind = BlockKind.REFERENCE if in_references else kind
            span = trimmed_span(text, lines[0][0], lines[-1][1])
            blocks.append(RawBlock(span=span, section=section, kind=kind, text=body))
    url = source_url([text[start:end] for group in furniture for start, end in group])
    start = groups[0][0][0] if groups else 0
    return LoadedDocument(
        title=_title(blocks),
        year=find_year(text[:YEAR_SCAN_CHARS]),
        # The first line is the title, which may be a person's name.
        bibliography=Bibliography(authors=byline_authors(opening_lines(text[start:])[1:]), url=url),
        blocks=blocks,
    )


def _without_furniture(text: str, groups: list[list[Line]]) -> tuple[list[list[Line]], list[list[Line]]]:
    """The groups without the crawler's header lines that open the text ("Source: https://…",
    "Fetched-At: …"), and those lines."""
    furniture: list[list[Line]] = []
    while groups:
        lines = groups[0]
        n = 0
        while n < len(lines) and is_furniture_line(text[lines[n][0] : lines[n][1]]):
            n += 1
        if n == 0:
            break
        furniture.append(lines[:n])
        groups = ([lines[n:]] if n < len(lines) else []) + groups[1:]
        if n < len(lines):
            break
    return groups, furniture


def _groups(text: str) -> list[list[Line]]:
    """Runs of non-blank lines; an underlined heading is a run of its own even without blank lines."""
    groups: list[list[Line]] = []
    current: list[Line] = []
    for start, end in line_bounds(text):
        line = text[start:end]
        if not line.strip():
            groups.append(current)
            current = []
        elif _UNDERLINE.match(line):
            # With nothing above it, an underline-like line is a separator rule, not content.
            if current:
                groups.append(current[:-1])
                groups.append([current[-1], (start, end)])
            current = []
        else:
            current.append((start, end))
    groups.append(current)
    return [g for g in groups if g]


def _heading(rows: list[str], *, is_first: bool, in_references: bool) -> str | None:
    """The heading text if this group of lines is a heading, else None."""
    if len(rows) == 2 and _UNDERLINE.match(rows[1]):
        return clean_heading(rows[0])
    if len({" ".join(row.split()) for row in rows}) == 1:
        rows = rows[:1]  # a title line written twice (a page title above the same heading)
    if len(rows) != 1:
        return None
    line = clean_heading(rows[0])
    if _CAPTION.match(line) or is_breadcrumb(line):
        return None
    if in_references:
        return line if line.isupper() or _BACK_MATTER.match(line) else None
    return _body_heading(line, is_first=is_first)


def _body_heading(line: str, *, is_first: bool) -> str | None:
    """A lone line outside the references as a heading: the opening line when it is short and no
    sentence (the title), else a short line that starts like a heading and ends like no sentence."""
    if _BULLET.match(line):
        return None
    if is_first and len(line) <= MAX_TITLE_CHARS and not line.endswith("."):
        return line
    if len(line) >= MAX_HEADING_CHARS or len(line.split()) > MAX_HEADING_WORDS:
        return None
    if line.isupper():
        return line
    if line[-1] in _SENTENCE_END:
        return None
    return line if line[0].isupper() or line[0].isdigit() else None


def _body_runs(text: str, group: list[Line]) -> list[tuple[BlockKind, list[Line]]]:
    """Split a group that is not a heading into blocks: a caption, a table, or prose and list items."""
    rows = [text[start:end] for start, end in group]
    if len(group) > 1 and is_breadcrumb(rows[0]):
        # A breadcrumb line glued above a paragraph is a block of its own (see corpus.boilerplate).
        return [(BlockKind.PARAGRAPH, group[:1]), *_body_runs(text, group[1:])]
    if _CAPTION.match(rows[0]):
        return [(BlockKind.CAPTION, group)]
    if _is_table(rows):
        return [(BlockKind.TABLE, group)]
    is_item = [bool(_ITEM.match(row)) for row in rows]
    # A single "1. " or "- " inside wrapped prose is more likely a wrapped sentence than a list.
    if not (is_item[0] or sum(is_item) >= 2):
        return [(BlockKind.PARAGRAPH, group)]
    runs: list[tuple[BlockKind, list[Line]]] = []
    for line, starts_item in zip(group, is_item, strict=True):
        if starts_item or not runs:
            runs.append((BlockKind.LIST if starts_item else BlockKind.PARAGRAPH, [line]))
        else:
            runs[-1][1].append(line)
    return runs


def _is_table(rows: list[str]) -> bool:
    # The same number of aligned columns on every row; double-spaced prose does not line up like that.
    widths = {len(_COLUMN_GAP.split(row.strip())) for row in rows}
    return len(rows) >= 2 and len(widths) == 1 and widths.pop() >= 2


def _body_text(kind: BlockKind, rows: list[str]) -> str:
    if kind is BlockKind.TABLE:
        return "\n".join(table_line(_COLUMN_GAP.split(row.strip())) for row in rows)
    body = join_lines(rows)
    # Bullets are markup; list numbers are kept (steps, numbered references).
    return _BULLET.sub("", body) if kind is BlockKind.LIST else body


def _title(blocks: list[RawBlock]) -> str | None:
    """The heading the text opens with (after any breadcrumb line), unless it is a section name."""
    first = next((b for b in blocks if not is_breadcrumb(b.text)), None)
    if first is None or first.kind is not BlockKind.HEADING or is_section_name(first.text):
        return None
    return first.text
