// @vitest-environment jsdom
import { describe, expect, it } from "vitest";

import type { ApiClient } from "../api/client";
import { ApiError } from "../api/errors";
import type { VaultCredential, VaultCredentialInput } from "../api/types";
import { othersOf, vaultBody, type VaultFormValues } from "./vault/form";
import { VaultSection } from "./vault/section";

const GITHUB: VaultCredential = {
  id: 4,
  name: "github",
  fields: ["username", "password", "otp"],
  origins: ["https://github.com"],
  created_at: "",
  updated_at: "",
};

const EMPTY: VaultFormValues = { name: "", origins: "", username: "", password: "", totpSecret: "", removeTotp: false, others: "" };

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("what the vault form sends", () => {
  it("sends everything typed for a new credential", () => {
    const body = vaultBody(
      { ...EMPTY, name: " github ", origins: "https://github.com, https://gist.github.com", username: "ada", password: "pw", totpSecret: "JBSW" },
      null,
    );
    expect(body).toEqual({
      name: "github",
      origins: ["https://github.com", "https://gist.github.com"],
      username: "ada",
      password: "pw",
      totp_secret: "JBSW",
    });
  });

  it("on an edit sends only what changed: an empty value keeps the stored one", () => {
    const values = { ...EMPTY, name: "github", origins: "https://github.com", password: "new" };
    expect(vaultBody(values, GITHUB)).toEqual({ password: "new" });
    expect(vaultBody({ ...values, password: "", removeTotp: true }, GITHUB)).toEqual({ totp_secret: "" });
  });

  it("reads other secrets as name=value lines, and refuses a line that is not one", () => {
    expect(othersOf("api_token=abc=d\n\npin=")).toEqual({ api_token: "abc=d", pin: "" });
    expect(() => othersOf("just a value")).toThrow(/not name=value/);
  });
});

function fakeApi(list: VaultCredential[], refuse?: string) {
  const sent: VaultCredentialInput[] = [];
  const api = {
    listVault: () => Promise.resolve(list),
    createVaultCredential: (body: VaultCredentialInput) => {
      sent.push(body);
      return refuse ? Promise.reject(new ApiError(400, { detail: refuse }, "refused")) : Promise.resolve(GITHUB);
    },
    updateVaultCredential: (_id: number, body: VaultCredentialInput) => {
      sent.push(body);
      return Promise.resolve(GITHUB);
    },
    deleteVaultCredential: () => Promise.resolve(),
  } as unknown as ApiClient;
  return { api, sent };
}

function type(el: HTMLElement, testid: string, value: string): void {
  const field = el.querySelector<HTMLInputElement>(`[data-testid="${testid}"]`)!;
  field.value = value;
}

describe("Settings → Vault", () => {
  it("lists credentials by their placeholders and origins", async () => {
    const section = new VaultSection(fakeApi([GITHUB]).api);
    await section.load();
    const row = section.el.querySelector('[data-testid="vault-credential"]')!;
    expect(row.textContent).toContain("{{github.username}} {{github.password}} {{github.otp}}");
    expect(row.textContent).toContain("Typed only on https://github.com");
  });

  it("edits without showing a value, and clears what was typed once saved", async () => {
    const { api, sent } = fakeApi([GITHUB]);
    const section = new VaultSection(api);
    await section.load();
    section.el.querySelector<HTMLButtonElement>('[data-testid="vault-edit"]')!.click();
    const form = section.el.querySelector("form")!;
    expect(form.querySelector<HTMLInputElement>('[data-testid="vault-name"]')!.value).toBe("github");
    expect(form.querySelector<HTMLInputElement>('[data-testid="vault-password"]')!.value).toBe("");
    type(form, "vault-password", "s3cret-new");
    form.dispatchEvent(new Event("submit"));
    await settle();
    await settle();
    expect(sent).toEqual([{ password: "s3cret-new" }]);
    expect(section.el.innerHTML).not.toContain("s3cret-new");
  });

  it("shows the server's message when it refuses", async () => {
    const section = new VaultSection(fakeApi([], "The TOTP secret is not base32.").api);
    await section.load();
    const form = section.el.querySelector("form")!;
    type(form, "vault-name", "github");
    type(form, "vault-origins", "https://github.com");
    type(form, "vault-password", "pw");
    form.dispatchEvent(new Event("submit"));
    await settle();
    await settle();
    expect(section.el.querySelector('[data-testid="vault-error"]')!.textContent).toContain("not base32");
  });
});
