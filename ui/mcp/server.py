"""prp as an MCP server: the library's tools (search, ask, report, documents, cite; ingest when
allowed) and resources (each document, each finished run), a thin translation over the application
core (``ui.core.portal``) — the same operations, with the same checks and words, as the CLI and the
REST API. ``prp mcp`` serves it on stdio (``ui.cli.mcp``), ``prp serve`` at ``/mcp`` over
streamable HTTP (``ui.service.app``).

Only what the tool schemas need is imported here, so a client listing the tools is answered within
a second or two of starting the server; the core loads at the first call that uses the library.

The portal's calls block (a search, a research run followed to its end): they run on worker
threads, so one client's long report never holds up another's search. A research run reports its
steps as MCP progress notifications; a client that cancels the call cancels the run (it keeps its
checkpoints, so asking again with its thread resumes it).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

import anyio
from mcp.server.fastmcp import Context, FastMCP
from mcp.server.fastmcp.exceptions import ToolError
from mcp.server.transport_security import TransportSecuritySettings
from mcp.types import CallToolResult, ImageContent, Resource, TextContent, ToolAnnotations
from mcp.types import Tool as MCPTool
from pydantic import AnyUrl, Field, ValidationError

from config import ServiceSettings
from corpus.errors import PrpError
from corpus.ingest_progress import IngestProgress
from corpus.models import DocType
from corpus.retrieval import DEFAULT_K, MAX_K, SearchMode
from ui.core.ingest_limit import check_named_paths
from ui.core.passages import CitationView
from ui.core.query_limit import MAX_QUERY_CHARS
from ui.core.report_json import JsonReport
from ui.mcp.results import DocumentList, SearchResults, cite_text, documents_text, search_results, search_text

if TYPE_CHECKING:
    from ui.core.jobs import JobEvent, JobView
    from ui.core.portal import Portal

#: The server's name as assistants show it.
SERVER_NAME = "prp"
INSTRUCTIONS = (
    "prp answers from the user's own library of documents (PDF, Markdown, text, HTML), and every claim it "
    "makes cites the exact block of the exact page. `search` finds passages; `ask` answers one question "
    "with a cited answer (pass the `thread` it returns to ask a follow-up); `report` researches a topic "
    "into a cited report with the sources' disagreements; `documents` lists the library; `cite` gives a "
    "block's stored text, page, bounding box and BibTeX. Quote prp's citations as given: each has been "
    "checked against the stored text."
)
DOCUMENT_URI = "prp://documents/{doc_id}"
THREAD_URI = "prp://threads/{thread_id}"
READ_ONLY = ToolAnnotations(readOnlyHint=True, openWorldHint=False)
# A research run only reads the library, but it records a thread (a new run each time it is called).
RESEARCH = ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False, openWorldHint=False)

#: Opens (once) and returns the portal the tools work on.
PortalSource = Callable[[], "Portal"]
T = TypeVar("T")
DEFAULT_INGEST_MAX_PATHS: int = ServiceSettings.model_fields["ingest_max_paths"].default

Question = Annotated[
    str, Field(description=f"The question, in the researcher's words; at most {MAX_QUERY_CHARS:,} characters.")
]
Thread = Annotated[
    str | None,
    Field(
        pattern=r"^[A-Za-z0-9._-]{1,64}$",
        description="The thread id an earlier `ask` or `report` returned: a new question continues that "
        "conversation ('and what does it cost?' is read against it); the same question resumes a run that "
        "was cancelled or interrupted.",
    ),
]
DocIds = Annotated[list[str] | None, Field(description="Only these documents (ids, as `documents` lists them).")]
YearMin = Annotated[int | None, Field(description="Published in or after this year.")]
YearMax = Annotated[int | None, Field(description="Published in or before this year.")]
Types = Annotated[list[DocType] | None, Field(description="Only these document types.")]


def build_server(
    source: PortalSource,
    *,
    allow_ingest: bool = False,
    ingest_max_paths: int = DEFAULT_INGEST_MAX_PATHS,
    warm: Callable[[], None] | None = None,
) -> FastMCP:
    """The server over the portal ``source`` gives. ``allow_ingest``: add the ``ingest`` tool (the
    server is read-only otherwise: nothing an assistant calls adds or removes a document), which
    takes at most ``ingest_max_paths`` paths a call (``PRP_INGEST_MAX_PATHS``). ``warm``:
    run on a thread once the client has listed the tools, to open the library while the assistant
    decides what to call (not sooner: its loading would slow the listing down)."""
    server = _LibraryServer(source, warm)
    _add_tools(server, source)
    if allow_ingest:
        _add_ingest(server, source, ingest_max_paths)
    _add_resources(server, source)
    return server


class _LibraryServer(FastMCP):
    """FastMCP, listing each document and each finished run as a resource of its own (FastMCP lists
    only fixed resources; the templates below read any of them)."""

    def __init__(self, source: PortalSource, warm: Callable[[], None] | None):
        super().__init__(
            SERVER_NAME,
            instructions=INSTRUCTIONS,
            log_level="WARNING",
            # Over HTTP the service's own guard (``ui.api.security.AccessGuard``) checks host, origin and
            # token for /mcp as for every route, and lets a tokened service be reached beyond loopback,
            # which the SDK's loopback-only host list would refuse.
            transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        )
        self._source = source
        self._warm = warm

    async def list_tools(self) -> list[MCPTool]:
        listed = await super().list_tools()
        if self._warm is not None:
            threading.Thread(target=self._warm, name="prp-mcp-warm", daemon=True).start()
            self._warm = None
        return listed

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> Any:
        try:
            return await super().call_tool(name, arguments)
        except ToolError as exc:
            # Arguments the schema refuses: say which and why, without pydantic's links and types.
            if isinstance(exc.__cause__, ValidationError):
                raise ToolError(f"{name}: {_validation_message(exc.__cause__)}") from None
            raise

    async def list_resources(self) -> list[Resource]:
        fixed = await super().list_resources()
        portal = await anyio.to_thread.run_sync(self._source)
        documents, conversations = await anyio.to_thread.run_sync(lambda: (portal.documents(), portal.threads()))
        listed = [
            Resource(
                uri=AnyUrl(DOCUMENT_URI.format(doc_id=d.doc_id)),
                name=d.doc_id,
                title=d.title,
                description=f"{d.title}: bibliographic fields and text by page",
                mimeType="application/json",
            )
            for d in sorted(documents, key=lambda d: d.title.lower())
        ]
        listed += [
            Resource(
                uri=AnyUrl(THREAD_URI.format(thread_id=run.thread_id)),
                name=run.thread_id,
                title=run.topic,
                description=f"the cited {run.kind} on: {run.topic}",
                mimeType="application/json",
            )
            for conversation in conversations
            for run in conversation.runs
            if run.finished
        ]
        return fixed + listed


async def _call(function: Callable[..., T], *args: Any) -> T:
    """``function(*args)`` on a worker thread, its failures as tool errors in the core's words."""
    try:
        return await anyio.to_thread.run_sync(function, *args)
    except ValidationError as exc:
        raise ToolError(_validation_message(exc)) from None
    except (PrpError, ValueError) as exc:
        raise ToolError(str(exc)) from None


def _validation_message(exc: ValidationError) -> str:
    def one(error: dict) -> str:
        message = error["msg"].removeprefix("Value error, ")
        where = ".".join(str(p) for p in error["loc"])
        return f"{where}: {message}" if where else message

    return "; ".join(one(e) for e in exc.errors())


def _result(text: str, structured: Any, *more: str) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=t) for t in (text, *more)],
        structuredContent=structured.model_dump(mode="json"),
    )


def _add_tools(server: FastMCP, source: PortalSource) -> None:
    @server.tool(annotations=READ_ONLY, structured_output=True)
    async def search(
        query: Annotated[
            str,
            Field(
                description="What to look for, in words; naming a document's title searches that document. "
                f"At most {MAX_QUERY_CHARS:,} characters."
            ),
        ],
        doc_ids: DocIds = None,
        year_min: YearMin = None,
        year_max: YearMax = None,
        types: Types = None,
        mode: Annotated[
            SearchMode, Field(description="hybrid (dense + BM25, fused), dense, or sparse (BM25: exact words).")
        ] = SearchMode.HYBRID,
        k: Annotated[int, Field(ge=1, le=MAX_K, description="How many passages.")] = DEFAULT_K,
    ) -> Annotated[CallToolResult, SearchResults]:
        """Search the library for passages: each with its document's title, authors and year, its pages,
        its blocks (block id, page and bounding box, for `cite`) and its score."""
        from ui.core.models import SearchRequest

        def run() -> SearchResults:
            portal = source()
            documents = {d.doc_id: d for d in portal.documents()}
            _check_documents(doc_ids, documents)
            filters = {"doc_ids": doc_ids, "year_min": year_min, "year_max": year_max, "types": types}
            request = SearchRequest(query=query, k=k, search_mode=mode, filters=filters)
            response = portal.search(request)
            return search_results(response.query, response.scope, response.results, documents)

        results = await _call(run)
        return _result(search_text(results), results)

    @server.tool(annotations=RESEARCH, structured_output=True)
    async def ask(question: Question, ctx: Context, thread: Thread = None) -> Annotated[CallToolResult, JsonReport]:
        """Answer one question from the library with a cited answer: the answer as Markdown (each claim
        cites [n]), and as structured content its claims, citations (document, page, block ids, bounding
        boxes, the quote and the stored text it matched), the sources' disagreements and what the library
        did not answer. Progress is reported while it runs (a few seconds offline). Returns a thread id:
        pass it as `thread` to ask a follow-up."""
        return await _research(source, "ask", question, thread, ctx)

    @server.tool(annotations=RESEARCH, structured_output=True)
    async def report(
        topic: Annotated[
            str,
            Field(description=f"The topic, planned into sub-questions; at most {MAX_QUERY_CHARS:,} characters."),
        ],
        ctx: Context,
        thread: Thread = None,
    ) -> Annotated[CallToolResult, JsonReport]:
        """Research a topic into a cited report: summary, sections per sub-question, the sources'
        disagreements with both sides cited, gaps, and every citation resolved to its page and block.
        A long task: it reports progress, and cancelling the call stops the run (it keeps its steps:
        call again with the same topic and the thread id to resume). Returns the report and its thread id."""
        return await _research(source, "report", topic, thread, ctx)

    @server.tool(annotations=READ_ONLY, structured_output=True)
    async def documents(
        query: Annotated[
            str | None,
            Field(description="Words every listed document has in its title, authors or venue."),
        ] = None,
        year_min: YearMin = None,
        year_max: YearMax = None,
        types: Types = None,
    ) -> Annotated[CallToolResult, DocumentList]:
        """List the library's documents with their bibliographic fields (title, authors, year, venue, DOI,
        arXiv id), type and page count; ids for `search`'s filter and the prp://documents/{doc_id} resource."""
        if year_min is not None and year_max is not None and year_min > year_max:
            raise ToolError(f"year range is empty: from {year_min} to {year_max}")

        def run() -> DocumentList:
            every = source().documents()
            words = (query or "").lower().split()

            def kept(d) -> bool:
                haystack = " ".join([d.title, *d.bibliography.authors, d.bibliography.venue or ""]).lower()
                return (
                    all(w in haystack for w in words)
                    and (year_min is None or (d.year is not None and d.year >= year_min))
                    and (year_max is None or (d.year is not None and d.year <= year_max))
                    and (not types or d.type in types)
                )

            listed = sorted((d for d in every if kept(d)), key=lambda d: d.title.lower())
            return DocumentList(total=len(every), documents=listed)

        listed = await _call(run)
        return _result(documents_text(listed), listed)

    @server.tool(annotations=READ_ONLY, structured_output=True)
    async def cite(
        block_id: Annotated[
            str, Field(description="A block id, as `search` passages and `ask`/`report` citations give them.")
        ],
        quote: Annotated[
            str | None,
            Field(description="Words quoted from the block, to box them on its page; omit for the whole block."),
        ] = None,
    ) -> Annotated[CallToolResult, CitationView]:
        """One block as stored, as a citation of it is shown: the exact text a quote citing it must match
        (`matched_text`), its page, bounding box (PDFs) or character offsets, the passage around it, its
        document and the document's BibTeX entry; for a PDF, the quote's own words boxed (`words`, one box
        a line) and an image of them on the page, in the block's frame."""
        view = await _call(lambda: source().block_view(block_id, quote=quote))
        # The picture goes as image content, which an assistant sees; the structured content stays text.
        result = _result(cite_text(view), view.model_copy(update={"zoom_png": None, "page_png": None}))
        if view.zoom_png is not None:
            result.content.append(ImageContent(type="image", data=view.zoom_png, mimeType="image/png"))
        return result


def _check_documents(doc_ids: list[str] | None, documents: dict) -> None:
    unknown = [d for d in doc_ids or [] if d not in documents]
    if unknown:
        raise PrpError(f"no document {', '.join(unknown)} in the library: call `documents` for the ids")


async def _research(
    source: PortalSource, kind: Literal["ask", "report"], topic: str, thread: str | None, ctx: Context
) -> CallToolResult:
    from ui.core.models import RunRequest

    portal = await _call(source)
    job: JobView = await _call(lambda: portal.research(kind, RunRequest(topic=topic, thread_id=thread)))
    thread_id = job.info["thread_id"]
    steps = 0

    def on_event(event: JobEvent) -> None:
        nonlocal steps
        if event.event != "progress":
            return
        steps += 1
        message = f"[{event.data.get('node', '')}] {event.data.get('line', '')}"
        # From the worker thread following the run; a client that went away hears nothing more.
        with suppress(Exception):
            anyio.from_thread.run(ctx.report_progress, steps, None, message)

    # First, the thread id: a client that cancels the call resumes the run with it.
    await ctx.report_progress(0, None, f"[start] {kind} {job.info.get('mode', '')} mode, thread {thread_id}")
    try:
        outcome = await anyio.to_thread.run_sync(portal.follow, job.job_id, on_event, abandon_on_cancel=True)
    except anyio.get_cancelled_exc_class():
        # The client cancelled the call (or went away): the run stops at its next step, keeping its checkpoints.
        with anyio.CancelScope(shield=True), suppress(Exception):
            await anyio.to_thread.run_sync(portal.cancel, job.job_id)
        raise
    except PrpError as exc:
        raise ToolError(str(exc)) from None
    if outcome.report is None:
        reason = outcome.job.error or f"the run was {outcome.job.state.value}"
        raise ToolError(f"{reason}. Its steps so far are saved: call {kind} again with thread {thread_id!r} to resume")
    report = outcome.report
    follow_up = f"thread: {thread_id} (pass it as `thread` to ask a follow-up; resource prp://threads/{thread_id})"
    return _result(report.markdown, report, follow_up)


def _add_ingest(server: FastMCP, source: PortalSource, max_paths: int) -> None:
    @server.tool(annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False, openWorldHint=False))
    async def ingest(
        ctx: Context,
        paths: Annotated[
            list[str] | None,
            Field(
                description="Absolute paths of files or folders (searched recursively) on the machine the "
                "library is on: PDF, Markdown, text, HTML."
            ),
        ] = None,
        imports: Annotated[
            list[str] | None,
            Field(
                description="Absolute paths of reference-manager exports (BibTeX .bib, CSL-JSON .json) or of "
                "Zotero's data folder: each entry's attached file is ingested with the entry's title, authors, "
                "year, venue, DOI and arXiv id (as `prp ingest --bib`)."
            ),
        ] = None,
    ) -> str:
        """Add files or folders to the library (a file already held is skipped; a changed one indexed
        again). Progress is reported per file, with the documents, pages and chunks done and the time
        left. The library's own folders are refused."""
        named = [*(paths or []), *(imports or [])]
        if not named:
            raise ToolError("name at least one file, folder or reference-manager export to ingest")
        await _call(check_named_paths, len(named), max_paths)
        relative = [p for p in named if not Path(p).expanduser().is_absolute()]
        if relative:
            raise ToolError(f"name files and folders by absolute paths, not {', '.join(relative)}")
        portal = await _call(source)

        def absolute(given: list[str] | None) -> list[Path]:
            return [Path(p).expanduser() for p in given or []]

        job = await _call(lambda: portal.ingest(absolute(paths), absolute(imports)))

        def on_event(event: JobEvent) -> None:
            if event.event == "file":
                counters = IngestProgress.model_validate(event.data["progress"]).line()
                message = f"{event.data.get('outcome')}: {Path(event.data.get('path', '')).name} ({counters})"
                with suppress(Exception):
                    anyio.from_thread.run(ctx.report_progress, event.data["done"], event.data.get("total"), message)

        outcome = await _call(portal.follow, job.job_id, on_event)
        if outcome.summary is None:
            raise ToolError(f"the ingest stopped: {outcome.job.error or outcome.job.state.value}")
        return json.dumps(outcome.summary.as_dict(), indent=1)


def _add_resources(server: FastMCP, source: PortalSource) -> None:
    @server.resource(DOCUMENT_URI, name="document", mime_type="application/json")
    async def document(doc_id: str) -> str:
        """A document's bibliographic fields and its stored text, page by page."""
        pages = await _call(lambda: source().document_pages(doc_id))
        return pages.model_dump_json(indent=1)

    @server.resource(THREAD_URI, name="thread", mime_type="application/json")
    async def thread(thread_id: str) -> str:
        """A finished research run's report: Markdown, claims, disagreements, gaps and every citation resolved."""
        report = await _call(lambda: source().report(thread_id))
        return json.dumps(report.model_dump(mode="json"), indent=1)
