"""JSON schemas of the actions' arguments, written for models to read.

They stay in the subset every OpenAI-compatible provider accepts (no top-level anyOf/oneOf), so "exactly one
of index, selector, or x and y" is said in the descriptions and checked by the handlers.
"""

from __future__ import annotations

from typing import Any

Schema = dict[str, Any]

INDEX: Schema = {"type": "integer", "minimum": 0, "description": "The element's [index] from get_elements."}
SELECTOR: Schema = {
    "type": "string",
    "minLength": 1,
    "description": "A CSS selector matching exactly one element (open shadow roots are searched, iframes are not: "
    "use an index for elements inside frames). Prefer index.",
}
X: Schema = {"type": "number", "minimum": 0, "description": "Pixels from the left edge of the viewport."}
Y: Schema = {"type": "number", "minimum": 0, "description": "Pixels from the top edge of the viewport."}
TAB_ID: Schema = {"type": "string", "minLength": 1, "description": "A tab id from list_tabs."}
# The model's names for modifier keys, and Playwright's.
MODIFIER_KEYS = {"ctrl": "Control", "alt": "Alt", "shift": "Shift", "meta": "Meta"}
MODIFIERS: Schema = {
    "type": "array",
    "items": {"type": "string", "enum": list(MODIFIER_KEYS)},
    "uniqueItems": True,
    "description": 'Keys held down meanwhile, e.g. ["ctrl"].',
}


def obj(properties: dict[str, Schema], required: tuple[str, ...] = ()) -> Schema:
    schema: Schema = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        schema["required"] = list(required)
    return schema


def _point_or_element(role: str) -> Schema:
    return obj({"index": INDEX, "selector": SELECTOR, "x": X, "y": Y}) | {
        "description": f"The {role}: an element (index or selector) or a point (x and y)."
    }


CLICK = obj(
    {
        "index": INDEX,
        "selector": SELECTOR,
        "x": X,
        "y": Y,
        "button": {"type": "string", "enum": ["left", "right", "middle"], "default": "left"},
        "double": {"type": "boolean", "default": False, "description": "A double click."},
        "modifiers": MODIFIERS,
    }
)
HOVER = obj({"index": INDEX, "selector": SELECTOR, "x": X, "y": Y})
TYPE = obj(
    {
        "index": INDEX,
        "selector": SELECTOR,
        "text": {"type": "string", "maxLength": 20_000, "description": "The text to type."},
        "clear": {
            "type": "boolean",
            "default": True,
            "description": "Replace the field's current content (true) or append to it (false).",
        },
        "human_like": {
            "type": "boolean",
            "default": False,
            "description": "Type key by key with a random 50-150 ms pause, for pages that react to each key "
            "(autocomplete, anti-bot checks). Slower.",
        },
    },
    required=("text",),
)
SCROLL = obj(
    {
        "direction": {"type": "string", "enum": ["up", "down", "left", "right"]},
        "amount": {
            "type": "integer",
            "minimum": 1,
            "maximum": 100_000,
            "description": "Pixels to scroll; default 80% of the viewport.",
        },
        "index": INDEX | {"description": "Scroll the container holding this element instead of the page."},
        "selector": SELECTOR | {"description": "Scroll the container matching this selector instead of the page."},
    },
    required=("direction",),
)
NAVIGATE = obj(
    {"url": {"type": "string", "minLength": 1, "maxLength": 8_000, "description": "An http or https address."}},
    required=("url",),
)
SCREENSHOT = obj(
    {"full_page": {"type": "boolean", "default": False, "description": "The whole page instead of the viewport."}}
)
WAIT = obj(
    {
        "ms": {"type": "integer", "minimum": 0, "description": "Milliseconds to wait (capped at 10000)."},
        "selector": {"type": "string", "minLength": 1, "description": "Wait until an element matching it is visible."},
        "text": {"type": "string", "minLength": 1, "description": "Wait until this text is visible on the page."},
        "timeout_ms": {
            "type": "integer",
            "minimum": 0,
            "description": "How long to wait for selector or text (default 5000, capped at 10000).",
        },
    }
)
SELECT = obj(
    {
        "index": INDEX,
        "selector": SELECTOR,
        "value": {"type": "string", "description": "The option's value attribute."},
        "label": {"type": "string", "description": "The option's visible text."},
        "labels": {
            "type": "array",
            "items": {"type": "string"},
            "minItems": 1,
            "uniqueItems": True,
            "description": "Several options' texts, for a multi-select; the others are deselected.",
        },
    }
)
PRESS_KEY = obj(
    {
        "key": {
            "type": "string",
            "minLength": 1,
            "description": "A key name: Enter, Tab, Escape, Backspace, ArrowDown, PageDown, Home, F5, or a "
            "character like a or 1.",
        },
        "modifiers": MODIFIERS,
        "index": INDEX | {"description": "Focus this element first; otherwise the key goes to the focused one."},
        "selector": SELECTOR | {"description": "Focus the element matching this selector first."},
    },
    required=("key",),
)
EMPTY = obj({})
DRAG_DROP = obj(
    {"from": _point_or_element("thing to drag"), "to": _point_or_element("place to drop it")}, ("from", "to")
)
UPLOAD_FILE = obj(
    {
        "index": INDEX,
        "selector": SELECTOR,
        "file_id": {"type": "string", "minLength": 1, "description": "The id of a file the user uploaded."},
    },
    required=("file_id",),
)
SWITCH_TAB = obj({"tab_id": TAB_ID}, ("tab_id",))
OPEN_TAB = obj({"url": NAVIGATE["properties"]["url"] | {"description": "Address to open; a blank tab if omitted."}})
CLOSE_TAB = obj({"tab_id": TAB_ID}, ("tab_id",))
EXECUTE_JS = obj(
    {
        "code": {
            "type": "string",
            "minLength": 1,
            "maxLength": 20_000,
            "description": "JavaScript run in the page: an expression, a function, or statements ending in "
            "return. Its value is returned as JSON (cut to 4000 characters).",
        }
    },
    required=("code",),
)
GET_ELEMENTS = obj(
    {
        "type": {
            "type": "string",
            "enum": ["button", "input", "link", "select", "image", "all"],
            "default": "all",
            "description": "Which kind of element to list.",
        },
        "visible_only": {
            "type": "boolean",
            "default": True,
            "description": "Only elements inside the viewport (true) or on the whole page (false).",
        },
    }
)
GET_ELEMENT_DETAILS = obj(
    {
        "indices": {
            "type": "array",
            "items": {"type": "integer", "minimum": 0},
            "minItems": 1,
            "maxItems": 20,
            "uniqueItems": True,
            "description": "Indices from get_elements.",
        }
    },
    required=("indices",),
)
