// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { THEME_STORAGE_KEY, applyTheme, loadTheme, themeSwitch } from "./theme";

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data };
}

describe("theme", () => {
  it("defaults to following the system, also when the stored value is unknown or storage throws", () => {
    expect(loadTheme(memoryStorage())).toBe("system");
    expect(loadTheme(memoryStorage({ [THEME_STORAGE_KEY]: "sepia" }))).toBe("system");
    const broken = { getItem: () => { throw new Error("denied"); }, setItem: () => undefined };
    expect(loadTheme(broken)).toBe("system");
    expect(loadTheme(null)).toBe("system");
  });

  it("sets data-theme for an explicit choice, removes it for system, and remembers the choice", () => {
    const root = document.createElement("html");
    const storage = memoryStorage();
    applyTheme("dark", root, storage);
    expect(root.getAttribute("data-theme")).toBe("dark");
    expect(loadTheme(storage)).toBe("dark");
    applyTheme("system", root, storage);
    expect(root.hasAttribute("data-theme")).toBe(false);
    expect(storage.data.get(THEME_STORAGE_KEY)).toBe("system");
  });

  it("the switch shows the remembered choice and applies a new one", () => {
    const root = document.createElement("html");
    const storage = memoryStorage({ [THEME_STORAGE_KEY]: "light" });
    const select = themeSwitch(root, storage);
    expect(select.value).toBe("light");
    select.value = "dark";
    select.dispatchEvent(new Event("change"));
    expect(root.getAttribute("data-theme")).toBe("dark");
    expect(loadTheme(storage)).toBe("dark");
  });
});
