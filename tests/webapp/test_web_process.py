"""What the web server loads at start: it never calls a model, so it does not carry the model SDK, and the MCP SDK
waits for the first MCP request."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.support.network_guard import subprocess_env
from tests.support.processes import ROOT

# Everything Daphne imports before its first answer: the ASGI application and every URL's view.
_WEB_PROCESS = """
import sys
import webapp.asgi
from django.urls import get_resolver
get_resolver().url_patterns
print(sorted({name.split(".")[0] for name in sys.modules} & {"openai", "mcp"}))
"""


def test_the_web_process_starts_without_the_model_and_mcp_sdks() -> None:
    env = {**os.environ, **subprocess_env(), "DJANGO_SETTINGS_MODULE": "webapp.settings.test"}
    done = subprocess.run(
        [sys.executable, "-c", _WEB_PROCESS], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]", "the web process imported these SDKs at start"
