"""WebMCP in the browser pool: the in-page bridge and polyfill, per-tab tool discovery, and tool calls.

- `install_bridge(context)`: every document of the context gets the bridge (legacy `navigator.modelContext` served,
  a polyfill where Chromium has no WebMCP). The pool does this for each context it creates.
- `ToolDiscovery(on_tools_changed)`: `watch(tab_id, page)` / `watch_session(session)` keep each tab's `ToolRecord`s
  current; `PageToolWatcher` does it for one page.
- `call_tool(page_or_tab, name, arguments)`: validated, time-limited, size-limited; returns a `ToolCallResult`.
"""

from browser_pool.webmcp.bridge import install_bridge, log_webmcp_support, probe_native_webmcp
from browser_pool.webmcp.calls import call_tool, validate_arguments
from browser_pool.webmcp.discovery import PageToolWatcher, ToolDiscovery, read_tools, watcher_for
from browser_pool.webmcp.types import FrameRef, ToolAnnotations, ToolCallResult, ToolRecord

__all__ = [
    "FrameRef",
    "PageToolWatcher",
    "ToolAnnotations",
    "ToolCallResult",
    "ToolDiscovery",
    "ToolRecord",
    "call_tool",
    "install_bridge",
    "log_webmcp_support",
    "probe_native_webmcp",
    "read_tools",
    "validate_arguments",
    "watcher_for",
]
