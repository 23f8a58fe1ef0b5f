"""Report runs on the sample corpus: offline wall time (warm) and LLM calls per report in LLM mode.

Offline: models loaded and one report run first (warm), then the median of 3 timed runs.
LLM mode: the scripted model the tests use (``testing_support``, faked only at the LLM boundary)
counts its calls; the target is at most 2 + 3*N calls for N sub-questions (plan, a re-ranking and an
answer per sub-question, retries, contradictions, summary).

    python benchmarks/report_runs.py
"""

from __future__ import annotations

import statistics
import sys
import time

from common import ROOT, WORK, save

sys.path.insert(0, str(ROOT))

from config import EmbeddingSettings, Settings, StorageSettings  # noqa: E402
from corpus.library import Library  # noqa: E402
from graph.run import run_research  # noqa: E402
from research.options import ResearchOptions  # noqa: E402
from strategies.llm.strategy import LLMStrategy  # noqa: E402
from strategies.offline.strategy import OfflineStrategy  # noqa: E402
from testing_support.llm_fakes import ScriptedChatModel  # noqa: E402
from testing_support.llm_scripts import script_with  # noqa: E402

TOPIC = "Green roofs in cities: street-level cooling, stormwater retention and installation costs"


def main() -> None:
    settings = Settings(
        storage=StorageSettings(data_dir=WORK / "sample"), embeddings=EmbeddingSettings(models_path=WORK / "models")
    )
    figures: dict = {}
    with Library(settings) as library:
        library.ingest([ROOT / "sample_corpus" / "docs"])
        offline = OfflineStrategy(library.embedder)
        run_research(library, offline, TOPIC)  # warm-up: models, caches, citation index
        times = []
        for _ in range(3):
            start = time.perf_counter()
            result = run_research(library, offline, TOPIC)
            times.append(time.perf_counter() - start)
        figures["offline_report_seconds_warm_median"] = round(statistics.median(times), 2)
        figures["offline_report_seconds_all"] = [round(t, 2) for t in times]
        figures["offline_sub_questions"] = len(result.state["plan"])
        figures["offline_citations"] = len(result.report.citations)

        rows = []
        for retries in (0, 2):
            model = ScriptedChatModel(script=script_with())
            result = run_research(
                library,
                LLMStrategy(model, "scripted", fallback=offline),
                TOPIC,
                options=ResearchOptions(max_retries=retries),
            )
            n = len(result.state["plan"])
            rows.append(
                {"max_retries": retries, "sub_questions": n, "llm_calls": len(model.calls), "budget": 2 + 3 * n}
            )
        figures["llm_calls_per_report"] = rows
    print(
        f"offline report, warm: median {figures['offline_report_seconds_warm_median']} s "
        f"(runs {figures['offline_report_seconds_all']}), {figures['offline_sub_questions']} sub-questions, "
        f"{figures['offline_citations']} citations"
    )
    for row in figures["llm_calls_per_report"]:
        print(
            f"LLM mode (scripted), max_retries={row['max_retries']}: {row['llm_calls']} calls for "
            f"{row['sub_questions']} sub-questions (budget 2+3N = {row['budget']})"
        )
    print(f"saved {save('report_runs', figures)}")


if __name__ == "__main__":
    main()
