"""Every repository path the README and the docs name exists: a moved or deleted module, test or page
fails here instead of leaving a newcomer at a dead end.

A path is a link target, or an inline code span that contains a "/" or ends in .py, .md, .json or
.toml and names a Python module or starts at one of the repository's top-level entries (a package,
``tests/``, ``docs/``, ``README.md``...). URLs, globs, placeholders, API routes, ignored output
(``benchmarks/results/``) and what lives outside the repository are left alone: ``../shared``, ``~``,
the data directory (``uploads/``, ``$PRP_DATA_DIR/...``), files prp writes (``summary.json``), model
ids (``Qdrant/bm25``), MCP methods (``tools/list``). A link resolves from its page; a code span from
the repository root, from its page, or as the tail of a repository path (``mcp/server.py`` in the
page on ``ui/`` is ``ui/mcp/server.py``; ``front_matter.py`` among the loaders is
``corpus/loaders/front_matter.py``).
"""

from __future__ import annotations

import re
import subprocess
from functools import cache
from pathlib import Path, PurePosixPath

import pytest
from markdown_it import MarkdownIt

from tests.paths import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
PATH_LIKE = re.compile(r"^[\w.\-/]+$")
SUFFIXES = (".py", ".md", ".json", ".toml")
# MCP's methods share their first word with the `tools` and `prompts` packages.
MCP_METHODS = {"tools/list", "tools/call", "resources/list", "resources/read", "prompts/list", "prompts/get"}


@cache
def repository_files() -> tuple[PurePosixPath, ...]:
    """Tracked files and the folders holding them (ignored output such as .venv is not the repository)."""
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    files = {PurePosixPath(line) for line in listed.splitlines()}
    folders = {parent for path in files for parent in path.parents if parent != PurePosixPath(".")}
    return tuple(sorted(files | folders))


def named_paths(page: Path) -> list[tuple[str, str]]:
    """(kind, path) for each code span and link target of the page that looks like a repository path."""
    found = []
    for token in MarkdownIt().parse(page.read_text(encoding="utf-8")):
        for child in token.children or []:
            if child.type == "code_inline":
                found.append(("code", child.content))
            elif child.type in ("link_open", "image"):
                found.append(("link", str(child.attrs.get("href") or child.attrs.get("src") or "")))
    return [(kind, path) for kind, raw in found if (path := repository_path(kind, raw))]


def repository_path(kind: str, raw: str) -> str | None:
    text = raw.strip()
    if kind == "link":
        if "://" in text or text.startswith(("mailto:", "#")):
            return None
        text = text.split("#", 1)[0]
    text = text.split("::", 1)[0]
    if not text or not PATH_LIKE.match(text) or text.startswith(("/", "-", "~", "../shared")) or text in MCP_METHODS:
        return None
    if kind == "code":
        if "/" not in text and not text.endswith(SUFFIXES):
            return None
        if not text.endswith(".py") and PurePosixPath(text).parts[0] not in top_level_entries():
            return None
        if ignored(text):
            return None
    return text


@cache
def top_level_entries() -> frozenset[str]:
    return frozenset(path.parts[0] for path in repository_files())


def ignored(path: str) -> bool:
    return subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT).returncode == 0


def exists(page: Path, kind: str, path: str) -> bool:
    if (page.parent / path).exists():
        return True
    if kind == "link":
        return False
    if (ROOT / path).exists():
        return True
    tail = PurePosixPath(path.strip("/")).parts
    return any(candidate.parts[-len(tail) :] == tail for candidate in repository_files())


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_path_a_page_names_exists(page):
    missing = sorted({path for kind, path in named_paths(page) if not exists(page, kind, path)})
    assert not missing, f"{page.relative_to(ROOT)} names paths that do not exist: {missing}"


def anchors(page: Path) -> set[str]:
    """The anchors of a page's headings, as GitHub makes them (a repeated one gets -1, -2...)."""
    seen: dict[str, int] = {}
    tokens = MarkdownIt().parse(page.read_text(encoding="utf-8"))
    for opening, inline in zip(tokens, tokens[1:], strict=False):
        if opening.type != "heading_open":
            continue
        text = "".join(child.content for child in inline.children or [] if child.type in ("text", "code_inline"))
        slug = re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")
        seen[slug] = seen.get(slug, -1) + 1
        if seen[slug]:
            slug = f"{slug}-{seen[slug]}"
        seen.setdefault(slug, 0)
    return set(seen)


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_link_to_a_section_of_a_page_finds_it(page):
    broken = []
    for token in MarkdownIt().parse(page.read_text(encoding="utf-8")):
        for child in token.children or []:
            href = str(child.attrs.get("href") or "") if child.type == "link_open" else ""
            target, _, anchor = href.partition("#")
            if not anchor or "://" in target or not target.endswith(".md") and target:
                continue
            linked = (page.parent / target).resolve() if target else page
            if linked.exists() and anchor not in anchors(linked):
                broken.append(href)
    assert not broken, f"{page.relative_to(ROOT)} links to sections that do not exist: {sorted(set(broken))}"
