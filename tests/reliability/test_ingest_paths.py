"""Paths given to the service say what they are (issue 34, item 9). Reported: ``~`` in
``POST /api/ingest`` was expanded to the service's home and walked (256K entries, 21 s); a FIFO
attached to a BibTeX entry was reported as "does not exist".

``~`` is refused with a 422 that says why and what to send instead (the service's home need not be
the caller's; a client such as ``prp ingest`` expands it where it runs); a pipe, as an attachment or
as the export itself, is named for what it is and never opened (reading it would block)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from fastapi.testclient import TestClient

from corpus.references.plan import plan_import
from strategies.offline.strategy import OfflineStrategy
from ui.core.local import LocalPortal
from ui.service.app import create_app

LOCAL = dict(base_url="http://127.0.0.1:8400", client=("127.0.0.1", 50000))


def test_a_tilde_is_refused_with_its_reason_and_nothing_is_walked(make_library, monkeypatch, tmp_path):
    home = tmp_path / "service-home"
    (home / "papers").mkdir(parents=True)
    (home / "papers" / "a.md").write_text("# A\n\nA note in the service's home.\n")
    monkeypatch.setenv("HOME", str(home))
    library = make_library()
    with TestClient(create_app(LocalPortal(library, OfflineStrategy(library.embedder)), chat=False), **LOCAL) as api:
        for body in ({"paths": ["~"]}, {"paths": ["~/papers"]}, {"imports": ["~/refs.bib"]}):
            refused = api.post("/api/ingest", json=body)
            assert refused.status_code == 422, refused.text
            assert "starts with '~'" in refused.text and "absolute paths" in refused.text
        assert api.get("/api/jobs").json() == []
        # A "~" inside an absolute path is an ordinary character of a name.
        tilde = tmp_path / "~drafts"
        tilde.mkdir()
        (tilde / "b.md").write_text("# B\n\nThe tilde folder holds a note about a jacaranda.\n")
        started = api.post("/api/ingest", json={"paths": [str(tilde)]})
        assert started.status_code == 202, started.text
        job = started.json()["job"]["job_id"]
        deadline = time.monotonic() + 60
        while api.get(f"/api/jobs/{job}").json()["state"] != "done" and time.monotonic() < deadline:
            time.sleep(0.1)
    assert [Path(d.path).parent.name for d in library.registry.documents()] == ["~drafts"]


def test_a_pipe_is_named_for_what_it_is_as_an_attachment_and_as_an_export(tmp_path: Path):
    pipe = tmp_path / "paper.pdf"
    os.mkfifo(pipe)
    bib = tmp_path / "lib.bib"
    bib.write_text("@misc{kim2020, title = {Piped}, year = 2020, file = {paper.pdf}}\n")
    plan = plan_import([bib])  # returns at once: the pipe is never opened
    [problem] = plan.problems
    assert problem.key == "kim2020" and "is a named pipe (FIFO)" in problem.reason
    assert "does not exist" not in problem.reason
    os.mkfifo(tmp_path / "refs.bib")
    try:
        plan_import([tmp_path / "refs.bib"])
    except Exception as exc:  # ReferenceImportError, which the API answers with 422
        assert "a named pipe (FIFO), not an export file" in str(exc)
    else:
        raise AssertionError("a pipe was read as an export")
