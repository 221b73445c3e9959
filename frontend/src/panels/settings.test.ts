// @vitest-environment jsdom
import { describe, expect, it } from "vitest";

import type { ApiClient } from "../api/client";
import { initialAppState, Store, type AppState } from "../state";
import { SettingsPanel } from "./settings";

function panel(): { settings: SettingsPanel; store: Store<AppState> } {
  const store = new Store<AppState>(initialAppState);
  const settings = new SettingsPanel({
    api: {} as ApiClient,
    store,
    refreshModels: () => Promise.resolve(),
    onToggleSidebar: () => undefined,
    backHref: () => "/",
    openConversation: () => undefined,
  });
  document.body.replaceChildren(settings.el);
  return { settings, store };
}

const loadedWithoutModels: AppState = {
  ...initialAppState,
  models: { profiles: [], providers: [], serverDefault: null, loaded: true, error: null },
};

describe("the model form", () => {
  it("opens by itself when there is no model, leaving the cursor where the person is typing", () => {
    const { settings } = panel();
    const profileName = settings.el.querySelector<HTMLInputElement>("[data-testid=browser-profile-name]")!;
    profileName.focus();

    settings.update(loadedWithoutModels);

    const modelName = settings.el.querySelector<HTMLInputElement>(".profile-form-slot input[name=name]")!;
    expect(modelName.closest<HTMLElement>(".profile-form-slot")!.hidden).toBe(false);
    expect(document.activeElement).toBe(profileName);
  });

  it("takes the cursor to its name when the person asks for it", () => {
    const { settings } = panel();
    settings.update(loadedWithoutModels);
    settings.el.querySelector<HTMLButtonElement>("[data-testid=profile-add]")!.click();

    expect(document.activeElement).toBe(settings.el.querySelector(".profile-form-slot input[name=name]"));
  });
});
