// Settings → Vault: credentials the agent signs in with by placeholder ({{github.password}}), never reading them.
// Listed by name, fields and origins; added and edited through a form whose values are sent once and never shown
// again; deleted after a confirmation.

import type { ApiClient } from "../../api/client";
import type { VaultCredential } from "../../api/types";
import { h, replaceChildren, setText } from "../../dom";
import { errorText } from "../../errors";
import { confirmAction } from "../dialogs";
import { vaultBody, vaultInputs } from "./form";

/** How a credential is listed: the placeholders the agent writes, and where they may be typed. */
export function placeholdersOf(credential: VaultCredential): string {
  return credential.fields.map((field) => `{{${credential.name}.${field}}}`).join(" ");
}

export class VaultSection {
  readonly el: HTMLElement;
  private readonly listEl: HTMLElement;
  private readonly status: HTMLElement;
  private readonly formSlot: HTMLElement;

  constructor(private readonly api: ApiClient) {
    this.listEl = h("ul", { class: "record-list", "data-testid": "vault-list" });
    this.status = h("p", { class: "settings-lead", role: "status" });
    this.formSlot = h("div", null, this.form(null));
    this.el = h(
      "section",
      { class: "settings-section vault", "data-testid": "vault", "aria-labelledby": "vault-title" },
      h("h2", { id: "vault-title" }, "Vault"),
      h(
        "p",
        { class: "settings-lead" },
        "Sign in once: the agent types a saved credential by its placeholder, e.g. {{github.password}}, and never sees it. A one-time code is computed when it is typed. Each credential is typed only on the origins you name.",
      ),
      this.status,
      this.listEl,
      this.formSlot,
    );
  }

  async load(): Promise<void> {
    setText(this.status, "Loading…");
    try {
      const credentials = await this.api.listVault();
      setText(this.status, credentials.length ? "" : "No credentials yet. Add one below.");
      replaceChildren(this.listEl, ...credentials.map((credential) => this.row(credential)));
    } catch (err) {
      setText(this.status, `Could not load your vault: ${errorText(err)}`);
    }
  }

  private row(credential: VaultCredential): HTMLElement {
    const edit = h("button", { class: "btn btn-ghost btn-sm", type: "button", "data-testid": "vault-edit" }, "Edit");
    edit.addEventListener("click", () => replaceChildren(this.formSlot, this.form(credential)));
    const remove = h("button", { class: "btn btn-ghost btn-sm danger", type: "button", "data-testid": "vault-delete" }, "Delete");
    remove.addEventListener(
      "click",
      () =>
        void confirmAction({
          title: "Delete this credential?",
          subtitle: credential.name,
          text: "The agent can no longer type it; its values are deleted.",
          submitLabel: "Delete credential",
          danger: true,
          testid: "vault-delete-dialog",
          confirm: () => this.api.deleteVaultCredential(credential.id),
        }).then((deleted) => {
          if (deleted) void this.load();
        }),
    );
    return h(
      "li",
      { class: "record-item", "data-testid": "vault-credential", "data-credential-id": String(credential.id) },
      h("div", { class: "record-head" }, h("strong", { class: "record-title" }, credential.name), edit, remove),
      h("span", { class: "record-detail" }, placeholdersOf(credential)),
      h("span", { class: "record-detail" }, `Typed only on ${credential.origins.join(", ")}`),
    );
  }

  private form(editing: VaultCredential | null): HTMLFormElement {
    const inputs = vaultInputs(editing);
    const save = h("button", { class: "btn btn-secondary", type: "submit", "data-testid": "vault-save" }, editing ? "Save changes" : "Add");
    const cancel = editing
      ? h("button", { class: "btn btn-ghost", type: "button", onclick: () => replaceChildren(this.formSlot, this.form(null)) }, "Cancel")
      : null;
    const error = h("p", { class: "form-error", role: "alert", "data-testid": "vault-error" });
    const form = h(
      "form",
      { class: "vault-form", "aria-label": editing ? `Edit ${editing.name}` : "Add a credential" },
      inputs.el,
      h("div", { class: "form-actions start" }, save, cancel),
      error,
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      setText(error, "");
      let body;
      try {
        body = vaultBody(inputs.read(), editing);
      } catch (err) {
        setText(error, errorText(err));
        return;
      }
      save.disabled = true;
      const sent = editing ? this.api.updateVaultCredential(editing.id, body) : this.api.createVaultCredential(body);
      void sent
        .then(() => {
          inputs.clear(); // nothing typed stays on the page
          replaceChildren(this.formSlot, this.form(null));
          return this.load();
        })
        .catch((err: unknown) => setText(error, errorText(err)))
        .finally(() => (save.disabled = false));
    });
    return form;
  }
}
