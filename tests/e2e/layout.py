"""Measuring a dashboard page's layout the way a reader would notice a fault: an element wider than the window, text
cut off in a header, a placeholder that does not fit its box, a label sticking out of its step."""

from __future__ import annotations

from typing import Any

from playwright.async_api import Locator, Page

# Every shown element whose box is wider than the window, and how wide the page can be scrolled.
TOO_WIDE = """
() => {
  const width = document.documentElement.clientWidth;
  const wide = [];
  for (const el of document.querySelectorAll("body *")) {
    const style = getComputedStyle(el);
    if (style.display === "none" || style.visibility === "hidden") continue;
    const box = el.getBoundingClientRect();
    if (box.width > width + 0.5) {
      wide.push(`${el.tagName.toLowerCase()}.${el.className} ${Math.round(box.width)}px`);
    }
  }
  return { width, scrollWidth: document.scrollingElement.scrollWidth, wide };
}
"""

# Within `root`: every shown block whose content is wider than its box (cut off or spilling out). Text for screen
# readers only (.visually-hidden) is a one-pixel box on purpose.
CLIPPED = """
(root) => {
  const clipped = [];
  for (const el of [root, ...root.querySelectorAll("*")]) {
    const style = getComputedStyle(el);
    if (style.display === "none" || style.display === "inline" || style.visibility === "hidden") continue;
    if (el.closest("[hidden], .visually-hidden") || el instanceof SVGElement) continue;
    if (el.scrollWidth > el.clientWidth + 1) {
      clipped.push(`${el.tagName.toLowerCase()}.${el.className}: ${el.scrollWidth} > ${el.clientWidth}`);
    }
  }
  return clipped;
}
"""

# Whether a field's placeholder fits on one line inside its padding (measured in the field's own font).
PLACEHOLDER_FITS = """
(field) => {
  const style = getComputedStyle(field);
  const context = document.createElement("canvas").getContext("2d");
  context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return { text: field.placeholder, needs: context.measureText(field.placeholder).width, room };
}
"""

# Within each `container`: children whose box leaves the container's left or right edge.
ESCAPED = """
([containers, children]) => {
  const out = [];
  for (const container of document.querySelectorAll(containers)) {
    const outer = container.getBoundingClientRect();
    for (const child of container.querySelectorAll(children)) {
      if (getComputedStyle(child).display === "none") continue;
      const box = child.getBoundingClientRect();
      if (box.width === 0) continue;
      if (box.left < outer.left - 0.5 || box.right > outer.right + 0.5) out.push(`${child.className}: ${child.textContent}`);
    }
  }
  return out;
}
"""


async def assert_fits_the_window(page: Page) -> None:
    measured: dict[str, Any] = await page.evaluate(TOO_WIDE)
    assert measured["wide"] == [], measured
    assert measured["scrollWidth"] <= measured["width"], measured


async def assert_not_clipped(part: Locator) -> None:
    clipped = await part.evaluate(CLIPPED)
    assert clipped == [], clipped


async def assert_placeholder_fits(field: Locator) -> None:
    measured = await field.evaluate(PLACEHOLDER_FITS)
    assert measured["text"], measured
    assert measured["needs"] <= measured["room"], measured


async def assert_inside(page: Page, containers: str, children: str) -> None:
    escaped = await page.evaluate(ESCAPED, [containers, children])
    assert escaped == [], escaped
