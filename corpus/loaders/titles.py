"""Document titles and heading text as pages really write them, cleaned: no doubled titles, no
site-name suffixes, no permalink marks; breadcrumb lines, which are never a title or a heading; and
a title for a document that names itself nowhere.

A heading that only names a part of a document ("Introduction", "Overview", "Next steps") is a poor
title: every document has one, so a reference titled "Examples" says nothing about which page it is.
``is_section_name`` tells those apart. Scraped documentation pages often open straight with such a
section (the page's own title was in the site's chrome, not the text), and then the file's name,
which the scraper took from the page's URL, names the page better: ``file_title`` turns
"en__docs__build-with-claude__tool-use.md" into "Tool use".

A title comes out doubled ("Overview - Acme Router Overview - Acme Router") when a page's title line
and its first heading are the same text and end up in one construct: a scraper writes the
``<title>`` on the line right above the page's heading, and Markdown reads the two lines as one
two-line heading; or a plain-text file repeats the line. ``collapse_repeat`` undoes exactly that
repetition; ``page_title`` drops the site's name from an HTML title the way trafilatura already does
for ``<title>`` alone, so every page of a site is titled by what it is about.
"""

from __future__ import annotations

import re
from pathlib import Path

# "Overview - Acme Router", "Acme Router | Overview", "Overview · Docs"
_TITLE_SEPARATOR = re.compile(r"\s+(?:[-–—|·•»:]|::)\s+")
# Breadcrumbs: three or more short parts joined by a path separator with spaces around it.
_CRUMB_SEPARATOR = re.compile(r"\s+(?:/|>|›|»|→|\\)\s+")
MAX_CRUMB_PART_WORDS = 5
MAX_CRUMB_WORDS = 16
# The first step of a site's navigation trail, when the trail is written without separators
# ("Documentation Acme Router User Guide": a scraper kept the links' words and lost the arrows).
# Only words a page's own first line hardly starts with ("Home Assistant", "Help Desk Software" do).
_TRAIL_ROOTS = frozenset("documentation docs guides developer developers".split())
MAX_BARE_CRUMB_WORDS = 10
_MARKDOWN_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
# Permalink anchors that heading text picks up from documentation generators (Sphinx, MkDocs).
_PERMALINK_MARKS = frozenset("¶§🔗#")
# A part of a title that only numbers it within a book or a course: "Chapter 6", "Part II", "Lesson 3".
_PART_LABEL = re.compile(r"^(?:chapter|part|section|lesson|unit|lecture|module|step)\s+[\dIVXivx]+(?:\.\d+)*$", re.I)
# Names of the parts any document may have, not of one document. Exact names only: "Introduction
# to Routing" is a title.
SECTION_NAMES = frozenset(
    " ".join(name.split())
    for name in """abstract|introduction|intro|overview|summary|executive summary|background|contents|
    table of contents|preface|foreword|example|examples|usage|prerequisites|requirements|
    before you begin|getting started|get started|next steps|what's next|see also|further reading|
    notes|faq|faqs|conclusion|conclusions|discussion|results|methods|references|appendix""".split("|")
)
_SECTION_NUMBER = re.compile(r"^(?:\d+(?:\.\d+)*|[ivx]+)[.)]?\s+", re.IGNORECASE)
# A file-name segment like these names the folder's default page, not the page: use the one before.
_DEFAULT_PAGES = frozenset({"index", "_index", "default"})
# "2020.acl-main.447", "1903.10676", "guide-v1.2": identifiers and version numbers, kept as written.
_IDENTIFIER = re.compile(r"\d\.\w")


# Words a title in title case leaves in lower case, unless they open it or a subtitle.
_MINOR_WORDS = frozenset("a an and as at but by for from in into nor of on or per the to via vs with".split())


def _key(text: str) -> str:
    return " ".join(text.casefold().split())


def collapse_repeat(text: str) -> str:
    """``text`` with one copy of a title written twice in a row ("A - B A - B" -> "A - B")."""
    words = text.split()
    half = len(words) // 2
    if half and len(words) % 2 == 0 and _key(" ".join(words[:half])) == _key(" ".join(words[half:])):
        return " ".join(words[:half])
    return text


def clean_heading(text: str) -> str:
    """Heading text without permalink marks or a doubled copy of itself."""
    stripped = _strip_permalink(text.strip())
    return collapse_repeat(stripped or text.strip())


def _strip_permalink(text: str) -> str:
    # A loop, not a regex anchored at the end: searching ``[marks]+$`` restarts at every mark of a
    # long run that does not end the text, which is quadratic (a line of 30,000 "#" took 11 s).
    end = len(text)
    while end and (text[end - 1].isspace() or text[end - 1] in _PERMALINK_MARKS):
        end -= 1
    return text[:end]


def clean_title(title: str | None) -> str:
    """A title on one line, spaces collapsed, no permalink mark, not doubled."""
    return clean_heading(" ".join((title or "").split()))


def title_parts(title: str) -> list[str]:
    """The parts of a title joined by separators ("Overview - Acme Router" -> both halves)."""
    return [p for p in _TITLE_SEPARATOR.split(title) if p.strip()]


def repeats_title(heading: str, title: str) -> bool:
    """``heading`` is the title or one of its parts ("Overview" on the page "Overview - Acme Router")."""
    return _key(heading) in {_key(title), *map(_key, title_parts(title))}


def page_title(title: str | None, site_name: str | None = None, h1: str | None = None) -> str:
    """An HTML page's title without the site's name: the parts that are not ``site_name``, or else
    the part that is the page's one ``<h1>`` ("Overview - Acme Router" with h1 "Overview")."""
    title = clean_title(title)
    parts = title_parts(title)
    if len(parts) < 2:
        return title
    named = [p for p in parts if not _PART_LABEL.match(p.strip())]
    if len(named) < len(parts):  # "Chapter 6 - Monitoring Distributed Systems": the label goes
        separator = _TITLE_SEPARATOR.search(title).group(0)  # type: ignore[union-attr]
        return page_title(separator.join(named), site_name, h1)
    if site_name:
        kept = [p for p in parts if _key(p) != _key(site_name)]
        if kept and len(kept) < len(parts):
            separator = _TITLE_SEPARATOR.search(title).group(0)  # type: ignore[union-attr]
            return separator.join(kept)
    if h1 and _key(clean_title(h1)) in {_key(p) for p in parts}:
        return clean_title(h1)
    return title


def is_breadcrumb(line: str) -> bool:
    """A navigation trail: "Documentation / User Guide / Overview", "Home > Docs > Routing"."""
    # Spaces collapsed first: the separator pattern scans a long run of spaces once per space in it.
    line = " ".join(line.split())
    parts = _CRUMB_SEPARATOR.split(line)
    if len(parts) < 3 or len(line.split()) > MAX_CRUMB_WORDS or line[-1:] in ".!?;,":
        return False
    return all(p.strip() and len(p.split()) <= MAX_CRUMB_PART_WORDS for p in parts)


def is_bare_breadcrumb(line: str) -> bool:
    """A navigation trail without separators, as a scraper leaves it under a page's title:
    "Documentation Acme Router User Guide", "[Docs](/docs) [Routing](/docs/routing)". Every word
    capitalised, no sentence punctuation, opening with the root of a site's navigation (the
    loaders only ask about the line right under the title)."""
    words = _MARKDOWN_LINK.sub(r"\1", line).replace("*", "").split()
    if not 3 <= len(words) <= MAX_BARE_CRUMB_WORDS or words[0].casefold() not in _TRAIL_ROOTS:
        return False
    return all(w[0].isupper() or w[0].isdigit() for w in words) and not any(ch in ".!?,;:" for ch in "".join(words))


def section_key(heading: str) -> str:
    """A heading as a section name to look up: "2. Next Steps:" -> "next steps"."""
    return _SECTION_NUMBER.sub("", " ".join(heading.split())).casefold().rstrip(":.?! ").replace("’", "'")


def is_section_name(text: str) -> bool:
    """A generic section name ("Introduction", "2. Overview", "Next steps:") rather than a title."""
    return section_key(text) in SECTION_NAMES


def file_title(path: Path) -> str:
    """A title made from a file's name: the last meaningful part of a path-like name, words spaced.

    "en__docs__build-with-claude__tool-use.md" -> "Tool use"; "green_roof_faq_2021.md" -> "Green roof
    faq 2021"; "docs__guide__index.md" and "guide/index.md" -> "Guide". A first word in capitals or
    mixed case stays as written ("API-keys" -> "API keys", "iOS-setup" -> "iOS setup"); identifiers
    stay whole.
    """
    # The folder names a folder's default page ("guide/index.md"), so it counts as the first segment.
    segments = [s for s in re.split(r"__|/|\\", f"{path.parent.name}__{path.stem}") if s.strip(" _-")]
    meaningful = [s for s in segments if s.casefold() not in _DEFAULT_PAGES] or segments
    if not meaningful:
        return path.stem
    segment = meaningful[-1].strip()
    if _IDENTIFIER.search(segment):
        return segment
    words = re.sub(r"[-_\s]+", " ", segment).strip()
    return words[0].upper() + words[1:] if words.split()[0].islower() else words


def is_capitals(text: str) -> bool:
    """Whether ``text`` is set in capitals: letters, and none of them lower case."""
    letters = [ch for ch in text if ch.isalpha()]
    return len(letters) >= 4 and not any(ch.islower() for ch in letters) and any(ch.isupper() for ch in letters)


def capitals_title_case(title: str, acronyms: frozenset[str] = frozenset()) -> str:
    """A title printed in capitals in title case, keeping ``acronyms`` (words the document writes
    in capitals elsewhere, such as "CLEF" or "GPTQ") and words with a digit ("DB2") as they are:
    "OVERVIEW OF THE CLEF 2008 QA TRACK" -> "Overview of the CLEF 2008 QA Track". A title with
    a lower-case letter is returned unchanged."""
    if not is_capitals(title):
        return title
    words = title.split(" ")
    out = []
    opens = True  # the first word, and the first after a colon, dash or full stop, is capitalised
    for word in words:
        out.append("-".join(_cased_part(part, acronyms, opens and i == 0) for i, part in enumerate(word.split("-"))))
        opens = word.endswith((":", ".", "?", "!")) or word in ("-", "–", "—")
    return " ".join(out)


def _cased_part(part: str, acronyms: frozenset[str], opens: bool) -> str:
    core = part.strip("()[]{}\"'“”‘’:,;.!?")
    if not core or any(ch.isdigit() or ch in "()[]" for ch in core) or core in acronyms:
        return part
    lower = part.lower()
    if not opens and core.lower() in _MINOR_WORDS:
        return lower
    start = next((i for i, ch in enumerate(lower) if ch.isalpha()), 0)
    return lower[:start] + lower[start:].capitalize()
