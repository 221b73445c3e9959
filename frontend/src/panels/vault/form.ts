// The vault's add and edit form. Values are typed in, sent, and cleared: the server never sends one back, so an edit
// starts with empty fields, and what is left empty is kept as it is.

import type { VaultCredential, VaultCredentialInput } from "../../api/types";
import { h } from "../../dom";

export interface VaultFormValues {
  name: string;
  origins: string;
  username: string;
  password: string;
  totpSecret: string;
  removeTotp: boolean;
  /** One secret a line, `name=value`; `name=` removes it. */
  others: string;
}

/** The origins typed, one a line or separated by spaces or commas. */
export function originsOf(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean);
}

/** The other secrets typed as `name=value` lines; a line without `=` is an error the user reads. */
export function othersOf(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split("\n").map((l) => l.trim()).filter(Boolean)) {
    const at = line.indexOf("=");
    if (at < 1) throw new Error(`"${line}" is not name=value (an empty value removes a secret).`);
    out[line.slice(0, at).trim()] = line.slice(at + 1);
  }
  return out;
}

/** What is sent: on a new credential everything typed; on an edit only what changed (an empty value keeps it). */
export function vaultBody(values: VaultFormValues, editing: VaultCredential | null): VaultCredentialInput {
  const body: VaultCredentialInput = {};
  const name = values.name.trim();
  if (name !== editing?.name) body.name = name;
  const origins = originsOf(values.origins);
  if (origins.join(" ") !== editing?.origins.join(" ")) body.origins = origins;
  if (values.username || !editing) body.username = values.username;
  if (values.password || !editing) body.password = values.password;
  if (values.removeTotp) body.totp_secret = "";
  else if (values.totpSecret) body.totp_secret = values.totpSecret;
  const others = othersOf(values.others);
  if (Object.keys(others).length) body.secrets = others;
  return body;
}

export interface VaultFormInputs {
  el: HTMLElement;
  read(): VaultFormValues;
  clear(): void;
}

function input(label: string, testid: string, attrs: Record<string, string | boolean> = {}): HTMLInputElement {
  return h("input", { class: "input", "aria-label": label, placeholder: label, "data-testid": testid, autocomplete: "off", ...attrs });
}

/** The form's fields, filled with what may be shown of `editing` (its name and origins, never a value). */
export function vaultInputs(editing: VaultCredential | null): VaultFormInputs {
  const keep = editing ? " (empty: unchanged)" : "";
  const name = input("Name, e.g. github", "vault-name", { required: true, maxlength: "100" });
  const origins = input("Origins, e.g. https://github.com", "vault-origins", { required: true });
  const username = input(`Username${keep}`, "vault-username");
  const password = input(`Password${keep}`, "vault-password", { type: "password", required: !editing, autocomplete: "new-password" });
  const totp = input(`TOTP secret, optional${keep}`, "vault-totp", { type: "password", autocomplete: "off" });
  const removeTotp = h("input", { type: "checkbox", "data-testid": "vault-totp-remove" });
  const others = h("textarea", {
    class: "input",
    rows: "2",
    "aria-label": "Other secrets",
    placeholder: "Other secrets, one a line: name=value (name= removes one)",
    "data-testid": "vault-others",
  });
  name.value = editing?.name ?? "";
  origins.value = editing?.origins.join(" ") ?? "";
  const hasOtp = editing?.fields.includes("otp") ?? false;
  const el = h(
    "div",
    { class: "form-grid" },
    name,
    origins,
    username,
    password,
    totp,
    hasOtp ? h("label", { class: "record-detail" }, removeTotp, " Remove the one-time code") : null,
    others,
  );
  return {
    el,
    read: () => ({
      name: name.value,
      origins: origins.value,
      username: username.value,
      password: password.value,
      totpSecret: totp.value,
      removeTotp: removeTotp.checked,
      others: others.value,
    }),
    clear: () => {
      for (const field of [username, password, totp, others]) field.value = "";
    },
  };
}
