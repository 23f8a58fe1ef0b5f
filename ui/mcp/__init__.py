"""prp as an MCP server (``ui.mcp.server``)."""
