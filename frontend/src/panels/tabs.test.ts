import { describe, expect, it } from "vitest";
import { normalizeAddress, shownAddress } from "./tabs/address";

describe("normalizeAddress (the address bar)", () => {
  it("puts https:// in front of an address typed without a scheme", () => {
    expect(normalizeAddress("example.com")).toEqual({ url: "https://example.com" });
    expect(normalizeAddress("  example.com/a?q=1  ")).toEqual({ url: "https://example.com/a?q=1" });
    expect(normalizeAddress("www.example.com:8443/path#top")).toEqual({ url: "https://www.example.com:8443/path#top" });
    expect(normalizeAddress("//cdn.example.com/x")).toEqual({ url: "https://cdn.example.com/x" });
  });

  it("keeps an http or https address as typed", () => {
    expect(normalizeAddress("http://localhost:8000/demo/")).toEqual({ url: "http://localhost:8000/demo/" });
    expect(normalizeAddress("http://example.com")).toEqual({ url: "http://example.com" });
    expect(normalizeAddress("HTTPS://Example.com/A")).toEqual({ url: "HTTPS://Example.com/A" });
  });

  it("uses http:// for this machine, which rarely speaks TLS", () => {
    expect(normalizeAddress("localhost:8000/demo")).toEqual({ url: "http://localhost:8000/demo" });
    expect(normalizeAddress("localhost")).toEqual({ url: "http://localhost" });
    expect(normalizeAddress("127.0.0.1:5173")).toEqual({ url: "http://127.0.0.1:5173" });
    expect(normalizeAddress("[::1]:8000/")).toEqual({ url: "http://[::1]:8000/" });
    expect(normalizeAddress("app.localhost/x")).toEqual({ url: "http://app.localhost/x" });
    // Only the host counts: "localhost" elsewhere in the address changes nothing.
    expect(normalizeAddress("example.com/localhost")).toEqual({ url: "https://example.com/localhost" });
    expect(normalizeAddress("localhost.example.com")).toEqual({ url: "https://localhost.example.com" });
  });

  it("refuses what is not a web address, saying why", () => {
    expect(normalizeAddress("   ").error).toMatch(/Type an address/);
    expect(normalizeAddress("cheap flights to rome").error).toMatch(/not a web address/);
    expect(normalizeAddress("javascript:alert(1)").error).toMatch(/only web pages/);
    expect(normalizeAddress("mailto:someone@example.com").error).toMatch(/^mailto:/);
    expect(normalizeAddress("about:blank").error).toMatch(/^about:/);
    expect(normalizeAddress("file:///etc/passwd").error).toMatch(/^file:/);
    expect(normalizeAddress("ftp://example.com").error).toMatch(/^ftp:/);
    expect(normalizeAddress("https://").error).toMatch(/not a complete/);
  });
});

describe("shownAddress", () => {
  it("shows a blank tab as empty, so the placeholder shows", () => {
    expect(shownAddress("about:blank")).toBe("");
    expect(shownAddress(undefined)).toBe("");
    expect(shownAddress("https://example.com/")).toBe("https://example.com/");
  });
});
