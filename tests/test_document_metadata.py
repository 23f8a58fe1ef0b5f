"""A document's bibliography in the registry: stored from the loaders, and the fields a person or an
import set kept over extraction through every later parse; shown and edited through the core
(``prp docs``, ``prp docs edit``, the chat's Library table)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from pydantic import ValidationError

from corpus import parser_versions
from corpus.ingest import Outcome
from corpus.models import MetadataOverride
from corpus.retrieval import SearchFilters
from tools.hybrid_search import hybrid_search
from ui.chat.library_tab import COLUMNS, documents_table, edit_cells
from ui.cli.main import main as cli_main
from ui.core.local import LocalPortal

PAPER = """---
authors: [Lucia Fernhill, Gregor Abernathy]
journal: Journal of Urban Ecology
doi: 10.1234/jue.2019.77
year: 2019
---

# Rooftop Sedum Under Drought

## Findings

Sedum mats on shallow substrates lost most of their cover in the second dry summer of the trial,
while mats on deeper substrates kept their cover and recovered within weeks of the first autumn rain.
"""


@pytest.fixture
def paper(tmp_path: Path) -> Path:
    path = tmp_path / "docs" / "sedum.md"
    path.parent.mkdir()
    path.write_text(PAPER)
    return path


def test_the_registry_keeps_what_the_loaders_extract(make_library, paper: Path):
    library = make_library()
    library.ingest([paper])
    (doc,) = library.registry.documents()
    assert doc.bibliography.authors == ["Lucia Fernhill", "Gregor Abernathy"]
    assert doc.bibliography.doi == "10.1234/jue.2019.77"
    assert doc.overridden == []


def test_fields_set_by_a_person_win_over_extraction_on_every_later_parse(
    make_library, paper: Path, monkeypatch: pytest.MonkeyPatch, backend: str | None
):
    library = make_library(database_url=backend)
    library.ingest([paper])
    (doc,) = library.registry.documents()
    edit = MetadataOverride(authors=["Lucia Fernhill", "Gregor Abernathy", "Ana de la Cruz"], year=2020, doi=None)
    edited = library.edit_metadata(doc.doc_id, edit)
    assert edited is not None and edited.year == 2020 and edited.bibliography.doi is None
    assert edited.overridden == ["year", "authors", "doi"]
    assert edited.title == doc.title  # a field not given is left as extracted
    assert _found_in(library, 2020) and not _found_in(library, 2019)  # the year filter sees the edit

    # A newer loader parses the same bytes again: the edit stays.
    monkeypatch.setattr(parser_versions, "MARKDOWN", parser_versions.MARKDOWN + 1)
    assert library.ingest([paper]).refreshed == 1
    (refreshed,) = library.registry.documents()
    assert refreshed.bibliography.authors[-1] == "Ana de la Cruz" and refreshed.year == 2020
    assert refreshed.bibliography.doi is None
    assert _found_in(library, 2020) and not _found_in(library, 2019)

    # The file changes: its new version (a new document id) keeps the edit too.
    paper.write_text(PAPER + "\nA later note on irrigation.\n")
    assert library.ingest([paper]).count(Outcome.OK) == 1
    (changed,) = library.registry.documents()
    assert changed.doc_id != doc.doc_id
    assert changed.year == 2020 and changed.overridden == ["year", "authors", "doi"]

    # A re-parse a crash interrupted is retired by recovery (as here); ingested again, it has its edits.
    library.registry.retire(changed.doc_id)
    assert library.ingest([paper]).count(Outcome.OK) == 1
    (recovered,) = library.registry.documents()
    assert recovered.doc_id == changed.doc_id and recovered.overridden == ["year", "authors", "doi"]

    # Deleted, its edits go with it.
    library.delete(changed.doc_id)
    with library.database.connect() as db:
        assert db.execute("SELECT COUNT(*) FROM metadata_overrides").fetchone()[0] == 0


def _found_in(library, year: int) -> bool:
    filters = SearchFilters(year_min=year, year_max=year)
    return bool(hybrid_search(library, "sedum cover in dry summers", k=3, filters=filters))


def test_bad_metadata_is_refused_and_changes_nothing(make_library, paper: Path):
    library = make_library()
    library.ingest([paper])
    (doc,) = library.registry.documents()
    with pytest.raises(ValueError, match="not a DOI"):
        library.registry.override_metadata(doc.doc_id, MetadataOverride(year=2001, doi="see the journal"))
    with pytest.raises(ValidationError):
        MetadataOverride(title="  ")
    with pytest.raises(ValidationError):
        MetadataOverride(year=19)
    assert library.registry.documents() == [doc]
    assert library.registry.override_metadata("no-such-doc", MetadataOverride(year=2001)) is None
    normalised = library.registry.override_metadata(doc.doc_id, MetadataOverride(doi="https://doi.org/10.5555/ABC"))
    assert normalised is not None and normalised.bibliography.doi == "10.5555/abc"


def test_a_registry_from_before_bibliographies_gains_them_on_the_next_ingest(make_library, paper: Path):
    library = make_library()
    library.ingest([paper])
    library.close()
    with sqlite3.connect(library.settings.storage.registry_path) as db:
        db.execute("ALTER TABLE documents DROP COLUMN bibliography")
        db.execute("UPDATE documents SET loader_version = 1")
    reopened = make_library()
    (doc,) = reopened.registry.documents()
    assert doc.bibliography.authors == []
    assert reopened.ingest([paper]).refreshed == 1
    (doc,) = reopened.registry.documents()
    assert doc.bibliography.authors == ["Lucia Fernhill", "Gregor Abernathy"]


def test_prp_docs_edit_and_the_library_table_show_the_authors(make_library, paper: Path, monkeypatch, capsys):
    library = make_library()
    library.ingest([paper])
    (doc,) = library.registry.documents()
    library.close()  # the embedded index admits one process, or one opening, at a time: the CLI's now
    del library.__dict__["store"]
    monkeypatch.setenv("PRP_DATA_DIR", str(library.settings.storage.data_dir))
    monkeypatch.setenv("PRP_MODELS_DIR", str(library.settings.models_dir))
    authors = ["--author", "Lucia Fernhill", "--author", "Gregor Abernathy", "--author", "Ana de la Cruz"]
    assert cli_main(["docs", "edit", doc.doc_id, *authors, "--year", "2021", "--venue", ""]) == 0
    shown = capsys.readouterr().out
    assert "Lucia Fernhill; Gregor Abernathy; Ana de la Cruz" in shown and "2021" in shown
    assert "set by hand (kept over extraction): year, authors, venue" in shown
    assert cli_main(["docs"]) == 0
    assert "2021  Rooftop Sedum Under Drought  \u00b7 Fernhill et al." in capsys.readouterr().out
    assert cli_main(["docs", "--json"]) == 0
    (listed,) = json.loads(capsys.readouterr().out)
    assert listed["bibliography"]["venue"] is None and listed["overridden"] == ["year", "authors", "venue"]
    with LocalPortal(library) as portal:
        (row,) = documents_table(portal)
        assert row[COLUMNS.index("Authors")] == "Lucia Fernhill; Gregor Abernathy; Ana de la Cruz"
        assert row[COLUMNS.index("Status")] == "edited" and row[COLUMNS.index("Year")] == "2021"
        # The Library tab's filter, and an edit in place through the same override as prp docs edit.
        assert documents_table(portal, "fernhill 2021") == [row] and documents_table(portal, "fernhill 1999") == []
        edited = [*row]
        edited[COLUMNS.index("Year")], edited[COLUMNS.index("Venue")] = "2020", "Urban Ecology Letters"
        (after,), log = edit_cells(portal, [edited], "")
        assert (after[COLUMNS.index("Year")], after[COLUMNS.index("Venue")]) == ("2020", "Urban Ecology Letters")
        assert "venue, year saved" in log and library.registry.document(doc.doc_id).year == 2020
        bad = [*after]
        bad[COLUMNS.index("Year")] = "20x1"
        (reverted,), log = edit_cells(portal, [bad], "")
        assert reverted == after and "Not saved" in log  # refused as prp docs edit refuses it
        # Authors cleared by hand: the person said it names none, so nothing needs review (the browser
        # test sees "needs review: authors" on documents whose authors could not be read).
        library.registry.override_metadata(doc.doc_id, MetadataOverride(authors=[]))
        (cleared,) = documents_table(portal)
        assert cleared[COLUMNS.index("Status")] == "edited"

    # Bad input: a clear error, exit 2, nothing changed.
    before = library.registry.documents()
    for bad in (["--year", "20x1"], ["--doi", "see the journal"], ["--title", " "], ["--type", "blog"], []):
        assert cli_main(["docs", "edit", doc.doc_id, *bad]) == 2
        assert capsys.readouterr().err.startswith("prp: error: ")
    assert cli_main(["docs", "edit", "no-such-doc", "--year", "2001"]) == 2
    assert "no document no-such-doc" in capsys.readouterr().err
    assert library.registry.documents() == before
    # The kind of work, by any of its names (BibTeX's, BibLaTeX's, CSL's), kept as BibTeX's.
    assert cli_main(["docs", "edit", doc.doc_id, "--type", "Thesis", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["bibliography"]["entry_type"] == "phdthesis"


def test_title_source_corporate_authors_and_authors_needing_review(make_library, tmp_path: Path, monkeypatch, capsys):
    """The registry records where each title came from and ``prp docs`` shows it; a corporate author
    is one name through an edit ("{Gemma Team}" stored as "Gemma Team", shown whole, never "Team et
    al."); a document whose authors could not be read says so until a person sets or clears them."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "sedum.md").write_text(PAPER)
    (folder / "notes.md").write_text("Sedum needs little water.\n\nIt survives dry summers on thin substrates.\n")
    library = make_library()
    library.ingest(sorted(folder.iterdir()))
    docs = {Path(d.path).name: d for d in library.registry.documents()}
    assert (docs["sedum.md"].title_source, docs["notes.md"].title_source) == ("heading", "file name")
    assert not docs["sedum.md"].authors_need_review and docs["notes.md"].authors_need_review
    library.close()
    del library.__dict__["store"]
    monkeypatch.setenv("PRP_DATA_DIR", str(library.settings.storage.data_dir))
    monkeypatch.setenv("PRP_MODELS_DIR", str(library.settings.models_dir))
    assert cli_main(["docs"]) == 0
    listed = capsys.readouterr().out
    assert "Rooftop Sedum Under Drought  · Fernhill and Abernathy  [title: heading]" in listed
    assert "Notes  · authors: needs review  [title: file name]" in listed

    notes = docs["notes.md"].doc_id
    assert cli_main(["docs", "edit", notes, "--author", "{Gemma Team}", "--author", "Jane Roe"]) == 0
    assert "Gemma Team; Jane Roe" in capsys.readouterr().out
    assert cli_main(["docs"]) == 0
    assert "Notes  · Gemma Team and Roe  [title: file name]" in capsys.readouterr().out
    assert cli_main(["docs", "edit", notes, "--author", "Gemma Team", "--title", "Sedum notes"]) == 0
    assert "  from   edited" in capsys.readouterr().out
    assert cli_main(["docs", "--json"]) == 0
    edited = next(d for d in json.loads(capsys.readouterr().out) if d["doc_id"] == notes)
    assert edited["bibliography"]["authors"] == ["Gemma Team"] and edited["title_source"] == "edited"
    # Cleared by hand: the person said there is no author, so nothing needs review.
    assert cli_main(["docs", "edit", notes, "--author", ""]) == 0
    capsys.readouterr()
    assert cli_main(["docs"]) == 0
    assert "Sedum notes  [title: edited]" in capsys.readouterr().out
