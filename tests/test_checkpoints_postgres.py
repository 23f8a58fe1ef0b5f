"""Threads on PostgreSQL (``PRP_DATABASE_URL``): research runs checkpointed there are listed and
restored as from SQLite, a thread one process started is continued by another, the server's async
saver writes the same threads, and a library's SQLite threads are copied there exactly. A real
PostgreSQL server and the real graph; only the offline strategy answers (no LLM)."""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest
from langgraph.checkpoint.postgres import PostgresSaver
from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver

from config import Settings
from corpus.library import Library
from graph.build import build_graph
from graph.checkpoint_copy import TargetNotEmptyError, copy_threads
from graph.checkpoints import (
    DatabaseUnavailableError,
    open_async_checkpointer,
    open_checkpointer,
    open_sqlite_checkpointer,
    set_up_checkpoints,
)
from graph.run import run_research
from graph.threads import list_threads, thread_state
from research.context import RunContext
from research.options import ResearchOptions
from strategies.offline.strategy import OfflineStrategy
from ui.core.local import LocalPortal

from .cli_process import prp_env, run_prp
from .paths import SAMPLE_DOCS

pytestmark = pytest.mark.postgres

QUESTION = "How much rainfall do green roofs retain?"
CARBON = "How much carbon do green roofs store?"
FOLLOW_UP = "and how much PM10 do they capture?"


def on_postgres(settings: Settings, database_url: str) -> Settings:
    return settings.model_copy(update={"storage": settings.storage.model_copy(update={"database_url": database_url})})


def ask(library: Library, checkpointer, topic: str, thread_id: str):
    strategy = OfflineStrategy(library.embedder)
    return run_research(library, strategy, topic, single_question=True, checkpointer=checkpointer, thread_id=thread_id)


def test_a_run_checkpointed_in_postgres_is_listed_and_restored(sample_library, database_url):
    with open_checkpointer(on_postgres(sample_library.settings, database_url)) as checkpointer:
        assert isinstance(checkpointer, PostgresSaver)
        assert list_threads(checkpointer) == []  # a new database: the tables made, no threads yet
        result = ask(sample_library, checkpointer, QUESTION, "pg-run")
        [summary] = list_threads(checkpointer)
        state = thread_state(checkpointer, "pg-run")
    assert (summary.thread_id, summary.topic, summary.single_question, summary.finished) == (
        "pg-run",
        QUESTION,
        True,
        True,
    )
    assert summary.mode == "offline" and summary.citations == len(result.report.citations) > 0
    assert state["report"] == result.report and state["topic"] == QUESTION
    with open_sqlite_checkpointer(sample_library.settings) as sqlite:
        assert "pg-run" not in {s.thread_id for s in list_threads(sqlite)}


def test_the_server_s_async_saver_keeps_threads_the_others_read(sample_library, database_url):
    """What ``graph.studio.checkpointer`` gives LangGraph's server, on PostgreSQL."""
    settings = on_postgres(sample_library.settings, database_url)
    context = RunContext(library=sample_library, strategy=OfflineStrategy(sample_library.embedder))

    async def served_run() -> dict:
        async with open_async_checkpointer(settings) as saver:
            assert isinstance(saver, AsyncPostgresSaver)
            config = {"configurable": {"thread_id": "served"}}
            await build_graph(saver).ainvoke({"topic": QUESTION, "single_question": True}, config, context=context)
            return (await build_graph(saver).aget_state(config)).values

    served = asyncio.run(served_run())
    with open_checkpointer(settings) as checkpointer:
        assert [(s.thread_id, s.topic, s.finished) for s in list_threads(checkpointer)] == [("served", QUESTION, True)]
        assert thread_state(checkpointer, "served")["report"] == served["report"]


def test_a_thread_started_in_one_process_is_continued_in_another(make_settings, embedder, database_url):
    """Two processes on one database and one index, as two ``prp`` commands (or workers) are."""
    settings = on_postgres(make_settings("shared"), database_url)
    with Library(settings, embedder=embedder) as library:
        library.ingest(
            [SAMPLE_DOCS / "carbon_air_quality_2025.txt", SAMPLE_DOCS / "test_rig_retention_report_2018.txt"]
        )
    env = prp_env(settings.storage.data_dir, settings.models_dir, PRP_DATABASE_URL=database_url)
    done = run_prp(["ask", CARBON], env, timeout=120)
    assert done.returncode == 0, done.stderr
    thread = re.search(r"thread: (\S+)", done.stderr).group(1)

    with Library(settings, embedder=embedder) as library:
        with open_checkpointer(settings) as checkpointer:
            [summary] = list_threads(checkpointer)
        assert (summary.thread_id, summary.topic, summary.finished) == (thread, CARBON, True)
        with LocalPortal(library, OfflineStrategy(embedder), foreground=True) as portal:
            job = portal.start_research(FOLLOW_UP, single_question=True, options=ResearchOptions(), thread_id=thread)
            outcome = portal.follow(job.id, lambda event: None)
        assert outcome.report is not None, outcome.job.error
        with open_checkpointer(settings) as checkpointer:
            threads = {s.thread_id: s for s in list_threads(checkpointer)}
            first, second = thread_state(checkpointer, thread), thread_state(checkpointer, f"{thread}.2")
    assert set(threads) == {thread, f"{thread}.2"} and all(s.finished for s in threads.values())
    assert first["topic"] == CARBON and first["report"].citations
    # The second turn was read against the first, which the other process wrote.
    assert second["asked"] == FOLLOW_UP and second["topic"] == "How much PM10 do green roofs capture?"
    assert second["report"].citations and all("Carbon" in c.resolution.title for c in second["report"].citations)


def test_a_library_s_sqlite_threads_are_copied_exactly(copy_sample, make_settings, embedder, database_url):
    settings = make_settings("copied")
    copy_sample(settings.storage.data_dir)  # the sample library's own files: ingested once a session
    with Library(settings, embedder=embedder) as library, open_checkpointer(settings) as sqlite:
        for number, question in enumerate((QUESTION, CARBON), start=1):
            ask(library, sqlite, question, f"local-{number}")
        history = {t: list(sqlite.list({"configurable": {"thread_id": t}})) for t in ("local-1", "local-2")}
        listed = list_threads(sqlite)
        states = {t: thread_state(sqlite, t) for t in history}

    assert copy_threads(settings, database_url) == 2
    with open_checkpointer(on_postgres(settings, database_url)) as postgres:
        for thread_id, checkpoints in history.items():
            copied = list(postgres.list({"configurable": {"thread_id": thread_id}}))
            assert [c.config for c in copied] == [c.config for c in checkpoints]
            assert [c.parent_config for c in copied] == [c.parent_config for c in checkpoints]
            assert [c.metadata for c in copied] == [c.metadata for c in checkpoints]
            assert [c.checkpoint for c in copied] == [c.checkpoint for c in checkpoints]
            assert [c.pending_writes for c in copied] == [c.pending_writes for c in checkpoints]
            assert thread_state(postgres, thread_id) == states[thread_id]
        assert list_threads(postgres) == listed
    with pytest.raises(TargetNotEmptyError, match="already holds research threads"):
        copy_threads(settings, database_url)


def test_workers_starting_together_on_an_empty_database_make_the_tables_once(database_url):
    with ThreadPoolExecutor(4) as workers:
        list(workers.map(set_up_checkpoints, [database_url] * 4))
    with psycopg.connect(database_url) as connection:
        versions = [v for (v,) in connection.execute("SELECT v FROM checkpoint_migrations ORDER BY v")]
    assert versions == list(range(len(PostgresSaver.MIGRATIONS)))


def test_a_database_prp_cannot_reach_is_named_at_once(postgres, make_settings):
    settings = on_postgres(make_settings(), postgres.url("no_such_database"))
    with pytest.raises(DatabaseUnavailableError, match='PRP_DATABASE_URL: .*"no_such_database" does not exist'):
        with open_checkpointer(settings):
            pass
