// Minimal DOM helpers: an element factory and a keyed list that updates components in place.

export type Child = Node | string | number | null | undefined | false;
type Props = Record<string, unknown>;

/**
 * `h("button", { class: "btn", type: "submit", "data-testid": "send-button", onclick: fn }, "Send")`.
 * `on*` functions become listeners; `value`, `checked`, `disabled`, `hidden` are set as properties;
 * `false`/`null`/`undefined` attributes are left out.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props | null = null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props) setProps(el, props);
  append(el, children);
  return el;
}

const PROPERTY_KEYS = new Set(["value", "checked", "disabled", "hidden"]);

export function setProps(el: HTMLElement, props: Props): void {
  for (const [key, value] of Object.entries(props)) {
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value as EventListener);
    } else if (PROPERTY_KEYS.has(key)) {
      (el as unknown as Record<string, unknown>)[key] = value;
    } else if (key === "class") {
      el.className = attributeText(value ?? "");
    } else if (value === false || value === null || value === undefined) {
      el.removeAttribute(key);
    } else {
      el.setAttribute(key, value === true ? "" : attributeText(value));
    }
  }
}

function attributeText(value: unknown): string {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean"
    ? String(value)
    : JSON.stringify(value);
}

export function append(el: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
  }
}

/** Replaces all children. */
export function replaceChildren(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/** Sets text only when it changed (keeps selection and avoids needless layout). */
export function setText(el: Node, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

export function setAttr(el: Element, name: string, value: string | null): void {
  if (value === null) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
  } else if (el.getAttribute(name) !== value) {
    el.setAttribute(name, value);
  }
}

/**
 * Puts `child` into `parent` (before `before`, else last) when `show`, takes it out otherwise: an element
 * with a testid is then in the page only when it means something, so counting or clicking it is unambiguous.
 */
export function present(parent: Element, child: Element, show: boolean, before: Node | null = null): void {
  if (!show) {
    child.remove();
    return;
  }
  if (child.parentNode === parent && (before === null || child.nextSibling === before)) return;
  parent.insertBefore(child, before);
}

export interface Component<T> {
  readonly el: HTMLElement;
  update(item: T): void;
  destroy?(): void;
}

/**
 * A list of components keyed by `keyOf`: existing ones are updated in place (their DOM state —
 * open details, scroll, focus — survives), new ones created, missing ones removed, order fixed.
 */
export class KeyedList<T> {
  private readonly items = new Map<string, Component<T>>();

  constructor(
    readonly container: HTMLElement,
    private readonly keyOf: (item: T) => string,
    private readonly create: (item: T) => Component<T>,
  ) {}

  update(list: readonly T[]): void {
    const seen = new Set<string>();
    let cursor: ChildNode | null = this.container.firstChild;
    for (const item of list) {
      const key = this.keyOf(item);
      seen.add(key);
      let component = this.items.get(key);
      if (component) {
        component.update(item);
      } else {
        component = this.create(item);
        this.items.set(key, component);
      }
      if (component.el !== cursor) this.container.insertBefore(component.el, cursor);
      cursor = component.el.nextSibling;
    }
    for (const [key, component] of this.items) {
      if (seen.has(key)) continue;
      component.destroy?.();
      component.el.remove();
      this.items.delete(key);
    }
  }

  clear(): void {
    this.update([]);
  }
}

/** A borderless square button showing only an icon; `label` is its tooltip and accessible name. */
export function iconButton(paths: string, label: string, onclick: () => unknown, extraClass = ""): HTMLButtonElement {
  return h(
    "button",
    {
      class: `btn btn-ghost btn-icon ${extraClass}`.trim(),
      type: "button",
      title: label,
      "aria-label": label,
      onclick,
    },
    icon(paths),
  );
}

/** An inline SVG icon from a path list (24×24 viewBox, stroke icons). */
export function icon(paths: string, size = 16): SVGSVGElement {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", String(size));
  svg.setAttribute("height", String(size));
  svg.setAttribute("fill", "none");
  svg.setAttribute("stroke", "currentColor");
  svg.setAttribute("stroke-width", "2");
  svg.setAttribute("stroke-linecap", "round");
  svg.setAttribute("stroke-linejoin", "round");
  svg.setAttribute("aria-hidden", "true");
  for (const d of paths.split("|")) {
    const path = document.createElementNS(ns, "path");
    path.setAttribute("d", d);
    svg.appendChild(path);
  }
  return svg;
}

export const ICONS = {
  plus: "M12 5v14|M5 12h14",
  send: "M22 2 11 13|M22 2l-7 20-4-9-9-4 20-7z",
  stop: "M6 6h12v12H6z",
  logout: "M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4|M16 17l5-5-5-5|M21 12H9",
  globe: "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20z|M2 12h20|M12 2a15 15 0 0 1 0 20|M12 2a15 15 0 0 0 0 20",
  chat: "M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z",
  menu: "M3 6h18|M3 12h18|M3 18h18",
  close: "M18 6 6 18|M6 6l12 12",
  monitor: "M3 4h18v12H3z|M8 20h8|M12 16v4",
  pencil: "M12 20h9|M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4z",
  trash: "M3 6h18|M8 6V4h8v2|M19 6l-1 14H6L5 6",
  alert: "M12 9v4|M12 17h.01|M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z",
  check: "M20 6 9 17l-5-5",
  cursor: "M3 3l7 17 2.5-7.5L20 10z",
  paperclip:
    "M21.44 11.05l-9.19 9.19a6 6 0 0 1-8.49-8.49l9.19-9.19a4 4 0 0 1 5.66 5.66l-9.2 9.19a2 2 0 0 1-2.83-2.83l8.49-8.48",
  file: "M13 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V9z|M13 2v7h7",
  back: "M19 12H5|M12 19l-7-7 7-7",
  forward: "M5 12h14|M12 5l7 7-7 7",
  reload: "M23 4v6h-6|M20.49 15a9 9 0 1 1-2.12-9.36L23 10",
  shield: "M12 22s8-4 8-10V5l-8-3-8 3v7c0 6 8 10 8 10z",
  info: "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20z|M12 16v-4|M12 8h.01",
  settings:
    "M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z|M19.4 15a1.65 1.65 0 0 0 .33 1.82l.06.06a2 2 0 0 1 0 2.83 2 2 0 0 1-2.83 0l-.06-.06a1.65 1.65 0 0 0-1.82-.33 1.65 1.65 0 0 0-1 1.51V21a2 2 0 0 1-2 2 2 2 0 0 1-2-2v-.09A1.65 1.65 0 0 0 9 19.4a1.65 1.65 0 0 0-1.82.33l-.06.06a2 2 0 0 1-2.83 0 2 2 0 0 1 0-2.83l.06-.06a1.65 1.65 0 0 0 .33-1.82 1.65 1.65 0 0 0-1.51-1H3a2 2 0 0 1-2-2 2 2 0 0 1 2-2h.09A1.65 1.65 0 0 0 4.6 9a1.65 1.65 0 0 0-.33-1.82l-.06-.06a2 2 0 0 1 0-2.83 2 2 0 0 1 2.83 0l.06.06a1.65 1.65 0 0 0 1.82.33H9a1.65 1.65 0 0 0 1-1.51V3a2 2 0 0 1 2-2 2 2 0 0 1 2 2v.09a1.65 1.65 0 0 0 1 1.51 1.65 1.65 0 0 0 1.82-.33l.06-.06a2 2 0 0 1 2.83 0 2 2 0 0 1 0 2.83l-.06.06a1.65 1.65 0 0 0-.33 1.82V9a1.65 1.65 0 0 0 1.51 1H21a2 2 0 0 1 2 2 2 2 0 0 1-2 2h-.09a1.65 1.65 0 0 0-1.51 1z",
  key: "M21 2l-2 2m-7.61 7.61a5.5 5.5 0 1 1-7.78 7.78 5.5 5.5 0 0 1 7.78-7.78zm0 0L15.5 7.5m0 0l3 3L22 7l-3-3m-3.5 3.5L19 4",
  copy: "M9 9h13v13H9z|M5 15H4a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h9a2 2 0 0 1 2 2v1",
  share: "M4 12v7a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-7|M16 6l-4-4-4 4|M12 2v13",
  wrench: "M14.7 6.3a1 1 0 0 0 0 1.4l1.6 1.6a1 1 0 0 0 1.4 0l3.77-3.77a6 6 0 0 1-7.94 7.94l-6.91 6.91a2.12 2.12 0 0 1-3-3l6.91-6.91a6 6 0 0 1 7.94-7.94l-3.76 3.76z",
  users: "M17 21v-2a4 4 0 0 0-4-4H5a4 4 0 0 0-4 4v2|M9 3a4 4 0 1 0 0 8 4 4 0 0 0 0-8z|M23 21v-2a4 4 0 0 0-3-3.87|M16 3.13a4 4 0 0 1 0 7.75",
  eye: "M1 12s4-8 11-8 11 8 11 8-4 8-11 8-11-8-11-8z|M12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6z",
  lock: "M5 11h14v10H5z|M7 11V7a5 5 0 0 1 10 0v4",
  link: "M10 13a5 5 0 0 0 7.54.54l3-3a5 5 0 0 0-7.07-7.07l-1.72 1.71|M14 11a5 5 0 0 0-7.54-.54l-3 3a5 5 0 0 0 7.07 7.07l1.71-1.71",
  cpu: "M4 4h16v16H4z|M9 9h6v6H9z|M9 1v3|M15 1v3|M9 20v3|M15 20v3|M20 9h3|M20 14h3|M1 9h3|M1 14h3",
  maximize: "M8 3H5a2 2 0 0 0-2 2v3|M21 8V5a2 2 0 0 0-2-2h-3|M3 16v3a2 2 0 0 0 2 2h3|M16 21h3a2 2 0 0 0 2-2v-3",
  minimize: "M8 3v3a2 2 0 0 1-2 2H3|M21 8h-3a2 2 0 0 1-2-2V3|M3 16h3a2 2 0 0 1 2 2v3|M16 21v-3a2 2 0 0 1 2-2h3",
  external: "M18 13v6a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2h6|M15 3h6v6|M10 14 21 3",
} as const;
