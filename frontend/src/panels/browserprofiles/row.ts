// One browser profile in Settings: its name, origins and last use; for its owner Rename, Export, Delete and Forget
// on each origin. Teammates see names and counts only (the server never sends them a cookie).

import type { ApiClient } from "../../api/client";
import type { BrowserProfile } from "../../api/types";
import { h, setText } from "../../dom";
import { errorText } from "../../errors";
import { confirmAction } from "../dialogs";
import { originLine, profileSummary } from "./format";

export interface ProfileRowOptions {
  api: ApiClient;
  /** The list changed (renamed, deleted, an origin forgotten): load it again. */
  changed: () => void;
}

function button(label: string, testid: string, onclick: () => void, danger = false): HTMLButtonElement {
  const cls = `btn btn-ghost btn-sm${danger ? " danger" : ""}`;
  return h("button", { class: cls, type: "button", "data-testid": testid, onclick }, label);
}

/** Saves `data` as a file named `name` in the user's downloads. */
function download(name: string, data: unknown): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 1)], { type: "application/json" }));
  const link = h("a", { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

export function profileRow(profile: BrowserProfile, options: ProfileRowOptions): HTMLElement {
  const { api, changed } = options;
  const status = h("p", { class: "form-error", role: "alert" });
  const attempt = (work: Promise<unknown>) => {
    setText(status, "");
    void work.then(changed).catch((err: unknown) => setText(status, errorText(err)));
  };
  const owner = profile.access === "owner";
  const origins = profile.origins.map((origin) =>
    h(
      "li",
      { class: "record-detail", "data-testid": "browser-profile-origin" },
      originLine(origin),
      owner ? button("Forget", "browser-profile-forget", () => attempt(api.forgetProfileOrigin(profile.id, origin.origin))) : null,
    ),
  );
  const actions = owner
    ? [
        button("Rename", "browser-profile-rename", () => {
          const name = window.prompt("New name", profile.name)?.trim();
          if (name && name !== profile.name) attempt(api.renameBrowserProfile(profile.id, name));
        }),
        button("Export", "browser-profile-export", () =>
          attempt(api.exportBrowserProfile(profile.id).then((state) => download(`${profile.name}.storage-state.json`, state))),
        ),
        button(
          "Delete",
          "browser-profile-delete",
          () =>
            void confirmAction({
              title: "Delete this profile?",
              subtitle: profile.name,
              text: "Its cookies and storage are deleted; conversations and schedules using it start from a fresh browser.",
              submitLabel: "Delete profile",
              danger: true,
              testid: "browser-profile-delete-dialog",
              confirm: () => api.deleteBrowserProfile(profile.id),
            }).then((deleted) => deleted && changed()),
          true,
        ),
      ]
    : [];
  return h(
    "li",
    { class: "record-item", "data-testid": "browser-profile", "data-profile-id": String(profile.id) },
    h(
      "div",
      { class: "record-head" },
      h("strong", { class: "record-title" }, profile.name),
      h("span", { class: "record-detail" }, profileSummary(profile)),
      ...actions,
    ),
    h("ul", { class: "record-list" }, ...origins),
    status,
  );
}
