// The colour theme: light, dark, or whatever the system prefers. The choice is remembered in
// localStorage and applied as data-theme on <html>; "system" removes the attribute so the
// prefers-color-scheme media query in the stylesheet decides.

export type ThemeChoice = "light" | "dark" | "system";

export const THEME_CHOICES: readonly ThemeChoice[] = ["light", "dark", "system"];
export const THEME_STORAGE_KEY = "hive.theme";

interface ThemeStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

function isThemeChoice(value: unknown): value is ThemeChoice {
  return typeof value === "string" && (THEME_CHOICES as readonly string[]).includes(value);
}

/** The remembered choice; "system" when none was made or storage is unavailable. */
export function loadTheme(storage: ThemeStorage | null): ThemeChoice {
  try {
    const stored = storage?.getItem(THEME_STORAGE_KEY);
    return isThemeChoice(stored) ? stored : "system";
  } catch {
    return "system";
  }
}

/** Applies the choice to the root element and remembers it. */
export function applyTheme(choice: ThemeChoice, root: HTMLElement, storage: ThemeStorage | null): void {
  if (choice === "system") root.removeAttribute("data-theme");
  else root.setAttribute("data-theme", choice);
  try {
    storage?.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Storage refused (private mode, quota): the choice holds for this page only.
  }
}

export function browserStorage(): ThemeStorage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

const LABELS: Record<ThemeChoice, string> = { light: "Light", dark: "Dark", system: "System" };

/** A small select for the dashboard header: light / dark / system. */
export function themeSwitch(root: HTMLElement = document.documentElement, storage = browserStorage()): HTMLSelectElement {
  const select = document.createElement("select");
  select.className = "theme-switch";
  select.setAttribute("aria-label", "Colour theme");
  for (const choice of THEME_CHOICES) {
    const option = document.createElement("option");
    option.value = choice;
    option.textContent = LABELS[choice];
    select.appendChild(option);
  }
  select.value = loadTheme(storage);
  select.addEventListener("change", () => {
    if (isThemeChoice(select.value)) applyTheme(select.value, root, storage);
  });
  return select;
}
