// Settings → Browser profiles: sign-ins the browser starts from. The list (with origins and last use), and a form to
// bring one in from one's own browser: a storage-state JSON or a Netscape cookies.txt, pasted or chosen as a file.

import type { ApiClient } from "../../api/client";
import { h, replaceChildren, setText } from "../../dom";
import { errorText } from "../../errors";
import { profileRow } from "./row";

export class BrowserProfilesSection {
  readonly el: HTMLElement;
  private readonly listEl: HTMLElement;
  private readonly status: HTMLElement;

  constructor(private readonly api: ApiClient) {
    this.listEl = h("ul", { class: "record-list", "data-testid": "browser-profile-list" });
    this.status = h("p", { class: "settings-lead", role: "status" });
    this.el = h(
      "section",
      { class: "settings-section browser-profiles", "data-testid": "browser-profiles", "aria-labelledby": "browser-profiles-title" },
      h("h2", { id: "browser-profiles-title" }, "Browser profiles"),
      h(
        "p",
        { class: "settings-lead" },
        "Sign in once: a profile keeps a browser's cookies and storage. Choose one above a conversation or in a workflow's run and schedule forms, and the browser starts signed in.",
      ),
      this.status,
      this.listEl,
      this.importForm(),
    );
  }

  async load(): Promise<void> {
    setText(this.status, "Loading…");
    try {
      const profiles = await this.api.listBrowserProfiles();
      setText(this.status, profiles.length ? "" : "No profiles yet. Import one below, or save a conversation's browser.");
      const options = { api: this.api, changed: () => void this.load() };
      replaceChildren(this.listEl, ...profiles.map((profile) => profileRow(profile, options)));
    } catch (err) {
      setText(this.status, `Could not load your profiles: ${errorText(err)}`);
    }
  }

  private importForm(): HTMLFormElement {
    const name = h("input", {
      class: "input",
      required: true,
      maxlength: "100",
      placeholder: "Name, e.g. github",
      "aria-label": "Name",
      "data-testid": "browser-profile-name",
    });
    const content = h("textarea", {
      class: "input",
      rows: "4",
      required: true,
      "aria-label": "Storage state or cookies.txt",
      placeholder: "Paste a storage-state JSON or a cookies.txt, or choose a file",
      "data-testid": "browser-profile-content",
    });
    const file = h("input", { type: "file", accept: ".json,.txt,application/json,text/plain", "aria-label": "File" });
    file.addEventListener("change", () => void file.files?.[0]?.text().then((text) => (content.value = text)));
    const add = h("button", { class: "btn btn-secondary", type: "submit", "data-testid": "browser-profile-import" }, "Import");
    const error = h("p", { class: "form-error", role: "alert", "data-testid": "browser-profile-error" });
    const form = h(
      "form",
      { class: "browser-profile-form", "aria-label": "Import a profile" },
      h("div", { class: "form-grid" }, name, content, file),
      h("div", { class: "form-actions start" }, add),
      error,
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      add.disabled = true;
      setText(error, "");
      void this.api
        .importBrowserProfile({ name: name.value.trim(), content: content.value })
        .then(() => {
          form.reset();
          return this.load();
        })
        .catch((err: unknown) => setText(error, errorText(err)))
        .finally(() => (add.disabled = false));
    });
    return form;
  }
}
