"""Running headers and footers and bare page numbers, found across the whole document and dropped."""

from __future__ import annotations

import math
import re

from corpus.loaders.pdf.elements import PageData, Segment

# Fraction of page height at the top and bottom where running headers, footers and page numbers live.
MARGIN_ZONE = 0.12
PAGE_NUMBER = re.compile(
    r"^(?:page\s+)?(?:\d{1,4}|[ivxlcdm]{1,7})(?:\s*(?:/|of)\s*\d{1,4})?$|^[-\u2013\u2014]\s*\d{1,4}\s*[-\u2013\u2014]$",
    re.IGNORECASE,
)
_LARGE = "-large"  # the zone of margin text larger than the body's


# ---------------------------------------------------------------------------------------------
# Document level: running headers and footers, page numbers


def strip_headers_footers(pages: list[PageData], title: str | None, body_size: float) -> set[str]:
    """Drop running headers and footers (the same text, digits aside, at the same height in the top
    or bottom margin of at least 20% of the pages, and of two at least; or the document's title in
    the margin of a later page) and bare page numbers. Headings are not headers: text larger than
    the body's counts only when it repeats exactly on at least half of the pages (a company name or
    logo set large at the top of every page), and bold text only when it repeats exactly (not
    "1. Results" and "2. Methods" that happen to open two pages).

    Returns the running headers' and footers' texts (``text_key``): they name a publisher, a
    company or a chapter, never the document, even where they are its metadata's title."""
    title_key = text_key(title) if title else None
    zones = _margin_texts(pages, title_key, body_size)
    drop: set[int] = set()
    running: set[str] = set()
    few = len(pages) < 2
    threshold = 10**9 if few else max(2, math.ceil(0.2 * len(pages)))
    large_threshold = 10**9 if few else max(2, math.ceil(0.5 * len(pages)))
    for (zone, _), hits in zones.items():
        if zone == "title":
            drop.update(id(s) for _, s in hits)
            continue
        found = _running(hits, large_threshold if zone.endswith(_LARGE) else threshold)
        drop.update(id(s) for _, s in found)
        running.update(text_key(s.text) for _, s in found)
    for p in pages:
        p.segments = [s for s in p.segments if id(s) not in drop and not _is_page_number(s, p)]
    return running


def text_key(text: str) -> str:
    """Text compared case- and spacing-blind."""
    return " ".join(text.split()).lower()


def _margin_texts(
    pages: list[PageData], title_key: str | None, body_size: float
) -> dict[tuple[str, str], list[tuple[int, Segment]]]:
    """Segments in the top and bottom margins, by zone and text, with their page index: body-size or
    smaller text with digits masked, larger text exactly (under the zone's name + ``_LARGE``); and
    under ("title", "") the title repeated on a later page."""
    zones: dict[tuple[str, str], list[tuple[int, Segment]]] = {}
    for pi, p in enumerate(pages):
        for s in p.segments:
            zone = "top" if p.rel(s.bottom) < MARGIN_ZONE else "bottom" if p.rel(s.top) > 1 - MARGIN_ZONE else ""
            if not zone:
                continue
            text = text_key(s.text)
            if s.ref_size > body_size + 0.5:
                zones.setdefault((zone + _LARGE, text), []).append((pi, s))
                continue
            key = re.sub(r"\d+", "#", text)
            zones.setdefault((zone, key), []).append((pi, s))
            if pi and text == title_key:
                zones.setdefault(("title", ""), []).append((pi, s))
    return zones


def _running(hits: list[tuple[int, Segment]], threshold: int) -> list[tuple[int, Segment]]:
    """The hits at the text's usual height when they repeat on enough pages (and are not headings)."""
    tops = sorted(s.top for _, s in hits)
    median = tops[len(tops) // 2]
    near = [(pi, s) for pi, s in hits if abs(s.top - median) <= 4]
    if len({pi for pi, _ in near}) < threshold:
        return []
    exact = len({" ".join(s.text.split()) for _, s in near}) == 1
    if not exact and any(2 * sum(len(w.text) for w in s.words if w.bold) > s.nchars for _, s in near):
        return []
    return near


def _is_page_number(s: Segment, p: PageData) -> bool:
    """A bare number alone on its row, in the margin zone or as the page's outermost line."""
    if s.nchars > 12 or not PAGE_NUMBER.match(s.text.strip()):
        return False
    in_zone = p.rel(s.bottom) < MARGIN_ZONE or p.rel(s.top) > 1 - MARGIN_ZONE
    if not in_zone and 0.25 < p.rel(s.top) < 0.75:
        return False
    below = above = False
    for other in p.segments:
        if other is s:
            continue
        if min(other.bottom, s.bottom) - max(other.top, s.top) > 0:
            return False  # a number beside other text is a table cell or a label, not a page number
        below = below or other.top >= s.bottom
        above = above or other.bottom <= s.top
    return in_zone or not below or not above
