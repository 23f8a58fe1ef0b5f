"""Hostile input at full size, through the CLI as a user runs it: files tried, crashes, hangs, good
documents lost, wall time and peak memory, for the reliability suite's hostile folder (built at
``--scale`` 35: a 2 MB one-line Markdown file, 40,000 words on one page, 10,500-deep nested HTML, a
256 MB stream bomb, ...) and for a 500-page PDF.

    python benchmarks/hostile_ingest.py [--scale 35] [--pages 500]
    python benchmarks/hostile_ingest.py --growth 0.25,0.5,1

``--growth`` instead ingests one file of each size (in MB) of base64 (as the ``base64`` command
writes it), one line of a single endless word, and ordinary prose, each into a fresh library, and
prints seconds and peak RSS per MB: work that grows linearly keeps s/MB flat across the sizes.

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
from testing_support.hostile_corpus import base64_text, build, one_token_line, paragraph, prose, text_pdf  # noqa: E402

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=int, default=35)
    parser.add_argument("--pages", type=int, default=500)
    parser.add_argument("--timeout", type=float, default=1800)
    parser.add_argument("--growth", help="comma-separated sizes in MB: seconds and memory per MB instead")
    args = parser.parse_args()
    models_dir = ROOT / "benchmarks" / ".data" / "models"
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
