"""The arguments of each browser action, one typed model per action: its JSON schema is generated from it (what
models, MCP clients and the Tool Inspector read) and its handler is called with it.

The schemas are written for models to read and stay in the subset every OpenAI-compatible provider accepts: no
`anyOf`/`oneOf`, no titles, no `null` types, so "exactly one of index, selector, or x and y" is said in the
descriptions and checked by the handlers. An optional argument is a field whose default is None (or an empty tuple):
the schema leaves it out of `required` and says no default, the model simply leaves it out.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaMode, JsonSchemaValue, SkipJsonSchema
from pydantic_core import CoreSchema, core_schema

from browser_pool.types import JsonObject

# Short on purpose: every request carries these. The model learns indices from the element lists.
INDEX_DESCRIPTION = "An element's [index]."
SELECTOR_DESCRIPTION = "CSS selector of one element; prefer index."
X_DESCRIPTION = "Viewport px from the left."
Y_DESCRIPTION = "Viewport px from the top."
# Said once to the agent's model (its rules define index, selector, x and y), so its requests leave them out.
SHARED_DESCRIPTIONS = frozenset({INDEX_DESCRIPTION, SELECTOR_DESCRIPTION, X_DESCRIPTION, Y_DESCRIPTION})

Index = Annotated[int, Field(ge=0, description=INDEX_DESCRIPTION)]
Selector = Annotated[str, Field(min_length=1, description=SELECTOR_DESCRIPTION)]
X = Annotated[float, Field(ge=0, description=X_DESCRIPTION)]
Y = Annotated[float, Field(ge=0, description=Y_DESCRIPTION)]
TabId = Annotated[str, Field(min_length=1, description="From list_tabs.")]
Url = Annotated[str, Field(min_length=1, max_length=8_000, description="An http(s) address.")]

# The model's names for modifier keys, and Playwright's.
MODIFIER_KEYS = {"ctrl": "Control", "alt": "Alt", "shift": "Shift", "meta": "Meta"}
Modifier = Literal["ctrl", "alt", "shift", "meta"]
Modifiers = Annotated[
    tuple[Modifier, ...], Field(description="Keys held down.", json_schema_extra={"uniqueItems": True})
]


class _Lean(GenerateJsonSchema):
    """Pydantic's JSON schema without what a model does not need: titles, `null` alternatives for optional fields,
    absent defaults, and references (nested objects are written in place)."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False

    def nullable_schema(self, schema: core_schema.NullableSchema) -> JsonSchemaValue:
        return self.generate_inner(schema["schema"])

    def default_schema(self, schema: core_schema.WithDefaultSchema) -> JsonSchemaValue:
        inner = self.generate_inner(schema["schema"])
        default = schema.get("default")
        if "default_factory" in schema or default is None or default == ():
            return inner
        return {**inner, "default": self.encode_default(default)}

    def model_schema(self, schema: core_schema.ModelSchema) -> JsonSchemaValue:
        generated = super().model_schema(schema)
        generated.pop("title", None)
        generated.pop("description", None)  # the docstring is the action's description, sent beside the schema
        return generated

    def sort(self, value: JsonSchemaValue, parent_key: str | None = None) -> JsonSchemaValue:
        return value  # in the order written: type first, as people write schemas

    def generate(self, schema: CoreSchema, mode: JsonSchemaMode = "validation") -> JsonSchemaValue:
        generated = super().generate(schema, mode)
        definitions = generated.pop("$defs", {})
        return _inline(generated, definitions)  # type: ignore[no-any-return]


def _inline(value: Any, definitions: dict[str, Any]) -> Any:
    if isinstance(value, dict):
        if "$ref" in value:
            target = _inline(definitions[value["$ref"].rsplit("/", 1)[-1]], definitions)
            return {**target, **{k: _inline(v, definitions) for k, v in value.items() if k != "$ref"}}
        return {key: _inline(item, definitions) for key, item in value.items()}
    if isinstance(value, list):
        return [_inline(item, definitions) for item in value]
    return value


class Params(BaseModel):
    """The arguments of one action. Unknown arguments are refused; the values are read-only."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def schema_of(params: type[BaseModel]) -> JsonObject:
    """The JSON schema a model reads for these arguments."""
    return params.model_json_schema(schema_generator=_Lean)


class ElementAim(Params):
    """Arguments that may name one element: by its index from the element lists, or by a CSS selector."""

    index: Index | None = None
    selector: Selector | None = None

    @property
    def aimed(self) -> bool:
        return self.index is not None or self.selector is not None


class PointAim(ElementAim):
    """Arguments that may name an element or a point of the viewport."""

    x: X | None = None
    y: Y | None = None

    @property
    def aimed(self) -> bool:
        return super().aimed or self.x is not None or self.y is not None


class Click(PointAim):
    """Click an element or a point: right, double, with keys held."""

    button: Literal["left", "right", "middle"] = "left"
    double: bool = Field(False, description="Double click.")
    modifiers: Modifiers = ()


class Hover(PointAim):
    """Move the mouse over an element or a point (menus)."""


class TypeText(ElementAim):
    """Type into a text field."""

    text: str = Field(max_length=20_000, description="What to type.")
    clear: bool = Field(True, description="false appends instead of replacing.")
    human_like: bool = Field(False, description="Key by key, slower: for pages that react to each key.")
    # Set by Hive, never by a model or a client (it is in no schema they read): the text holds a secret filled in
    # from a placeholder, so the field shows dots from before the first key, in every picture, as a password's does.
    conceal: SkipJsonSchema[bool] = False


class Scroll(ElementAim):
    """Scroll the page, or the container of the element given."""

    direction: Literal["up", "down", "left", "right"]
    amount: int | None = Field(None, ge=1, le=100_000, description="Pixels; default 80% of the viewport.")


class Navigate(Params):
    """Open an http(s) address in this tab."""

    url: Url


class Screenshot(Params):
    """A picture of the viewport or the whole page."""

    full_page: bool = Field(False, description="Not just the viewport.")
    # Set by Hive, never by a model or a client (it is in no schema they read): secrets filled in earlier, covered
    # wherever the page shows one of them as text.
    hidden: SkipJsonSchema[list[str]] = []


class Wait(Params):
    """Wait some ms, or until a selector or text shows (10 s at most)."""

    ms: int | None = Field(None, ge=0, description="At most 10000.")
    selector: str | None = Field(None, min_length=1, description="Until it is visible.")
    text: str | None = Field(None, min_length=1, description="Until it is visible.")
    timeout_ms: int | None = Field(None, ge=0, description="For selector or text; default 5000.")


class Select(ElementAim):
    """Choose <select> options by value, label or labels."""

    value: str | None = Field(None, description="The option's value attribute.")
    label: str | None = Field(None, description="The option's text.")
    labels: tuple[str, ...] | None = Field(
        None,
        min_length=1,
        description="Several options' texts (multi-select); others are deselected.",
        json_schema_extra={"uniqueItems": True},
    )


class PressKey(ElementAim):
    """Press a key on the focused element, or on the one given."""

    key: str = Field(min_length=1, description="Enter, Tab, Escape, ArrowDown, PageDown, a, 1 …")
    modifiers: Modifiers = ()


class NoArguments(Params):
    """An action that takes no arguments."""


class DragDrop(Params):
    """Drag one element or point onto another."""

    model_config = ConfigDict(populate_by_name=True)

    source: PointAim = Field(alias="from", description="The thing to drag.")
    to: PointAim = Field(description="The place to drop it.")


class UploadFile(ElementAim):
    """Put an uploaded file into a file input or upload button."""

    file_id: str = Field(min_length=1, description="An uploaded file's id.")


class TabRef(Params):
    """A tab by its id."""

    tab_id: TabId


class OpenTab(Params):
    """Open a tab (at an address) and make it current."""

    url: Url | None = Field(None, description="Blank tab if omitted.")


class ExecuteJs(Params):
    """Run JavaScript in the page; its value comes back as JSON."""

    code: str = Field(
        min_length=1, max_length=20_000, description="An expression, a function, or statements ending in return."
    )


class GetElements(Params):
    """List interactive elements: [index], kind, name, value, states."""

    type: Literal["button", "input", "link", "select", "image", "all"] = "all"
    visible_only: bool = Field(True, description="false: the whole page.")


class GetElementDetails(Params):
    """Attributes, CSS selector, XPath, all options, surroundings of elements."""

    indices: tuple[Annotated[int, Field(ge=0)], ...] = Field(
        min_length=1, max_length=20, description="Elements' [index] values.", json_schema_extra={"uniqueItems": True}
    )
    value_from: int | None = Field(default=None, ge=1, description="A long value's next part, as value_part says.")
