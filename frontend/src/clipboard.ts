// Copying to the clipboard. The Clipboard API exists only on secure origins (https, localhost); a
// dashboard served over plain http on a LAN copies through a selected, hidden field instead.

import { h } from "./dom";

/** Copies text; where the Clipboard API is missing or refused, through a selected field. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const field = h("textarea", { class: "visually-hidden", readonly: true, "aria-hidden": "true" });
    field.value = text;
    document.body.appendChild(field);
    field.select();
    try {
      // Deprecated, yet the only way to copy on an insecure origin.
      // eslint-disable-next-line @typescript-eslint/no-deprecated
      return document.execCommand("copy");
    } catch {
      return false;
    } finally {
      field.remove();
    }
  }
}
