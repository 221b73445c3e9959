// The composer's file chips: an uploaded file (click to mention it in the message) or one still uploading.

import type { Id } from "../../api/types";
import { h, icon, ICONS, setAttr, setText, type Component } from "../../dom";
import { formatBytes } from "../../format";
import type { FileChip } from "../../state";

/** What the composer inserts to point the agent at an uploaded file (its `upload_file` takes the id). */
export function fileMention(file: { id: Id; name: string }): string {
  return `the file "${file.name}" (file_id ${file.id})`;
}

export function createFileChip(
  initial: FileChip,
  onMention: (file: FileChip) => void,
  onDismiss: (key: string) => void,
): Component<FileChip> {
  let current = initial;
  const name = h("button", {
    class: "file-chip-name",
    type: "button",
    onclick: () => current.id !== null && onMention(current),
  });
  const size = h("span", { class: "file-chip-size" });
  const spinner = h("span", { class: "spinner", "aria-hidden": "true" });
  const close = h(
    "button",
    {
      class: "file-chip-close",
      type: "button",
      "aria-label": `Hide ${initial.name}`,
      title: "Hide (the agent can still use the file)",
      onclick: () => onDismiss(current.key),
    },
    icon(ICONS.close, 12),
  );
  const el = h("div", { class: "file-chip" }, icon(ICONS.file, 14), name, size, spinner, close);
  const update = (file: FileChip): void => {
    current = file;
    const uploading = file.id === null;
    el.classList.toggle("uploading", uploading);
    // Only a stored file counts as an uploaded-file.
    setAttr(el, "data-testid", uploading ? "uploading-file" : "uploaded-file");
    setAttr(el, "data-file-id", uploading ? null : String(file.id));
    setText(name, file.name);
    setAttr(name, "title", uploading ? "Uploading…" : `File id ${file.id}. Click to mention it in your message.`);
    name.disabled = uploading;
    setText(size, uploading ? "Uploading…" : formatBytes(file.size));
    spinner.hidden = !uploading;
    close.hidden = uploading;
  };
  update(initial);
  return { el, update };
}
