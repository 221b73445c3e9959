// One stored note or persona in its settings list: title, when it changed, the start of its text; Edit and
// Delete (a refused delete says why under the row).

import type { Id } from "../../api/types";
import { h, icon, ICONS, setAttr, setText, type Component } from "../../dom";
import { errorText } from "../../errors";
import { relativeTime, truncate } from "../../format";

export interface StoredRecord {
  id: Id;
  updated_at: string;
}

export interface RecordRow<T> {
  item: T;
  /** It is in the form above the list. */
  editing: boolean;
}

/** How a row names its record: the testid prefix (note-item, note-edit …), a title and the text shown under it. */
export interface RecordRowKind<T> {
  prefix: string;
  title(item: T): string;
  detail(item: T): string;
}

export interface RecordRowActions<T> {
  edit: (item: T) => void;
  /** Deletes the record; rejects with the API's error. */
  remove: (item: T) => Promise<void>;
}

export function createRecordRow<T extends StoredRecord>(
  initial: RecordRow<T>,
  kind: RecordRowKind<T>,
  actions: RecordRowActions<T>,
): Component<RecordRow<T>> {
  const p = kind.prefix;
  let current = initial;
  const title = h("span", { class: "record-title" });
  const time = h("span", { class: "record-time" });
  const detail = h("div", { class: "record-detail" });
  const error = h("div", { class: "field-error", hidden: true });
  const edit = h(
    "button",
    { class: "btn btn-ghost btn-sm", type: "button", "data-testid": `${p}-edit`, onclick: () => actions.edit(current.item) },
    icon(ICONS.pencil, 14),
    "Edit",
  );
  const del = h(
    "button",
    { class: "btn btn-ghost btn-sm danger", type: "button", "data-testid": `${p}-delete` },
    icon(ICONS.trash, 14),
    "Delete",
  );
  del.addEventListener("click", () => void (async () => {
    del.disabled = true;
    error.hidden = true;
    try {
      await actions.remove(current.item);
    } catch (err) {
      error.textContent = errorText(err);
      error.hidden = false;
      del.disabled = false;
    }
  })());
  const el = h(
    "div",
    { class: "record-item card", "data-testid": `${p}-item` },
    h(
      "div",
      { class: "profile-top" },
      h("div", { class: "profile-main" }, h("div", { class: "profile-title" }, title, time), detail),
      h("div", { class: "profile-actions" }, edit, del),
    ),
    error,
  );
  const update = (row: RecordRow<T>): void => {
    current = row;
    setAttr(el, "data-id", String(row.item.id));
    el.classList.toggle("editing", row.editing);
    setText(title, kind.title(row.item));
    setText(time, relativeTime(row.item.updated_at));
    setAttr(time, "title", `Changed ${new Date(row.item.updated_at).toLocaleString()}`);
    const text = kind.detail(row.item);
    setText(detail, truncate(text.replace(/\s+/g, " "), 220).text);
    setAttr(detail, "title", text || null);
    detail.hidden = !text;
  };
  update(initial);
  return { el, update };
}
