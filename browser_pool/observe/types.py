"""The three layers of what the model sees of a page (seed 004): summary, element list, element details."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

ElementKind = Literal["button", "input", "link", "select", "image", "all"]
ELEMENT_KINDS: tuple[str, ...] = ("button", "input", "link", "select", "image", "all")

_COUNT_ORDER = ("buttons", "inputs", "links", "selects", "images", "forms")


@dataclass(frozen=True, slots=True)
class Rect:
    """A box in CSS pixels of the top-level viewport (elements inside iframes included)."""

    x: int
    y: int
    width: int
    height: int

    @property
    def center(self) -> tuple[float, float]:
        return (self.x + self.width / 2, self.y + self.height / 2)


@dataclass(frozen=True, slots=True)
class FocusedElement:
    tag: str
    index: int | None


@dataclass(slots=True)
class PageSummary:
    """Layer 1, sent to the model every step."""

    url: str
    title: str
    viewport: tuple[int, int]
    scroll: tuple[int, int]
    page_size: tuple[int, int]
    counts: dict[str, int]
    visible_text: str
    focused: FocusedElement | None = None
    dialogs: list[str] = field(default_factory=list)
    cross_origin_frames: int = 0
    # Requests of this session the network firewall refused since the page loaded (internal images, fetches ...).
    blocked_requests: int = 0

    @classmethod
    def from_page(cls, raw: dict[str, Any]) -> PageSummary:
        focused = raw.get("focused")
        return cls(
            url=raw["url"],
            title=raw["title"],
            viewport=(raw["viewport"][0], raw["viewport"][1]),
            scroll=(raw["scroll"][0], raw["scroll"][1]),
            page_size=(raw["page"][0], raw["page"][1]),
            counts=dict(raw["counts"]),
            visible_text=raw["text"],
            focused=FocusedElement(focused["tag"], focused["index"]) if focused else None,
            dialogs=list(raw["dialogs"]),
            cross_origin_frames=raw["crossOriginFrames"],
        )

    def render(self) -> str:
        return "\n".join(self.render_lines())

    def render_lines(self) -> list[str]:
        """The summary's entries, one per fact (the text, last, may span lines)."""
        counts = ", ".join(
            f"{self.counts[key]} {key if self.counts[key] != 1 else key[:-1]}"
            for key in _COUNT_ORDER
            if self.counts.get(key)
        )
        lines = [
            f"URL: {self.url}",
            f"Title: {self.title}",
            f"Viewport {self.viewport[0]}x{self.viewport[1]}, scrolled to {self.scroll[0]},{self.scroll[1]} "
            f"of {self.page_size[0]}x{self.page_size[1]}",
            f"Elements: {counts or 'none'}",
        ]
        if self.focused is not None:
            where = f"[{self.focused.index}] " if self.focused.index is not None else ""
            lines.append(f"Focused: {where}{self.focused.tag}")
        lines.extend(f'Open dialog: "{name}"' for name in self.dialogs)
        if self.cross_origin_frames:
            lines.append(f"Cross-origin frames (not observed): {self.cross_origin_frames}")
        if self.blocked_requests:
            lines.append(f"Requests blocked by the network firewall: {self.blocked_requests}")
        lines.append(f"Text: {self.visible_text}")
        return lines

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(slots=True)
class ElementInfo:
    """Layer 2: one interactive element. `index` stays the element's while it lives on this page."""

    index: int
    tag: str
    kind: str
    text: str
    visible: bool
    enabled: bool
    rect: Rect
    new: bool = False
    role: str = ""
    type: str = ""
    placeholder: str = ""
    href: str = ""
    value: str = ""
    # The value's whole length in characters when `value` is not all of it (elided "abc…" in a list, one part of it
    # in details); 0 when `value` is the whole of it.
    value_length: int = 0
    name: str = ""
    checked: bool | None = None
    mixed: bool = False  # a checkbox neither checked nor unchecked (some of what it stands for)
    # A select's or listbox's option labels (the first few in a list, all in details) and how many there are.
    options: list[str] = field(default_factory=list)
    option_count: int = 0
    multiple: bool = False
    editable: bool = False
    selected: bool = False
    expanded: bool | None = None
    pressed: bool | None = None
    required: bool = False
    readonly: bool = False
    focused: bool = False
    in_frame: bool = False
    in_shadow: bool = False

    @classmethod
    def from_page(cls, raw: dict[str, Any]) -> ElementInfo:
        x, y, width, height = raw["rect"]
        return cls(
            index=raw["index"],
            tag=raw["tag"],
            kind=raw["kind"],
            text=raw["text"],
            visible=raw["visible"],
            enabled=raw["enabled"],
            rect=Rect(x, y, width, height),
            new=raw.get("new", False),
            role=raw.get("role", ""),
            type=raw.get("type", ""),
            placeholder=raw.get("placeholder", ""),
            href=raw.get("href", ""),
            value=raw.get("value", ""),
            value_length=raw.get("value_length", 0),
            name=raw.get("name", ""),
            checked=raw.get("checked"),
            mixed=raw.get("mixed", False),
            options=list(raw.get("options", [])),
            option_count=raw.get("option_count", 0),
            multiple=raw.get("multiple", False),
            editable=raw.get("editable", False),
            selected=raw.get("selected", False),
            expanded=raw.get("expanded"),
            pressed=raw.get("pressed"),
            required=raw.get("required", False),
            readonly=raw.get("readonly", False),
            focused=raw.get("focused", False),
            in_frame=raw.get("in_frame", False),
            in_shadow=raw.get("in_shadow", False),
        )

    def as_dict(self) -> dict[str, Any]:
        """Without empty fields, so it stays small when serialised for a model or a log."""
        out = asdict(self)
        return {
            key: value
            for key, value in out.items()
            # A collapsed section or an unpressed toggle says something; an empty field does not.
            if value not in ("", None, [], False)
            or (key in ("visible", "enabled", "expanded", "pressed") and value is not None)
        }


@dataclass(slots=True)
class ElementList:
    """Layer 2 as the model gets it: `text` has one line per element, cut to the size budget."""

    items: list[ElementInfo]
    lines: list[str]
    total: int
    kind: str
    visible_only: bool
    # The indices of all `total` elements, those the budget left out included: an index missing here is gone.
    indices: list[int] = field(default_factory=list)

    @property
    def omitted(self) -> int:
        return self.total - len(self.items)

    @property
    def text(self) -> str:
        what = "Interactive elements" if self.kind == "all" else f"{self.kind.capitalize()} elements"
        where = "in view" if self.visible_only else "on the page"
        header = f"{what} {where}: {self.total}"
        if any(item.new for item in self.items):
            header += " (* = new since the last list)"
        body = [header, *self.lines]
        if self.omitted:
            body.append(
                f"… {self.omitted} more elements, use get_elements with a filter "
                "(type=button|input|link|select) or scroll"
            )
        return "\n".join(body)

    def by_index(self, index: int) -> ElementInfo | None:
        return next((item for item in self.items if item.index == index), None)


@dataclass(slots=True)
class ElementDetails:
    """Layer 3: everything needed to target an element another way, or to understand it."""

    info: ElementInfo
    attributes: dict[str, str]
    selector: str
    selector_unique: bool
    xpath: str
    parent_text: str
    child_count: int
    rendered: bool
    # Selectors of the iframes / shadow hosts the element sits in, outermost first; `selector` is unique
    # within the innermost of them.
    frames: list[str] = field(default_factory=list)
    shadow_hosts: list[str] = field(default_factory=list)
    # When `info.value` is one part of a long value: which characters, and how to read the next part.
    value_part: str = ""

    @classmethod
    def from_page(cls, raw: dict[str, Any]) -> ElementDetails:
        return cls(
            info=ElementInfo.from_page(raw),
            attributes=dict(raw["attributes"]),
            selector=raw["selector"],
            selector_unique=raw["selector_unique"],
            xpath=raw["xpath"],
            parent_text=raw["parent_text"],
            child_count=raw["child_count"],
            rendered=raw["rendered"],
            frames=list(raw["frames"]),
            shadow_hosts=list(raw["shadow_hosts"]),
            value_part=raw.get("value_part", ""),
        )

    def as_dict(self) -> dict[str, Any]:
        out = self.info.as_dict()
        out.update(
            attributes=self.attributes,
            selector=self.selector,
            xpath=self.xpath,
            parent_text=self.parent_text,
            child_count=self.child_count,
        )
        if not self.rendered:
            out["hidden"] = True
        if self.frames:
            out["frames"] = self.frames
        if self.shadow_hosts:
            out["shadow_hosts"] = self.shadow_hosts
        if self.value_part:
            out["value_part"] = self.value_part
        return out


@dataclass(slots=True)
class DetailsResult:
    found: list[ElementDetails]
    # index -> why it could not be described (stale, from a previous page ...)
    missing: dict[int, str]


@dataclass(slots=True)
class Observation:
    """What an agent step sends by default: the summary and the elements in view."""

    summary: PageSummary
    elements: ElementList

    def render(self) -> str:
        return f"{self.summary.render()}\n{self.elements.text}"
