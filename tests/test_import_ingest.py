"""``prp ingest --bib``: a reference manager's export ingested through the CLI, each attached file
with its entry's metadata (over what extraction finds), the entries without a file reported by key,
a second run changing nothing, and the metadata kept when the file is ingested again later."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from strategies.offline.strategy import OfflineStrategy
from testing_support.hostile_corpus import text_pdf
from ui.cli.main import main as cli_main
from ui.core.local import LocalPortal
from ui.service.app import create_app

from .test_references import zotero_folder

# Each PDF's first line is a title extraction would take; the entry's must win over it.
ROOFS = ["Draft notes\n\nSedum mats on the depot roof cooled the membrane by nineteen degrees in July."]
METERS = ["Working paper\n\nSoil moisture meters under the meadow read dry after four rainless days."]


@pytest.fixture
def cli(make_settings, monkeypatch, capsys):
    settings = make_settings("import")
    monkeypatch.setenv("PRP_DATA_DIR", str(settings.storage.data_dir))
    monkeypatch.setenv("PRP_MODELS_DIR", str(settings.models_dir))

    def run(*args: str) -> tuple[int, str]:
        code = cli_main(list(args))
        return code, capsys.readouterr().out

    return run


def docs_by_file(cli) -> dict[str, dict]:
    code, out = cli("docs", "--json")
    assert code == 0
    return {Path(d["path"]).name: d for d in json.loads(out)}


def test_bibtex_import_through_the_cli(cli, tmp_path: Path):
    library = tmp_path / "zotero-export"
    (library / "files" / "12").mkdir(parents=True)
    text_pdf(library / "files" / "12" / "roofs.pdf", ROOFS)
    elsewhere = text_pdf(tmp_path / "meters.pdf", METERS)
    bib = library / "library.bib"
    bib.write_text(
        "@article{ozturk2021,\n"
        '  author = {{\\"O}zt{\\"u}rk, Ay{\\c{s}}e and van der Berg, Jan},\n'
        "  title = {{Sedum} Roofs and the {UHI} Effect},\n"
        "  journal = {Journal of Urban Ecology}, year = {2021}, doi = {10.1234/JUE.7},\n"
        "  file = {Full Text:files/12/roofs.pdf:application/pdf}\n}\n"
        f"@techreport{{lee2019, author = {{Lee, Ann}}, title = {{Meadow Moisture}}, year = 2019,\n"
        f"  institution = {{Parks Lab}}, file = {{{elsewhere}}}}}\n"
        "@misc{nofile2018, author = {Ann Lee}, title = {Notes}, year = 2018}\n"
        "@misc{gone2017, title = {Lost}, file = {Full Text:files/99/lost.pdf:application/pdf}}\n",
        encoding="utf-8",
    )
    code, out = cli("ingest", "--bib", str(bib), "--json")
    assert code == 1  # the entry whose file is missing failed; the others went on
    files = {f.get("entry"): f for f in json.loads(out)["files"]}
    assert {k: f["outcome"] for k, f in files.items()} == {
        "ozturk2021": "ok",
        "lee2019": "ok",
        "nofile2018": "skipped",
        "gone2017": "failed",
    }
    assert "no file field" in files["nofile2018"]["reason"]
    assert "lost.pdf does not exist" in files["gone2017"]["reason"]
    assert files["gone2017"]["path"] == str(bib)

    docs = docs_by_file(cli)
    roofs, meters = docs["roofs.pdf"], docs["meters.pdf"]
    assert (roofs["title"], roofs["year"]) == ("Sedum Roofs and the UHI Effect", 2021)
    assert roofs["bibliography"]["authors"] == ["Ayşe Öztürk", "Jan van der Berg"]
    assert roofs["bibliography"]["venue"] == "Journal of Urban Ecology"
    assert roofs["bibliography"]["doi"] == "10.1234/jue.7"
    assert (meters["title"], meters["year"], meters["bibliography"]["authors"]) == (
        "Meadow Moisture",
        2019,
        ["Ann Lee"],
    )
    assert meters["bibliography"]["venue"] == "Parks Lab"

    # Search results carry the entry's title too (the index's payloads were written with it).
    code, out = cli("search", "sedum membrane cooling", "--k", "1", "--json")
    assert code == 0 and json.loads(out)[0]["title"] == "Sedum Roofs and the UHI Effect"

    # Again: nothing is parsed or changed; the entries are still reported.
    code, out = cli("ingest", "--bib", str(bib), "--json")
    again = {f.get("entry"): f for f in json.loads(out)["files"]}
    assert again["ozturk2021"]["outcome"] == again["lee2019"]["outcome"] == "skipped"
    assert again["ozturk2021"]["reason"] == "unchanged"
    assert docs_by_file(cli) == docs

    # A plain ingest of the folder later, after the file changed, keeps what the import set.
    text_pdf(library / "files" / "12" / "roofs.pdf", [ROOFS[0] + "\n\nA second summer of readings followed."])
    code, out = cli("ingest", str(library / "files"), "--json")
    assert code == 0 and json.loads(out)["documents"]["ok"] == 1
    changed = docs_by_file(cli)["roofs.pdf"]
    assert changed["doc_id"] != roofs["doc_id"]
    assert (changed["title"], changed["year"], changed["bibliography"]) == (
        roofs["title"],
        roofs["year"],
        roofs["bibliography"],
    )
    code, out = cli("search", "sedum membrane second summer of readings", "--k", "3", "--json")
    assert {hit["title"] for hit in json.loads(out) if hit["doc_id"] == changed["doc_id"]} == {roofs["title"]}


def test_importing_an_already_ingested_file_sets_its_metadata(cli, tmp_path: Path):
    (tmp_path / "papers").mkdir()
    pdf = text_pdf(tmp_path / "papers" / "meters.pdf", METERS)
    assert cli("ingest", str(pdf))[0] == 0
    assert docs_by_file(cli)["meters.pdf"]["bibliography"]["authors"] == []
    items = [
        {
            "id": "lee2019",
            "type": "report",
            "title": "Meadow Moisture",
            "author": [{"family": "Lee", "given": "Ann"}],
            "issued": {"date-parts": [[2019]]},
            "publisher": "Parks Lab",
            "file": "papers/meters.pdf",
        }
    ]
    export = tmp_path / "items.json"
    export.write_text(json.dumps(items), encoding="utf-8")
    code, out = cli("ingest", "--bib", str(export), "--json")
    assert code == 0
    (result,) = json.loads(out)["files"]
    assert (result["entry"], result["outcome"]) == ("lee2019", "skipped")
    assert result["reason"] == "unchanged; metadata set from the entry"
    meters = docs_by_file(cli)["meters.pdf"]
    assert (meters["title"], meters["year"], meters["bibliography"]["authors"]) == (
        "Meadow Moisture",
        2019,
        ["Ann Lee"],
    )
    code, out = cli("search", "soil moisture meters", "--k", "1", "--json")
    assert json.loads(out)[0]["title"] == "Meadow Moisture"


def test_an_unreadable_export_is_an_error_and_ingests_nothing(cli, tmp_path: Path, capsys):
    bad = tmp_path / "broken.json"
    bad.write_text("{not json")
    assert cli_main(["ingest", "--bib", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "is not valid JSON" in err and "Traceback" not in err
    assert docs_by_file(cli) == {}
    assert cli_main(["ingest"]) == 2
    assert "--bib" in capsys.readouterr().err


def test_zotero_data_folder_through_the_cli(cli, tmp_path: Path):
    folder = zotero_folder(tmp_path / "Zotero")
    text_pdf(folder / "storage" / "BBBB2222" / "roofs.pdf", ROOFS)
    code, out = cli("ingest", "--zotero", str(folder), "--json")
    assert code == 1  # the preprint's linked file is gone
    files = {f["entry"]: f["outcome"] for f in json.loads(out)["files"]}
    assert files == {"ozturk2021": "ok", "CCCC3333": "failed"}
    roofs = docs_by_file(cli)["roofs.pdf"]
    assert (roofs["title"], roofs["year"], roofs["bibliography"]["authors"]) == (
        "Sedum Roofs",
        2021,
        ["Ayşe Öztürk", "Parks Lab"],
    )


def test_the_api_ingests_an_export_and_refuses_an_unreadable_one(make_library, tmp_path: Path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "meadow.md").write_text("# Untitled\n\nMoisture meters under the meadow read dry.\n")
    bib = tmp_path / "lib.bib"
    bib.write_text(
        "@misc{lee2019, author = {Lee, Ann}, title = {Meadow Moisture}, year = 2019, file = {notes/meadow.md}}"
    )
    broken = tmp_path / "broken.json"
    broken.write_text("[{")
    library = make_library("api")
    app = create_app(LocalPortal(library, OfflineStrategy(library.embedder)), chat=False)
    with TestClient(app, base_url="http://127.0.0.1:8400", client=("127.0.0.1", 50000)) as api:
        for body, words in (({}, "at least one"), ({"imports": [str(broken)]}, "is not valid JSON")):
            refused = api.post("/api/ingest", json=body)
            assert refused.status_code == 422 and words in refused.text, refused.text
        started = api.post("/api/ingest", json={"imports": [str(bib)]})
        assert started.status_code == 202
        job = started.json()["job"]["job_id"]
        deadline = time.monotonic() + 60
        while api.get(f"/api/jobs/{job}").json()["state"] != "done" and time.monotonic() < deadline:
            time.sleep(0.1)
        (document,) = api.get("/api/documents").json()
    assert (document["title"], document["year"], document["bibliography"]["authors"]) == (
        "Meadow Moisture",
        2019,
        ["Ann Lee"],
    )
