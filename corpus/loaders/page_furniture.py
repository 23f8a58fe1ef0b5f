"""Header lines a crawler or an exporter writes above a page's text: "Source: https://…",
"Fetched-At: 2026-…", "URL: …", "Retrieved: …". They say where and when the page was saved, not
what it says, so they are kept out of the blocks (which are embedded, searched and quoted); the
source URL is kept as the document's, and names it when nothing else does (its last path segment,
as a file's name would). A file that holds nothing else keeps them as its text: nothing is lost
silently."""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from urllib.parse import unquote, urlsplit

_FIELD = re.compile(
    r"^\s*(?:[-*]\s+)?\**(?P<key>source(?:[ _-]?url)?|url|original[ _-]?url|canonical(?:[ _-]?url)?|"
    r"fetched(?:[ _-]?(?:at|on))?|retrieved(?:[ _-]?(?:at|on|from))?|crawled(?:[ _-]?(?:at|on))?|"
    r"scraped(?:[ _-]?(?:at|on|from))?|saved(?:[ _-]?(?:at|on|from))?|captured(?:[ _-]?(?:at|on))?)\**\s*:\**\s+"
    r"(?P<value>\S.{0,300})$",
    re.IGNORECASE,
)
_URL = re.compile(r"https?://\S+")


def is_furniture_line(line: str) -> bool:
    """A crawler's header line: a source URL or a fetch date, "Key: value"."""
    match = _FIELD.match(line)
    if match is None:
        return False
    key, value = match.group("key").lower(), match.group("value")
    # "Source: the 2019 census" is a sentence about a source; a source field holds a URL.
    return bool(_URL.match(value)) if key.startswith(("source", "url", "original", "canonical")) else True


def source_url(lines: list[str]) -> str | None:
    """The first URL among furniture ``lines``."""
    for line in lines:
        match = _FIELD.match(line)
        if match and (url := _URL.match(match.group("value"))):
            return url.group(0).rstrip(">)].,")
    return None


def url_title(url: str) -> str | None:
    """A title from a page's URL: its last meaningful path segment, words spaced
    ("…/docs/what-is-acme-router.html" -> "What is acme router"); None for a bare site."""
    path = PurePosixPath(unquote(urlsplit(url).path))
    segments = [s for s in path.parts if s not in ("/", "") and s.lower() not in ("index.html", "index.htm", "index")]
    if not segments:
        return None
    stem = PurePosixPath(segments[-1]).stem if "." in segments[-1] else segments[-1]
    words = re.sub(r"[-_\s]+", " ", stem).strip()
    if not words or not any(ch.isalpha() for ch in words):
        return None
    return words[0].upper() + words[1:]
