// A person's avatar: their initials on the colour of their name (people.ts), the same on every participant's page.
// The initials are drawn from an attribute, so the text of what holds the avatar (a message) stays its own.

import { h, setAttr } from "../dom";
import { initials, personHue } from "../people";

/** A round avatar for `username` (hidden for nobody); `setPersonAvatar` shows someone else in it. */
export function personAvatar(username: string | null, extraClass = ""): HTMLElement {
  const el = h("span", { class: `person-avatar ${extraClass}`.trim(), "aria-hidden": "true" });
  setPersonAvatar(el, username);
  return el;
}

export function setPersonAvatar(el: HTMLElement, username: string | null): void {
  el.classList.add("person-avatar");
  el.hidden = !username;
  setAttr(el, "data-initials", username ? initials(username) : null);
  setAttr(el, "data-person", username);
  el.style.setProperty("--person-hue", username ? String(personHue(username)) : "0");
}
