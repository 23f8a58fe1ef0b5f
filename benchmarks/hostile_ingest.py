"""Hostile input at full size, through the CLI as a user runs it: files tried, crashes, hangs, good
documents lost, wall time and peak memory, for the reliability suite's hostile folder (built at
``--scale`` 35: a 2 MB one-line Markdown file, 40,000 words on one page, 10,500-deep nested HTML, a
256 MB stream bomb, ...) and for a 500-page PDF.

    python benchmarks/hostile_ingest.py [--scale 35] [--pages 500]
    python benchmarks/hostile_ingest.py --growth 0.25,0.5,1
    python benchmarks/hostile_ingest.py --deletes 4800
    python benchmarks/hostile_ingest.py --inline-images 2

``--growth`` instead ingests one file of each size (in MB) of base64 (as the ``base64`` command
writes it), one line of a single endless word, and ordinary prose, each into a fresh library, and
prints seconds and peak RSS per MB: work that grows linearly keeps s/MB flat across the sizes.

``--deletes N`` ingests N template notes (one heading and two lines every note has, a line of its
own), deletes 10 of the files and times the ``prp sync`` that removes them (the sync a watched
folder runs): removal must cost what is removed, not a re-marking of every note per deletion.

``--inline-images MB`` ingests one Markdown note of that size, mostly images inline as ``data:``
URIs (as exporters write them: wrapped at 76 characters, on one line, in ``<img>`` tags) around a
few paragraphs, and checks that its prose is findable.

A crash is an exit code other than 0 (all ingested) or 1 (some files refused), or a traceback on
stderr; a hang is the CLI still running after ``--timeout`` seconds. Peak RSS is the largest of the
CLI process and its parse workers (``RUSAGE_CHILDREN``: each CLI run is measured in a fresh child).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, save

sys.path.insert(0, str(ROOT))
from testing_support.hostile_corpus import (  # noqa: E402
    base64_text,
    build,
    inline_images_note,
    one_token_line,
    paragraph,
    prose,
    text_pdf,
)

TOPICS = ("estuaries", "glaciers", "peat bogs", "coral reefs", "salt marshes", "cloud forests", "tundra")


def run_cli(folder: Path, data_dir: Path, models_dir: Path, timeout: float) -> dict:
    """One `prp ingest --json` in a child that reports its own peak memory and its workers'."""
    probe = (
        "import resource, subprocess, sys, json;"
        "done = subprocess.run(sys.argv[1:], capture_output=True, text=True);"
        "rss = max(resource.getrusage(w).ru_maxrss for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN));"
        "print(json.dumps({'code': done.returncode, 'out': done.stdout, 'err': done.stderr, 'rss_kb': rss}))"
    )
    env = {**os.environ, "PRP_DATA_DIR": str(data_dir), "PRP_MODELS_DIR": str(models_dir)}
    env.setdefault("LANGSMITH_TRACING", "false")
    command = [sys.executable, "-c", probe, sys.executable, "-m", "ui.cli", "ingest", str(folder), "--json"]
    started = time.perf_counter()
    try:
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"hang": True, "seconds": timeout}
    result = json.loads(done.stdout)
    result["seconds"] = time.perf_counter() - started
    result["hang"] = False
    return result


def summarise(name: str, result: dict, expected_ok: set[str], root: Path) -> dict:
    if result["hang"]:
        return {"case": name, "hangs": 1, "crashes": 0, "seconds": result["seconds"]}
    crashed = result["code"] not in (0, 1) or "Traceback" in result["err"]
    report = json.loads(result["out"]) if result["out"].strip().startswith("{") else {"files": []}
    ok = set()
    for f in report["files"]:
        path = Path(f["path"])
        if f["outcome"] == "ok":
            ok.add(str(path.relative_to(root)) if path.is_relative_to(root) else str(path))
    return {
        "case": name,
        "files_tried": len(report["files"]),
        "ingested": len(ok),
        "crashes": int(crashed),
        "hangs": 0,
        "good_documents_lost": len(expected_ok - ok),
        "seconds": round(result["seconds"], 1),
        "peak_rss_mb": round(result["rss_kb"] / 1024),
        "chunks": report.get("chunks", 0),
    }


GROWTH_KINDS = {"base64": base64_text, "one-line": one_token_line, "prose": prose}


def growth(sizes: list[float], models_dir: Path, timeout: float) -> list[dict]:
    """Seconds and peak RSS per MB of each kind of text at each size, one fresh library each."""
    rows = []
    with tempfile.TemporaryDirectory(prefix="prp-growth-") as tmp:
        for kind, make in GROWTH_KINDS.items():
            for mb in sizes:
                folder = Path(tmp) / f"{kind}-{mb}"
                folder.mkdir()
                (folder / f"{kind}.txt").write_text(make(int(mb * 1_000_000)), encoding="utf-8")
                result = run_cli(folder, Path(tmp) / f"data-{kind}-{mb}", models_dir, timeout)
                if result["hang"]:
                    rows.append({"kind": kind, "mb": mb, "hang": True})
                    continue
                report = json.loads(result["out"])
                rows.append(
                    {
                        "kind": kind,
                        "mb": mb,
                        "outcome": report["files"][0]["outcome"],
                        "chunks": report["chunks"],
                        "seconds": round(result["seconds"], 1),
                        "s_per_mb": round(result["seconds"] / mb, 1),
                        "peak_rss_mb": round(result["rss_kb"] / 1024),
                    }
                )
                print(json.dumps(rows[-1]), flush=True)
    return rows


def run_prp(args: list[str], data_dir: Path, models_dir: Path, timeout: float) -> tuple[dict, float]:
    """``prp ARGS --json`` in a child: its JSON output, and its wall time."""
    env = {**os.environ, "PRP_DATA_DIR": str(data_dir), "PRP_MODELS_DIR": str(models_dir)}
    env.setdefault("LANGSMITH_TRACING", "false")
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "ui.cli", *args, "--json"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if done.returncode not in (0, 1):
        raise RuntimeError(f"prp {' '.join(args)} exited {done.returncode}: {done.stderr[-2000:]}")
    return json.loads(done.stdout), time.perf_counter() - started


def template_note(i: int) -> str:
    return (
        f"# Weekly notes\n\nAttendees: the whole team.\n\nAgenda as circulated beforehand.\n\n"
        f"Decided that follow-up item {i} goes to the {TOPICS[i % len(TOPICS)]} group.\n"
    )


def deletes(notes: int, removed: int, models_dir: Path, timeout: float) -> dict:
    """Seconds for the sync that removes ``removed`` of ``notes`` template notes."""
    with tempfile.TemporaryDirectory(prefix="prp-deletes-") as tmp:
        folder, data_dir = Path(tmp) / "notes", Path(tmp) / "data"
        folder.mkdir()
        for i in range(notes):
            (folder / f"note-{i:05d}.md").write_text(template_note(i), encoding="utf-8")
        ingested = run_cli(folder, data_dir, models_dir, timeout)
        report = json.loads(ingested["out"])
        print(f"ingested {report['documents']['ok']} notes in {ingested['seconds']:.0f} s", flush=True)
        for path in sorted(folder.iterdir())[:: notes // removed][:removed]:
            path.unlink()
        summary, wall = run_prp(["sync"], data_dir, models_dir, timeout)
        return {
            "case": f"delete {removed} of {notes} template notes (prp sync)",
            "notes": notes,
            "removed": summary["counts"]["removed"],
            "sync_seconds": summary["seconds"],
            "wall_seconds": round(wall, 1),
            "ingest_seconds": round(ingested["seconds"], 1),
        }


def inline_images(mb: float, models_dir: Path, timeout: float) -> dict:
    """Seconds to ingest a ``mb`` MB note with inline images, and whether its prose is findable."""
    with tempfile.TemporaryDirectory(prefix="prp-inline-") as tmp:
        folder, data_dir = Path(tmp) / "note", Path(tmp) / "data"
        folder.mkdir()
        text = inline_images_note(int(mb * 1_000_000))
        (folder / "figures.md").write_text(text, encoding="utf-8")
        ingested = run_cli(folder, data_dir, models_dir, timeout)
        if ingested["hang"]:
            return {"case": f"{mb} MB note with inline images", "hang": True}
        report = json.loads(ingested["out"])
        markers = [w for w in text.split() if w.startswith("marker")][:: 3 * 3]
        found = 0
        for marker in markers:
            hits, _ = run_prp(["search", marker, "--mode", "sparse", "--k", "1"], data_dir, models_dir, timeout)
            found += bool(hits) and marker in hits[0]["text"]
        [file] = report["files"]
        return {
            "case": f"{len(text) / 1e6:.1f} MB note with inline images",
            "outcome": file["outcome"],
            "seconds": round(ingested["seconds"], 1),
            "ingest_seconds": report["seconds"],  # the ingest itself, without the process's start-up
            "chunks": report["chunks"],
            "left_out": file.get("non_prose", []),
            "prose_found": f"{found} of {len(markers)} marker words",
            "peak_rss_mb": round(ingested["rss_kb"] / 1024),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=int, default=35)
    parser.add_argument("--pages", type=int, default=500)
    parser.add_argument("--timeout", type=float, default=1800)
    parser.add_argument("--growth", help="comma-separated sizes in MB: seconds and memory per MB instead")
    parser.add_argument("--deletes", type=int, metavar="N", help="time deleting 10 of N template notes instead")
    parser.add_argument("--inline-images", type=float, metavar="MB", help="time a note with inline images instead")
    args = parser.parse_args()
    models_dir = ROOT / "benchmarks" / ".data" / "models"
    if args.deletes or args.inline_images:
        row = (
            deletes(args.deletes, 10, models_dir, args.timeout)
            if args.deletes
            else inline_images(args.inline_images, models_dir, args.timeout)
        )
        print(json.dumps(row))
        print(f"saved {save('hostile_ingest_' + ('deletes' if args.deletes else 'inline_images'), row)}")
        return
    if args.growth:
        rows = growth([float(mb) for mb in args.growth.split(",")], models_dir, args.timeout)
        print(f"saved {save('hostile_ingest_growth', {'rows': rows})}")
        return
    rows = []
    with tempfile.TemporaryDirectory(prefix="prp-hostile-") as tmp:
        base = Path(tmp)
        t0 = time.perf_counter()
        expected = build(base, scale=args.scale)
        print(f"hostile folder built in {time.perf_counter() - t0:.1f} s ({len(expected)} cases)")
        folder = (base / "hostile").resolve()
        good = {n for n, e in expected.items() if e.outcome == "ok"}
        rows.append(
            summarise("hostile folder", run_cli(folder, base / "data1", models_dir, args.timeout), good, folder)
        )

        big = base / "big"
        big.mkdir()
        rng = random.Random(3)
        pages = [" ".join(paragraph(f"site{n}", rng.choice(TOPICS)) for _ in range(4)) for n in range(args.pages)]
        t0 = time.perf_counter()
        text_pdf(big / "five-hundred-pages.pdf", pages)
        print(f"{args.pages}-page PDF built in {time.perf_counter() - t0:.1f} s")
        result = run_cli(big.resolve(), base / "data2", models_dir, args.timeout)
        rows.append(summarise(f"{args.pages}-page PDF", result, {"five-hundred-pages.pdf"}, big.resolve()))
    for row in rows:
        print(json.dumps(row))
    print(f"saved {save('hostile_ingest', {'scale': args.scale, 'pages': args.pages, 'rows': rows})}")


if __name__ == "__main__":
    main()
