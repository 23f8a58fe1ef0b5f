"""``resolve_citation`` as a LangChain tool."""

from __future__ import annotations

from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, Field

from tools.citations.index import BlockIndex
from tools.citations.resolve import Resolution, resolve_citation


class ResolveCitationInput(BaseModel):
    cited_text: str = Field(description="The exact text quoted from the document, copied verbatim.")
    block_id: str | None = Field(
        default=None, description="The id of the block the quote was taken from, if known (a hint only)."
    )
    retrieved_block_ids: list[str] = Field(
        default_factory=list, description="Ids of blocks retrieved so far, searched before the whole library."
    )


def make_resolve_citation_tool(index: BlockIndex) -> BaseTool:
    """``resolve_citation`` as a LangChain tool bound to ``index``.

    Called with arguments it returns the resolution as a JSON-ready dict (or None); called with a tool
    call (as a model calls it, and as the graph's citation step does) it returns a ``ToolMessage``
    holding that as its content and the ``Resolution`` itself as its artifact.
    """

    def run(
        cited_text: str, block_id: str | None = None, retrieved_block_ids: list[str] | None = None
    ) -> tuple[dict | None, Resolution | None]:
        resolution = resolve_citation(cited_text, block_id, index, retrieved_block_ids or ())
        return (resolution.model_dump(mode="json") if resolution else None), resolution

    return StructuredTool.from_function(
        run,
        name="resolve_citation",
        description=(
            "Find the block a quoted span comes from. Give the exact quoted text and, if known, the "
            "block id it came from. Returns the document, block id(s), page(s), bounding boxes and "
            "the matched text, or null when the quote is not in the library (do not cite it then)."
        ),
        args_schema=ResolveCitationInput,
        response_format="content_and_artifact",
    )
