"""Calling a LangChain tool from a node as a model would: with a tool call.

The graph's search and citation steps call the tools in ``tools/`` rather than the functions under
them, so a run's trace (LangSmith, LangGraph Studio) shows each search and each citation lookup as a
tool call, with its arguments and what it returned, and LLM mode can bind the same tools. The tools
answer in two parts (``response_format="content_and_artifact"``): JSON for a model, and the typed
objects the node goes on with, which are exactly what the function returned.
"""

from __future__ import annotations

from typing import Any
from uuid import uuid4

from langchain_core.messages import ToolCall
from langchain_core.tools import BaseTool


def call_tool(tool: BaseTool, **args: Any) -> Any:
    """What ``tool`` returns for ``args`` to the program (its artifact), called as a tool call."""
    message = tool.invoke(ToolCall(name=tool.name, args=args, id=f"{tool.name}-{uuid4().hex}", type="tool_call"))
    return message.artifact
