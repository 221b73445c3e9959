// @vitest-environment jsdom
import { describe, expect, it } from "vitest";

import type { ApiClient } from "../api/client";
import type { BrowserProfile, ConversationProfile, ProfileMode } from "../api/types";
import { ApiError } from "../api/errors";
import { originLine, pickerLabel, profileSummary, startableProfiles } from "./browserprofiles/format";
import { ConversationProfilePicker, ProfileFields } from "./browserprofiles/picker";

const NOW = Date.parse("2026-11-26T12:00:00Z");

function profile(overrides: Partial<BrowserProfile>): BrowserProfile {
  return {
    id: 1,
    name: "members",
    owner: "ada",
    access: "owner",
    origins: [{ origin: "http://127.0.0.1:8000", cookies: 2, local_storage: 1, indexed_db: 0 }],
    size: 300,
    saved_at: null,
    last_used_at: "2026-11-26T11:00:00Z",
    in_use: null,
    created_at: "",
    updated_at: "",
    ...overrides,
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("what a profile is shown as", () => {
  it("names each origin's host and what it keeps there", () => {
    expect(originLine({ origin: "https://shop.example", cookies: 1, local_storage: 0, indexed_db: 2 })).toBe(
      "shop.example (1 cookie, 2 databases)",
    );
  });

  it("says its sites, its last use, whose it is and who writes it now", () => {
    expect(profileSummary(profile({}), NOW)).toBe("1 site · used 1 h ago");
    const shared = profile({ access: "controller", last_used_at: null, in_use: { username: "ada", conversation: 7 } });
    expect(profileSummary(shared, NOW)).toBe("1 site · never used · ada's · in use by ada in conversation 7");
  });

  it("offers one's own profiles first and never one shared only for viewing", () => {
    const offered = startableProfiles([
      profile({ id: 1, name: "zoo" }),
      profile({ id: 2, name: "bank", access: "controller", owner: "grace" }),
      profile({ id: 3, name: "art", access: "viewer", owner: "grace" }),
      profile({ id: 4, name: "apple" }),
    ]);
    expect(offered.map(pickerLabel)).toEqual(["apple", "zoo", "bank (grace)"]);
  });
});

function fakeApi(profiles: BrowserProfile[], chosen: ConversationProfile, refuse?: string) {
  const calls: string[] = [];
  const api = {
    listBrowserProfiles: () => Promise.resolve(profiles),
    getConversationProfile: () => Promise.resolve(chosen),
    setConversationProfile: (conversationId: number, id: number, mode: ProfileMode) => {
      calls.push(`put ${conversationId} ${id} ${mode}`);
      if (refuse) return Promise.reject(new ApiError(409, { detail: refuse }, "Conflict"));
      return Promise.resolve({ profile: { id, name: "members", owner: "ada" }, mode, chosen_by: "ada", writing: false });
    },
    clearConversationProfile: (conversationId: number) => {
      calls.push(`delete ${conversationId}`);
      return Promise.resolve();
    },
    captureConversationProfile: (conversationId: number, name: string) => {
      calls.push(`capture ${conversationId} ${name}`);
      return Promise.resolve(profile({ id: 9, name }));
    },
  };
  return { api: api as unknown as ApiClient, calls };
}

const NOTHING: ConversationProfile = { profile: null, mode: null, chosen_by: null, writing: false };

describe("the workflow forms' profile fields", () => {
  it("start a fresh browser until a profile is chosen, then send it with its mode", async () => {
    const { api } = fakeApi([profile({ id: 5 })], NOTHING);
    const fields = new ProfileFields(api, "run-");
    await settle();
    expect(fields.value()).toEqual({});
    const select = fields.el.querySelector<HTMLSelectElement>("[data-testid=run-profile]");
    const mode = fields.el.querySelector<HTMLSelectElement>("[data-testid=run-profile-mode]");
    if (!select || !mode) throw new Error("no picker");
    select.value = "5";
    select.dispatchEvent(new Event("change"));
    mode.value = "read-only";
    expect(fields.value()).toEqual({ profile: 5, profile_mode: "read-only" });
  });
});

describe("the conversation bar's profile picker", () => {
  it("shows the conversation's choice, and saves a new one or none", async () => {
    const chosen: ConversationProfile = { profile: { id: 5, name: "members", owner: "ada" }, mode: "read-only", chosen_by: "ada", writing: false };
    const { api, calls } = fakeApi([profile({ id: 5 }), profile({ id: 6, name: "bank" })], chosen);
    const picker = new ConversationProfilePicker(api);
    picker.show(42);
    await settle();
    const select = picker.el.querySelector<HTMLSelectElement>("[data-testid=conversation-profile]");
    if (!select) throw new Error("no picker");
    expect(select.value).toBe("5");
    select.value = "6";
    select.dispatchEvent(new Event("change"));
    await settle();
    select.value = "";
    select.dispatchEvent(new Event("change"));
    await settle();
    expect(calls).toEqual(["put 42 6 read-only", "delete 42"]);
  });

  it("says why a choice was refused and shows what is still in force", async () => {
    const { api } = fakeApi([profile({ id: 5 })], NOTHING, "The profile “members” is in use by ada in conversation 7.");
    const picker = new ConversationProfilePicker(api);
    picker.show(42);
    await settle();
    const select = picker.el.querySelector<HTMLSelectElement>("[data-testid=conversation-profile]");
    if (!select) throw new Error("no picker");
    select.value = "5";
    select.dispatchEvent(new Event("change"));
    await settle();
    expect(select.value).toBe("");
    expect(picker.el.querySelector("[role=alert]")?.textContent).toContain("in use by ada in conversation 7");
  });

  it("is hidden where there is no conversation yet", () => {
    const picker = new ConversationProfilePicker(fakeApi([], NOTHING).api);
    picker.show(null);
    expect(picker.el.hidden).toBe(true);
  });
});

describe("saving the conversation's browser as a profile", () => {
  it("asks for a name, saves it, and offers the new profile at once", async () => {
    const { api, calls } = fakeApi([], NOTHING);
    const picker = new ConversationProfilePicker(api);
    document.body.append(picker.el);
    picker.show(42);
    await settle();
    picker.el.querySelector<HTMLButtonElement>("[data-testid=conversation-profile-save]")?.click();
    const input = document.querySelector<HTMLInputElement>("[data-testid=conversation-profile-save-dialog-input]");
    if (!input) throw new Error("no dialog");
    input.value = "github";
    document.querySelector<HTMLButtonElement>("[data-testid=conversation-profile-save-dialog-submit]")?.click();
    await settle();
    await settle();
    expect(calls).toEqual(["capture 42 github"]);
    const options = [...picker.el.querySelectorAll("[data-testid=conversation-profile] option")].map((o) => o.textContent);
    expect(options).toEqual(["No profile", "github"]);
    picker.el.remove();
  });
});
