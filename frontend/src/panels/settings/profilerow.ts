// One model profile in the list: what it is, and Edit, Test connection and Delete.

import { errorText } from "../../errors";
import type { ConnectionCheck, ModelProfile, ModelProvider } from "../../api/types";
import { h, icon, ICONS, present, replaceChildren, setAttr, setText, type Component } from "../../dom";
import { providerLabel } from "../../models";

export interface ProfileRow {
  profile: ModelProfile;
  providers: ModelProvider[];
  profiles: ModelProfile[];
  editing: boolean;
}

export interface ProfileRowActions {
  edit(profile: ModelProfile): void;
  remove(profile: ModelProfile): Promise<void>;
  test(profile: ModelProfile): Promise<ConnectionCheck>;
}

export function createProfileRow(initial: ProfileRow, actions: ProfileRowActions): Component<ProfileRow> {
  let current = initial;
  const name = h("span", { class: "profile-name" });
  const provider = h("span", { class: "chip" });
  const detail = h("div", { class: "profile-detail" });
  const chips = h("div", { class: "profile-chips" });
  // In the item once a test was started.
  const result = h("div", { class: "profile-test-result", "data-testid": "profile-test-result", role: "status" });
  const test = h(
    "button",
    { class: "btn btn-secondary btn-sm", type: "button", "data-testid": "profile-test" },
    "Test connection",
  );
  const edit = h("button", { class: "btn btn-ghost btn-sm", type: "button", "data-testid": "profile-edit" }, icon(ICONS.pencil, 14), "Edit");
  const del = h(
    "button",
    { class: "btn btn-ghost btn-sm danger", type: "button", "data-testid": "profile-delete" },
    icon(ICONS.trash, 14),
    "Delete",
  );
  const confirmText = h("span", null);
  const confirmDelete = h(
    "button",
    { class: "btn btn-danger btn-sm", type: "button", "data-testid": "profile-delete-confirm" },
    "Delete",
  );
  const cancelDelete = h("button", { class: "btn btn-ghost btn-sm", type: "button" }, "Cancel");
  const confirmRow = h("div", { class: "profile-confirm", role: "alert", hidden: true }, confirmText, cancelDelete, confirmDelete);
  const deleteError = h("div", { class: "field-error", hidden: true });
  const el = h(
    "div",
    { class: "profile-item card", "data-testid": "profile-item" },
    h(
      "div",
      { class: "profile-top" },
      h("div", { class: "profile-main" }, h("div", { class: "profile-title" }, name, provider), detail, chips),
      h("div", { class: "profile-actions" }, test, edit, del),
    ),
    confirmRow,
    deleteError,
  );

  test.addEventListener("click", () => void (async () => {
    test.disabled = true;
    setText(test, "Testing…");
    present(el, result, true, confirmRow);
    result.className = "profile-test-result testing";
    setAttr(result, "data-ok", null);
    replaceChildren(result, h("span", { class: "spinner" }), h("span", null, "Sending the model a tiny request…"));
    try {
      const check = await actions.test(current.profile);
      result.className = `profile-test-result ${check.ok ? "ok" : "fail"}`;
      setAttr(result, "data-ok", String(check.ok));
      replaceChildren(
        result,
        icon(check.ok ? ICONS.check : ICONS.alert, 14),
        h("span", null, check.detail || (check.ok ? "Connected." : "The connection failed.")),
        h("span", { class: "latency" }, `${check.latency_ms.toLocaleString("en-US")} ms`),
      );
    } catch (err) {
      result.className = "profile-test-result fail";
      setAttr(result, "data-ok", "false");
      replaceChildren(result, icon(ICONS.alert, 14), h("span", null, `Could not test: ${errorText(err)}`));
    } finally {
      test.disabled = false;
      setText(test, "Test connection");
    }
  })());
  edit.addEventListener("click", () => actions.edit(current.profile));
  del.addEventListener("click", () => {
    setText(confirmText, `Delete “${current.profile.name}”? Conversations using it go back to the server default.`);
    confirmRow.hidden = false;
    deleteError.hidden = true;
    confirmDelete.focus();
  });
  cancelDelete.addEventListener("click", () => (confirmRow.hidden = true));
  confirmDelete.addEventListener("click", () => void (async () => {
    confirmDelete.disabled = true;
    try {
      await actions.remove(current.profile);
    } catch (err) {
      deleteError.textContent = errorText(err);
      deleteError.hidden = false;
      confirmDelete.disabled = false;
    }
  })());

  const update = (row: ProfileRow): void => {
    current = row;
    const p = row.profile;
    setAttr(el, "data-profile-id", String(p.id));
    el.classList.toggle("editing", row.editing);
    setText(name, p.name);
    setText(provider, providerLabel(row.providers, p.provider));
    setText(detail, `${p.model} · ${p.base_url}`);
    setAttr(detail, "title", `${p.model} at ${p.base_url}`);
    const fallback = p.fallback !== null ? row.profiles.find((x) => x.id === p.fallback) : undefined;
    replaceChildren(
      chips,
      h(
        "span",
        { class: `chip ${p.has_api_key ? "chip-ok" : "chip-muted"}`, "data-testid": "profile-key-state" },
        icon(ICONS.key, 12),
        p.has_api_key ? "Key saved" : "No key",
      ),
      p.supports_tools ? h("span", { class: "chip" }, "Tools") : null,
      p.supports_vision ? h("span", { class: "chip" }, "Vision") : null,
      p.parallel_tool_calls ? h("span", { class: "chip" }, "Parallel calls") : null,
      fallback ? h("span", { class: "chip chip-muted", "data-testid": "profile-fallback" }, `Falls back to ${fallback.name}`) : null,
    );
  };
  update(initial);
  return { el, update };
}
