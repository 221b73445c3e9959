// The share dialog's link maker: the role of people opening the link and how long it works, "Create link",
// and the new link to copy.

import { LINK_LIFETIMES, shareLinkUrl } from "../../access";
import type { Share, ShareLinkInput, ShareRole } from "../../api/types";
import { h, icon, ICONS } from "../../dom";
import { errorText } from "../../errors";
import { copyButton, roleSelect } from "./rows";

export interface LinkFormOptions {
  /** Where links point: `<origin>/share/<token>`. */
  origin: string;
  /** Makes the link (and lists it); rejects with the API's error. */
  create: (input: ShareLinkInput) => Promise<Share>;
  showError: (text: string | null) => void;
}

export class LinkForm {
  /** The role, the lifetime and the button, in a row. */
  readonly el: HTMLElement;
  /** The new link and its copy button (hidden until a link was made). */
  readonly result: HTMLElement;
  private readonly role: HTMLSelectElement;
  private readonly lifetime: HTMLSelectElement;
  private readonly button: HTMLButtonElement;
  private readonly url: HTMLInputElement;

  constructor(private readonly options: LinkFormOptions) {
    this.role = roleSelect("share-link-role", "Role of people opening the link");
    this.lifetime = h(
      "select",
      { class: "share-select", "data-testid": "share-link-lifetime", "aria-label": "The link works for" },
      ...LINK_LIFETIMES.map((l) => h("option", { value: String(l.minutes) }, l.label)),
    );
    this.lifetime.value = String(24 * 60);
    this.button = h(
      "button",
      { class: "btn btn-secondary btn-sm", type: "button", "data-testid": "share-link-create", onclick: () => void this.create() },
      icon(ICONS.link, 13),
      h("span", null, "Create link"),
    );
    this.url = h("input", {
      class: "share-link-field",
      type: "text",
      readonly: true,
      "data-testid": "share-link-url",
      "aria-label": "The new link",
    });
    this.url.addEventListener("focus", () => this.url.select());
    this.result = h(
      "div",
      { class: "share-link-result", hidden: true },
      this.url,
      copyButton("share-link-copy", () => this.url.value),
    );
    this.el = h(
      "div",
      { class: "share-link-form" },
      this.role,
      h("span", { class: "share-for" }, "for"),
      this.lifetime,
      this.button,
    );
  }

  private async create(): Promise<void> {
    this.button.disabled = true;
    this.options.showError(null);
    try {
      const link = await this.options.create({
        role: this.role.value as ShareRole,
        expires_in_minutes: Number(this.lifetime.value),
      });
      this.url.value = link.token ? shareLinkUrl(link.token, this.options.origin) : "";
      this.result.hidden = !this.url.value;
      this.url.focus();
    } catch (err) {
      this.options.showError(errorText(err));
    } finally {
      this.button.disabled = false;
    }
  }
}
