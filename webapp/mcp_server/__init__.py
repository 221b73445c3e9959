"""Hive as a remote MCP server: `/mcp`, streamable HTTP, served by the same ASGI application as the rest of Hive.

An MCP client works in one Hive conversation with its pooled browser session, seen live in the dashboard like
anything else done there: its calls are runs and steps, queued and placed like the dashboard's own.
"""

PATH = "/mcp"


def is_mcp_path(path: str) -> bool:
    return path in (PATH, PATH + "/")
