"""Follow-up questions: a turn that leans on the one before is read as a standalone question before
research, in both modes, through the real graph on the sample corpus (only the LLM is scripted);
a standalone turn is left as asked; the chat's thread ids, the REST API's ``conversation`` and
``prp ask --thread`` continue a conversation the same way."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from research.conversation import CitedDocument, Turn
from research.options import ResearchOptions
from strategies.llm.strategy import LLMStrategy
from strategies.offline.follow_up import condense, leans_on_history
from strategies.offline.strategy import OfflineStrategy
from testing_support.llm_fakes import ScriptedChatModel
from testing_support.llm_scripts import honest_answer, summary_reply
from ui.chat.chat_tab import ChatSession, panel_updates, run_turn
from ui.cli.main import main
from ui.core.conversations import new_conversation_id, run_thread_id
from ui.core.local import LocalPortal
from ui.core.report_json import JsonReport
from ui.service.app import create_app

READ_AS = "follow-up read as: "

#: (first turn, follow-up, how the offline rules read it, a word of the title of the document the
#: answer must cite): five two-turn conversations on the sample corpus.
CONVERSATIONS = [
    (
        "How much rainfall do green roofs retain?",
        "and how much carbon do they store?",
        "How much carbon do green roofs store?",
        "Carbon Uptake",
    ),
    (
        "What did the Harborview cooling model find?",
        "what about the policy brief?",
        "What does the policy brief say about cooling?",
        "Policy Brief",
    ),
    (
        "How much do green roofs lower street-level air temperature?",
        "What did the second paper find?",
        "What does Policy Brief 2023-04 say about green roofs?",
        "Policy Brief",
    ),
    (
        "How many spider species do biodiverse roofs support?",
        "what about sedum roofs?",
        "How many spider species do sedum roofs support?",
        "Spiders, Bees and Birds",
    ),
    (
        "What does the Riverton Green Crown programme require?",
        "and when does it take effect?",
        "When does the Riverton Green Crown programme take effect?",
        "Green Crown",
    ),
]

#: What the scripted model answers to the condense step for each follow-up: worded unlike the
#: offline rules, so a run on it shows the model's question was the one researched.
LLM_READINGS = {
    "and how much carbon do they store?": "How much carbon do extensive green roofs store over time?",
    "what about the policy brief?": "What does the Harborview policy brief say about street cooling?",
    "What did the second paper find?": "What did the Harborview policy brief find about street-level air temperature?",
    "what about sedum roofs?": "How many spider species live on sedum roofs?",
    "and when does it take effect?": "From when does the Green Crown programme apply in Riverton?",
}

CITED = [
    CitedDocument(doc_id="d1", title="Hydrological Performance of Extensive Green Roofs: A Systematic Review"),
    CitedDocument(doc_id="d2", title="Policy Brief 2023-04: Green Roofs for a Cooler Harborview"),
]


def turn(question: str, cited: list[CitedDocument] = CITED) -> list[Turn]:
    return [Turn(asked=question, question=question, cited=cited)]


# --- the offline rules --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("previous", "follow_up", "standalone", "scope"),
    [
        (
            "How much rainfall do green roofs retain?",
            "and how much does it cost to install them?",
            "How much does it cost to install green roofs?",
            [],
        ),
        ("How much rainfall do green roofs retain?", "and what does it cost?", "What do green roofs cost?", []),
        (
            "What did the Harborview cooling model find?",
            "what did it find about heatwaves?",
            "What did the Harborview cooling model find about heatwaves?",
            [],
        ),
        ("What is the cost of green roofs?", "and the maintenance?", "What is the maintenance of green roofs?", []),
        (
            "How much rainfall do green roofs retain?",
            "how about blue roofs?",
            "How much rainfall do blue roofs retain?",
            [],
        ),
        (
            "How much rainfall do green roofs retain?",
            "compare that with the second paper",
            "Compare green roofs with Policy Brief 2023-04.",
            ["d1", "d2"],
        ),
        (
            "How much rainfall do green roofs retain?",
            "What did the first paper find?",
            "What does Hydrological Performance of Extensive Green Roofs say about green roofs?",
            ["d1"],
        ),
        (
            "How much load does a green roof add to an existing building?",
            "what about the retrofit cost?",
            "What is the retrofit cost of a green roof?",
            [],
        ),
        ("How much rainfall do green roofs retain?", "why?", "Why, regarding green roofs?", []),
        # The question's own verb stays, however the list of verbs misses it.
        (
            "Does A outperform B on all benchmarks?",
            "and what about X?",
            "Does X outperform B on all benchmarks?",
            [],
        ),
        (
            "Does SciBERT surpass BERT on all evaluated benchmarks?",
            "and what about BioBERT?",
            "Does BioBERT surpass BERT on all evaluated benchmarks?",
            [],
        ),
        (
            "Do transformers rival LSTMs on long inputs?",
            "what about Mamba?",
            "Does Mamba rival LSTMs on long inputs?",
            [],
        ),
    ],
)
def test_a_follow_up_is_read_against_the_turn_before(previous, follow_up, standalone, scope):
    read = condense(follow_up, turn(previous))
    assert read.follow_up and read.question == standalone and read.doc_ids == scope


@pytest.mark.parametrize(
    "question",
    [
        "How much rainfall do blue roofs retain?",
        "What plants survive on extensive green roofs?",
        "How much does it cost to install a green roof?",  # "it" is the cost's, named in the turn
        "Do green roofs retain rainfall when they are saturated?",  # "they" has its antecedent
        "What is evapotranspiration?",  # short, yet it names its subject
        "What is a green roof and how much does it weigh?",  # "it" has its antecedent
        "So-called blue roofs: how much rainfall do they retain?",
        "What did the Riverton council approve?",
    ],
)
def test_a_standalone_question_is_left_as_asked(question):
    assert not leans_on_history(question)
    assert condense(question, turn("How much rainfall do green roofs retain?")).question == question


def test_an_ordinal_beyond_the_cited_documents_scopes_nothing():
    read = condense("What did the third paper find?", turn("How much rainfall do green roofs retain?"))
    assert read.follow_up and read.doc_ids == []
    assert condense("and what does it cost?", []).question == "and what does it cost?"  # no history


# --- through the graph: the chat's conversations ------------------------------------------------


def converse(portal: LocalPortal, first: str, second: str) -> tuple[JsonReport, JsonReport, list[str]]:
    """Two turns of one chat conversation (the chat's thread ids); the second's progress lines."""
    conversation, reports, lines = new_conversation_id(), [], []
    for number, question in enumerate([first, second], start=1):
        job = portal.start_research(
            question,
            single_question=True,
            options=ResearchOptions(),
            thread_id=run_thread_id(conversation, number),
        )
        lines.clear()
        outcome = portal.follow(job.id, lambda e: lines.append(e.data["line"]) if e.event == "progress" else None)
        assert outcome.report is not None, outcome.job.error
        reports.append(outcome.report)
    return reports[0], reports[1], list(lines)


@pytest.fixture(scope="module")
def offline_portal(sample_library) -> Iterator[LocalPortal]:
    with LocalPortal(sample_library, OfflineStrategy(sample_library.embedder), foreground=True) as portal:
        yield portal


def test_offline_follow_ups_are_answered_about_the_right_subject(offline_portal):
    right = 0
    for first, second, standalone, title_word in CONVERSATIONS:
        _, answer, lines = converse(offline_portal, first, second)
        assert answer.asked == second and answer.topic == standalone
        assert any(line.startswith(READ_AS + standalone) for line in lines), lines
        cited = {c.title for c in answer.citations}
        right += bool(cited) and all(title_word in t for t in cited)
    assert right == len(CONVERSATIONS)  # 5/5


def test_a_standalone_second_turn_is_not_dragged_back(offline_portal):
    first, answer, lines = converse(
        offline_portal, "How much rainfall do green roofs retain?", "What did the Riverton council approve?"
    )
    assert answer.asked is None and answer.topic == "What did the Riverton council approve?"
    assert not any(READ_AS in line for line in lines)
    assert all("Green Crown" in c.title for c in answer.citations) and answer.citations
    assert {c.doc_id for c in first.citations}.isdisjoint(c.doc_id for c in answer.citations)


def test_the_chat_passes_its_session_s_turns(sample_library):
    session, history = ChatSession(), []
    # The chat reads its runs as a serving process's jobs, on the portal's threads.
    with LocalPortal(sample_library, OfflineStrategy(sample_library.embedder)) as portal:
        for question in ("How much rainfall do green roofs retain?", "and how much carbon do they store?"):
            updates = run_turn(portal, session, history, question, True, ResearchOptions(), session.next_thread_id())
            history = [update[0] for update in updates][-1]  # the chat as the last update leaves it
    steps, answer = history[-2]["content"], history[-1]["content"]
    assert history[-3]["content"].endswith("and how much carbon do they store?")  # shown as typed
    assert f"{READ_AS}How much carbon do green roofs store?" in steps and "Carbon Uptake" in answer
    assert session.turns == [f"{session.conversation}.1", f"{session.conversation}.2"]
    # The downloads of the second turn hold the whole conversation's report and bibliographies.
    with LocalPortal(sample_library, OfflineStrategy(sample_library.embedder)) as portal:
        downloads = panel_updates(portal, portal.runs.record(session.turns[1]), None)[-1]
    names = {Path(p).name for p in downloads}
    assert {"report.md", "conversation-report.md", "conversation-bibliography.bib"} <= names
    whole = next(Path(p) for p in downloads if p.endswith("conversation-report.md")).read_text()
    assert "## Turn 1: How much rainfall" in whole and "## Turn 2: and how much carbon do they store?" in whole


# --- LLM mode: the condense step -----------------------------------------------------------------


def llm_script(condense_reply=None):
    def script(step: str, prompt: str):
        if step == "condense":
            if condense_reply is not None:
                return condense_reply
            follow_up = re.search(r"Follow-up \(from the researcher\): (.*)", prompt).group(1)
            return {"question": LLM_READINGS[follow_up]}
        if step == "plan":  # a single question, restated as asked
            question = re.search(r"Question \(from the researcher\): (.*)", prompt).group(1)
            return {"sub_questions": [{"question": question, "rationale": "The question asked."}]}
        if step == "answer":
            return honest_answer(prompt)
        if step == "summary":
            return summary_reply(prompt)
        return {"contradictions": []}

    return script


def test_llm_follow_ups_are_condensed_by_the_model_and_researched_as_read(sample_library):
    model = ScriptedChatModel(script=llm_script())
    right = 0
    with LocalPortal(
        sample_library,
        LLMStrategy(model, "scripted", fallback=OfflineStrategy(sample_library.embedder)),
        foreground=True,
    ) as portal:
        for first, second, _, title_word in CONVERSATIONS:
            before = len(model.calls)
            previous, answer, lines = converse(portal, first, second)
            standalone = LLM_READINGS[second]
            calls = model.calls[before:]
            [condense_prompt] = [prompt for step, prompt in calls if step == "condense"]
            # The history: the first turn's question and the start of its answer, then the follow-up.
            assert (
                f"Question 1: {first}" in condense_prompt
                and f"Follow-up (from the researcher): {second}" in condense_prompt
            )
            # (a one-question report is its answer: the section's claims, no summary)
            assert previous.sections[0].claims[0].text[:60] in condense_prompt
            # The research ran on the model's standalone question.
            # (A question worded as one is researched as asked, without a planning call: the answer's
            # prompt shows what was researched.)
            answer_prompts = [prompt for step, prompt in calls if step == "answer"]
            assert f"Sub-question: {standalone}" in answer_prompts[-1]
            assert answer.asked == second and answer.topic == standalone
            assert any(line.startswith(READ_AS + standalone) for line in lines), lines
            # The answer's lead: the graph's answer-dispute check sets a second document against the
            # sedum question's answer ("100 mm" of substrate read as a count of spider species).
            titles = {c.number: c.title for c in answer.citations}
            cited = {titles[n] for section in answer.sections if section.claims for n in section.claims[0].citations}
            right += bool(cited) and all(title_word in t for t in cited)
    assert right == len(CONVERSATIONS)  # 5/5


def test_llm_standalone_turn_costs_no_call_and_a_failed_condense_falls_back(sample_library):
    model = ScriptedChatModel(script=llm_script(condense_reply="no JSON here"))
    with LocalPortal(
        sample_library,
        LLMStrategy(model, "scripted", fallback=OfflineStrategy(sample_library.embedder)),
        foreground=True,
    ) as portal:
        _, answer, _ = converse(
            portal, "How much rainfall do green roofs retain?", "What did the Riverton council approve?"
        )
        assert answer.asked is None and not [s for s, _ in model.calls if s == "condense"]
        first, second, standalone, _ = CONVERSATIONS[0]
        _, answer, _ = converse(portal, first, second)
        # Asked twice (one informed retry), then the offline reading stands: the run goes on.
        assert [s for s, _ in model.calls].count("condense") == 2
        assert answer.asked == second and answer.topic == standalone


# --- the REST API and `prp ask --thread` ---------------------------------------------------------


@pytest.fixture
def own_library(make_library, copy_sample, tmp_path):
    """Two text documents in a library of their own (the CLI opens it itself), copied from the session's
    ingest of them: the conversation is the point, not the ingest."""
    copy_sample(tmp_path / "conversation", ("carbon_air_quality_2025.txt", "test_rig_retention_report_2018.txt"))
    return make_library("conversation")


def finished(client: TestClient, started: dict) -> tuple[dict, list[str]]:
    lines, report = [], None
    with client.stream("GET", started["events"]) as response:
        name = None
        for line in response.iter_lines():
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: ") and name == "progress":
                lines.append(json.loads(line[6:])["line"])
            elif line.startswith("data: ") and name == "result":
                report = json.loads(line[6:])["report"]
    return report, lines


def test_the_api_continues_a_conversation(own_library):
    app = create_app(LocalPortal(own_library, OfflineStrategy(own_library.embedder)), chat=False)
    with TestClient(app, base_url="http://127.0.0.1:8400", client=("127.0.0.1", 50000)) as client:
        first = client.post("/api/ask", json={"topic": "How much carbon do green roofs store?"}).json()
        finished(client, first)
        thread = first["thread_id"]
        second = client.post(
            "/api/ask", json={"topic": "and how much PM10 do they capture?", "conversation": thread}
        ).json()
        assert second["thread_id"] == f"{thread}.2"
        report, lines = finished(client, second)
        assert report["asked"] == "and how much PM10 do they capture?"
        assert report["topic"] == "How much PM10 do green roofs capture?"
        assert READ_AS + report["topic"] in lines
        assert report["citations"] and all("Carbon" in c["title"] for c in report["citations"])
        # The thread id of a finished run with another question continues the conversation too.
        third = client.post("/api/ask", json={"topic": "and why?", "thread_id": f"{thread}.2"}).json()
        assert third["thread_id"] == f"{thread}.3"
        finished(client, third)
        assert client.post("/api/ask", json={"topic": "and why?", "conversation": "nosuchthing"}).status_code == 404
        # The whole conversation's report and evidence table, through the API.
        whole = client.get(f"/api/conversations/{thread}/exports/report-md")
        assert whole.status_code == 200 and whole.text.count("\n## Turn ") == 3
        assert client.get(f"/api/conversations/{thread}/exports/evidence-csv").status_code == 200
        assert client.get("/api/conversations/nosuchthing/exports/report-md").status_code == 404


def test_prp_ask_thread_continues_the_conversation(own_library, monkeypatch, capsys):
    monkeypatch.setenv("PRP_DATA_DIR", str(own_library.settings.storage.data_dir))
    monkeypatch.setenv("PRP_MODELS_DIR", str(own_library.settings.models_dir))
    own_library.close()  # the command opens the library itself
    assert main(["ask", "How much carbon do green roofs store?"]) == 0
    thread = re.search(r"thread: (\S+)", capsys.readouterr().err).group(1)
    assert main(["ask", "--thread", thread, "and how much PM10 do they capture?"]) == 0
    out, err = capsys.readouterr()
    assert f"[plan] {READ_AS}How much PM10 do green roofs capture?" in err
    assert f"thread: {thread}.2 " in err
    assert "PM10" in out

    # The whole conversation exported: both turns, citations numbered through it, one bibliography.
    folder = own_library.settings.storage.data_dir / "conversation-export"
    assert main(["export", "--thread", f"{thread}.2", "--out", str(folder)]) == 0
    capsys.readouterr()
    report = (folder / "report.md").read_text()
    assert report.startswith("# Conversation: ") and "## Turn 1: How much carbon" in report
    assert "## Turn 2: and how much PM10 do they capture?" in report and "### References" in report
    turns = report.split("## Turn 2:")
    first_numbers = set(re.findall(r"^\[(\d+)\]", turns[0], re.MULTILINE))
    second_numbers = set(re.findall(r"^\[(\d+)\]", turns[1], re.MULTILINE))
    assert first_numbers and second_numbers and not first_numbers & second_numbers
    rows = list(csv.DictReader(io.StringIO((folder / "evidence.csv").read_text())))
    assert {r["citation"] for r in rows} <= first_numbers | second_numbers
    assert {int(r["citation"]) for r in rows} & {int(n) for n in second_numbers}  # turn 2's evidence too
    assert (folder / "bibliography.bib").read_text().count("@") >= 1
    assert main(["export", "--thread", "no-such-conversation", "--out", str(folder)]) == 1
