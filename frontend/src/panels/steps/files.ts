// The files a run's steps downloaded, as cards in its block: name, size, type and a link that downloads it (the
// server serves it as an attachment to whoever may read the conversation).

import type { ConversationFile } from "../../api/types";
import { h, icon, ICONS, replaceChildren, type Component } from "../../dom";
import { formatBytes } from "../../format";

/** A type as people know it: "CSV" for text/csv, "PDF" for application/pdf, else the media type itself. */
export function fileKind(contentType: string): string {
  const known: Record<string, string> = {
    "text/csv": "CSV",
    "application/pdf": "PDF",
    "text/plain": "Text",
    "application/json": "JSON",
    "application/zip": "ZIP archive",
    "application/octet-stream": "Binary file",
  };
  return known[contentType] ?? contentType;
}

function card(file: ConversationFile): HTMLElement {
  const details = [formatBytes(file.size), fileKind(file.content_type)].filter(Boolean).join(" · ");
  return h(
    "li",
    { class: "download-card", "data-testid": "download-card", "data-file-id": String(file.id) },
    icon(ICONS.file, 18),
    h(
      "div",
      { class: "download-card-text" },
      h("span", { class: "download-card-name", title: file.source_url || file.name }, file.name),
      h("span", { class: "download-card-meta" }, details),
    ),
    h(
      "a",
      { class: "link-button download-card-link", href: file.url, download: file.name, "aria-label": `Download ${file.name}` },
      "Download",
    ),
  );
}

/** The list of cards; drawn again only when the files change. */
export function createDownloadCards(): Component<readonly ConversationFile[]> {
  const el = h("ul", { class: "run-downloads", "data-testid": "run-downloads", "aria-label": "Downloaded files" });
  let shown = "";
  const update = (files: readonly ConversationFile[]): void => {
    const key = files.map((f) => f.id).join(",");
    el.hidden = files.length === 0;
    if (key === shown) return;
    shown = key;
    replaceChildren(el, ...files.map(card));
  };
  update([]);
  return { el, update };
}
