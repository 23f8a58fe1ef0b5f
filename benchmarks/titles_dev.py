"""Titles and authors on titles-dev: 39 real documents nobody tuned the loaders for (papers from many
templates, reports, handbooks, a thesis, a manual, web pages, blog posts and READMEs), each with a
hand-checked title, author list and kind in ``../shared/data/titles-dev/truth.json``.

Every file is parsed as an ingest does (``parse_file``); printed per kind of document: how many titles
are right (case, punctuation and spacing ignored, ``title_variants`` accepted) and on how many documents
that name authors the set of family names is exact, then every miss. Exits 1 when either figure falls
below the floor recorded in docs/ingest.md, so a loader change that costs titles or authors on documents
nobody tuned for is seen (parsing takes about 100 s, too long for the unit suite).

    python benchmarks/titles_dev.py
"""

from __future__ import annotations

import json
import sys
import unicodedata
from collections import Counter
from pathlib import Path

from common import ROOT, save, shared_path

sys.path.insert(0, str(ROOT))

from corpus.loaders.authors import family_names  # noqa: E402
from corpus.parsing import parse_file  # noqa: E402

# Floors a little under what the loaders measure today (38/39 and 31/34; docs/ingest.md#titles).
MIN_TITLES_RIGHT = 0.95
MIN_FAMILY_NAMES_EXACT = 0.88


def _key(text: str) -> str:
    """Text compared ignoring case, punctuation, spacing and compatibility forms ("F²" = "F2")."""
    return "".join(ch for ch in unicodedata.normalize("NFKC", text).casefold() if ch.isalnum())


def results() -> list[dict]:
    folder = shared_path("titles-dev")
    truth = json.loads((folder / "truth.json").read_text(encoding="utf-8"))
    rows = []
    for entry in truth:
        document = parse_file(Path(folder, "docs", entry["file"])).document
        titles = {_key(t) for t in [entry["title"], *entry.get("title_variants", [])]}
        found = Counter(_key(name) for name in family_names(document.bibliography.authors))
        rows.append(
            {
                "file": entry["file"],
                "kind": entry["kind"],
                "title": document.title,
                "title_right": _key(document.title) in titles,
                "names_authors": bool(entry["family_names"]),
                "authors": document.bibliography.authors,
                "families_exact": set(found) == {_key(name) for name in entry["family_names"]},
                "truth": entry,
            }
        )
    return rows


def main() -> int:
    rows = results()
    for kind in sorted({r["kind"] for r in rows}):
        of_kind = [r for r in rows if r["kind"] == kind]
        named = [r for r in of_kind if r["names_authors"]]
        print(
            f"{kind:10} titles right {sum(r['title_right'] for r in of_kind)}/{len(of_kind)}"
            f"   family-name sets exact {sum(r['families_exact'] for r in named)}/{len(named)}"
        )
    named = [r for r in rows if r["names_authors"]]
    titles_right = sum(r["title_right"] for r in rows)
    families_exact = sum(r["families_exact"] for r in named)
    print(f"{'all':10} titles right {titles_right}/{len(rows)}   family-name sets exact {families_exact}/{len(named)}")
    for r in rows:
        if not r["title_right"]:
            print(f"  title  {r['file']}: {r['title']!r} (truth {r['truth']['title']!r})")
    for r in named:
        if not r["families_exact"]:
            print(f"  author {r['file']}: {r['authors']} (truth {r['truth']['family_names']})")
    unnamed_right = sum(not r["authors"] for r in rows if not r["names_authors"])
    print(f"  documents naming no author left without one: {unnamed_right}/{len(rows) - len(named)}")
    save(
        "titles_dev",
        {
            "titles_right": titles_right,
            "documents": len(rows),
            "families_exact": families_exact,
            "naming_authors": len(named),
        },
    )
    below = titles_right < MIN_TITLES_RIGHT * len(rows) or families_exact < MIN_FAMILY_NAMES_EXACT * len(named)
    if below:
        print("below the floor recorded in docs/ingest.md")
    return 1 if below else 0


if __name__ == "__main__":
    sys.exit(main())
