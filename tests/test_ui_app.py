"""The research chat end to end through its API (gradio_client), on the sample corpus, offline mode.

The app runs in this process on a loopback port over the session's sample library; the files this
module uploads are deleted again at the end, so the library is left as it was found.
"""

from __future__ import annotations

import html
import re
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import numpy as np
import pytest
from gradio_client import Client, handle_file
from gradio_client.exceptions import AppError
from PIL import Image

from evals.metrics import normalize
from graph.checkpoints import open_checkpointer
from graph.run import run_research
from strategies.offline.strategy import OfflineStrategy
from ui.chat.app import banner
from ui.cli.main import main as cli_main
from ui.core.exports.record import load_record
from ui.core.local import LocalPortal
from ui.core.page_image import FRAME_STROKE, WORD_STROKE

from .ui_server import free_port, running_ui

QUESTION = "How much do green roofs cool the street?"
APIARY = """# Rooftop Apiaries in Lowmoor: Honey Yields from Twelve Hives

## Results

Each rooftop hive in the Lowmoor pilot produced 14.5 kg of honey over the 2023 season, and colonies
on the sedum roofs foraged mainly on lime trees and clover in the surrounding streets.
"""
# Output positions of the /research endpoint.
CHAT, MESSAGE, CITATION, HEADER, PASSAGE, ZOOM, IMAGE, NOTE, CARDS, EXPORTS = range(10)


@pytest.fixture(scope="module")
def url(sample_library) -> Iterator[str]:
    with running_ui(sample_library) as address:
        yield address


@pytest.fixture(scope="module")
def client(url) -> Client:
    return Client(url, verbose=False)


@pytest.fixture(scope="module")
def answered(client) -> tuple[list, list]:
    """One question asked through the streaming endpoint: (intermediate updates, final outputs)."""
    job = client.submit(QUESTION, "question", api_name="/research")
    final = job.result(timeout=180)
    return list(job.outputs()), final


def text_of(message: dict) -> str:
    return " ".join(part.get("text", "") for part in message["content"] if isinstance(part, dict))


def thread_of(outputs: list) -> str:
    return outputs[CITATION]["value"].rpartition(":")[0]


def pixels_of(path: str, colour: tuple[int, int, int]) -> int:
    """Pixels in ``colour``: the frame drawn around a cited block, or the boxes around its quoted words."""
    pixels = np.asarray(Image.open(path).convert("RGB"), dtype=np.int16)
    return int((np.abs(pixels - np.array(colour)).max(axis=2) < 40).sum())


def test_mode_and_store_are_shown(url):
    config = httpx.get(f"{url}config", timeout=10).text
    assert (
        "offline mode \\u00b7 deterministic extractive research" in config or "offline mode · deterministic" in config
    )
    assert "embedded Qdrant at" in config


def test_progress_streams_into_the_chat_before_the_answer(answered):
    updates, final = answered
    pending = [u for u in updates if u[CHAT] and (u[CHAT][-1].get("metadata") or {}).get("status") == "pending"]
    assert pending, "no update was streamed while the graph ran"
    assert any("[plan]" in text_of(u[CHAT][-1]) for u in pending)
    steps = text_of(final[CHAT][1])
    for node in ("[plan]", "[research]", "[resolve_citations]", "[finalize]"):
        assert node in steps
    assert final[CHAT][1]["metadata"]["status"] == "done"
    assert final[MESSAGE] == ""


def test_answer_has_clickable_resolved_citations(answered, sample_library):
    _, final = answered
    answer = text_of(final[CHAT][-1])
    thread = thread_of(final)
    markers = set(re.findall(r'href="#prp-cite=([^"]+)"', answer))
    choices = {value for _, value in final[CITATION]["choices"]}
    assert markers and markers == choices and f"{thread}:1" in markers
    with open_checkpointer(sample_library.settings) as checkpointer:
        record = load_record(checkpointer, thread)
    for c in record.report.citations:
        assert normalize(c.resolution.matched_text) in normalize(c.resolution.block_text)
    # The panel opened citation 1: its title, the matched span highlighted, the page with the box.
    first = record.report.citations[0].resolution
    assert first.title in final[HEADER] and "[1]" in final[HEADER]
    marked = re.search(r"<mark>(.*?)</mark>", final[PASSAGE], flags=re.S).group(1)
    assert normalize(html.unescape(marked)) == normalize(first.matched_text)  # as the browser shows it
    assert final[IMAGE]["visible"] and pixels_of(final[IMAGE]["value"], FRAME_STROKE) > 500
    assert final[ZOOM]["visible"] and pixels_of(final[ZOOM]["value"], FRAME_STROKE) > 500
    assert pixels_of(final[ZOOM]["value"], WORD_STROKE) > 500  # the quoted words, boxed
    assert "framed" in final[NOTE]
    assert "prp-card-active" in final[CARDS] and "score" in final[CARDS]
    names = sorted(Path(p).name for p in final[EXPORTS])
    assert names == sorted(
        [
            "evidence.csv",
            "bibliography.bib",
            "bibliography.ris",
            "bibliography.md",
            "report.md",
            "report.pdf",
            "contradictions.csv",
            "contradictions.md",
        ]
    )


def test_another_citation_opens_from_the_picker(client, answered):
    thread = thread_of(answered[1])
    outputs = client.predict(f"{thread}:2", api_name="/show_citation")
    assert outputs[0]["value"] == f"{thread}:2" and "[2]" in outputs[1]
    assert "<mark>" in outputs[2]
    with pytest.raises(AppError, match="Not a citation reference"):
        client.predict("nonsense", api_name="/show_citation")


def test_settings_apply_to_the_next_run(client, sample_library):
    outputs = client.predict(
        "How much rainfall does a green roof retain?", "question", types=["text"], api_name="/research"
    )
    with open_checkpointer(sample_library.settings) as checkpointer:
        record = load_record(checkpointer, thread_of(outputs))
    types = {sample_library.registry.document(c.resolution.doc_id).type.value for c in record.report.citations}
    assert types == {"text"}
    assert not outputs[IMAGE]["visible"] and "Text document" in outputs[NOTE]  # a passage, not a page
    assert 'class="prp-block prp-context"' in outputs[PASSAGE] or "prp-cited" in outputs[PASSAGE]
    with pytest.raises(AppError, match="Year range is empty"):
        client.predict(QUESTION, "question", year_min=2024, year_max=2020, api_name="/research")


def test_empty_year_boxes_filter_nothing(client, sample_library):
    # The panel's year boxes, left empty as they are shown, send "": no filter, the whole library.
    outputs = client.predict(QUESTION, "question", year_min="", year_max="", api_name="/research")
    with open_checkpointer(sample_library.settings) as checkpointer:
        record = load_record(checkpointer, thread_of(outputs))
    assert record.report.citations


def test_upload_is_listed_and_searchable_and_a_bad_upload_loses_nothing(client, sample_library, tmp_path):
    registry = sample_library.registry
    before = {d.doc_id for d in registry.documents()}
    good = tmp_path / "rooftop_apiary_2023.md"
    good.write_text(APIARY)
    second = tmp_path / "lime blossom notes.txt"
    second.write_text("Lime blossom notes\n\nLime trees flowered for three weeks in July on every street surveyed.\n")
    (tmp_path / "tool.exe").write_bytes(b"MZ not a document")
    (tmp_path / "empty.pdf").write_bytes(b"")
    (tmp_path / "corrupt.pdf").write_bytes(b"%PDF-1.4 this is not really a PDF")
    try:
        log, _, table, *_, banner = client.predict([handle_file(str(good))], api_name="/ingest")
        assert "rooftop_apiary_2023.md" in log and "\u2713" in log
        titles = [row[0] for row in table["data"]]
        assert "Rooftop Apiaries in Lowmoor: Honey Yields from Twelve Hives" in titles
        assert f"{len(before) + 1} documents" in banner

        outputs = client.predict("How much honey did each rooftop hive produce?", "question", api_name="/research")
        assert "Rooftop Apiaries in Lowmoor" in outputs[HEADER]
        assert "14.5 kg" in outputs[PASSAGE]

        bad = [
            handle_file(str(tmp_path / n)) for n in ("tool.exe", "empty.pdf", "corrupt.pdf", "lime blossom notes.txt")
        ]
        log, _, table, *_, banner = client.predict(bad, api_name="/ingest")
        log = html.unescape(log)
        assert re.search(r"tool\.exe</b>: rejected, file type '\.exe' is not supported", log)
        assert re.search(r"empty\.pdf</b>: rejected, the file is empty", log)
        assert re.search(r"corrupt\.pdf</b>: failed, ", log)
        assert re.search(r"\u2713 <b>lime blossom notes\.txt</b>", log)
        assert f"{len(before) + 2} documents" in banner
        now = {d.doc_id for d in registry.documents()}
        assert before < now  # nothing that was there is lost
        stored = sorted(p.name for p in sample_library.settings.storage.uploads_dir.iterdir())
        assert stored == ["lime_blossom_notes.txt", "rooftop_apiary_2023.md"]  # the failed PDF is not kept
    finally:
        for doc_id in {d.doc_id for d in registry.documents()} - before:
            message, table, *_ = client.predict(doc_id, api_name="/delete_document")
            assert "Deleted" in message
    assert {d.doc_id for d in registry.documents()} == before
    assert not any(sample_library.settings.storage.uploads_dir.iterdir())


def test_threads_are_listed_and_reopened(client, answered):
    thread = thread_of(answered[1])
    conversation = thread.split(".")[0]
    table, choices = client.predict(api_name="/threads")
    row = next(r for r in table["data"] if r[1] == conversation)
    assert conversation in [value for _, value in choices["choices"]]
    history, *panel, _ = client.predict(conversation, api_name="/open_conversation")
    questions = [text_of(m) for m in history if m["role"] == "user"]
    assert questions[0] == f"**Question:** {QUESTION}" and len(questions) == int(row[2])  # every run
    assert 'href="#prp-cite=' in text_of(history[-1])
    assert panel[0]["choices"]


class _SummaryFails(OfflineStrategy):
    """Offline research that breaks at the summary, as a model that goes away would."""

    def summarize(self, topic, findings, contradictions):
        raise RuntimeError("the model went away")


def test_an_interrupted_run_is_shown_and_resumed(client, sample_library):
    with open_checkpointer(sample_library.settings) as checkpointer, pytest.raises(RuntimeError):
        run_research(
            sample_library,
            _SummaryFails(sample_library.embedder),
            QUESTION,
            single_question=True,
            checkpointer=checkpointer,
            thread_id="resumable.1",
        )
    table, _ = client.predict(api_name="/threads")
    row = next(r for r in table["data"] if r[1] == "resumable")
    assert row[4] == "1 interrupted"
    history, *_ = client.predict("resumable", api_name="/open_conversation")
    assert "did not finish" in text_of(history[-1]) and "resumable.1" in text_of(history[-1])

    history, *panel, _ = client.predict("resumable", api_name="/resume")
    assert 'href="#prp-cite=resumable.1:1"' in text_of(history[-1])
    assert "[synthesize]" in text_of(history[-2]) and "[plan]" not in text_of(history[-2])  # resumed, not rerun
    table, _ = client.predict(api_name="/threads")
    assert next(r for r in table["data"] if r[1] == "resumable")[4] == "finished"


def test_stop_cancels_the_conversations_run_and_the_chat_says_so(client):
    job = client.submit(
        "Green roofs: stormwater, cooling, costs, maintenance, biodiversity and structural loads",
        "topic",
        api_name="/research",
    )
    deadline = time.monotonic() + 60
    while not job.outputs():  # the run has started and the session knows its thread
        assert time.monotonic() < deadline
        time.sleep(0.01)
    client.predict(api_name="/stop")
    history = job.result(timeout=180)[CHAT]
    if "did not finish" not in text_of(history[-1]):
        pytest.skip("the report finished before the stop reached it")
    assert "stopped on request" in text_of(history[-1])
    table, _ = client.predict(api_name="/threads")
    assert any(row[4].endswith("interrupted") for row in table["data"])  # resumable from the Threads tab


def test_prp_serve_fails_at_start_when_the_store_is_held(sample_library, monkeypatch, capsys):
    """The session's library holds the embedded index, as another process (not a service) would."""
    monkeypatch.setenv("PRP_DATA_DIR", str(sample_library.settings.storage.data_dir))
    monkeypatch.setenv("PRP_MODELS_DIR", str(sample_library.settings.models_dir))
    for command in ("serve", "ui"):
        assert cli_main([command, "--port", str(free_port())]) == 2
        error = capsys.readouterr().err
        assert "in use by another prp process" in error and "prp serve" in error and "The research service" in error


def test_llm_mode_names_its_model(sample_library):
    class Scripted:
        mode = "llm (qwen2.5-7b-instruct)"

    portal = LocalPortal(sample_library, Scripted())
    assert portal.mode_label() == "LLM mode \u00b7 model qwen2.5-7b-instruct"
    assert 'class="prp-pill prp-mode-llm"' in banner(portal)


def test_the_example_question_comes_from_the_library_s_own_titles():
    from types import SimpleNamespace

    from ui.chat.chat_tab import example_question

    def portal(*titles: str) -> SimpleNamespace:
        docs = [SimpleNamespace(title=t, added_at=f"2026-01-0{i}", doc_id=str(i)) for i, t in enumerate(titles, 1)]
        return SimpleNamespace(documents=lambda: docs)

    assert example_question(portal()) == "Add documents in the Library tab, then ask about them"
    asks = portal("Attention Is All You Need", "How Much Do Green Roofs Cool the Street? Mesoscale Simulation")
    assert example_question(asks) == "e.g. How Much Do Green Roofs Cool the Street?"
    labelled = portal("Quantization of Language Models: A Survey", "LABORATORY REPORT HL-2018-07")
    assert example_question(labelled) == "e.g. What does the library say about Quantization of Language Models?"
