// A screenshot shown full size over the page.

import { h, icon, ICONS } from "../dom";

/** Shows a screenshot full size; click, Escape or the close button dismisses it. */
export function openLightbox(src: string, alt: string): void {
  const close = (): void => {
    overlay.remove();
    document.removeEventListener("keydown", onKey);
  };
  const onKey = (e: KeyboardEvent): void => {
    if (e.key === "Escape") close();
  };
  const overlay = h(
    "div",
    {
      class: "lightbox",
      "data-testid": "lightbox",
      role: "dialog",
      "aria-modal": "true",
      "aria-label": alt,
      onclick: close,
    },
    h("img", { src, alt }),
    h("button", { class: "lightbox-close btn btn-icon", type: "button", "aria-label": "Close" }, icon(ICONS.close, 20)),
  );
  document.addEventListener("keydown", onKey);
  document.body.appendChild(overlay);
}
