"""The 1,000-document ingest as a picture: wall time, rate, memory and disk against documents done."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402


def plot(figures: dict, out: Path) -> Path:
    marks = sorted(figures["ingest"]["milestones"].items(), key=lambda item: int(item[0]))
    docs = [int(m) for m, _ in marks]
    points = [p for _, p in marks]
    killed = figures["ingest"]["killed"].get("documents_done")
    fig, axes = plt.subplots(2, 2, figsize=(9, 6.2))
    panels = (
        (axes[0][0], "wall time (min)", [p["wall_s"] / 60 for p in points], None),
        (
            axes[0][1],
            "chunks/s, end to end",
            [p["chunks_per_s"] for p in points],
            ("embedding alone", figures["embedding_alone"]["chunks_per_s"]),
        ),
        (axes[1][0], "peak RSS of the ingest run (MB)", [p["peak_tree_rss_mb"] for p in points], ("target 4 GB", 4096)),
        (axes[1][1], "data directory on disk (MB)", [p["disk_mb"] for p in points], None),
    )
    for ax, title, values, line in panels:
        ax.plot(docs, values, marker="o", color="#1f5f8b")
        if line:
            ax.axhline(line[1], color="#b0413e", linestyle="--", linewidth=1, label=line[0])
            ax.legend(loc="lower right", fontsize=8)
        if killed:
            ax.axvline(killed, color="#888888", linestyle=":", linewidth=1)
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("documents done", fontsize=8)
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
    fig.suptitle(
        f"prp ingest of {docs[-1]:,} documents on 2 cores (dotted: kill -9 at {killed}, then resumed)", fontsize=11
    )
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out
