"""JSON schemas of the actions' arguments, written for models to read.

They stay in the subset every OpenAI-compatible provider accepts (no top-level anyOf/oneOf), so "exactly one
of index, selector, or x and y" is said in the descriptions and checked by the handlers.
"""

from __future__ import annotations

from browser_pool.types import JsonObject

Schema = JsonObject

# Short on purpose: every request carries these (issue 12: a lean request). The model learns indices from the lists.
INDEX: Schema = {"type": "integer", "minimum": 0, "description": "An element's [index]."}
SELECTOR: Schema = {"type": "string", "minLength": 1, "description": "CSS selector of one element; prefer index."}
X: Schema = {"type": "number", "minimum": 0, "description": "Viewport px from the left."}
Y: Schema = {"type": "number", "minimum": 0, "description": "Viewport px from the top."}
# Said once to the agent's model (its rules define index, selector, x and y), so its requests leave them out.
SHARED_DESCRIPTIONS = frozenset(schema["description"] for schema in (INDEX, SELECTOR, X, Y))
TAB_ID: Schema = {"type": "string", "minLength": 1, "description": "From list_tabs."}
# The model's names for modifier keys, and Playwright's.
MODIFIER_KEYS = {"ctrl": "Control", "alt": "Alt", "shift": "Shift", "meta": "Meta"}
MODIFIERS: Schema = {
    "type": "array",
    "items": {"type": "string", "enum": list(MODIFIER_KEYS)},
    "uniqueItems": True,
    "description": "Keys held down.",
}


def obj(properties: dict[str, Schema], required: tuple[str, ...] = ()) -> Schema:
    schema: Schema = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        schema["required"] = list(required)
    return schema


def _point_or_element(role: str) -> Schema:
    return obj({"index": INDEX, "selector": SELECTOR, "x": X, "y": Y}) | {"description": f"The {role}."}


CLICK = obj(
    {
        "index": INDEX,
        "selector": SELECTOR,
        "x": X,
        "y": Y,
        "button": {"type": "string", "enum": ["left", "right", "middle"], "default": "left"},
        "double": {"type": "boolean", "default": False, "description": "Double click."},
        "modifiers": MODIFIERS,
    }
)
HOVER = obj({"index": INDEX, "selector": SELECTOR, "x": X, "y": Y})
TYPE = obj(
    {
        "index": INDEX,
        "selector": SELECTOR,
        "text": {"type": "string", "maxLength": 20_000, "description": "What to type."},
        "clear": {"type": "boolean", "default": True, "description": "false appends instead of replacing."},
        "human_like": {
            "type": "boolean",
            "default": False,
            "description": "Key by key, slower: for pages that react to each key.",
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
            "description": "Pixels; default 80% of the viewport.",
        },
        "index": INDEX,
        "selector": SELECTOR,
    },
    required=("direction",),
)
NAVIGATE = obj(
    {"url": {"type": "string", "minLength": 1, "maxLength": 8_000, "description": "An http(s) address."}},
    required=("url",),
)
SCREENSHOT = obj({"full_page": {"type": "boolean", "default": False, "description": "Not just the viewport."}})
WAIT = obj(
    {
        "ms": {"type": "integer", "minimum": 0, "description": "At most 10000."},
        "selector": {"type": "string", "minLength": 1, "description": "Until it is visible."},
        "text": {"type": "string", "minLength": 1, "description": "Until it is visible."},
        "timeout_ms": {"type": "integer", "minimum": 0, "description": "For selector or text; default 5000."},
    }
)
SELECT = obj(
    {
        "index": INDEX,
        "selector": SELECTOR,
        "value": {"type": "string", "description": "The option's value attribute."},
        "label": {"type": "string", "description": "The option's text."},
        "labels": {
            "type": "array",
            "items": {"type": "string"},
            "minItems": 1,
            "uniqueItems": True,
            "description": "Several options' texts (multi-select); others are deselected.",
        },
    }
)
PRESS_KEY = obj(
    {
        "key": {
            "type": "string",
            "minLength": 1,
            "description": "Enter, Tab, Escape, ArrowDown, PageDown, a, 1 …",
        },
        "modifiers": MODIFIERS,
        "index": INDEX,
        "selector": SELECTOR,
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
        "file_id": {"type": "string", "minLength": 1, "description": "An uploaded file's id."},
    },
    required=("file_id",),
)
SWITCH_TAB = obj({"tab_id": TAB_ID}, ("tab_id",))
OPEN_TAB = obj({"url": NAVIGATE["properties"]["url"] | {"description": "Blank tab if omitted."}})
CLOSE_TAB = obj({"tab_id": TAB_ID}, ("tab_id",))
EXECUTE_JS = obj(
    {
        "code": {
            "type": "string",
            "minLength": 1,
            "maxLength": 20_000,
            "description": "An expression, a function, or statements ending in return.",
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
        },
        "visible_only": {"type": "boolean", "default": True, "description": "false: the whole page."},
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
            "description": "Elements' [index] values.",
        },
        "value_from": {"type": "integer", "minimum": 1, "description": "A long value's next part, as value_part says."},
    },
    required=("indices",),
)
