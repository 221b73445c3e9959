"""A context's trace in chunks, one per run, and what is scrubbed from it: Playwright keeps a password field's value
in its DOM snapshots and every typed value in its action log, the console and request bodies; after `scrub_trace`
neither a secret the mask knows nor a password field's value is in any entry, and the trace still parses."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from playwright.async_api import Browser

from agents.secrets import PlaceholderSecrets
from browser_pool.screencast import step_picture
from browser_pool.tracing import MASK, ContextTracing, mask_escaped, scrub_trace
from browser_pool.types import CONCEALED
from tests.support.traces import Trace, trace_read

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]

ACCOUNT = "acct secret&42"  # a secret typed into a plain field: form-encoded as acct+secret%2642
PASSWORD = "pw:hunter2/ok"  # known to no mask: only the field's type says it is a password


def _read(path: Path) -> Trace:
    return trace_read(path.read_bytes())


def _password_values(trace: Trace) -> list[str]:
    values = []
    for event in trace.of_type("frame-snapshot"):
        stack = [event["snapshot"]["html"]]
        while stack:
            node = stack.pop()
            if isinstance(node, list) and len(node) >= 2 and isinstance(node[1], dict):
                if node[0] == "INPUT" and node[1].get("type") == "password":
                    values.append(node[1].get("__playwright_value_", ""))
                stack.extend(node[2:])
    return values


async def test_each_run_is_a_chunk_and_its_secrets_are_scrubbed(browser: Browser, site: str, tmp_path: Path) -> None:
    context = await browser.new_context()
    tracing = ContextTracing(context)
    try:
        page = await context.new_page()
        await tracing.begin("run 1")
        await page.goto(f"{site}/sign_in_form.html")
        await page.fill("#account", ACCOUNT)
        await page.fill("#pw", PASSWORD)
        await page.click("button")
        await page.wait_for_function("document.getElementById('sent').textContent === 'sent'")
        first = tmp_path / "first.zip"
        assert await tracing.end(first)

        await tracing.begin("run 2")  # not kept: nothing is written
        await page.goto(f"{site}/sign_in_form.html?second")
        assert not await tracing.end(None)

        await tracing.begin("run 3")
        await page.goto(f"{site}/sign_in_form.html?third")
        third = tmp_path / "third.zip"
        assert await tracing.end(third)
    finally:
        await context.close()

    raw = _read(first)
    # What Playwright itself keeps: the typed values, the password field's included.
    assert raw.holds(PASSWORD)
    assert raw.holds(ACCOUNT)
    assert PASSWORD in _password_values(raw)
    assert ("fill", PASSWORD) in [(m, p.get("value")) for m, p in raw.actions()]
    assert any(PASSWORD in (event.get("text") or "") for event in raw.of_type("console"))

    scrub_trace(first, PlaceholderSecrets({"account": ACCOUNT}).mask)
    scrubbed = _read(first)
    assert scrubbed.holds(PASSWORD) == []
    assert scrubbed.holds(ACCOUNT) == []
    assert set(_password_values(scrubbed)) <= {MASK, ""}
    assert MASK in _password_values(scrubbed)
    assert ("fill", MASK) in [(m, p.get("value")) for m, p in scrubbed.actions()]
    # Still Playwright's trace: the same entries, the calls and the pictures.
    assert set(scrubbed.entries) == set(raw.entries)
    assert [m for m, _ in scrubbed.actions()] == [m for m, _ in raw.actions()]
    assert scrubbed.of_type("screencast-frame")
    assert scrubbed.of_type("frame-snapshot")
    with zipfile.ZipFile(first) as archive:
        assert archive.testzip() is None

    visited = [p.get("url") for m, p in _read(third).actions() if m == "goto"]
    assert visited == [f"{site}/sign_in_form.html?third"], "a chunk holds its own run only"


async def test_a_field_hive_typed_a_secret_into_is_scrubbed_like_a_password_field(
    browser: Browser, tmp_path: Path
) -> None:
    """A secret from an earlier run is unknown to this run's mask: the field's mark is what hides it."""
    token = "tok-5f0d1c9e-earlier-run"
    context = await browser.new_context()
    tracing = ContextTracing(context)
    try:
        page = await context.new_page()
        await tracing.begin("run")
        await page.set_content(f"<input id=token {CONCEALED}><input id=plain>")
        await page.fill("#token", token)
        await page.fill("#plain", "shown")
        await page.click("#plain")  # a snapshot with both values in it
        kept = tmp_path / "kept.zip"
        assert await tracing.end(kept)
    finally:
        await context.close()
    assert _read(kept).holds(token)

    scrub_trace(kept, PlaceholderSecrets({}).mask)
    scrubbed = _read(kept)
    assert scrubbed.holds(token) == []
    assert scrubbed.holds("shown"), "a plain field's value stays"


async def test_a_secret_shown_back_leaves_no_trace_in_its_text_escaped_or_not_nor_in_its_pictures(
    browser: Browser, tmp_path: Path
) -> None:
    """A picture's mask finds a secret the page shows back with a selector holding it as a JSON string; the trace
    records that selector, and the scrub masks the escaped form too. The trace's own pictures of the page drew the
    secret: a run that typed one keeps none."""
    secret = 'pa"ss\\word'
    escaped = json.dumps(secret)[1:-1]
    in_the_file = [form.encode() for form in (secret, escaped, json.dumps(escaped)[1:-1])]
    context = await browser.new_context()
    tracing = ContextTracing(context)
    path = tmp_path / "trace.zip"
    try:
        page = await context.new_page()
        await tracing.begin("run")
        await page.set_content("<p>Hello, <b id=who></b></p>")
        await page.eval_on_selector("#who", "(b, text) => { b.textContent = text; }", secret)
        await step_picture(page, hidden={secret})
        assert await tracing.end(path)
    finally:
        await context.close()

    recorded = _read(path).entries.values()
    assert any(in_the_file[2] in data for data in recorded), "the mask's selector (escaped twice in the file) is kept"
    secrets = PlaceholderSecrets({"pw": secret})
    assert _read(path).of_type("screencast-frame"), "the page was pictured, the secret drawn"
    scrub_trace(path, lambda text: mask_escaped(secrets.mask(text), secrets.hidden()), pictures=False)
    scrubbed = _read(path)
    assert [name for name, data in scrubbed.entries.items() if any(form in data for form in in_the_file)] == []
    # Its pictures are left out, the rest is still Playwright's trace.
    assert scrubbed.of_type("screencast-frame") == []
    assert [name for name in scrubbed.entries if name.endswith(".jpeg")] == []
    assert scrubbed.of_type("frame-snapshot")
    with zipfile.ZipFile(path) as archive:
        assert archive.testzip() is None
