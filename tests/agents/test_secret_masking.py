"""What a step reports masks a secret however the page, its address or its markup writes it."""

from __future__ import annotations

from agents.secrets import SECRET_MASK, masked_any_case
from agents.step import _target_of
from agents.tools.base import ToolOutput
from browser_pool.types import ActionResult

EMAIL = "ada.lovelace+hive@example.com"
PASSWORD = 'p@ss w0rd&"more"=9'
QUOTED = "it's (ok)*"


def test_a_value_is_masked_as_typed_in_any_case_and_however_an_address_or_a_page_encodes_it() -> None:
    written = [
        EMAIL,
        EMAIL.upper(),
        "ada.lovelace%2Bhive%40example.com",  # an address's query, as a redirect after signing in writes it
        "ada.lovelace%2bhive%40EXAMPLE.com",
        "p%40ss+w0rd%26%22more%22%3D9",  # a form's body
        "p%40ss%20w0rd%26%22more%22%3D9",
        "p@ss w0rd&amp;&quot;more&quot;=9",  # a page's markup
        "p%40ss%20w0rd%26%22more%22%3D9".replace("%20", "+"),
        'p@ss w0rd&\\"more\\"=9',  # a JSON string
    ]
    for text in written:
        masked = masked_any_case(f"seen: {text} (end)", [EMAIL, PASSWORD])
        assert masked == f"seen: {SECRET_MASK} (end)", (text, masked)


def test_a_value_with_quotes_and_brackets_is_masked_as_a_pages_script_or_markup_writes_it() -> None:
    for text in ("it's (ok)*", "it%27s%20%28ok%29%2A", "it's%20(ok)*", "it&#x27;s (ok)*", "it&#39;s (ok)*"):
        assert masked_any_case(f"[{text}]", [QUOTED]) == f"[{SECRET_MASK}]", text


def test_text_that_only_looks_alike_is_left_as_it_is() -> None:
    text = "ada.lovelace hive at example dot com; p@ss word"
    assert masked_any_case(text, [EMAIL, PASSWORD]) == text


def test_the_element_a_step_acted_on_is_recorded_masked_as_its_report_is() -> None:
    """A link reading "Signed in as <the e-mail typed>" is recorded by its text, for a workflow to find it again."""
    acted = ActionResult(ok=True, action="click")
    acted.target = {
        "tag": "a",
        "name": f"Signed in as {EMAIL}",
        "attributes": {"href": "/welcome?email=ada.lovelace%2Bhive%40example.com", "id": "who"},
        "selector": "#who",
        "in_shadow": False,
    }
    recorded = _target_of(ToolOutput(action=acted), lambda text: masked_any_case(text, [EMAIL]))
    assert recorded is not None
    assert recorded["name"] == f"Signed in as {SECRET_MASK}"
    aimed = ActionResult(ok=True, action="type")
    aimed.target = {"tag": "input", "name": "E-mail", "selector": f'input[value="{EMAIL}"]', "xpath": "//input[2]"}
    kept = _target_of(ToolOutput(action=aimed), lambda text: masked_any_case(text, [EMAIL]))
    assert kept == {"tag": "input", "name": "E-mail", "selector": "", "xpath": "//input[2]"}, "left out, not broken"
    assert recorded == {
        "tag": "a",
        "name": f"Signed in as {SECRET_MASK}",
        "attributes": {"href": f"/welcome?email={SECRET_MASK}", "id": "who"},
        "selector": "#who",
        "in_shadow": False,
    }
