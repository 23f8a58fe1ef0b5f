"""A PDF's authors, venue, DOI and arXiv id, from its metadata and the layout of its first page.

Authors come from the first of these sources that gives any, in order of trust:

1. The metadata's /Author, when every part of it is a personal name (templates and programs fill it
   with "Microsoft Office User", "admin" or a company's name, and then it is ignored).
2. The citation the paper suggests for itself on page 1 ("ACM Reference Format: A, B, and C. 2023.
   Title ..."): the authors' own list, in their order.
3. The author lines of page 1: the lines between the title and the first heading or paragraph of
   prose. They are cut into pieces at commas, "and", footnote and affiliation marks (†, ∗, α, ¹)
   and wide gaps (authors set side by side in a grid), and a piece is a name when it reads as one
   (``corpus.loaders.authors.is_person_name``) and is set in the type of the first name found:
   affiliations and e-mail addresses, which often share the names' lines, are set smaller or in
   another font, and name institutions. A one-word name between two names ("Xu, Mausam, and
   Etzioni") is a mononym. Author lines sit in the top half of the page, or anywhere on a cover
   sheet (a page 1 without prose, where the names may stand at the foot).
4. A corporate author, when no person is named: the metadata's /Author when it names an
   organisation page 1 prints ("U.S. Government Accountability Office, http://www.gao.gov"), the
   organisation whose name leads the title block ("<Company>" over "<Quarterly report>"), or a
   line under the title that is one organisation's name alone ("DeepSeek-AI" over its e-mail).

A name of three words or more whose family name an e-mail address on page 1 spells in full
("e.f.tjong.kim.sang@…") or in part ("rrodriguez@…" for "Ivan Rodriguez Montoya") is stored as
"Family, Given" (``corpus.loaders.authors.families_from_emails``).

The venue is a proceedings line, a journal's header or name on page 1 (running headers included)
or in the metadata's /Subject, else "arXiv preprint" for a paper that carries arXiv's side stamp.
The DOI is the first in the metadata or on page 1 (its reference list excluded); the arXiv id is
the side stamp's, else the first one page 1 or the metadata names.
"""

from __future__ import annotations

import re

from corpus.loaders.authors import (
    NON_NAME_WORDS,
    ORGANISATION_WORDS,
    PARTICLES,
    families_from_emails,
    family_names,
    has_latin_letter,
    is_organisation_name,
    is_person_name,
    is_suffix,
    metadata_authors,
    name_case,
    split_names,
)
from corpus.loaders.identifiers import find_arxiv_id, find_doi
from corpus.loaders.pdf.elements import Line, PageData, Word, base_font
from corpus.loaders.pdf.headings import KNOWN_HEADINGS, NUMBERED_HEADING
from corpus.loaders.pdf.metadata import meta_text
from corpus.loaders.venues import find_venue
from corpus.models import Bibliography

# "ACM Reference Format: Names. 2023. Title." and the like: the names run up to ". <year>.".
_SELF_CITATION = re.compile(
    r"(?:Reference Format|Cite (?:this|as)|To cite this (?:article|paper|chapter)|How to cite|Citation)\s*:?\s+"
    r"(?P<names>[^.]+(?:\.[^.\d][^.]*?)*?)\.?\s+\(?(?:19|20)\d\d[a-z]?\)?\.",
    re.IGNORECASE,
)
# Author lines end where prose starts: a line with this many words in lower case is a sentence.
PROSE_WORDS = 6
# Words further apart than this many ems belong to different names (authors set in a grid).
NAME_GAP_EMS = 0.8
# A word this much smaller than the line's type is a raised mark ("Kyle Lo a", "Lo 1").
MARK_SIZE_RATIO = 0.85
# Author lines sit in the top half of page 1.
MAX_ZONE_REL = 0.5


def pdf_bibliography(
    meta: dict,
    page: PageData | None,
    title_ids: set[int],
    stamp: str,
    page_texts: list[str],
    title_lead: str | None = None,
) -> Bibliography:
    """``page`` is page 1 with its lines built; ``page_texts`` its text outside the reference list,
    running headers and footers first (a journal prints its name there); ``title_lead`` the
    organisation's name that leads the title block, if any."""
    subject = meta_text(meta, "Subject")
    metadata_texts = [meta_text(meta, key) for key in sorted(meta) if isinstance(meta[key], str | bytes)]
    arxiv_id = find_arxiv_id([stamp]) or find_arxiv_id(page_texts) or find_arxiv_id(metadata_texts)
    venue = find_venue(page_texts + [subject])
    if venue is None and find_arxiv_id([stamp]):
        venue = "arXiv preprint"
    return Bibliography(
        authors=families_from_emails(_authors(meta, page, title_ids, page_texts, title_lead), page_texts),
        venue=venue,
        doi=find_doi(metadata_texts) or find_doi(page_texts),
        arxiv_id=arxiv_id,
    )


def _authors(
    meta: dict, page: PageData | None, title_ids: set[int], page_texts: list[str], title_lead: str | None
) -> list[str]:
    if names := _printed(metadata_authors(meta_text(meta, "Author")), page_texts):
        # /Author often names only the first or the last author: page 1's fuller list wins.
        laid_out = layout_authors(page, title_ids) if page is not None else []
        if set(family_names(names)) < set(family_names(laid_out)):
            return laid_out
        return names
    for text in page_texts:
        match = _SELF_CITATION.search(" ".join(text.split()))
        if match and (names := split_names(match.group("names"))):
            return names
    if page is not None and (names := layout_authors(page, title_ids)):
        return names
    return _corporate_author(meta_text(meta, "Author"), page, title_ids, page_texts, title_lead)


def _corporate_author(
    raw: str, page: PageData | None, title_ids: set[int], page_texts: list[str], title_lead: str | None
) -> list[str]:
    """An organisation as the author of a document that names no person (see the module's docstring)."""
    printed = _loose(" ".join(page_texts))
    for part in re.split(r"[,;]", re.sub(r"\S*(?:https?:|www\.|@)\S*", " ", raw)):
        part = " ".join(part.split())
        if is_organisation_name(part) and _loose(part) in printed:
            return [part]
    if title_lead and is_organisation_name(title_lead):
        return [title_lead]
    byline = _line_under_title(page, title_ids) if page is not None else None
    return [byline] if byline else []


def _line_under_title(page: PageData, title_ids: set[int]) -> str | None:
    """The line under the title when it is one organisation's name alone and the next line is its
    address ("DeepSeek-AI" over "research@deepseek.com"), not a subtitle."""
    below = _lines_below_title(page, title_ids)
    if len(below) < 2 or not re.search(r"@|https?:|www\.", below[1].text):
        return None
    text = below[0].text.strip()
    words = text.split()
    if not words or len(words) > MAX_CORPORATE_WORDS or re.search(r"\d|[,:;]", text):
        return None
    if len(words) == 1:
        # One word names a body only when it is not a word of the language: "DeepSeek-AI", "OpenAI".
        word = words[0]
        inner_capital = any(ch.isupper() for ch in word[1:]) and any(ch.islower() for ch in word)
        if word.lower() in NON_NAME_WORDS or not (inner_capital or "-" in word.strip("-")):
            return None
        return word
    return text if is_organisation_name(text) else None


# A corporate byline is a short name ("Cancer Council Australia", "Gemma Team").
MAX_CORPORATE_WORDS = 6


def _lines_below_title(page: PageData, title_ids: set[int]) -> list[Line]:
    """Page 1's lines under its title (none when it has no title), top to bottom."""
    title = [ln for ln in page.lines if id(ln) in title_ids]
    if not title:
        return []
    below = max(ln.bottom for ln in title)
    return sorted(
        (ln for ln in page.lines if id(ln) not in title_ids and ln.table is None and ln.top >= below - 1),
        key=lambda ln: (ln.top, ln.x0),
    )


def _printed(names: list[str], page_texts: list[str]) -> list[str]:
    """``names`` when page 1 prints every one's family name; none when it does not (a template's
    macro glued to the name, "Patrick Flickpdftitle", or another paper's /Author left behind)."""
    printed = _loose(" ".join(page_texts))
    return names if all(_loose(family) in printed for family in family_names(names)) else []


def _loose(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


# ---------------------------------------------------------------------------------------------
# Author lines by layout


def layout_authors(page: PageData, title_ids: set[int]) -> list[str]:
    """The names on the lines between page 1's title (``title_ids``) and its first heading or prose."""
    return _names_in_first_style(_author_pieces(page, _lines_below_title(page, title_ids)))


# A piece of the author lines: its text, its type, and whether it is a name (True), one word that may
# be a mononym (None) or something else (False).
_Piece = tuple[str, tuple[float, str], bool | None]


def _author_pieces(page: PageData, lines: list[Line]) -> list[_Piece]:
    """Every piece of the author lines in order, down to the first heading, prose or the zone's end."""
    zone = 1.0 if not any(_is_prose(ln.text) for ln in page.lines) else MAX_ZONE_REL
    seq: list[_Piece] = []
    open_end: str | None = None  # the piece a line ended on, unclosed (the last in ``seq``)
    for ln in lines:
        if page.rel(ln.top) > zone or _ends_author_lines(ln.text):
            break
        if _CAPTION.match(ln.text):
            open_end = None
            continue
        words = _glued(sorted(ln.words, key=lambda w: w.x0))
        pieces = _pieces(words, ln.size)
        _add_line_pieces(seq, pieces, words, ln.size, open_end)
        open_end = _open_end(words, pieces, ln.size)
    return seq


def _add_line_pieces(
    seq: list[_Piece], pieces: list[list[Word]], words: list[Word], size: float, open_end: str | None
) -> None:
    """One line's pieces onto ``seq``: the first may finish the name the line above left open, a
    suffix ("John Roe, Jr.") joins the name before it."""
    for i, piece in enumerate(pieces):
        text = " ".join(_strip_word(w.text) for w in piece)
        if i == 0 and open_end is not None and _rejoined_cut_name(seq, open_end, text, piece, words[0], size):
            continue
        if seq and seq[-1][2] is True and is_suffix(text):
            seq[-1] = (f"{seq[-1][0]} {text}", seq[-1][1], True)
            continue
        kind = True if is_person_name(text) else (None if _may_be_mononym(text) else False)
        seq.append((name_case(text) if kind else text, _style(piece), kind))


def _rejoined_cut_name(
    seq: list[_Piece], open_end: str, text: str, piece: list[Word], first: Word, size: float
) -> bool:
    """Whether ``text`` finishes a name the line end cut ("Benjamin Charles Germain" / "Lee", "Paulo
    Ro-" / "cha"): if so the whole name replaces the open piece on ``seq``."""
    if _is_separator(first, size):
        return False
    joined = _rejoined(open_end, text)
    if not is_person_name(joined) or is_person_name(text):
        return False
    seq.pop()
    seq.append((name_case(joined), _style(piece), True))
    return True


def _open_end(words: list[Word], pieces: list[list[Word]], size: float) -> str | None:
    """The piece a line ends on when no separator or comma closes it: the next line may finish it."""
    last = words[-1] if words else None
    closed = last is None or _is_separator(last, size) or re.search(r"[,;][^\w]*$", last.text)
    if closed or not pieces:
        return None
    raw = " ".join(w.text for w in pieces[-1])
    return " ".join(_strip_word(w.text) for w in pieces[-1]) + ("-" if raw.endswith("-") else "")


def _names_in_first_style(seq: list[_Piece]) -> list[str]:
    """The names (and mononyms between names) in the type of the first: an affiliation or a note in
    another type is not an author, however name-like."""
    names = [
        (text, style) for i, (text, style, kind) in enumerate(seq) if kind or (kind is None and _between_names(seq, i))
    ]
    if not names:
        return []
    style = names[0][1]
    kept: list[str] = []
    for name, name_style in names:
        if _same_style(name_style, style) and name not in kept:
            kept.append(name)
    return kept


# A figure's or a table's caption, which may stand beside the author lines in another column.
_CAPTION = re.compile(r"^(?:Figure|Fig\.|Table|Exhibit)\s*\d", re.IGNORECASE)


def _may_be_mononym(text: str) -> bool:
    """One capitalised word that may be a person's only name ("Mausam"): not an acronym, a particle
    or a word of an institution."""
    if len(text.split()) != 1 or len(text) < 3 or not text.isalpha():
        return False
    key = text.lower()
    return text[0].isupper() and not text.isupper() and key not in NON_NAME_WORDS | ORGANISATION_WORDS | PARTICLES


def _between_names(seq: list[_Piece], i: int) -> bool:
    """Whether the piece at ``i`` stands between two names in their type (a mononym in a list)."""
    if not 0 < i < len(seq) - 1:
        return False
    before, here, after = seq[i - 1], seq[i], seq[i + 1]
    return before[2] is True and after[2] is True and _same_style(before[1], here[1]) and _same_style(after[1], here[1])


def _glued(words: list[Word]) -> list[Word]:
    """``words`` with the parts of one word put together where a change of font split it ("For" "ă"
    "scu" -> "Forăscu"): letters of about the line's size with no gap between them."""
    out: list[Word] = []
    for w in words:
        prev = out[-1] if out else None
        if (
            prev is not None
            and w.x0 - prev.x1 < GLUED_GAP_EMS * max(w.size, prev.size)
            and min(w.size, prev.size) >= MARK_SIZE_RATIO * max(w.size, prev.size)
            and prev.text[-1:].isalpha()
            and w.text[:1].isalpha()
        ):
            out[-1] = Word(
                prev.text + w.text, prev.x0, w.x1, prev.top, prev.bottom, prev.baseline, prev.size, prev.font
            )
        else:
            out.append(w)
    return out


# Two runs of letters closer than this many ems are one word.
GLUED_GAP_EMS = 0.05


def _rejoined(head: str, rest: str) -> str:
    """A name cut at a line end put together: a hyphen the break added goes ("Ro-" + "cha")."""
    return f"{head[:-1]}{rest}" if head.endswith("-") else f"{head} {rest}"


def _ends_author_lines(text: str) -> bool:
    """A heading ("Abstract", "1 Introduction", "KEYWORDS") or a line of prose."""
    text = " ".join(text.split())
    key = text.lower().rstrip(":.")
    if key in KNOWN_HEADINGS or key.split(" ")[0] in {"abstract", "summary", "keywords"}:
        return True
    numbered = NUMBERED_HEADING.match(text)
    if numbered and numbered.group(1).lower().rstrip(":.") in KNOWN_HEADINGS:
        return True  # "1 Introduction", "I. INTRODUCTION"
    if numbered and text[0].isdigit() and len(text.split()) <= 8 and not any(ch in text for ch in "@,"):
        return True  # "2 Green Roofs in Cities"; a letter may open a subtitle ("A Review of ...")
    return _is_prose(text)


def _is_prose(text: str) -> bool:
    return sum(1 for w in text.split() if w[:1].islower() and w.isalpha()) >= PROSE_WORDS


def _strip_word(word: str) -> str:
    """A word without the marks glued to it ("Whitcombe*," -> "Whitcombe"; "S." stays)."""
    return re.sub(r"^[^\w]+|[^\w.]+$", "", word)


def _is_separator(w: Word, line_size: float) -> bool:
    """A word that ends a name: a footnote or affiliation mark (no Latin letter, or raised and small),
    "and", or one ending in a comma or semicolon (it belongs to the name before)."""
    if not has_latin_letter(w.text) or w.text.lower() in ("and", "&"):
        return True
    return w.size < MARK_SIZE_RATIO * line_size and len(w.text) <= 2


def _pieces(words: list[Word], line_size: float) -> list[list[Word]]:
    """A line's words, left to right, cut at separators, wide gaps and changes of type."""
    pieces: list[list[Word]] = []
    current: list[Word] = []
    for w in words:
        if _is_separator(w, line_size):
            pieces.append(current)
            current = []
            continue
        if current:
            prev = current[-1]
            wide = w.x0 - prev.x1 > NAME_GAP_EMS * max(w.size, prev.size)
            if wide or not _same_style(_style([w]), _style([prev])):
                pieces.append(current)
                current = []
        current.append(w)
        if re.search(r"[,;][^\w]*$", w.text):
            pieces.append(current)
            current = []
    pieces.append(current)
    return [p for p in pieces if p]


def _style(words: list[Word]) -> tuple[float, str]:
    return max(w.size for w in words), base_font(words[0].font)


def _same_style(a: tuple[float, str], b: tuple[float, str]) -> bool:
    return abs(a[0] - b[0]) < 0.3 and a[1] == b[1]
