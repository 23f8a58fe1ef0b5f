"""Markdown loader: one block per heading, paragraph, top-level list item, table, blockquote or code block.

A block's ``span`` covers its source lines in the file's text, markup included, so a citation can
highlight exactly what the author wrote; its ``text`` is that content with the markup stripped
(emphasis, link targets, inline-code backticks, list markers), which is what gets embedded. Inside a
paragraph a line break that only wraps prose becomes a space, and a real one (an item or a statement
per line) stays "\n" (``corpus.loaders.line_breaks``).

YAML front matter is not content, but its ``title``, ``date`` and ``year`` fields are used, and its
author, DOI and venue fields (``corpus.loaders.front_matter``).
The helpers for years, spans and reference sections are shared with the plain-text loader.

The title is the front matter's ``title``; else a heading that opens the document: among the
headings that come before any body text (only blank lines, HTML comments, rules, breadcrumb lines
and image-only paragraphs such as logos and badges may precede them), the first level-1 heading, or
else the first of them. A heading further down names a part of the page, and a ``# `` line deep in
a page is as likely a shell comment from a code sample the scraper flattened. An opening heading
that is a generic section name ("Overview", "Next steps") is no title either. Without a title the
caller names the document after its file (``corpus.loaders.titles.file_title``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markdown_it.token import Token

from corpus.loaders.front_matter import parse_fields, parse_toml_fields, text_bibliography
from corpus.loaders.line_breaks import real_breaks
from corpus.loaders.page_furniture import is_furniture_line, source_url
from corpus.loaders.titles import (
    clean_heading,
    clean_title,
    is_bare_breadcrumb,
    is_breadcrumb,
    is_section_name,
    section_key,
)
from corpus.models import BlockKind, CharSpan, LoadedDocument, RawBlock, TitleSource
from corpus.table_text import table_line


class _TextParser(MarkdownIt):
    """markdown-it read for its text alone: no link's destination is ever used, so none is
    normalised (percent-encoding images inline as ``data:`` URIs took 8 of 14 s on a 2 MB note)."""

    def normalizeLink(self, url: str) -> str:  # noqa: N802 - markdown-it's name
        return url


_PARSER = _TextParser("commonmark").enable(["table", "strikethrough"])

# markdown-it counts lines the same way (it normalises exactly these to "\n" before parsing),
# so its line numbers index this split of the original text.
_NEWLINE = re.compile(r"\r\n?|\n")
_FRONT_MATTER = re.compile(r"\A---[ \t]*(?:\r\n?|\n)(.*?)^(?:---|\.\.\.)[ \t]*(?:\r\n?|\n|\Z)", re.S | re.M)
# Hugo and Zola write front matter in TOML between "+++" lines.
_TOML_FRONT_MATTER = re.compile(r"\A\+\+\+[ \t]*(?:\r\n?|\n)(.*?)^\+\+\+[ \t]*(?:\r\n?|\n|\Z)", re.S | re.M)

_YEAR = r"(?<!\d)(?P<year>(?:19|20)\d\d)(?!\d)"
_MONTH = (
    r"\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
# A bare number is too often a measurement or a report id; only trust years that read as dates.
_YEAR_PATTERNS = [
    re.compile(rf"(?:\b(?:published|dated?|issued|updated|copyright)|©|\(c\))[^\n]{{0,40}}?{_YEAR}", re.I),
    re.compile(rf"{_YEAR}-[01]\d-[0-3]\d"),
    re.compile(rf"{_MONTH}\s+(?:\d{{1,2}}(?:st|nd|rd|th)?,?\s+)?{_YEAR}", re.I),
]
YEAR_SCAN_CHARS = 1000
# A date inside a prose paragraph is usually about the work (an election, a survey), not the document;
# the document's own date sits on a short line (byline, "Published: ...", copyright notice).
MAX_DATE_LINE_CHARS = 150

_REFERENCE_TITLES = {
    "references",
    "bibliography",
    "reference list",
    "works cited",
    "literature cited",
    "cited literature",
}
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)
_HTML_TAG = re.compile(r"<[^>]+>")


def line_bounds(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every line of ``text``, the end excluding the line break."""
    bounds, start = [], 0
    for match in _NEWLINE.finditer(text):
        bounds.append((start, match.start()))
        start = match.end()
    bounds.append((start, len(text)))
    return bounds


def trimmed_span(text: str, start: int, end: int) -> CharSpan:
    """The span ``[start, end)`` without trailing whitespace (blank lines a block swallowed)."""
    while end > start and text[end - 1].isspace():
        end -= 1
    return CharSpan(start=start, end=end)


def find_year(text: str) -> int | None:
    """The first year on a short line of ``text`` written as a date or after "published", "©" and the like."""
    short_lines = "\n".join(line for line in text.splitlines() if len(line) <= MAX_DATE_LINE_CHARS)
    matches = [m for pattern in _YEAR_PATTERNS if (m := pattern.search(short_lines))]
    if not matches:
        return None
    return int(min(matches, key=lambda m: m.start()).group("year"))


def is_references_heading(heading: str) -> bool:
    return section_key(heading) in _REFERENCE_TITLES


def load_markdown(text: str) -> LoadedDocument:
    fields, body = _split_front_matter(text)
    reading = _Reading(text, line_bounds(text))
    for group in _constructs(_PARSER.parse(body)):
        reading.read(group)
    year = _front_matter_year(fields) or find_year(body[:YEAR_SCAN_CHARS])
    bibliography = text_bibliography(fields, body.lstrip("\n"))
    url = source_url(reading.furniture_lines) or _comment_source(body)
    front_title = clean_title(fields.get("title"))
    return LoadedDocument(
        title=front_title or _title(reading.opening),
        title_source=TitleSource.FRONT_MATTER if front_title else None,
        year=year,
        bibliography=bibliography.model_copy(update={"url": url}) if url else bibliography,
        blocks=_implicit_headings(reading.blocks) or reading.furniture,
    )


@dataclass
class _Reading:
    """A Markdown document read construct by construct, top to bottom: the blocks made so far, and
    where the next one sits (its section, the headings above it, whether it is under References)."""

    text: str
    lines: list[tuple[int, int]]
    blocks: list[RawBlock] = field(default_factory=list)
    opening: list[tuple[int, str]] = field(default_factory=list)  # (level, text) of the headings before any body text
    in_opening: bool = True
    section: str = ""
    open_headings: list[tuple[int, str]] = field(default_factory=list)  # (level, text) the next block sits under
    parents: list[str] = field(default_factory=list)  # the headings above the current section, outermost first
    references_level: int | None = None  # level of the References heading we are under, if any
    # A crawler's header lines, kept as the blocks only if nothing else is there.
    furniture: list[RawBlock] = field(default_factory=list)
    furniture_lines: list[str] = field(default_factory=list)

    def read(self, group: list[Token]) -> None:
        """One top-level construct: its block (or blocks) added, where the next one sits moved on."""
        made = _block(group)
        if made is None or not made[1]:
            return
        kind, block_text = made
        first, last = group[0].map  # every block-level opening token carries its line range
        if kind is BlockKind.HEADING and _is_code_comment(self.text, self.lines, first):
            kind, block_text = BlockKind.PARAGRAPH, self.text[slice(*self.lines[first])].strip()
        if self.in_opening and kind is BlockKind.PARAGRAPH:
            kept = self._set_furniture_apart(group, block_text, first, last)
            if kept is None:
                return
            first, block_text = kept
        if kind is BlockKind.HEADING:
            self._enter_heading(int(group[0].tag[1]), block_text)
        elif self.references_level is not None:
            kind = BlockKind.REFERENCE
        if kind is not BlockKind.HEADING and not _is_page_chrome(group, block_text):
            self.in_opening = False
        self._add(group, kind, block_text, first, last)

    def _set_furniture_apart(
        self, group: list[Token], block_text: str, first: int, last: int
    ) -> tuple[int, str] | None:
        """An opening paragraph's leading crawler lines go to ``furniture``: (first line, text) of what
        remains of the paragraph, or None when nothing does."""
        leading = _furniture_lines(self.text, self.lines, first, last, under_title=bool(self.opening))
        if not leading:
            return first, block_text
        self.furniture_lines += [self.text[slice(*self.lines[i])] for i in range(first, first + leading)]
        span = trimmed_span(self.text, self.lines[first][0], self.lines[first + leading - 1][1])
        self.furniture.append(self._raw(span, BlockKind.PARAGRAPH, block_text))
        if leading == last - first:
            return None
        return first + leading, _children_text(_paragraph_children(group[1])[_break_index(group, leading) + 1 :])

    def _enter_heading(self, level: int, heading: str) -> None:
        """A heading opens a section: the headings above it are those of lower levels still open."""
        while self.open_headings and self.open_headings[-1][0] >= level:
            self.open_headings.pop()
        self.parents = [text for _, text in self.open_headings]
        self.open_headings.append((level, heading))
        self.section = heading
        if self.in_opening:
            self.opening.append((level, heading))
        # A subheading stays inside References; a heading at its level or above ends it.
        if self.references_level is None or level <= self.references_level:
            self.references_level = level if is_references_heading(heading) else None

    def _add(self, group: list[Token], kind: BlockKind, block_text: str, first: int, last: int) -> None:
        """The block of source lines ``first`` to ``last``, in the current section."""
        crumb = _leading_breadcrumb(group) if kind is BlockKind.PARAGRAPH else None
        if crumb is not None:
            # A breadcrumb line glued above a paragraph is a block of its own, so it can be told
            # apart (and marked as boilerplate) without taking the paragraph with it.
            self.blocks.append(
                self._raw(trimmed_span(self.text, self.lines[first][0], self.lines[first][1]), kind, crumb[0])
            )
            first, block_text = first + 1, crumb[1]
        span = trimmed_span(self.text, self.lines[first][0], self.lines[last - 1][1])
        self.blocks.append(self._raw(span, kind, block_text))

    def _raw(self, span: CharSpan, kind: BlockKind, text: str) -> RawBlock:
        return RawBlock(span=span, section=self.section, parents=self.parents, kind=kind, text=text)


# A line that heads what follows in a page exported without heading markup: a few words, capitalised,
# no code or link characters, ending in a word or a question mark ("Why use examples?", an FAQ's
# question), never in other sentence punctuation.
_IMPLICIT_HEADING = re.compile(r"^[A-Z][\w’'&/ -]{0,58}\w$")
MAX_HEADING_WORDS = 8


def _implicit_headings(blocks: list[RawBlock]) -> list[RawBlock]:
    """A document without a single heading (a crawled page saved as plain lines) has its headings
    as one-line paragraphs: each opens a section holding it and the blocks after it, so chunks end
    where its sections do and carry their heading. The line stays a paragraph (quotable, as it was),
    since a short line is sometimes content. A document with headings is left as it is."""
    if any(b.kind is BlockKind.HEADING for b in blocks):
        return blocks
    out: list[RawBlock] = []
    section = ""
    for i, block in enumerate(blocks):
        following = blocks[i + 1] if i + 1 < len(blocks) else None
        if following is not None and following.kind is not BlockKind.REFERENCE and _heads(block):
            section = block.text
        out.append(block.model_copy(update={"section": section}) if section else block)
    return out


def _heads(block: RawBlock) -> bool:
    text = block.text
    return (
        block.kind is BlockKind.PARAGRAPH
        and len(text.split()) <= MAX_HEADING_WORDS
        and _IMPLICIT_HEADING.match(text) is not None
    )


# "# " lines a scraper flattened out of a code sample read as ATX headings ("# Create an instance of the
# client" over "client = Anthropic()"). A heading is told from them by what touches it without a blank
# line: a comment sits against a statement (an assignment, an import, a definition, a bracket that
# opens or closes a call). A fence or a command line right under a heading is not enough: a README's
# "## Install" is often followed by one.
_ATX = re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)")
_CODE_LINE = re.compile(
    r"^\s*(?:[A-Za-z_$][\w.$]*(?:\[[^\]]*\])?\s*[-+*/|&]?=(?!=)\s*\S"
    r"|(?:import|from\s+\S+\s+import|def|class|const|let|var|function)\s+\w"
    r"|(?:return|await)\b|print\(|[)}\]])"
    r"|[({\[;]\s*$"
)


def _is_code_comment(text: str, lines: list[tuple[int, int]], index: int) -> bool:
    """Whether the ATX heading on line ``index`` is a comment of flattened code: the run of "#" lines
    it belongs to touches a line of code just before or after it."""

    def line(i: int) -> str:
        return text[slice(*lines[i])] if 0 <= i < len(lines) else ""

    start = end = index
    while _ATX.match(line(start - 1)):
        start -= 1
    while _ATX.match(line(end + 1)):
        end += 1
    return any(_CODE_LINE.search(line(i)) for i in (start - 1, end + 1))


def _furniture_lines(text: str, lines: list[tuple[int, int]], first: int, last: int, under_title: bool) -> int:
    """How many of a paragraph's first lines are a crawler's header lines ("Source: https://…"), or,
    under the page's opening heading, a navigation trail written without separators ("Documentation
    Acme Router User Guide"): where the page sits on its site, not what it says."""
    count = 0
    while first + count < last:
        line = text[slice(*lines[first + count])]
        if not (is_furniture_line(line) or (under_title and is_bare_breadcrumb(line))):
            break
        count += 1
    return count


def _break_index(group: list[Token], n: int) -> int:
    """The index among a paragraph's inline children of its ``n``-th line break."""
    children = _paragraph_children(group[1])
    breaks = [i for i, c in enumerate(children) if c.type in ("softbreak", "hardbreak")]
    return breaks[n - 1] if len(breaks) >= n else len(children)


_SOURCE_COMMENT = re.compile(r"\A\s*<!--\s*(?:source|url)\s*:\s*(https?://[^\s>]+)\s*-->", re.IGNORECASE)


def _comment_source(body: str) -> str | None:
    """A saved page's source URL in an HTML comment at its top ("<!-- source: https://… -->")."""
    match = _SOURCE_COMMENT.match(body)
    return match.group(1) if match else None


def _leading_breadcrumb(group: list[Token]) -> tuple[str, str] | None:
    """(breadcrumb, rest) when a paragraph's first line is a breadcrumb and more lines follow."""
    if group[0].type != "paragraph_open" or len(group) != 3:
        return None
    children = _paragraph_children(group[1])
    cut = next((i for i, c in enumerate(children) if c.type in ("softbreak", "hardbreak")), None)
    if cut is None:
        return None
    crumb, rest = _children_text(children[:cut]), _children_text(children[cut + 1 :])
    return (crumb, rest) if rest and is_breadcrumb(crumb) else None


def _title(opening: list[tuple[int, str]]) -> str | None:
    """The first level-1 heading of the opening headings, else the first; never a section name."""
    title = next((text for level, text in opening if level == 1), None) or (opening[0][1] if opening else None)
    return None if title is None or is_section_name(title) else title


def _is_page_chrome(group: list[Token], text: str) -> bool:
    """A breadcrumb line or a paragraph of images only (a logo, badges): not the page's body."""
    if group[0].type != "paragraph_open" or len(group) != 3:
        return False
    if is_breadcrumb(text):
        return True
    children = group[1].children or []
    framing = ("image", "link_open", "link_close", "softbreak", "hardbreak")
    return any(c.type == "image" for c in children) and all(
        c.type in framing or (c.type == "text" and not c.content.strip()) for c in children
    )


def _split_front_matter(text: str) -> tuple[dict[str, str], str]:
    """Front-matter fields, and the text with the front matter blanked out.

    Blanking (rather than cutting) keeps every later line at its original line number, so the
    parser's line ranges still index ``text``.
    """
    match = _FRONT_MATTER.match(text)
    toml = _TOML_FRONT_MATTER.match(text) if match is None else None
    if match is None and toml is None:
        return {}, text
    if toml is not None:
        match, fields = toml, parse_toml_fields(toml.group(1))
    else:
        fields = parse_fields(match.group(1))
    blank = "\n" * len(_NEWLINE.findall(match.group(0)))
    return fields, blank + text[match.end() :]


def _front_matter_year(fields: dict[str, str]) -> int | None:
    for key in ("year", "date"):
        if match := re.search(_YEAR, fields.get(key, "")):
            return int(match.group("year"))
    return None


def _constructs(tokens: list[Token]) -> Iterator[list[Token]]:
    """Split a token run into its top-level constructs; lists are split into their items."""
    i = 0
    while i < len(tokens):
        j, depth = i + 1, tokens[i].nesting
        while depth > 0:
            depth += tokens[j].nesting
            j += 1
        group = tokens[i:j]
        if group[0].type in ("bullet_list_open", "ordered_list_open"):
            # One block per item keeps blocks citation-sized; a long list would otherwise be one block.
            yield from _constructs(group[1:-1])
        else:
            yield group
        i = j


def _block(group: list[Token]) -> tuple[BlockKind, str] | None:
    head = group[0]
    if head.type == "heading_open":
        return BlockKind.HEADING, clean_heading(_inline_text(group[1]))
    if head.type == "table_open":
        return BlockKind.TABLE, _table_text(group)
    if head.type == "list_item_open":
        # Ordered-list numbers stay: they carry meaning (steps, numbered references).
        number = f"{head.info}{head.markup} " if head.info else ""
        return BlockKind.LIST, number + _plain_text(group)
    if head.type == "html_block":
        return BlockKind.PARAGRAPH, _HTML_TAG.sub(" ", _HTML_COMMENT.sub("", head.content)).strip()
    if head.type == "hr":
        return None
    # Paragraphs, blockquotes, fenced and indented code.
    return BlockKind.PARAGRAPH, _plain_text(group)


def _plain_text(group: list[Token]) -> str:
    parts = []
    for i, token in enumerate(group):
        if token.type == "inline":
            in_paragraph = i > 0 and group[i - 1].type == "paragraph_open"
            parts.append(_children_text(_paragraph_children(token) if in_paragraph else token.children or []))
        elif token.type in ("fence", "code_block"):
            parts.append(token.content.strip("\n"))
    return "\n".join(p for p in parts if p)


def _paragraph_children(token: Token) -> list[Token]:
    """A paragraph's inline children with each soft break that is a real line break made a hard one.

    Line ``i`` of the paragraph's source ends in its ``i``-th break; where a code span or inline HTML
    runs over a line end the two do not line up, and every soft break stays soft.
    """
    children = token.children or []
    breaks = [i for i, c in enumerate(children) if c.type in ("softbreak", "hardbreak")]
    lines = token.content.split("\n")
    if len(lines) != len(breaks) + 1:
        return children
    children = list(children)
    for i, real in zip(breaks, real_breaks(lines), strict=True):
        if real and children[i].type == "softbreak":
            children[i] = Token("hardbreak", "br", 0)
    return children


def _table_text(group: list[Token]) -> str:
    rows: list[list[str]] = []
    for token in group:
        if token.type == "tr_open":
            rows.append([])
        elif token.type == "inline":
            rows[-1].append(_inline_text(token))
    return "\n".join(table_line(cells) for cells in rows)


def _inline_text(token: Token) -> str:
    return _children_text(token.children or [])


def _children_text(children: list[Token]) -> str:
    parts = []
    for child in children:
        if child.type in ("text", "code_inline", "image"):  # an image's content is its alt text
            parts.append(child.content)
        elif child.type == "softbreak":
            parts.append(" ")
        elif child.type == "hardbreak":
            parts.append("\n")
    return re.sub(r"[ \t]*\n[ \t]*", "\n", re.sub(r"[ \t]+", " ", "".join(parts))).strip()
