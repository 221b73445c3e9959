import { describe, expect, it } from "vitest";
import {
  LINK_LIFETIMES,
  controlUi,
  expiryLabel,
  mayInput,
  normalizePresence,
  permissionsFor,
  presenceEntries,
  presenceWorthShowing,
  roleOf,
  samePermissions,
  shareLinkUrl,
  sharedByLabel,
  splitShares,
  type ControlView,
  type Permissions,
} from "./access";
import type { Conversation, Role, ServerEvent, Share } from "./api/types";
import { applyServerEvent } from "./reducer";
import { emptyConversationView } from "./state";

const NOW = Date.UTC(2025, 0, 1, 12, 0, 0);
const at = (seconds: number): string => new Date(NOW + seconds * 1000).toISOString();

const allowed = (p: Permissions): string[] =>
  (Object.keys(p) as (keyof Permissions)[]).filter((key) => p[key]).sort();

describe("what each role may do", () => {
  it("lets a viewer only watch", () => {
    expect(allowed(permissionsFor("viewer"))).toEqual([]);
  });

  it("lets a controller act but not change settings, upload, switch SKILLs, share or take over", () => {
    expect(allowed(permissionsFor("controller"))).toEqual(
      ["abort", "callTools", "confirm", "control", "navigate", "send", "shareTabs"].sort(),
    );
  });

  it("lets the owner do everything", () => {
    const owner = permissionsFor("owner");
    expect(Object.values(owner).every(Boolean)).toBe(true);
    expect(owner.takeOver && owner.share && owner.settings && owner.upload && owner.skills).toBe(true);
  });

  it("offers nothing while the role is unknown (loading) or not a role at all", () => {
    expect(allowed(permissionsFor(null))).toEqual([]);
    expect(allowed(permissionsFor(undefined))).toEqual([]);
    expect(allowed(permissionsFor("admin" as Role))).toEqual([]);
  });

  it("compares permission sets", () => {
    expect(samePermissions(permissionsFor("viewer"), permissionsFor(null))).toBe(true);
    expect(samePermissions(permissionsFor("viewer"), permissionsFor("controller"))).toBe(false);
  });

  it("takes the reader's role from the websocket first, then from the API", () => {
    expect(roleOf({ role: "controller", conversation: { role: "viewer" } })).toBe("controller");
    expect(roleOf({ role: null, conversation: { role: "viewer" } })).toBe("viewer");
    expect(roleOf({ role: null, conversation: {} })).toBeNull();
    expect(roleOf({ role: null, conversation: null })).toBeNull();
  });

  it("says who shared a conversation", () => {
    expect(sharedByLabel({ shared: true, owner: "ada", role: "viewer" })).toBe("shared by ada");
    expect(sharedByLabel({ shared: false, owner: "bob", role: "owner" })).toBe("");
    expect(sharedByLabel({ role: "controller", owner: "ada" })).toBe("shared by ada");
    expect(sharedByLabel({ shared: true })).toBe("shared with you");
    expect(sharedByLabel({})).toBe("");
  });
});

describe("presence", () => {
  it("keeps each person once (the earliest connection), earliest first", () => {
    const viewers = normalizePresence([
      { username: "bob", role: "viewer", since: at(20) },
      { username: "ada", role: "owner", since: at(5) },
      { username: "bob", role: "viewer", since: at(10) },
      { username: "cy", role: "controller", since: at(15) },
    ]);
    expect(viewers.map((v) => [v.username, v.since])).toEqual([
      ["ada", at(5)],
      ["bob", at(10)],
      ["cy", at(15)],
    ]);
  });

  it("drops what it cannot show and reads an unknown role as viewer", () => {
    expect(normalizePresence(null)).toEqual([]);
    expect(normalizePresence({ username: "ada" })).toEqual([]);
    expect(
      normalizePresence([null, 3, { role: "owner" }, { username: "", role: "owner" }, { username: "eve", role: "root" }]),
    ).toEqual([{ username: "eve", role: "viewer", since: "" }]);
  });

  it("marks the signed-in user", () => {
    const viewers = normalizePresence([
      { username: "ada", role: "owner", since: at(1) },
      { username: "bob", role: "viewer", since: at(2) },
    ]);
    expect(presenceEntries(viewers, "bob").map((e) => [e.username, e.me])).toEqual([
      ["ada", false],
      ["bob", true],
    ]);
    expect(presenceEntries(viewers, null).some((e) => e.me)).toBe(false);
  });

  it("is shown when someone else is there, or in a conversation shared with the reader", () => {
    const alone = normalizePresence([{ username: "ada", role: "owner", since: at(1) }]);
    expect(presenceWorthShowing(alone, "ada", "owner")).toBe(false);
    expect(presenceWorthShowing(alone, "bob", "viewer")).toBe(true);
    const two = normalizePresence([...alone, { username: "bob", role: "viewer", since: at(2) }]);
    expect(presenceWorthShowing(two, "ada", "owner")).toBe(true);
    expect(presenceWorthShowing([], "ada", "viewer")).toBe(false);
  });

  it("follows presence events as people come, change role and go", () => {
    let view = emptyConversationView(1);
    view = applyServerEvent(view, { type: "presence", viewers: [{ username: "ada", role: "owner", since: at(1) }] });
    view = applyServerEvent(view, {
      type: "presence",
      viewers: [
        { username: "ada", role: "owner", since: at(1) },
        { username: "bob", role: "viewer", since: at(2) },
      ],
    });
    expect(view.presence.map((v) => `${v.username}:${v.role}`)).toEqual(["ada:owner", "bob:viewer"]);
    view = applyServerEvent(view, {
      type: "presence",
      viewers: [
        { username: "ada", role: "owner", since: at(1) },
        { username: "bob", role: "controller", since: at(2) },
      ],
    });
    expect(view.presence.map((v) => `${v.username}:${v.role}`)).toEqual(["ada:owner", "bob:controller"]);
    view = applyServerEvent(view, { type: "presence", viewers: [{ username: "ada", role: "owner", since: at(1) }] });
    expect(view.presence.map((v) => v.username)).toEqual(["ada"]);
  });
});

describe("the browser's controls", () => {
  const free: ControlView = { holder: null, pending: null };
  const held = (holder: string): ControlView => ({ holder, pending: null });

  it("sends input only from the holder, and only while they may act", () => {
    expect(mayInput("controller", "bob", "bob")).toBe(true);
    expect(mayInput("owner", "ada", "ada")).toBe(true);
    expect(mayInput("controller", null, "bob")).toBe(false); // take control first
    expect(mayInput("controller", "ada", "bob")).toBe(false);
    expect(mayInput("viewer", "bob", "bob")).toBe(false); // demoted while holding
    expect(mayInput("owner", "ada", null)).toBe(false);
  });

  it("offers a viewer no switch, and says who holds the browser", () => {
    const ui = controlUi("viewer", held("ada"), "bob");
    expect(ui).toMatchObject({ offered: false, mine: false, checked: false, disabled: true, holder: "ada" });
    expect(ui.hint).toMatch(/ada has control/);
    expect(controlUi(null, free, "bob")).toMatchObject({ offered: false, hint: "" });
  });

  it("lets a controller take free controls, then hand them back", () => {
    expect(controlUi("controller", free, "bob")).toMatchObject({
      offered: true,
      mine: false,
      checked: false,
      disabled: false,
      label: "Take control",
    });
    expect(controlUi("controller", { holder: null, pending: "take" }, "bob")).toMatchObject({
      checked: true,
      disabled: true,
      mine: false,
    });
    const mine = controlUi("controller", held("bob"), "bob");
    expect(mine).toMatchObject({ mine: true, checked: true, disabled: false, label: "You have control", holder: "bob" });
    expect(mine.hint).toMatch(/hand back/i);
    expect(controlUi("controller", { holder: "bob", pending: "release" }, "bob")).toMatchObject({
      checked: false,
      disabled: true,
    });
  });

  it("makes a controller wait while someone else holds them, but lets the owner take over", () => {
    const waiting = controlUi("controller", held("cy"), "bob");
    expect(waiting).toMatchObject({ offered: true, disabled: true, checked: false, mine: false, holder: "cy" });
    expect(waiting.hint).toMatch(/cy has control/);
    const owner = controlUi("owner", held("bob"), "ada");
    expect(owner).toMatchObject({ offered: true, disabled: false, checked: false, label: "Take over" });
    expect(owner.hint).toMatch(/bob has control/);
  });

  it("follows hello, control.updated and a role change", () => {
    const conversation: Conversation = {
      id: 1,
      title: "Trip",
      created_at: at(0),
      updated_at: at(0),
      last_run_status: null,
      owner: "ada",
      role: "viewer",
      shared: true,
    };
    let view = applyServerEvent(emptyConversationView(1), {
      type: "hello",
      conversation,
      role: "viewer",
      control: { holder: "ada" },
      live: true,
    });
    expect(view.role).toBe("viewer");
    expect(view.control).toEqual({ holder: "ada", pending: null });
    view = { ...view, control: { ...view.control, pending: "take" } };
    view = applyServerEvent(view, { type: "control.updated", holder: null });
    expect(view.control).toEqual({ holder: null, pending: null });
    view = applyServerEvent(view, { type: "access.updated", role: "controller" });
    expect(view.role).toBe("controller");
    expect(view.conversation).toMatchObject({ role: "controller", shared: true });
    // A conversation.updated carries the reader's role too.
    view = applyServerEvent(view, { type: "conversation.updated", conversation: { ...conversation, role: "viewer" } });
    expect(view.role).toBe("viewer");
    // A hello without a role or control (an older server, before they were part of it) keeps what is known.
    const older = { type: "hello", conversation: { ...conversation, role: undefined } };
    view = applyServerEvent(view, older as unknown as ServerEvent);
    expect(view.role).toBe("viewer");
    expect(view.control.holder).toBeNull();
  });
});

describe("the share dialog", () => {
  const share = (extra: Partial<Share>): Share => ({
    id: 1,
    conversation: 7,
    kind: "user",
    user: "bob",
    role: "viewer",
    token: null,
    via_link: null,
    expires_at: null,
    expired: false,
    created_by: "ada",
    created_at: at(0),
    ...extra,
  });

  it("makes a link's address from its token", () => {
    expect(shareLinkUrl("abc_DEF-1", "https://hive.example/")).toBe("https://hive.example/share/abc_DEF-1");
    expect(shareLinkUrl("abc", "http://127.0.0.1:8000")).toBe("http://127.0.0.1:8000/share/abc");
  });

  it("lists people and links apart", () => {
    const shares = [
      share({ id: 1 }),
      share({ id: 2, kind: "link", user: null, token: "tok", expires_at: at(3600) }),
      share({ id: 3, user: "cy", via_link: 2, expires_at: at(3600) }),
    ];
    const { people, links } = splitShares(shares);
    expect(people.map((s) => s.id)).toEqual([1, 3]);
    expect(links.map((s) => s.id)).toEqual([2]);
  });

  it("says when a share expires", () => {
    expect(expiryLabel({ expires_at: null, expired: false }, NOW)).toBe("");
    expect(expiryLabel({ expires_at: at(30 * 60), expired: false }, NOW)).toBe("expires in 30 min");
    expect(expiryLabel({ expires_at: at(3 * 3600), expired: false }, NOW)).toBe("expires in 3 h");
    expect(expiryLabel({ expires_at: at(7 * 86400), expired: false }, NOW)).toBe("expires in 7 days");
    expect(expiryLabel({ expires_at: at(-10), expired: false }, NOW)).toBe("expired");
    expect(expiryLabel({ expires_at: at(3600), expired: true }, NOW)).toBe("expired");
  });

  it("offers only lifetimes the server accepts (1 minute to 30 days)", () => {
    for (const { minutes } of LINK_LIFETIMES) {
      expect(minutes).toBeGreaterThanOrEqual(1);
      expect(minutes).toBeLessThanOrEqual(43_200);
    }
  });
});
