// The personal API token: create (shown once, with a copy button), revoke.

import type { ApiClient } from "../../api/client";
import { copyText } from "../../clipboard";
import { h, icon, ICONS, setText } from "../../dom";
import { errorText } from "../../errors";

export class ApiTokenSection {
  readonly el: HTMLElement;
  private readonly tokenValue = h("input", {
    class: "token-value",
    type: "text",
    readonly: true,
    spellcheck: "false",
    "data-testid": "api-token-value",
    "aria-label": "Your new API token",
  });
  private readonly copyLabel = h("span", null, "Copy");
  private readonly tokenBox: HTMLElement;
  private readonly tokenStatus = h("div", { class: "token-status", "data-testid": "api-token-status", role: "status", hidden: true });

  constructor(private readonly api: ApiClient) {
    const copyButton = h(
      "button",
      { class: "btn btn-secondary", type: "button", "data-testid": "api-token-copy", onclick: () => void this.copyToken() },
      icon(ICONS.copy, 14),
      this.copyLabel,
    );
    this.tokenBox = h(
      "div",
      { class: "token-box", hidden: true },
      h("div", { class: "token-row" }, this.tokenValue, copyButton),
      h("p", { class: "field-hint" }, "Copy it now: it is shown only this once. Creating another token replaces this one."),
    );
    const createToken = h(
      "button",
      { class: "btn btn-primary", type: "button", "data-testid": "api-token-create" },
      icon(ICONS.key, 14),
      "Create a new token",
    );
    const revokeToken = h(
      "button",
      { class: "btn btn-ghost danger", type: "button", "data-testid": "api-token-revoke" },
      "Revoke token",
    );
    createToken.addEventListener("click", () => void (async () => {
      createToken.disabled = true;
      this.setStatus(null);
      try {
        const { token } = await this.api.createToken();
        this.tokenValue.value = token;
        this.tokenBox.hidden = false;
        setText(this.copyLabel, "Copy");
        this.tokenValue.focus();
        this.tokenValue.select();
      } catch (err) {
        this.setStatus(errorText(err), true);
      } finally {
        createToken.disabled = false;
      }
    })());
    revokeToken.addEventListener("click", () => void (async () => {
      revokeToken.disabled = true;
      try {
        await this.api.revokeToken();
        this.tokenValue.value = "";
        this.tokenBox.hidden = true;
        this.setStatus("Token revoked. Scripts using it can no longer sign in.");
      } catch (err) {
        this.setStatus(errorText(err), true);
      } finally {
        revokeToken.disabled = false;
      }
    })());
    this.el = h(
      "section",
      { class: "settings-section", "data-testid": "api-token", "aria-labelledby": "token-title" },
      h("h2", { id: "token-title" }, "Personal API token"),
      h(
        "p",
        { class: "settings-lead" },
        "For scripts and tools: send it as ",
        h("code", null, "Authorization: Token <token>"),
        " to the REST API under ",
        h("code", null, "/api/"),
        ". You have at most one; a new one replaces the old.",
      ),
      this.tokenBox,
      this.tokenStatus,
      h("div", { class: "form-actions start" }, createToken, revokeToken),
    );
  }

  /** No token left on screen from last time. */
  reset(): void {
    this.tokenValue.value = "";
    this.tokenBox.hidden = true;
    this.setStatus(null);
  }

  private async copyToken(): Promise<void> {
    const token = this.tokenValue.value;
    if (!token) return;
    const copied = await copyText(token);
    setText(this.copyLabel, copied ? "Copied" : "Select and copy");
    this.tokenValue.select();
  }

  private setStatus(text: string | null, isError = false): void {
    this.tokenStatus.hidden = !text;
    this.tokenStatus.classList.toggle("error", isError);
    setText(this.tokenStatus, text ?? "");
  }
}
