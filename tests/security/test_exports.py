"""An exported workflow is data, never code: a workflow whose every field (its name, the steps' intents, selectors,
XPaths, attributes and addresses, the parameters' names, defaults and labels) holds text written to break out of a
Python string or comment, with a command in it that would leave a marker file, exports as a script that parses, shows
its help, and runs its steps against a local page in Chromium, typing that text as text; the marker never appears.

The viewer exports it: the text could have been planted by anyone who typed in the owner's shared conversation."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.factories import UserFactory
from tests.integration.conftest import signed_in
from tests.support.static_server import serve_directory
from webapp.workflows.models import Workflow, WorkflowShare, WorkflowVersion
from webapp.workflows.types import Parameter

pytestmark = pytest.mark.django_db

CHROMIUM = "/usr/bin/chromium"
# Every way out of a Python string, docstring or comment, and the encodings and line ends an editor or Python knows.
BREAKOUTS = ("'''", '"""', "'", '"', "\\", "\n", "\r", "\r\n", "#", "{}", "{0}", "%s", "%(prog)s", "\u2028",
             "\u2029", "\u0085", "\x0b", "\x0c", " -*- coding: utf-7 -*- +AAo-")  # fmt: skip


def hostile(marker: Path) -> str:
    """Text that, wherever it lands as code, runs a command leaving `marker`."""
    command = f"__import__('pathlib').Path({str(marker)!r}).touch()"
    return "Report" + "".join(f"{way}{command}{way}" for way in BREAKOUTS) + " end"


PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>Export target</title></head><body>
<pre id="out"></pre> <textarea id="field"></textarea> <button id="go">x</button>
<script>
  const odd = {odd};
  document.getElementById("field").setAttribute("aria-label", odd);
  document.getElementById("go").textContent = odd;
  document.getElementById("go").onclick = () => {{
    document.getElementById("out").textContent = "typed:" + document.getElementById("field").value;
  }};
</script></body></html>"""


def _workflow(owner: Any, odd: str, base: str) -> Workflow:
    # A name is as long as its column allows (PostgreSQL refuses more); the description holds every breakout.
    workflow = Workflow.objects.create(
        owner=owner, name=odd[: Workflow._meta.get_field("name").max_length], description=odd
    )
    target = {"tag": "", "role": "", "name": odd, "attributes": {"aria-label": odd, "name": odd, "data-testid": odd},
              "selector": odd, "xpath": odd, "url": f"{base}/page.html#{odd}"}  # fmt: skip
    steps = [
        {"action": "navigate", "arguments": {"url": f"{base}/page.html?q={odd}"}, "target": {}, "intent": odd},
        {"action": "type", "arguments": {"text": "{{value}}"}, "intent": odd,
         "target": {**target, "tag": "textarea", "role": "textbox"}},
        {"action": "click", "arguments": {}, "intent": odd, "target": {**target, "tag": "button", "role": "button"}},
    ]  # fmt: skip
    parameters: list[Parameter] = [
        {"name": odd, "type": "string", "default": odd, "label": odd},
        {"name": "value", "type": "string", "default": odd, "label": odd},
        {"name": "help", "type": "secret", "default": "", "label": odd},
    ]
    WorkflowVersion.objects.create(workflow=workflow, number=1, steps=steps, parameters=parameters)
    return workflow


def _script(tmp_path: Path, odd: str, base: str) -> Path:
    owner, viewer = UserFactory(), UserFactory()
    workflow = _workflow(owner, odd, base)
    WorkflowShare.objects.create(workflow=workflow, user=viewer, role="viewer")
    exported = signed_in(viewer).get(f"/api/workflows/{workflow.pk}/export/")
    assert exported.status_code == 200, exported.content
    script = tmp_path / "flow.py"
    script.write_bytes(exported.content)
    return script


def _run(script: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(script), *arguments], capture_output=True, text=True, timeout=120,
                          cwd=script.parent)  # fmt: skip


def test_the_script_of_a_hostile_workflow_parses_and_its_help_runs_nothing(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    odd = hostile(marker)
    script = _script(tmp_path, odd, "http://127.0.0.1:9")
    source = script.read_text(encoding="utf-8")

    docstring = ast.get_docstring(ast.parse(source))
    assert docstring is not None
    assert odd not in docstring
    for line in source.splitlines()[:8]:
        assert line.startswith("#") or line.startswith('"""'), line  # the name and the usage stay in the comments
    shown = _run(script, "--help")
    assert shown.returncode == 0, shown.stderr[-3000:]
    assert not marker.exists()
    assert "--value VALUE" in shown.stdout
    assert "--help-2 VALUE" in shown.stdout  # a parameter named like the script's own option gets one of its own
    assert "Report'''" in shown.stdout  # the name, shown as the text it is


@pytest.mark.browser
@pytest.mark.slow
def test_the_script_of_a_hostile_workflow_types_the_text_as_text_in_a_real_browser(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    odd = hostile(marker)
    site = tmp_path / "site"
    site.mkdir()
    (site / "page.html").write_text(PAGE.format(odd=json.dumps(odd)), encoding="utf-8")
    with serve_directory(site) as base:
        script = _script(tmp_path, odd, base)
        done = _run(script, "--browser", CHROMIUM, "--help-2", "my own secret")
    assert not marker.exists()
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stderr.count("step ") == 3
    text = json.loads(done.stdout)["text"]
    # What went into the field comes back as the same text (a textarea keeps line breaks, as \n).
    typed = text.split("typed:", 1)[1]
    assert typed.startswith("Report'''__import__('pathlib')")
    for way in ('"""', "\\", "#", "{}", "%(prog)s"):  # (the script prints the first 2,000 characters)
        assert f"{way}__import__('pathlib')" in typed, way
