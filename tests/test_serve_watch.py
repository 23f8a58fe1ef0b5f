"""``prp serve --watch`` as a user runs it: its own process watching the folder the library was
ingested from; a file saved there is searchable within seconds, a deleted one gone, temporary files
ignored, each change an ordinary job in the jobs list; Ctrl-C stops the watch with the service."""

from __future__ import annotations

import json
import time
from pathlib import Path

import httpx

from .cli_process import prp_env, run_prp_here
from .served import start, stop

#: The target is 5 s from a write to searchable; the poll allows for a loaded test machine.
WITHIN = 15.0


def searchable(url: str, word: str) -> bool:
    body = {"query": word, "k": 1, "search_mode": "sparse"}
    results = httpx.post(f"{url}/api/search", json=body, timeout=30).json()["results"]
    return bool(results) and word in results[0]["text"]


def seconds_until(condition, limit: float = WITHIN) -> float:
    started = time.monotonic()
    while not condition():
        if time.monotonic() - started > limit:
            raise AssertionError(f"not within {limit} s")
        time.sleep(0.1)
    return time.monotonic() - started


def test_a_watched_folder_is_kept_in_sync_by_the_service(tmp_path, models_dir):
    folder, data_dir = tmp_path / "papers", tmp_path / "data"
    folder.mkdir()
    (folder / "seed.md").write_text("# Seed\n\nThe seed note mentions a cassowary once.\n")
    # The commands run through their ``main`` in this process: the service is the process under test.
    assert run_prp_here(["ingest", str(folder)], prp_env(data_dir, models_dir)).returncode == 0
    process, url, _ = start(data_dir, models_dir, "--watch")
    try:
        added = folder / "sub" / "okapi.md"
        added.parent.mkdir()
        added.write_text("# Okapi sightings\n\nAn okapi was sighted twice near the river.\n")
        took = seconds_until(lambda: searchable(url, "okapi"))
        (folder / "notes.md.swp").write_text("pangolin swap file")  # temporary: never a job
        (folder / ".hidden.md").write_text("# Hidden\n\npangolin in a hidden file\n")
        added.unlink()
        seconds_until(lambda: not searchable(url, "okapi"))
        assert searchable(url, "cassowary") and not searchable(url, "pangolin")
        # prp sync goes through the service, as the other commands do: nothing left to do.
        through = run_prp_here(["sync", "--json"], prp_env(data_dir, models_dir))
        assert through.returncode == 0, through.stderr[-2000:]
        assert json.loads(through.stdout)["counts"] == {
            "added": 0,
            "changed": 0,
            "removed": 0,
            "unchanged": 1,
            "failed": 0,
        }
        jobs = httpx.get(f"{url}/api/jobs", params={"kind": "sync"}).json()
        assert jobs and all(j["state"] == "done" for j in jobs)
        assert [j["title"] for j in jobs].count("sync every folder") == 1  # the command's, run by the service
        assert all("swp" not in p and ".hidden" not in p for j in jobs for p in j["info"].get("paths", []))
        assert took < WITHIN
    finally:
        out = stop(process)
    assert "Traceback" not in out, out[-3000:]
    assert "watching the library's 1 folder(s)" in out
    assert not Path(data_dir / "service.json").exists()
