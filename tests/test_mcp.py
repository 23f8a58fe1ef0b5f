"""The MCP server with the official SDK's client, as an assistant uses it: ``prp mcp`` spawned on stdio,
and ``/mcp`` on a real ``prp serve`` over streamable HTTP; the same answer bytes from ``prp ask``,
``POST /api/ask`` and MCP ``ask``; a run cancelled by the client; and an agent built from LangChain's
MCP adapters calling ``search`` and ``ask``. Offline mode: nothing is faked but the agent's model."""

from __future__ import annotations

import json
import time
from pathlib import Path

import anyio
import httpx
import jsonschema
import pytest
from mcp import ClientSession, McpError, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

from tools.citations.normalise import normalise

from .cli_process import PRP, prp_env, run_prp, run_prp_here
from .paths import ROOT, SAMPLE_DOCS
from .served import start, stop

QUESTION = "How much stormwater do green roofs retain?"
TOOLS = {"search", "ask", "report", "documents", "cite"}


@pytest.fixture(scope="module")
def library_dir(tmp_path_factory: pytest.TempPathFactory, copy_sample) -> Path:
    """The sample corpus ingested into a library no process holds open."""
    return copy_sample(tmp_path_factory.mktemp("mcp") / "data")


def _stdio(env: dict[str, str], *args: str) -> StdioServerParameters:
    return StdioServerParameters(command=PRP[0], args=[*PRP[1:], "mcp", *args], env=env, cwd=str(ROOT))


def over_stdio(env: dict[str, str], work, *args: str):
    """``work(session)`` on a ClientSession with a ``prp mcp`` of its own, to the end."""

    async def main():
        async with stdio_client(_stdio(env, *args)) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            return await work(session)

    return anyio.run(main)


def text(result: types.CallToolResult) -> str:
    return result.content[0].text


def valid(result: types.CallToolResult, tool: types.Tool) -> dict:
    """The result's structured content, checked against the tool's output schema."""
    assert not result.isError, text(result)
    jsonschema.validate(result.structuredContent, tool.outputSchema)
    return result.structuredContent


def test_stdio_lists_and_answers_every_tool_and_resource_and_refuses_bad_input_in_words(
    library_dir: Path, models_dir: Path
) -> None:
    async def work(session: ClientSession) -> None:
        tools = {t.name: t for t in (await session.list_tools()).tools}
        assert set(tools) == TOOLS  # read-only: no ingest without --allow-ingest
        for tool in tools.values():
            jsonschema.Draft202012Validator.check_schema(tool.inputSchema)
            jsonschema.Draft202012Validator.check_schema(tool.outputSchema)
            assert len(tool.description) > 80

        found = valid(await session.call_tool("search", {"query": "stormwater retention", "k": 3}), tools["search"])
        first = found["passages"][0]
        assert len(found["passages"]) == 3
        assert first["title"] and first["authors"] and first["year"] and first["blocks"][0]["page"] >= 1
        assert any(b["bbox"] for p in found["passages"] for b in p["blocks"])

        listed = valid(await session.call_tool("documents", {}), tools["documents"])
        assert listed["total"] == len(listed["documents"]) == 12
        recent = valid(await session.call_tool("documents", {"year_min": 2023, "types": ["pdf"]}), tools["documents"])
        assert recent["documents"] and all(d["year"] >= 2023 and d["type"] == "pdf" for d in recent["documents"])

        block = first["blocks"][0]["block_id"]
        cite_result = await session.call_tool("cite", {"block_id": block})
        cited = valid(cite_result, tools["cite"])
        assert cited["block_ids"] == [block] and cited["doc_id"] == first["doc_id"] and cited["number"] is None
        assert cited["matched_text"] and cited["matched_text"] in first["text"]
        assert [b["block_id"] for b in cited["passage"] if b["match"]] == [block]
        assert cited["bibtex"].startswith("@") and "file = {" in cited["bibtex"]  # no note unless asked
        if first["blocks"][0]["bbox"]:  # a PDF's block: the page crop, as image content
            assert cite_result.content[-1].type == "image" and cite_result.content[-1].mimeType == "image/png"
        await boxes_a_quotes_words(session, tools["cite"])

        steps: list[str] = []

        async def progress(done: float, total: float | None, message: str | None) -> None:
            steps.append(message or "")

        result = await session.call_tool("ask", {"question": QUESTION}, progress_callback=progress)
        answer = valid(result, tools["ask"])
        assert text(result) == answer["markdown"] and answer["citations"]
        assert steps[0].startswith("[start] ask offline mode, thread ") and len(steps) > 2
        assert answer["thread_id"] in result.content[1].text

        follow_up = await session.call_tool(
            "ask", {"question": "and what about peak flow?", "thread": answer["thread_id"]}
        )
        second = valid(follow_up, tools["ask"])
        assert second["thread_id"] != answer["thread_id"]
        assert second["asked"] == "and what about peak flow?" and "peak flow" in second["topic"].lower()

        resources = {str(r.uri) for r in (await session.list_resources()).resources}
        assert {f"prp://documents/{d['doc_id']}" for d in listed["documents"]} <= resources
        assert f"prp://threads/{answer['thread_id']}" in resources
        templates = {t.uriTemplate for t in (await session.list_resource_templates()).resourceTemplates}
        assert templates == {"prp://documents/{doc_id}", "prp://threads/{thread_id}"}
        document = json.loads((await session.read_resource(f"prp://documents/{first['doc_id']}")).contents[0].text)
        assert document["document"]["title"] == first["title"]
        assert any(block_text in page["text"] for page in document["pages"] for block_text in [cited["matched_text"]])
        thread = json.loads((await session.read_resource(f"prp://threads/{answer['thread_id']}")).contents[0].text)
        assert thread["markdown"] == answer["markdown"]
        await says_what_to_change(session)  # in the same process: a second would open the library again

    over_stdio(prp_env(library_dir, models_dir), work)


async def boxes_a_quotes_words(session: ClientSession, cite: types.Tool) -> None:
    """`cite` with a quote of a PDF's block: the quote's own words, one box a line, in the block's box."""
    found = await session.call_tool("search", {"query": "roof cooling heatwave", "k": 5, "types": ["pdf"]})
    blocks = [b for p in found.structuredContent["passages"] for b in p["blocks"] if b["bbox"]][:4]
    wholes = [valid(await session.call_tool("cite", {"block_id": b["block_id"]}), cite) for b in blocks]
    whole = max(wholes, key=lambda w: len(w["matched_text"]))  # a paragraph, not a heading
    block = blocks[wholes.index(whole)]
    assert len(whole["words"]) >= 1 and {w["block_id"] for w in whole["words"]} == {block["block_id"]}
    quote = " ".join(whole["matched_text"].split()[3:15])
    result = await session.call_tool("cite", {"block_id": block["block_id"], "quote": quote})
    cited = valid(result, cite)
    assert cited["matched_text"] == quote and cited["quote"] == quote
    assert normalise(" ".join(w["text"] for w in cited["words"])) == normalise(quote)
    box = block["bbox"]
    assert all(box["x0"] <= w["bbox"]["x0"] and w["bbox"]["x1"] <= box["x1"] for w in cited["words"])
    assert "the quoted words:" in text(result) and cited["words"][0]["text"] in text(result)
    missing = await session.call_tool("cite", {"block_id": block["block_id"], "quote": "street trees shade the canal"})
    assert missing.isError and f"block {block['block_id']} does not hold this quote" in text(missing)


async def says_what_to_change(session: ClientSession) -> None:
    """Bad input gets an error that says what to change, never a traceback."""

    async def error(tool: str, arguments: dict) -> str:
        result = await session.call_tool(tool, arguments)
        assert result.isError
        return text(result)

    assert "over the limit of 4,000: shorten it" in await error("search", {"query": "roof " * 1000})
    assert "no document nope in the library: call `documents`" in await error(
        "search", {"query": "roof", "doc_ids": ["nope"]}
    )
    assert "Year range is empty: from 2024 to 2000" in await error(
        "search", {"query": "roof", "year_min": 2024, "year_max": 2000}
    )
    assert "k: Input should be less than or equal to 50" in await error("search", {"query": "roof", "k": 500})
    assert "year range is empty" in await error("documents", {"year_min": 2024, "year_max": 2000})
    assert "no block 'nope-0001' in the library" in await error("cite", {"block_id": "nope-0001"})
    assert "over the limit" in await error("ask", {"question": "why? " * 1000})
    for message in [await error(t, a) for t, a in (("search", {"query": "x" * 5000}), ("cite", {"block_id": "x"}))]:
        assert "Traceback" not in message
    with pytest.raises(McpError, match="no document 'nope'"):
        await session.read_resource("prp://documents/nope")
    with pytest.raises(McpError, match="nope"):
        await session.read_resource("prp://threads/nope")


def test_stdio_ingest_only_when_allowed_with_the_cli_refusals(tmp_path: Path, models_dir: Path) -> None:
    data = tmp_path / "data"
    one = SAMPLE_DOCS / "harborview_policy_brief_2023.md"

    async def work(session: ClientSession) -> None:
        assert "ingest" in {t.name for t in (await session.list_tools()).tools}
        nothing = await session.call_tool("ingest", {})
        assert nothing.isError and "name at least one file" in text(nothing)
        relative = await session.call_tool("ingest", {"paths": ["docs/paper.pdf"]})
        assert relative.isError and "absolute paths" in text(relative)
        refused = await session.call_tool("ingest", {"paths": [str(data)]})
        assert refused.isError and "library" in text(refused)
        files: list[str] = []

        async def progress(done: float, total: float | None, message: str | None) -> None:
            files.append(message or "")

        done = await session.call_tool("ingest", {"paths": [str(one)]}, progress_callback=progress)
        assert not done.isError, text(done)
        assert json.loads(text(done))["documents"]["ok"] == 1 and len(files) == 1
        assert files[0].startswith(f"ok: {one.name} (ingest: 1/1 document, 1 page, ")
        listed = (await session.call_tool("documents", {})).structuredContent
        assert listed["total"] == 1

    over_stdio(prp_env(data, models_dir), work, "--allow-ingest")


# --- through a running service --------------------------------------------------------------------


def _api_answer(url: str, question: str) -> str:
    started = httpx.post(f"{url}/api/ask", json={"topic": question}, timeout=30).json()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        job = httpx.get(f"{url}/api/jobs/{started['job']['job_id']}", timeout=30).json()
        if job["state"] in ("done", "failed", "cancelled"):
            break
        time.sleep(0.2)
    return httpx.get(f"{url}{started['report']}", timeout=30).json()["markdown"]


def test_served_mcp_one_code_path_cancellation_and_concurrent_use(library_dir: Path, models_dir: Path) -> None:
    env = prp_env(library_dir, models_dir)
    # ``prp ask`` with no service running: the library opened by the command itself (its ``main`` in
    # this process: the concurrent use below is where separate processes are the point).
    cli = run_prp_here(["ask", QUESTION, "--quiet"], env)
    assert cli.returncode == 0, cli.stderr
    process, url, env = start(library_dir, models_dir)
    try:
        api_markdown = _api_answer(url, QUESTION)
        assert cli.stdout == api_markdown + "\n"

        async def over_http():
            async with streamable_http_client(f"{url}/mcp") as (read, write, _), ClientSession(read, write) as session:
                initialized = await session.initialize()
                assert initialized.serverInfo.name == "prp"  # prp's server, not LangGraph's graph-as-a-tool
                assert {t.name for t in (await session.list_tools()).tools} == TOOLS
                answer = await session.call_tool("ask", {"question": QUESTION})
                assert text(answer) == api_markdown

                # A report cancelled by the client: the run stops, keeping its steps; asked again with
                # its thread, it resumes and finishes.
                topic = "Green roofs: stormwater retention, street cooling and maintenance costs"
                thread: list[str] = []
                request_id = session._request_id  # the id the next request gets
                async with anyio.create_task_group() as tasks:

                    async def progress(done: float, total: float | None, message: str | None) -> None:
                        if not thread and message and "thread " in message:
                            thread.append(message.rsplit("thread ", 1)[1])
                            await session.send_notification(
                                types.ClientNotification(
                                    types.CancelledNotification(
                                        params=types.CancelledNotificationParams(requestId=request_id)
                                    )
                                )
                            )

                    async def report() -> None:
                        with pytest.raises(McpError, match="cancelled"):
                            await session.call_tool("report", {"topic": topic}, progress_callback=progress)

                    tasks.start_soon(report)
                return thread[0]

        thread_id = anyio.run(over_http)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            runs = httpx.get(f"{url}/api/jobs", params={"kind": "research"}, timeout=30).json()
            run = next(j for j in runs if j["info"].get("thread_id") == thread_id)
            if run["state"] != "running":
                break
            time.sleep(0.2)
        assert run["state"] == "cancelled"

        async def resume_and_concurrent_use():
            # The HTTP server, a `prp mcp` going through the service, the CLI and the chat at once.
            results: dict[str, object] = {}
            topic = "Green roofs: stormwater retention, street cooling and maintenance costs"

            async def http_resume() -> None:
                async with streamable_http_client(f"{url}/mcp") as (r, w, _), ClientSession(r, w) as session:
                    await session.initialize()
                    resumed = await session.call_tool("report", {"topic": topic, "thread": thread_id})
                    results["resumed"] = resumed

            async def stdio_ask() -> None:
                # `prp mcp` with the service up goes through it (RemotePortal): the same calls over REST.
                async with stdio_client(_stdio(env)) as (r, w), ClientSession(r, w) as session:
                    await session.initialize()
                    answer = await session.call_tool("ask", {"question": QUESTION})
                    citation = answer.structuredContent["citations"][0]
                    cited = await session.call_tool("cite", {"block_id": citation["block_ids"][0]})
                    document = await session.read_resource(f"prp://documents/{citation['doc_id']}")
                    missing = await session.call_tool("cite", {"block_id": "nope-0001"})
                    resources = {str(r.uri) for r in (await session.list_resources()).resources}
                    results["stdio"] = (answer, cited, json.loads(document.contents[0].text), missing, resources)

            async def cli_search() -> None:
                results["cli"] = await anyio.to_thread.run_sync(
                    lambda: run_prp(["search", "green roof cooling", "--json"], env, timeout=120)
                )

            def chat_question() -> list:
                from gradio_client import Client

                # The chat is built in the background as the service starts: a request waits for it.
                config = httpx.get(f"{url}/chat/config", timeout=240)
                assert config.status_code == 200, config.text  # a 503 says why the chat did not start
                return Client(f"{url}/chat/", verbose=False).predict(QUESTION, "question", api_name="/research")

            async def chat_ask() -> None:
                results["chat"] = await anyio.to_thread.run_sync(chat_question)

            async with anyio.create_task_group() as tasks:
                for work in (http_resume, stdio_ask, cli_search, chat_ask):
                    tasks.start_soon(work)
            return results

        results = anyio.run(resume_and_concurrent_use)
        resumed = results["resumed"]
        assert not resumed.isError and resumed.structuredContent["thread_id"] == thread_id
        assert not resumed.structuredContent["single_question"] and resumed.structuredContent["citations"]
        answer, cited, document, missing, resources = results["stdio"]
        assert text(answer) == api_markdown  # `prp mcp` through the service: the same bytes
        citation = answer.structuredContent["citations"][0]
        assert citation["matched_text"] in cited.structuredContent["matched_text"]
        assert document["document"]["doc_id"] == citation["doc_id"] and document["pages"]
        assert missing.isError and "no block 'nope-0001'" in text(missing)
        assert f"prp://threads/{answer.structuredContent['thread_id']}" in resources
        assert results["cli"].returncode == 0 and json.loads(results["cli"].stdout)
        chat_answer = results["chat"][0][-1]["content"]
        assert "50 to 60 percent" in json.dumps(chat_answer)
    finally:
        stop(process)


# --- LangChain's MCP adapters ---------------------------------------------------------------------


def test_an_agent_from_langchain_mcp_adapters_calls_search_and_ask(library_dir: Path, models_dir: Path) -> None:
    from langchain.agents import create_agent
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage, ToolMessage
    from langchain_mcp_adapters.client import MultiServerMCPClient
    from langchain_mcp_adapters.tools import load_mcp_tools

    class ScriptedToolCaller(GenericFakeChatModel):
        """The agent's model, scripted: it calls search, then ask, then answers (the only fake)."""

        def bind_tools(self, tools, **kwargs):
            return self

    script = [
        AIMessage("", tool_calls=[{"name": "search", "args": {"query": "stormwater retention", "k": 3}, "id": "1"}]),
        AIMessage("", tool_calls=[{"name": "ask", "args": {"question": QUESTION}, "id": "2"}]),
        AIMessage("Green roofs retain about half of annual rainfall."),
    ]
    env = prp_env(library_dir, models_dir)
    client = MultiServerMCPClient(
        {"prp": {"transport": "stdio", "command": PRP[0], "args": [*PRP[1:], "mcp"], "env": env, "cwd": str(ROOT)}}
    )

    async def main():
        async with client.session("prp") as session:
            tools = await load_mcp_tools(session)
            assert TOOLS <= {t.name for t in tools}
            agent = create_agent(ScriptedToolCaller(messages=iter(script)), tools)
            return await agent.ainvoke({"messages": [("user", QUESTION)]})

    state = anyio.run(main)
    replies = {m.name: m for m in state["messages"] if isinstance(m, ToolMessage)}
    assert set(replies) == {"search", "ask"}
    assert all(m.status != "error" for m in replies.values())
    assert "Halvorsen" in str(replies["search"].content)
    assert "[1]" in str(replies["ask"].content) and "offline mode" in str(replies["ask"].content)


def test_prp_mcp_answers_tools_list_quickly(library_dir: Path, models_dir: Path) -> None:
    """The CLI's lazy imports: the tools are listed before the library opens (the target is 2 s on an
    idle machine; the bound here leaves room for a busy one)."""
    started = time.monotonic()
    names = over_stdio(prp_env(library_dir, models_dir), lambda s: _names(s))
    assert names == TOOLS and time.monotonic() - started < 8


async def _names(session: ClientSession) -> set[str]:
    return {t.name for t in (await session.list_tools()).tools}
