"""No document silently unsearchable (issue 23), end to end: notes written from templates, ingested
through the CLI as a user does, are each reported ok and then found by a sparse search for a word
only they hold; the summary says, per document, how many blocks were marked boilerplate. (Reported
with 2,000 one-line notes, of which `prp search tinyword1500 --mode sparse` found none: digit runs
were normalised inside words, so every note's only block was boilerplate, and in no chunk.) And
issue 34's: 300 invoices told apart only by their number, of which none was found by it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from corpus.retrieval import SearchMode
from testing_support.hostile_corpus import invoices, template_notes
from tools.hybrid_search import hybrid_search

from ..cli_process import prp_env, run_prp_here


@pytest.mark.timeout(400)
def test_every_templated_note_is_ingested_and_found_by_its_own_word(tmp_path: Path, make_library, models_dir):
    folder = tmp_path / "tiny"
    expected = template_notes(folder)
    library = make_library()
    library.close()  # the command opens the store
    done = run_prp_here(["ingest", str(folder), "--json"], prp_env(library.settings.storage.data_dir, models_dir))
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout)
    files = {Path(f["path"]).name: f for f in report["files"]}
    assert set(files) == set(expected)
    for name, note in expected.items():
        assert files[name]["outcome"] == "ok", files[name]
        assert files[name]["boilerplate_blocks"] == note.boilerplate_blocks, files[name]
        assert files[name]["chunks"] >= 1, files[name]
    assert report["boilerplate_blocks"] == sum(n.boilerplate_blocks for n in expected.values())

    library = make_library()
    by_doc = {d.doc_id: Path(d.path).name for d in library.registry.documents()}
    for name, note in expected.items():
        hits = hybrid_search(library, note.marker, 3, mode=SearchMode.SPARSE)
        assert hits and by_doc[hits[0].doc_id] == name, f"{name}: not found by '{note.marker}'"


@pytest.mark.timeout(600)
def test_three_hundred_invoices_are_each_found_by_their_number(tmp_path: Path, make_library, models_dir):
    """ "# Invoice / Invoice number 481200 / two lines every invoice has / a note two share": the
    shared lines are boilerplate, the number line is each invoice's own, so `prp search 481200
    --mode sparse` finds invoice 481200 first, and every invoice is found by its number."""
    folder = tmp_path / "invoices"
    expected = invoices(folder)
    library = make_library()
    library.close()
    env = prp_env(library.settings.storage.data_dir, models_dir)
    done = run_prp_here(["ingest", str(folder), "--json"], env)
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout)
    assert [f["outcome"] for f in report["files"]] == ["ok"] * len(expected)
    # Heading, number, two shared lines, a note two share: the two lines every invoice has are marked.
    assert {f["boilerplate_blocks"] for f in report["files"]} == {2}, report["files"][:3]
    searched = run_prp_here(["search", "481200", "--mode", "sparse", "--json"], env)
    assert searched.returncode == 0, searched.stderr[-2000:]
    hits = json.loads(searched.stdout)
    assert hits and "Invoice number 481200" in hits[0]["text"], hits[:1]

    library = make_library()
    by_doc = {d.doc_id: Path(d.path).name for d in library.registry.documents()}
    lost = [
        name
        for name, number in expected.items()
        if not (hits := hybrid_search(library, number, 1, mode=SearchMode.SPARSE)) or by_doc[hits[0].doc_id] != name
    ]
    assert lost == [], f"{len(lost)} of {len(expected)} invoices not found by their number: {lost[:5]}"
