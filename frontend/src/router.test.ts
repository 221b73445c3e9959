import { describe, expect, it } from "vitest";
import { parseRoute, routePath, safeNext } from "./router";

describe("routes", () => {
  it("parses the dashboard's paths", () => {
    expect(parseRoute("/")).toEqual({ name: "home" });
    expect(parseRoute("/c/42")).toEqual({ name: "conversation", id: 42 });
    expect(parseRoute("/c/42/")).toEqual({ name: "conversation", id: 42 });
    // The live browser alone, in a window of its own.
    expect(parseRoute("/c/42/live")).toEqual({ name: "conversation", id: 42, popout: true });
    expect(routePath({ name: "conversation", id: 42, popout: true })).toBe("/c/42/live");
    expect(parseRoute("/login", "?next=%2Fc%2F7")).toEqual({ name: "login", next: "/c/7" });
    expect(parseRoute("/signup")).toEqual({ name: "signup", next: null });
    expect(parseRoute("/c/abc")).toEqual({ name: "not-found", path: "/c/abc" });
  });

  it("round-trips through routePath", () => {
    for (const path of ["/", "/c/3", "/login", "/signup?next=%2Fc%2F3"]) {
      const [pathname, search = ""] = path.split("?");
      expect(routePath(parseRoute(pathname!, search ? `?${search}` : ""))).toBe(path);
    }
  });

  it("follows only dashboard paths after signing in", () => {
    expect(safeNext("/c/3")).toBe("/c/3");
    expect(safeNext("//evil.example/c/3")).toBeNull();
    expect(safeNext("https://evil.example/")).toBeNull();
    expect(safeNext("/admin/")).toBeNull();
    expect(safeNext("/login")).toBeNull();
  });
});

describe("settings route", () => {
  it("parses /settings and follows it after signing in", () => {
    expect(parseRoute("/settings")).toEqual({ name: "settings" });
    expect(parseRoute("/settings/")).toEqual({ name: "settings" });
    expect(routePath({ name: "settings" })).toBe("/settings");
    expect(safeNext("/settings")).toBe("/settings");
  });
});

describe("share link route", () => {
  it("parses /share/<token>, round-trips it and follows it after signing in", () => {
    expect(parseRoute("/share/abc_DEF-123")).toEqual({ name: "share", token: "abc_DEF-123" });
    expect(parseRoute("/share/abc/")).toEqual({ name: "share", token: "abc" });
    expect(routePath({ name: "share", token: "abc" })).toBe("/share/abc");
    expect(safeNext("/share/abc_DEF-123")).toBe("/share/abc_DEF-123");
    // Only a token: nothing else under /share/ is a page.
    expect(parseRoute("/share/")).toEqual({ name: "not-found", path: "/share" });
    expect(parseRoute("/share/a/b").name).toBe("not-found");
    expect(safeNext("/share/a%2F..%2Fadmin")).toBeNull();
  });
});
