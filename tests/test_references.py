"""Importing a reference manager's export (``prp ingest --bib``): BibTeX and CSL-JSON read into
entries, attachments found, the plan of what to ingest, and the entry's metadata laid over a
document's. The ingest itself, through the CLI, is in tests/test_import_ingest.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from corpus.author_names import display_name
from corpus.errors import ReferenceImportError
from corpus.models import Bibliography, DocType, Document
from corpus.references.attachments import attached_paths, attachment
from corpus.references.bibtex import read_bibtex
from corpus.references.csl_json import read_csl_json
from corpus.references.entries import EntryProblem, ReferenceEntry, year_of
from corpus.references.plan import plan_import

BIB = r"""
@string{jue = "Journal of Urban {Ecology}"}
@article{ozturk2021,
  author = {{\"O}zt{\"u}rk, Ay{\c{s}}e and van der Berg, Jan and {Barnes and Noble}},
  title = {{Green} Roofs and the {CRISPR} Method},
  journal = jue,
  year = {2021},
  doi = {https://doi.org/10.1234/ABC.5},
  file = {Full Text:files/12/roofs.pdf:application/pdf}
}
@inproceedings{Smith_2019,
  Author = {John Smith and Mary-Jane O'Neil},
  Title = {R\'esum\'e of
           things},
  BookTitle = {Proceedings of X},
  Date = {2019-05-01},
  eprint = {2101.01234v2}, archivePrefix = {arXiv},
  file = {ABSOLUTE}
}
@misc{nofile2018, author = {Ann Lee}, title = {Notes}, year = 2018}
@misc{gone2017, title = {Lost}, file = {:missing/lost.pdf:PDF}}
@misc{broken2016, title = {Unclosed
"""


def write_bib(folder: Path, absolute: Path) -> Path:
    (folder / "files" / "12").mkdir(parents=True, exist_ok=True)
    (folder / "files" / "12" / "roofs.pdf").write_bytes(b"%PDF-1.4 placeholder")
    bib = folder / "library.bib"
    bib.write_text(BIB.replace("ABSOLUTE", str(absolute)), encoding="utf-8")
    return bib


def test_bibtex_entries_decoded_to_unicode_with_authors_given_family(tmp_path: Path):
    read = read_bibtex(write_bib(tmp_path, tmp_path / "smith.pdf"))
    by_key = {e.key: e for e in read.entries}
    ozturk = by_key["ozturk2021"]
    # A braced name is one literal (kept braced: its words alone would read as a person's name).
    assert ozturk.authors == ["Ayşe Öztürk", "Jan van der Berg", "{Barnes and Noble}"]
    assert display_name(ozturk.authors[2]) == "Barnes and Noble" and ozturk.entry_type == "article"
    assert ozturk.title == "Green Roofs and the CRISPR Method"
    assert (ozturk.year, ozturk.venue, ozturk.doi) == (2021, "Journal of Urban Ecology", "10.1234/abc.5")
    smith = by_key["Smith_2019"]  # field names in any case, a biblatex date, a wrapped title
    assert smith.authors == ["John Smith", "Mary-Jane O'Neil"]
    assert (smith.title, smith.year, smith.venue) == ("Résumé of things", 2019, "Proceedings of X")
    assert smith.arxiv_id == "2101.01234v2" and smith.files == [str(tmp_path / "smith.pdf")]
    assert by_key["nofile2018"].files == []
    # The unclosed entry is reported by its key; the ones before it were read.
    assert [p.key for p in read.problems] == ["broken2016"] and "line" in read.problems[0].reason


@pytest.mark.parametrize(
    ("spec", "paths"),
    [
        ("Full Text:files/12/x.pdf:application/pdf", ["files/12/x.pdf"]),
        ("/abs/path.pdf", ["/abs/path.pdf"]),
        (":C\\:/Users/me/a.pdf:PDF", ["C:/Users/me/a.pdf"]),  # JabRef, an escaped drive colon
        ("Snapshot:a.html:text/html;Full Text:b\\;c.pdf:application/pdf", ["a.html", "b;c.pdf"]),
        ("paper.pdf:PDF", ["paper.pdf"]),
        ("  ", []),
    ],
)
def test_file_field_syntax(spec: str, paths: list[str]):
    assert attached_paths(spec) == paths


def test_attachment_picks_the_first_supported_existing_file(tmp_path: Path):
    (tmp_path / "paper.pdf").write_bytes(b"%PDF-1.4")
    entry = ReferenceEntry(key="k", files=["Snapshot:page.png:image/png;Full Text:paper.pdf:application/pdf"])
    assert attachment(entry, tmp_path) == (tmp_path / "paper.pdf").resolve()
    assert "no file field" in _problem(ReferenceEntry(key="k"), tmp_path)
    assert "does not exist" in _problem(ReferenceEntry(key="k", files=["gone.pdf"]), tmp_path)
    assert "no attached file of a supported type (page.png" in _problem(
        ReferenceEntry(key="k", files=["page.png"]), tmp_path
    )


def _problem(entry: ReferenceEntry, folder: Path) -> str:
    found = attachment(entry, folder)
    assert isinstance(found, EntryProblem) and found.key == "k"
    return found.reason


def test_plan_reports_each_entry_without_a_file_by_key(tmp_path: Path):
    absolute = tmp_path / "elsewhere" / "smith.pdf"
    absolute.parent.mkdir()
    absolute.write_bytes(b"%PDF-1.4")
    (tmp_path / "lib").mkdir()
    plan = plan_import([write_bib(tmp_path / "lib", absolute)])
    assert {p.name: e.key for p, e in plan.attached.items()} == {"roofs.pdf": "ozturk2021", "smith.pdf": "Smith_2019"}
    reasons = {p.key: p.reason for p in plan.problems}
    assert set(reasons) == {"nofile2018", "gone2017", "broken2016"}
    assert "no file field" in reasons["nofile2018"] and "lost.pdf does not exist" in reasons["gone2017"]
    assert all(p.export.endswith("library.bib") for p in plan.problems)


def test_a_file_attached_to_two_entries_is_imported_once(tmp_path: Path):
    (tmp_path / "a.pdf").write_bytes(b"%PDF-1.4")
    bib = tmp_path / "two.bib"
    bib.write_text("@misc{first, title={A}, file={a.pdf}}\n@misc{second, title={B}, file={a.pdf}}\n")
    plan = plan_import([bib])
    assert [e.key for e in plan.attached.values()] == ["first"]
    assert [(p.key, "attached to first too" in p.reason) for p in plan.problems] == [("second", True)]


def test_csl_json_entries(tmp_path: Path):
    items = [
        {
            "id": "ozturk2021",
            "type": "article-journal",
            "title": "Green Roofs",
            "author": [{"family": "Öztürk", "given": "Ayşe"}, {"literal": "World Health Organization"}],
            "issued": {"date-parts": [[2021, 5]]},
            "container-title": "Journal of Urban Ecology",
            "DOI": "10.1234/ABC.5",
            "file": "roofs.pdf",
        },
        {"id": "pre", "title": "A Preprint", "URL": "https://arxiv.org/abs/2101.01234", "issued": {"raw": "2020"}},
        "not an item",
    ]
    path = tmp_path / "items.json"
    path.write_text(json.dumps(items), encoding="utf-8")
    read = read_csl_json(path)
    first, pre = read.entries
    assert first.authors == ["Ayşe Öztürk", "World Health Organization"] and first.year == 2021
    assert (first.entry_type, pre.entry_type) == ("article", None)
    assert (first.venue, first.doi, first.files) == ("Journal of Urban Ecology", "10.1234/abc.5", ["roofs.pdf"])
    assert (pre.arxiv_id, pre.year) == ("2101.01234", 2020)
    assert [p.key for p in read.problems] == ["(item 3)"]


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("lib.ris", "TY  - JOUR", "not a BibTeX or CSL-JSON export"),
        ("gone.bib", None, "no such file"),
        ("bad.json", "{not json", "is not valid JSON"),
        ("obj.json", '{"title": "x"}', "expected a list of items"),
        ("pdf.bib", "%PDF-1.4 binary", "binary content"),
    ],
)
def test_an_unusable_export_is_a_clear_error(tmp_path: Path, name: str, content: str | None, message: str):
    path = tmp_path / name
    if content is not None:
        path.write_text(content)
    with pytest.raises(ReferenceImportError, match=message):
        plan_import([path])


def test_entry_metadata_wins_over_extraction_field_by_field():
    extracted = Document(
        doc_id="d",
        title="Extracted title",
        path="/x.pdf",
        type=DocType.PDF,
        page_count=1,
        year=2000,
        sha256="s",
        bibliography=Bibliography(authors=["Wrong Person"], venue="Extracted venue", doi="10.1/x"),
    )
    entry = ReferenceEntry(key="k", title="Curated", authors=["Ayşe Öztürk"], year=2021, arxiv_id="2101.01234")
    applied = entry.override().apply(extracted)
    assert (applied.title, applied.year) == ("Curated", 2021)
    assert applied.bibliography == Bibliography(
        authors=["Ayşe Öztürk"], venue="Extracted venue", doi="10.1/x", arxiv_id="2101.01234"
    )
    assert list(entry.override().values()) == ["title", "year", "authors", "arxiv_id"]


ZOTERO_SCHEMA = """
CREATE TABLE itemTypes (itemTypeID INTEGER PRIMARY KEY, typeName TEXT);
CREATE TABLE items (itemID INTEGER PRIMARY KEY, itemTypeID INT, key TEXT);
CREATE TABLE fields (fieldID INTEGER PRIMARY KEY, fieldName TEXT);
CREATE TABLE itemDataValues (valueID INTEGER PRIMARY KEY, value);
CREATE TABLE itemData (itemID INT, fieldID INT, valueID INT);
CREATE TABLE creatorTypes (creatorTypeID INTEGER PRIMARY KEY, creatorType TEXT);
CREATE TABLE creators (creatorID INTEGER PRIMARY KEY, firstName TEXT, lastName TEXT, fieldMode INT);
CREATE TABLE itemCreators (itemID INT, creatorID INT, creatorTypeID INT, orderIndex INT);
CREATE TABLE itemAttachments (itemID INTEGER PRIMARY KEY, parentItemID INT, linkMode INT, contentType TEXT, path TEXT);
CREATE TABLE deletedItems (itemID INTEGER PRIMARY KEY);
INSERT INTO itemTypes VALUES (1, 'journalArticle'), (2, 'attachment'), (3, 'note'), (4, 'preprint');
INSERT INTO creatorTypes VALUES (1, 'author'), (2, 'editor');
"""


def zotero_folder(folder: Path) -> Path:
    """A Zotero data folder with the tables prp reads, as Zotero 7 lays them out."""
    import sqlite3

    folder.mkdir(exist_ok=True)
    db = sqlite3.connect(folder / "zotero.sqlite")
    db.executescript(ZOTERO_SCHEMA)
    values: dict[str, int] = {}

    def item(item_id: int, type_id: int, key: str, **data: str) -> None:
        db.execute("INSERT INTO items VALUES (?,?,?)", (item_id, type_id, key))
        for name, value in data.items():
            field_id = values.setdefault(f"field:{name}", len(values) + 1)
            db.execute("INSERT OR IGNORE INTO fields VALUES (?,?)", (field_id, name))
            value_id = len(values) + 1
            values[f"value:{item_id}:{name}"] = value_id
            db.execute("INSERT INTO itemDataValues VALUES (?,?)", (value_id, value))
            db.execute("INSERT INTO itemData VALUES (?,?,?)", (item_id, field_id, value_id))

    item(1, 1, "AAAA1111", title="Sedum Roofs", date="2021-05-03 May 3, 2021", publicationTitle="Urban Ecology",
         DOI="10.1234/JUE.7", extra="tex.note: x\nCitation Key: ozturk2021")  # fmt: skip
    db.executemany("INSERT INTO creators VALUES (?,?,?,?)", [(1, "Ayşe", "Öztürk", 0), (2, "", "Parks Lab", 1)])
    db.executemany("INSERT INTO itemCreators VALUES (?,?,?,?)", [(1, 2, 1, 1), (1, 1, 1, 0)])
    item(2, 2, "BBBB2222", title="Full Text PDF")
    db.execute("INSERT INTO itemAttachments VALUES (2, 1, 0, 'application/pdf', 'storage:roofs.pdf')")
    (folder / "storage" / "BBBB2222").mkdir(parents=True)
    (folder / "storage" / "BBBB2222" / "roofs.pdf").write_bytes(b"%PDF-1.4")
    item(3, 4, "CCCC3333", title="A Preprint", date="2020-00-00 2020", archiveID="arXiv:2101.01234")
    item(4, 2, "DDDD4444")
    db.execute(f"INSERT INTO itemAttachments VALUES (4, 3, 2, 'application/pdf', '{folder}/linked/gone.pdf')")
    item(5, 1, "EEEE5555", title="In the trash")
    db.execute("INSERT INTO deletedItems VALUES (5)")
    item(6, 3, "FFFF6666")  # a note
    db.commit()
    db.close()
    return folder


def test_zotero_data_folder_read_from_a_copy_while_zotero_holds_it(tmp_path: Path):
    import sqlite3

    folder = zotero_folder(tmp_path)
    database = folder / "zotero.sqlite"
    # Zotero keeps its database locked while it runs.
    zotero = sqlite3.connect(database)
    zotero.execute("PRAGMA locking_mode = EXCLUSIVE")
    zotero.execute("INSERT INTO deletedItems VALUES (99)")
    zotero.commit()
    held = database.read_bytes()
    try:
        plan = plan_import([folder])
    finally:
        zotero.close()
    (path, entry), = plan.attached.items()  # fmt: skip
    assert path == (folder / "storage" / "BBBB2222" / "roofs.pdf").resolve()
    assert (entry.key, entry.title, entry.year, entry.venue, entry.doi) == (
        "ozturk2021",
        "Sedum Roofs",
        2021,
        "Urban Ecology",
        "10.1234/jue.7",
    )
    assert entry.authors == ["Ayşe Öztürk", "Parks Lab"]
    assert [(p.key, p.failed) for p in plan.problems] == [("CCCC3333", True)]
    assert "gone.pdf does not exist" in plan.problems[0].reason
    assert plan_import([database]).attached == plan.attached  # the database file named itself
    assert database.read_bytes() == held and sorted(p.name for p in folder.iterdir()) == ["storage", "zotero.sqlite"]


def test_a_folder_that_is_not_zotero_is_refused(tmp_path: Path):
    with pytest.raises(ReferenceImportError, match="not Zotero's data folder"):
        plan_import([tmp_path])


@pytest.mark.parametrize(
    ("raw", "year"),
    [("2021", 2021), ("2021-05-03 May 3, 2021", 2021), ("0000-00-00 spring", None), ("0999", None), ("n.d.", None)],
)
def test_year_of_a_date_field(raw: str, year: int | None):
    assert year_of(raw) == year
